package main

import (
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/trace"
	"github.com/masrl/masrl/trace/otlp"
)

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

// TestSeverityZeroValues: the three Severity types agree on their zero
// value, Error, so that a finding whose severity was never set fails.
func TestSeverityZeroValues(t *testing.T) {
	var c corpus.Severity
	var tr trace.Severity
	var o otlp.Severity
	if c != corpus.Error || tr != trace.Error || o != otlp.Error {
		t.Errorf("zero values: corpus %v, trace %v, otlp %v; want error for all", c, tr, o)
	}
	if corpus.Warning.String() != "warning" || trace.Warning.String() != "warning" || otlp.Warning.String() != "warning" {
		t.Error("a Warning does not print as warning")
	}
}
