package diag

import "testing"

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		noun string
		want string
	}{{1, "error", "1 error"}, {0, "warning", "0 warnings"}, {2, "entry", "2 entries"}, {1, "entry", "1 entry"}} {
		if got := Count(tc.n, tc.noun); got != tc.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
}

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
