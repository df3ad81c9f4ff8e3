package partial

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/internal/synth"
	"github.com/masrl/masrl/trace"
)

// readBatch is ReadBatch over the named files, with its log.
func readBatch(t *testing.T, names ...string) (*Batch, string) {
	t.Helper()
	var log bytes.Buffer
	b, err := ReadBatch(context.Background(), names, trace.OSBatchInput(), ReadOptions{Log: &log, Command: "trace stats"})
	if err != nil {
		t.Fatal(err)
	}
	return b, log.String()
}

// report is b's report in format.
func report(t *testing.T, b interface {
	WriteReport(w io.Writer, format string) error
}, format string) string {
	t.Helper()
	var out bytes.Buffer
	if err := b.WriteReport(&out, format); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// TestMergeFilesEqualsBatch is trace stats and trace merge as a team
// would use them: synthetic traces, some invalid, split at random into
// shard files in random order, each shard's partial written, the partials
// merged in random order. The merged report (text and JSON) equals the
// report of the batch of all the traces at once, and so do the counts of
// traces left out.
func TestMergeFilesEqualsBatch(t *testing.T) {
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
				b, _ := readBatch(t, name)
				var p bytes.Buffer
				if err := b.Partial().Write(&p); err != nil {
					t.Fatal(err)
				}
				pname := filepath.Join(dir, fmt.Sprintf("shard%d.partial.json", k))
				if err := os.WriteFile(pname, p.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				partials = append(partials, pname)
			}
			rng.Shuffle(len(partials), func(i, j int) { partials[i], partials[j] = partials[j], partials[i] })
			whole, _ := readBatch(t, allFile)
			merged, errs := MergeFiles(partials, trace.OSBatchInput())
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			for _, format := range []string{"text", "json"} {
				if got, want := report(t, merged, format), report(t, whole, format); got != want {
					t.Errorf("%s: the merged report differs from the batch's:\n%s\nwant\n%s", format, got, want)
				}
			}
			if whole.Invalid() == 0 || merged.Invalid() != whole.Invalid() || merged.LeftOut() != whole.Incomplete() {
				t.Errorf("left out: merged %q, batch %q", merged.LeftOut(), whole.Incomplete())
			}
		})
	}
}

// TestBatchOneTrace: a batch of one trace reports that trace (Table 14),
// and says why its figures may be incomplete by its name.
func TestBatchOneTrace(t *testing.T) {
	ex := filepath.Join("..", "testdata", "example.json")
	b, log := readBatch(t, ex)
	if log != "" || b.Traces() != 1 || b.Invalid() != 0 {
		t.Fatalf("log %q, %d traces, %d invalid", log, b.Traces(), b.Invalid())
	}
	if got := report(t, b, "text"); !strings.HasPrefix(got, "Trace\n  trace id") {
		t.Errorf("text report %.80q", got)
	}
	bad := filepath.Join("..", "testdata", "invalid", "event-bad-type.json")
	b, log = readBatch(t, bad)
	if !strings.HasPrefix(log, bad+":") || b.Invalid() != 1 {
		t.Fatalf("log %q, %d invalid", log, b.Invalid())
	}
	if got, want := b.Incomplete(), bad+" has 1 error; the figures above may be incomplete"; got != want {
		t.Errorf("Incomplete() = %q, want %q", got, want)
	}
	// Standard output holds the report: findings go to a file.
	if _, err := ReadBatch(context.Background(), []string{ex}, trace.OSBatchInput(), ReadOptions{FindingsTo: "-"}); err == nil || !strings.Contains(err.Error(), "name a file") {
		t.Errorf("FindingsTo -: %v", err)
	}
}

// TestMergeFilesRefuses: every bad partial is named with its position,
// a directory without partials is refused, and nothing is merged.
func TestMergeFilesRefuses(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	var p bytes.Buffer
	if err := New().Write(&p); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(good, p.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken.json")
	if err := os.WriteFile(broken, []byte("{\n  \"kind\": 3\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	total, errs := MergeFiles([]string{good, broken, filepath.Join(dir, "missing.json")}, trace.OSBatchInput())
	if total != nil || len(errs) != 2 || !strings.HasPrefix(errs[0].Error(), broken+":2:") || !strings.Contains(errs[1].Error(), "missing.json") {
		t.Errorf("merged %v, errors %v", total, errs)
	}
	empty := t.TempDir()
	if _, errs := MergeFiles([]string{empty}, trace.OSBatchInput()); len(errs) != 1 || errs[0].Error() != empty+": no .json files below it" {
		t.Errorf("empty directory: %v", errs)
	}
	// A directory stands for its partials.
	if total, errs := MergeFiles([]string{filepath.Dir(good) + "/"}, trace.OSBatchInput()); total != nil || len(errs) != 1 {
		t.Errorf("directory: merged %v, errors %v", total, errs)
	}
}
