package diag

import (
	"encoding/json"
	"testing"
)

func TestSeverity(t *testing.T) {
	var zero Severity
	if zero != Error || zero.String() != "error" || Warning.String() != "warning" {
		t.Fatalf("zero %v, Warning %v: the zero value must be Error", zero, Warning)
	}
	for _, s := range []Severity{Error, Warning} {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back Severity
		if err := json.Unmarshal(b, &back); err != nil || back != s {
			t.Errorf("%s: round trip gave %v, %v", b, back, err)
		}
	}
	var s Severity
	if err := s.UnmarshalText([]byte("fatal")); err == nil {
		t.Error(`"fatal" read as a severity`)
	}
}
