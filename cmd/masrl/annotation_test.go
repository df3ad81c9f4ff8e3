package main

import "testing"

func TestAnnotation(t *testing.T) {
	for _, tc := range []struct {
		a    annotation
		want string
	}{
		{annotation{level: "error", file: "a,b:c.csv", line: 3, col: 7, title: "t:1,2", message: "50% of\r\nit: a, b"},
			"::error file=a%2Cb%3Ac.csv,line=3,col=7,title=t%3A1%2C2::50%25 of%0D%0Ait: a, b"},
		{annotation{level: "warning", file: "f", message: "m"}, "::warning file=f::m"},
	} {
		if got := tc.a.String(); got != tc.want {
			t.Errorf("%+v:\n got %s\nwant %s", tc.a, got, tc.want)
		}
	}
}
