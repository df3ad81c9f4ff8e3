package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/masrl/masrl/internal/corpustest"

	"github.com/masrl/masrl/internal/synth"

	"github.com/masrl/masrl/internal/diag"

	"github.com/masrl/masrl/internal/golden"
)

// referenceDir is the upstream schema and example trace: the reference
// directory of the real corpus (corpustest). The test fails when it is
// missing.
func referenceDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(corpustest.Dir(t), "reference")
	if _, err := os.Stat(filepath.Join(dir, "trace_schema.json")); err != nil {
		t.Fatalf("reference schema missing from the corpus: %v", err)
	}
	return dir
}

func check(t testing.TB, data []byte, opts Options) *Result {
	t.Helper()
	res, err := Validate(bytes.NewReader(data), opts)
	if err != nil {
		t.Fatalf("Validate: %v", err)
	}
	return res
}

func synthTrace(t testing.TB, events int, seed uint64) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := synth.WriteTrace(&b, synth.TraceOptions{Events: events, Seed: seed}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestValidTraces checks the example traces: the upstream one from the
// real corpus and masrl's own.
func TestValidTraces(t *testing.T) {
	ref := referenceDir(t)
	files := map[string]string{
		"reference example": filepath.Join(ref, "example_trace.json"),
		"masrl example":     filepath.Join("testdata", "example.json"),
	}
	for name, path := range files {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			res := check(t, data, Options{Strict: true})
			for _, f := range res.Findings {
				t.Errorf("unexpected finding %s", f)
			}
			if lib, err := LibraryValidate(bytes.NewReader(data)); err != nil || len(lib) > 0 {
				t.Errorf("library: %v %v", lib, err)
			}
		})
	}
}

// TestValidSynthTraces checks generated traces of several sizes; they do
// not need the real corpus.
func TestValidSynthTraces(t *testing.T) {
	for _, n := range []int{1, 2, 50, 3000} {
		t.Run(fmt.Sprintf("synth %d", n), func(t *testing.T) {
			res := check(t, synthTrace(t, n, uint64(n)), Options{Strict: true})
			for _, f := range res.Findings {
				t.Errorf("unexpected finding %s", f)
			}
			if res.Report.Events != n {
				t.Errorf("events = %d, want %d", res.Report.Events, n)
			}
			if n >= 3000 && res.Report.TeamSize != "dynamic" {
				t.Errorf("team size %q, want dynamic: the generator spawns in waves", res.Report.TeamSize)
			}
		})
	}
}

// TestInvalidFixtures checks that every rule rejects its fixture at the right
// place, and compares the full report with a golden file.
func TestInvalidFixtures(t *testing.T) {
	cases := []struct {
		file     string
		rule     string
		pointer  string
		line     int
		severity diag.Severity
	}{
		{"not-object", RuleSchema, "", 1, Error},
		{"missing-required", RuleSchema, "", 1, Error},
		{"extra-property", RuleSchema, "", 1, Error},
		{"empty-trace-id", RuleSchema, "/trace_id", 1, Error},
		{"bad-topology", RuleSchema, "/topology", 1, Error},
		{"events-empty", RuleSchema, "/events", 1, Error},
		{"events-not-array", RuleSchema, "/events", 1, Error},
		{"event-not-object", RuleSchema, "/events/1", 1, Error},
		{"event-missing-agent", RuleSchema, "/events/1", 1, Error},
		{"event-bad-type", RuleSchema, "/events/1/type", 1, Error},
		{"event-negative-t", RuleSchema, "/events/0/t", 1, Error},
		{"event-t-string", RuleSchema, "/events/0/t", 1, Error},
		{"event-trusted-string", RuleSchema, "/events/0/trusted", 1, Error},
		{"event-empty-id", RuleSchema, "/events/0/id", 1, Error},
		{"edge-extra-property", RuleSchema, "/edges/0", 1, Error},
		{"edge-bad-type", RuleSchema, "/edges/0/type", 1, Error},
		{"edge-missing-dst", RuleSchema, "/edges/0", 1, Error},
		{"rewards-not-number", RuleSchema, "/rewards/team", 1, Error},
		{"costs-missing-tokens", RuleSchema, "/costs", 1, Error},
		{"costs-negative", RuleSchema, "/costs/tokens", 1, Error},
		{"metrics-not-number", RuleSchema, "/metrics/task_success", 1, Error},
		{"duplicate-event-id", RuleUniqueID, "/events/1/id", 1, Error},
		{"edge-dangling", RuleEdgeRef, "/edges/0/dst", 1, Error},
		{"edge-dangling-before-events", RuleEdgeRef, "/edges/0/src", 1, Error},
		{"edge-backwards", RuleEdgeTime, "/edges/0", 1, Warning},
		{"cycle", RuleCycle, "/edges/1", 1, Warning},
		{"duplicate-key", RuleDuplicate, "/events/0/type", 1, Error},
		{"number-too-large", RuleRange, "/events/0/t", 1, Error},
		{"malformed", RuleSyntax, "/events/1", 1, Error},
		{"truncated", RuleSyntax, "/events", 2, Error},
		{"invalid-utf8", RuleUTF8, "/trace_id", 1, Error},
		{"deep-nesting", RuleSyntax, "/events/0/x" + strings.Repeat("/0", MaxDepth-3), 1, Error},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		seen[c.file+".json"] = true
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join("testdata", "invalid", c.file+".json")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			res := check(t, data, Options{})
			found := false
			for _, f := range res.Findings {
				if f.Rule == c.rule && f.Pointer == c.pointer && f.Line == c.line && f.Severity == c.severity {
					found = true
				}
			}
			if !found {
				t.Errorf("no %s %s at %q line %d; got:\n%s", c.severity, c.rule, c.pointer, c.line, render(res))
			}
			if c.severity == Error && res.Valid() {
				t.Error("trace accepted")
			}
			if c.severity == Warning {
				if !res.Valid() {
					t.Errorf("a warning-only trace is invalid:\n%s", render(res))
				}
				if strict := check(t, data, Options{Strict: true}); strict.Valid() {
					t.Error("--strict accepted a trace with a warning")
				}
			}
			golden.Check(t, filepath.Join("testdata", "invalid", c.file+".golden"), []byte(render(res)))
		})
	}
	all, _ := filepath.Glob(filepath.Join("testdata", "invalid", "*.json"))
	for _, p := range all {
		if !seen[filepath.Base(p)] {
			t.Errorf("fixture %s has no test case", p)
		}
	}
}

func render(res *Result) string {
	var b strings.Builder
	for _, f := range res.Findings {
		fmt.Fprintf(&b, "%s [%s]\n", f, f.Rule)
	}
	return b.String()
}

func TestPositions(t *testing.T) {
	data := []byte("{\n  \"trace_id\": \"t\",\n  \"task_id\": \"k\",\n  \"events\": [\n    {\"id\": \"e1\", \"t\": 0, \"type\": \"spwan\", \"agent\": \"o\"}\n  ],\n  \"edges\": [],\n  \"rewards\": {},\n  \"costs\": {\"tokens\": 1, \"wall_clock_s\": 1}\n}\n")
	res := check(t, data, Options{})
	if len(res.Findings) != 1 {
		t.Fatalf("got %d findings, want 1:\n%s", len(res.Findings), render(res))
	}
	f := res.Findings[0]
	if f.Line != 5 || f.Col != 34 || f.Pointer != "/events/0/type" {
		t.Errorf("got %d:%d %s, want 5:34 /events/0/type", f.Line, f.Col, f.Pointer)
	}
	if !strings.Contains(f.Message, `did you mean "spawn"?`) {
		t.Errorf("message %q has no suggestion", f.Message)
	}
}

func TestPointerEscaping(t *testing.T) {
	data := []byte(`{"trace_id":"t","task_id":"k","events":[{"id":"e","t":0,"type":"spawn","agent":"a"}],"edges":[],"rewards":{"a/b~c":"x"},"costs":{"tokens":1,"wall_clock_s":1}}`)
	res := check(t, data, Options{})
	if len(res.Findings) != 1 || res.Findings[0].Pointer != "/rewards/a~1b~0c" {
		t.Errorf("got %s", render(res))
	}
}

func TestMaxFindings(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"trace_id":"t","task_id":"k","edges":[],"rewards":{},"costs":{"tokens":1,"wall_clock_s":1},"events":[`)
	for i := range 50 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"e%d","t":0,"type":"x","agent":"a"}`, i)
	}
	b.WriteString("]}")
	res := check(t, []byte(b.String()), Options{MaxFindings: 10})
	if res.Errors != 50 || res.Omitted != 40 || len(res.Findings) != 11 {
		t.Fatalf("errors=%d omitted=%d findings=%d, want 50, 40, 10+1", res.Errors, res.Omitted, len(res.Findings))
	}
	if last := res.Findings[10]; last.Rule != RuleTruncated || !strings.Contains(last.Message, "40 more") {
		t.Errorf("last finding %s", last)
	}
}

func TestReadError(t *testing.T) {
	_, err := Validate(errReader{}, Options{})
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("got %v, want the read error", err)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, fmt.Errorf("disk on fire") }

func TestMeasure(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "example.json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Measure(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "example.stats.golden"), append(got, '\n'))
	// Spot checks that do not depend on the golden file.
	if r.Events != 20 || r.Edges != 24 || r.Spawns != 3 || r.Despawns != 2 {
		t.Errorf("events/edges/spawns/despawns = %d/%d/%d/%d", r.Events, r.Edges, r.Spawns, r.Despawns)
	}
	for _, c := range r.EventTypes {
		if c.Count == 0 {
			t.Errorf("example has no %s event", c.Name)
		}
	}
	for _, c := range r.EdgeTypes {
		if c.Count == 0 {
			t.Errorf("example has no %s edge", c.Name)
		}
	}
	if r.Graph.CriticalPath != 12 || r.Graph.SpawnDepth != 1 || r.Safety.UntrustedToolResults != 1 {
		t.Errorf("critical path %d, spawn depth %d, untrusted %d", r.Graph.CriticalPath, r.Graph.SpawnDepth, r.Safety.UntrustedToolResults)
	}
	if _, err := Measure(strings.NewReader(`{"trace_id":""}`)); err == nil {
		t.Error("Measure accepted an invalid trace")
	}
}

// TestRecheckAddsLibraryFindings checks the safety net: a location the
// library reports for a flagged element and the fast path did not is added.
func TestRecheckAddsLibraryFindings(t *testing.T) {
	c := newChecker(NewValidator(), Options{})
	c.s = newScanner(strings.NewReader(""))
	c.start()
	defer c.feed.stop()
	c.path = []pathElem{{key: "events", idx: -1}, {idx: 4}}
	c.inElem = true
	c.elem = []byte(`{"id": "e", "t": -1, "type": "spwan", "agent": "a"}`)
	// Pretend the fast path saw only the type.
	c.elemPtrs = []string{"/events/4/type"}
	c.recheck(true, pos{line: 7, col: 3})
	res := c.result()
	if len(res.Findings) != 1 {
		t.Fatalf("got %d findings, want the library's /events/4/t:\n%s", len(res.Findings), render(res))
	}
	if f := res.Findings[0]; f.Pointer != "/events/4/t" || f.Line != 7 || f.Rule != RuleSchema {
		t.Errorf("got %s", f)
	}
}

func TestHugeNumber(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"trace_id":"t","task_id":"k","events":[{"id":"e","t":`)
	b.WriteString(strings.Repeat("9", maxNumberLen+10))
	b.WriteString(`,"type":"spawn","agent":"a"}],"edges":[],"rewards":{},"costs":{"tokens":1,"wall_clock_s":1}}`)
	res := check(t, []byte(b.String()), Options{})
	if res.Valid() || len(res.Findings) != 1 || res.Findings[0].Rule != RuleSyntax || res.Findings[0].Pointer != "/events/0/t" {
		t.Errorf("got %s", render(res))
	}
}

// TestValidatorShared checks traces concurrently with one Validator, in
// place and as streams, with and without measures, and requires the
// results (findings and report) of checking each alone with a Validator
// of its own: a Validator reuses the checkers of small traces, and nothing
// of one trace may reach the next.
func TestValidatorShared(t *testing.T) {
	inputs := [][]byte{synthTrace(t, 30, 1), synthTrace(t, 3000, 2), synthTrace(t, 5, 3)}
	invalid, _ := filepath.Glob(filepath.Join("testdata", "invalid", "*.json"))
	for _, p := range invalid {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, data)
	}
	for _, opts := range []Options{{}, {FindingsOnly: true}} {
		type alone struct{ inPlace, streamed *Result }
		want := make([]alone, len(inputs))
		for i, data := range inputs {
			inPlace, err := NewValidator().ValidateBytes(data, opts)
			if err != nil {
				t.Fatal(err)
			}
			want[i] = alone{inPlace, check(t, data, opts)}
		}
		v := NewValidator()
		errs := make(chan error, 4*len(inputs))
		var wg sync.WaitGroup
		for worker := range 4 {
			wg.Go(func() {
				for i, data := range inputs {
					res, err := v.ValidateBytes(data, opts)
					alone := want[i].inPlace
					if (worker+i)%2 == 1 {
						res, err = v.Validate(bytes.NewReader(data), opts)
						alone = want[i].streamed
					}
					if err != nil {
						errs <- err
						continue
					}
					if !reflect.DeepEqual(res, alone) {
						errs <- fmt.Errorf("input %d (%+v): shared validator gave\n%s%+v\nalone\n%s%+v", i, opts, render(res), res.Report, render(alone), alone.Report)
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
	}
}
