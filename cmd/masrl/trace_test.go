package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/masrl/masrl/internal/synth"
	"github.com/masrl/masrl/trace"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/masrl/masrl/internal/golden"
)

const traceFixtures = "../../trace/testdata"

// runTraceCmd runs "masrl trace ..." in-process with stdin.
func runTraceCmd(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	in := trace.OSBatchInput()
	in.Stdin = strings.NewReader(stdin)
	code = traceMain(context.Background(), args, &out, &errb, in)
	return out.String(), errb.String(), code
}

// TestTraceValidateOrder checks that parallel validation reports files in
// input order.
func TestTraceValidateOrder(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(traceFixtures, "invalid", "*.json"))
	args := append([]string{"validate"}, files...)
	want, _, _ := runTraceCmd(t, "", args...)
	var lastIdx int
	for _, f := range files {
		i := strings.Index(want, f+":")
		if i < lastIdx {
			t.Fatalf("%s reported out of order", f)
		}
		lastIdx = i
	}
	for range 5 {
		if got, _, _ := runTraceCmd(t, "", args...); got != want {
			t.Fatal("output differs between runs")
		}
	}
}

// TestTraceScripts runs testdata/trace-script/*.txtar. "trace-cli ARGS"
// runs masrl in-process (it is not called masrl because TestMain registers
// that name for the scripts of testdata/script); file names resolve in the
// script's work directory, and "trace-stdin FILE ARGS" feeds FILE to
// standard input. A non-zero exit
// code is appended to stderr as "[exit status N]". The work directory
// starts with the schema's example trace and its invalid fixtures; with
// -update, failing cmp files are rewritten in the scripts (the golden
// outputs of trace_cli.txtar).
func TestTraceScripts(t *testing.T) {
	runIn := func(ts *testscript.TestScript, neg bool, stdin io.Reader, args []string) {
		tio := scriptTraceIO(ts, stdin)
		if len(args) == 0 || args[0] != "trace" {
			ts.Fatalf("only the trace command runs in these scripts")
		}
		code := traceMain(context.Background(), args[1:], ts.Stdout(), ts.Stderr(), tio)
		if neg != (code != 0) {
			ts.Fatalf("exit code %d", code)
		}
		if code != 0 {
			fmt.Fprintf(ts.Stderr(), "[exit status %d]\n", code)
		}
	}
	testscript.Run(t, testscript.Params{
		Files:         mustGlob(t, filepath.Join("testdata", "trace-script", "*.txtar")),
		UpdateScripts: golden.Update(),
		Setup: func(env *testscript.Env) error {
			fixtures := mustGlob(t, filepath.Join(traceFixtures, "invalid", "*.json"))
			fixtures = append(fixtures, filepath.Join(traceFixtures, "example.json"))
			if err := os.Mkdir(filepath.Join(env.WorkDir, "invalid"), 0o755); err != nil {
				return err
			}
			for _, f := range fixtures {
				data, err := os.ReadFile(f)
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(traceFixtures, f)
				if err := os.WriteFile(filepath.Join(env.WorkDir, rel), data, 0o644); err != nil {
					return err
				}
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"trace-cli": func(ts *testscript.TestScript, neg bool, args []string) {
				runIn(ts, neg, strings.NewReader(""), args)
			},
			"trace-stdin": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) == 0 {
					ts.Fatalf("usage: trace-stdin FILE args...")
				}
				runIn(ts, neg, strings.NewReader(ts.ReadFile(args[0])), args[1:])
			},
		},
	})
}

func mustGlob(t *testing.T, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil || len(m) == 0 {
		t.Fatalf("no files match %s", pattern)
	}
	return m
}

// scriptTraceIO is the trace commands' file access inside a test script:
// names are relative to the script's directory, and an error or a file
// found below a directory names it as the script wrote it, as the real
// command would.
func scriptTraceIO(ts *testscript.TestScript, stdin io.Reader) trace.BatchInput {
	open := func(name string) (io.ReadCloser, error) {
		f, err := os.Open(ts.MkAbs(name))
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Path = name
		}
		return f, err
	}
	dir := func(name string) ([]string, bool, error) {
		files, isDir, err := trace.OSTraceDir(ts.MkAbs(name))
		for i, f := range files {
			rel, _ := filepath.Rel(ts.MkAbs(name), f)
			files[i] = filepath.Join(name, rel)
		}
		return files, isDir, err
	}
	return trace.BatchInput{Stdin: stdin, Open: open, Dir: dir}
}

// TestTraceBatchManyLines validates a 500-trace JSON Lines file with four
// bad traces, in parallel, and requires findings at exactly those lines,
// in order, with each trace's id, the same in every run.
func TestTraceBatchManyLines(t *testing.T) {
	var b bytes.Buffer
	if err := synth.WriteTraceLines(&b, synth.TraceLinesOptions{Traces: 500, Events: 12, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	bad := []int{4, 123, 377, 500}
	for _, n := range bad {
		lines[n-1] = strings.Replace(lines[n-1], `"task_id":`, `"task":`, 1)
	}
	path := filepath.Join(t.TempDir(), "batch.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	first, _, code := runTraceCmd(t, "", "validate", path)
	if code != exitFindings {
		t.Fatalf("exit code %d, want %d", code, exitFindings)
	}
	var got []int
	for l := range strings.SplitSeq(strings.TrimSuffix(first, "\n"), "\n") {
		rest, ok := strings.CutPrefix(l, path+":")
		if !ok {
			t.Fatalf("finding not placed in the file: %s", l)
		}
		var n int
		if _, err := fmt.Sscanf(rest, "%d:", &n); err != nil {
			t.Fatalf("no line in %s", l)
		}
		if !strings.Contains(l, fmt.Sprintf(`trace "synth-%d-`, 5*1_000_003+n-1)) {
			t.Errorf("line %d: finding without its trace's id: %s", n, l)
		}
		if len(got) == 0 || got[len(got)-1] != n {
			got = append(got, n)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(bad) {
		t.Fatalf("findings at lines %v, want %v", got, bad)
	}
	for range 3 {
		if again, _, _ := runTraceCmd(t, "", "validate", path); again != first {
			t.Fatal("output differs between runs")
		}
	}
}

// TestTraceLineLimit: a JSON Lines line beyond --max-line is reported at
// its line, with the flag that raises it; for validate it is a finding
// about the input (exit 1), and the lines before it are checked.
func TestTraceLineLimit(t *testing.T) {
	ex, err := os.ReadFile(filepath.Join(traceFixtures, "example.json"))
	if err != nil {
		t.Fatal(err)
	}
	one := strings.Join(strings.Fields(string(ex)), " ")
	in := one + "\n" + strings.Repeat("x", 2<<20) + "\n" + one + "\n"
	_, stderr, code := runTraceCmd(t, in, "validate", "--jsonl", "--max-line", "1MiB", "-")
	want := "masrl trace validate: <stdin>:2: line 2 (from byte " + strconv.Itoa(len(one)+1) + ") is longer than 1 MiB, the most masrl reads (raise it with --max-line)"
	if code != exitFindings || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, %s\nwant exit 1 and %s", code, stderr, want)
	}
	// Raised, the line is read, and is malformed JSON, an error of its own.
	if _, stderr, code := runTraceCmd(t, in, "validate", "--jsonl", "--max-line", "3MiB", "-"); code != exitFindings ||
		strings.Contains(stderr, "--max-line") || !strings.Contains(stderr, "1 error, 0 warnings in 3 traces") {
		t.Errorf("--max-line 3MiB: exit %d, %s", code, stderr)
	}
	if _, stderr, code := runTraceCmd(t, in, "stats", "--jsonl", "--max-line", "1MiB", "-"); code != exitUsage || !strings.Contains(stderr, "(raise it with --max-line)") {
		t.Errorf("stats: exit %d, %s", code, stderr)
	}
	if _, stderr, code := runTraceCmd(t, in, "validate", "--jsonl", "--max-line", "lots", "-"); code != exitUsage || !strings.Contains(stderr, "want a positive number of bytes, like 64MiB") {
		t.Errorf("--max-line lots: exit %d, %s", code, stderr)
	}
}

// TestRunTraceGC checks the collector's settings the trace command leaves:
// off for validate (trace.ValidateGCPercent, the memory limit pacing it),
// trace.GCPercent for the other subcommands, and GOGC in the environment
// untouched. The process's settings are restored afterwards.
func TestRunTraceGC(t *testing.T) {
	oldPercent, oldLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
	t.Cleanup(func() {
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
	})
	file := filepath.Join(traceFixtures, "example.json")
	for _, c := range []struct {
		gogc string
		args []string
		want int
	}{
		{"", []string{"validate", file}, trace.ValidateGCPercent},
		{"", []string{"stats", file}, trace.GCPercent},
		{"50", []string{"validate", file}, 100},
	} {
		t.Setenv("GOGC", c.gogc)
		debug.SetGCPercent(100)
		var out, errb bytes.Buffer
		if code := runTrace(context.Background(), c.args, &out, &errb); code != exitOK {
			t.Fatalf("trace %v: exit %d: %s", c.args, code, errb.String())
		}
		if got := debug.SetGCPercent(100); got != c.want {
			t.Errorf("GOGC=%q trace %s: GC percent %d, want %d", c.gogc, c.args[0], got, c.want)
		}
		if got := debug.SetMemoryLimit(-1); got != trace.MemoryLimit {
			t.Errorf("trace %s: memory limit %d, want %d", c.args[0], got, trace.MemoryLimit)
		}
	}
}
