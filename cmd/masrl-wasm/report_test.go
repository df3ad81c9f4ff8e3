package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestValidateJSON(t *testing.T) {
	example, err := os.ReadFile(filepath.Join("..", "..", "trace", "testdata", "example.json"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, text string
		strict     bool
		valid      bool
		findings   int
		stats      bool
	}{
		{"example", string(example), false, true, 0, true},
		{"malformed", `{"trace_id": "t",`, false, false, 1, true},
		{"not json", "\xff", false, false, 1, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var rep browserReport
			if err := json.Unmarshal([]byte(validateJSON(c.text, c.strict)), &rep); err != nil {
				t.Fatal(err)
			}
			if rep.Valid != c.valid || len(rep.Findings) < c.findings || (rep.Stats != nil) != c.stats || rep.Error != "" {
				t.Errorf("got %+v", rep)
			}
			if c.valid && rep.Stats.Events != 20 {
				t.Errorf("stats events %d, want 20", rep.Stats.Events)
			}
		})
	}
}
