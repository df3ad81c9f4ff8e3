package diag

import "testing"

// TestAnnotation: the runner's special characters are escaped, in the
// message and, with ':' and ',', in the properties; unknown positions and
// an empty title are left out.
func TestAnnotation(t *testing.T) {
	for _, tc := range []struct {
		a    Annotation
		want string
	}{
		{Annotation{Severity: Error, File: "a,b:c.csv", Line: 3, Col: 7, Title: "t:1,2", Message: "50% of\r\nit: a, b"},
			"::error file=a%2Cb%3Ac.csv,line=3,col=7,title=t%3A1%2C2::50%25 of%0D%0Ait: a, b"},
		{Annotation{Severity: Warning, File: "f", Message: "m"}, "::warning file=f::m"},
	} {
		if got := tc.a.String(); got != tc.want {
			t.Errorf("%+v:\n got %s\nwant %s", tc.a, got, tc.want)
		}
	}
}
