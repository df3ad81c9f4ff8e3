package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

const traceFixtures = "../../schema/testdata"

// runTraceCmd runs "masrl trace ..." in-process with stdin.
func runTraceCmd(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	tio := osTraceIO()
	tio.stdin = strings.NewReader(stdin)
	code = traceMain(context.Background(), args, &out, &errb, tio)
	return out.String(), errb.String(), code
}

func TestTraceCLI(t *testing.T) {
	example := filepath.Join(traceFixtures, "example.json")
	bad := filepath.Join(traceFixtures, "invalid", "event-bad-type.json")
	cycle := filepath.Join(traceFixtures, "invalid", "cycle.json")
	malformed := filepath.Join(traceFixtures, "invalid", "malformed.json")
	exampleData, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		stdin string
		args  []string
		code  int
	}{
		{"validate-ok", "", []string{"validate", example}, exitOK},
		{"validate-text", "", []string{"validate", bad, cycle, malformed}, exitFindings},
		{"validate-json", "", []string{"validate", "--format", "json", bad, example}, exitFindings},
		{"validate-github", "", []string{"validate", "--format=github", bad, cycle}, exitFindings},
		{"validate-warning-ok", "", []string{"validate", cycle}, exitOK},
		{"validate-strict", "", []string{"validate", "--strict", cycle}, exitFindings},
		{"validate-stdin", `{"trace_id": 1}`, []string{"validate", "-"}, exitFindings},
		{"validate-missing-file", "", []string{"validate", "no-such-file.json", example}, exitUsage},
		{"validate-no-files", "", []string{"validate"}, exitUsage},
		{"validate-bad-format", "", []string{"validate", "--format", "xml", example}, exitUsage},
		{"stats-text", "", []string{"stats", example}, exitOK},
		{"stats-json-after-file", string(exampleData), []string{"stats", "-", "--format", "json"}, exitOK},
		{"stats-invalid", "", []string{"stats", bad}, exitFindings},
		{"stats-two-files", "", []string{"stats", example, example}, exitUsage},
		{"unknown-subcommand", "", []string{"lint"}, exitUsage},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := runTraceCmd(t, c.stdin, c.args...)
			if code != c.code {
				t.Errorf("exit code %d, want %d\nstderr: %s", code, c.code, stderr)
			}
			got := fmt.Sprintf("$ masrl trace %s\n-- stdout --\n%s-- stderr --\n%s", strings.Join(c.args, " "), stdout, stderr)
			goldenFile(t, filepath.Join("testdata", "trace", c.name+".golden"), got)
		})
	}
}

func TestTraceValidateJSONShape(t *testing.T) {
	stdout, _, _ := runTraceCmd(t, "", "validate", "--format", "json", filepath.Join(traceFixtures, "invalid", "edge-dangling.json"))
	var rep struct {
		Valid bool
		Files []struct {
			File     string
			Findings []struct {
				Pointer, Rule, Severity string
				Line, Col               int
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Valid || len(rep.Files) != 1 || len(rep.Files[0].Findings) != 1 {
		t.Fatalf("report %+v", rep)
	}
	f := rep.Files[0].Findings[0]
	if f.Pointer != "/edges/0/dst" || f.Rule != "edge-ref" || f.Severity != "error" || f.Line != 1 {
		t.Errorf("finding %+v", f)
	}
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
	for k := 0; k < 5; k++ {
		if got, _, _ := runTraceCmd(t, "", args...); got != want {
			t.Fatal("output differs between runs")
		}
	}
}

// goldenFile compares got with path, or rewrites it under -update; it
// refuses to write anything but a .golden file.
func goldenFile(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if filepath.Ext(path) != ".golden" {
			t.Fatalf("refusing to overwrite input %s", path)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// TestTraceScripts runs testdata/trace-script/*.txtar. "trace-cli ARGS"
// runs masrl in-process with file names resolved in the script's work
// directory and prints the exit status to stderr, so scripts can tell a
// usage error (2) from findings (1); "trace-stdin FILE ARGS" feeds FILE to
// standard input. (They are not named masrl because TestMain registers that
// name for the other scripts.)
func TestTraceScripts(t *testing.T) {
	runIn := func(ts *testscript.TestScript, neg bool, stdin io.Reader, args []string) {
		tio := traceIO{stdin: stdin, open: func(name string) (io.ReadCloser, error) { return os.Open(ts.MkAbs(name)) }}
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
		Files: mustGlob(t, filepath.Join("testdata", "trace-script", "*.txtar")),
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
