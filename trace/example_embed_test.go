package trace

import (
	"bytes"
	"slices"
	"testing"
)

// TestExampleJSON checks that the embedded example is valid under strict
// checking and uses every event and edge type the schema defines: the
// traces page counts the types in it and offers it as a model trace.
func TestExampleJSON(t *testing.T) {
	b := ExampleJSON()
	res, err := Validate(bytes.NewReader(b), Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Valid() || res.Warnings > 0 {
		t.Fatalf("embedded example is not valid: %v", res.Findings)
	}
	for _, c := range []struct {
		kind   string
		counts []Count
		want   []string
	}{
		{"event", res.Report.EventTypes, eventTypeList()},
		{"edge", res.Report.EdgeTypes, edgeTypeList()},
	} {
		var got []string
		for _, n := range c.counts {
			if n.Count > 0 {
				got = append(got, n.Name)
			}
		}
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("the example uses no %s of type %q", c.kind, w)
			}
		}
	}
	// The caller gets its own copy.
	b[0] = 'x'
	if ExampleJSON()[0] == 'x' {
		t.Error("ExampleJSON returned the embedded bytes, not a copy")
	}
}
