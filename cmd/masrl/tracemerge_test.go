package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/internal/synth"
)

// TestTraceMergeEqualsStats runs the commands as a team would: synthetic
// traces, some invalid, split at random into shard files in random order,
// trace stats --partial on each, trace merge of the partials in random
// order. The report (text and JSON) and exit code equal those of trace
// stats over all the traces at once.
func TestTraceMergeEqualsStats(t *testing.T) {
	for seed := range uint64(3) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 361))
			var all bytes.Buffer
			if err := synth.WriteTraceLines(&all, synth.TraceLinesOptions{Traces: 200 + rng.IntN(300), Events: 20, Seed: seed}); err != nil {
				t.Fatal(err)
			}
			lines := strings.SplitAfter(all.String(), "\n")
			lines = lines[:len(lines)-1] // after the last newline
			for range 1 + rng.IntN(3) {
				i := rng.IntN(len(lines))
				lines[i] = strings.Replace(lines[i], `"type":"spawn"`, `"type":"spwan"`, 1)
			}
			dir := t.TempDir()
			allFile := filepath.Join(dir, "all.jsonl")
			if err := os.WriteFile(allFile, []byte(strings.Join(lines, "")), 0o644); err != nil {
				t.Fatal(err)
			}
			shards := make([][]string, 1+rng.IntN(6))
			for _, l := range lines {
				k := rng.IntN(len(shards))
				shards[k] = append(shards[k], l)
			}
			var partials []string
			for k, sh := range shards {
				rng.Shuffle(len(sh), func(i, j int) { sh[i], sh[j] = sh[j], sh[i] })
				name := filepath.Join(dir, fmt.Sprintf("shard%d.jsonl", k))
				if err := os.WriteFile(name, []byte(strings.Join(sh, "")), 0o644); err != nil {
					t.Fatal(err)
				}
				out, stderr, code := runTraceCmd(t, "", "stats", "--partial", name)
				if code == exitUsage {
					t.Fatalf("stats --partial %s: %s", name, stderr)
				}
				p := filepath.Join(dir, fmt.Sprintf("shard%d.partial.json", k))
				if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				partials = append(partials, p)
			}
			rng.Shuffle(len(partials), func(i, j int) { partials[i], partials[j] = partials[j], partials[i] })
			for _, format := range []string{"text", "json"} {
				want, _, wantCode := runTraceCmd(t, "", "stats", "--format", format, allFile)
				got, stderr, code := runTraceCmd(t, "", append([]string{"merge", "--format", format}, partials...)...)
				if got != want || code != wantCode {
					t.Errorf("%s: merge (exit %d, %s) differs from stats (exit %d):\n%s\nwant\n%s", format, code, stderr, wantCode, got, want)
				}
			}
			if !strings.Contains(mustRun(t, "merge", partials...), "~") {
				t.Log("no measure needed a sketch")
			}
		})
	}
}

func mustRun(t *testing.T, sub string, args ...string) string {
	t.Helper()
	out, _, _ := runTraceCmd(t, "", append([]string{sub}, args...)...)
	return out
}

// TestTraceStatsFindingsJSONL: --findings-jsonl writes one line per trace
// with findings, naming its file, line and trace id, with each finding's
// pointer and position in the file; traces without findings get none.
func TestTraceStatsFindingsJSONL(t *testing.T) {
	dir := t.TempDir()
	batch := filepath.Join(dir, "shard.jsonl")
	lines := `{"trace_id":"ok","task_id":"k","events":[{"id":"a","t":0,"type":"spawn","agent":"x"}],"edges":[],"rewards":{},"costs":{"tokens":1,"wall_clock_s":1}}
{"trace_id":"bad","task_id":"k","events":[{"id":"a","t":0,"agent":"x","type":"spwan"}],"edges":[],"rewards":{},"costs":{"tokens":1,"wall_clock_s":1}}
{"trace_id":"dangling","task_id":"k","events":[{"id":"a","t":0,"type":"spawn","agent":"x"}],"edges":[{"src":"a","dst":"z","type":"causal"}],"rewards":{},"costs":{"tokens":1,"wall_clock_s":1}}
`
	if err := os.WriteFile(batch, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "findings.jsonl")
	stdout, _, code := runTraceCmd(t, "", "stats", "--partial", "--findings-jsonl", out, batch)
	if code != exitFindings || !strings.Contains(stdout, `"invalid":2`) {
		t.Fatalf("exit %d, partial %.200s", code, stdout)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type finding struct {
		Pointer   string
		Line, Col int
		Rule      string
	}
	var got []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r struct {
			File     string
			Line     int
			TraceID  string `json:"trace_id"`
			Valid    bool
			Findings []finding
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", sc.Text(), err)
		}
		if r.File != batch || r.Valid || len(r.Findings) != 1 {
			t.Errorf("line %s", sc.Text())
			continue
		}
		f := r.Findings[0]
		got = append(got, fmt.Sprintf("%d %s %s %s %d:%d", r.Line, r.TraceID, f.Rule, f.Pointer, f.Line, f.Col))
	}
	want := []string{"2 bad schema /events/0/type 2:78", "3 dangling edge-ref /edges/0/dst 3:119"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings lines:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, stderr, code := runTraceCmd(t, "", "stats", "--findings-jsonl", "-", batch); code != exitUsage || !strings.Contains(stderr, "name a file") {
		t.Errorf("--findings-jsonl -: exit %d, %s", code, stderr)
	}
}
