package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/trace"
	"github.com/rogpeppe/go-internal/testscript"
)

const otlpFixtures = "../../trace/otlp/testdata"

// TestTraceImportScripts runs testdata/import-script/*.txtar. "import-cli
// trace import ARGS" runs the command in-process with file names and --out
// resolved in the script's work directory ("import-cli trace validate
// ARGS" runs the validator on what it wrote); "import-stdin FILE trace import
// ARGS" feeds FILE to standard input. A non-zero exit code is appended to
// stderr as "[exit status N]". The work directory starts with the OTLP
// fixtures of trace/otlp (genai, legacy, openinference .otlp.jsonl and
// their protobuf form .otlp.binpb) and their golden traces under golden/.
func TestTraceImportScripts(t *testing.T) {
	runIn := func(ts *testscript.TestScript, neg bool, stdin io.Reader, args []string) {
		if len(args) < 2 || args[0] != "trace" {
			ts.Fatalf("only the trace command runs in these scripts")
		}
		tio := scriptTraceIO(ts, stdin)
		var code int
		if args[1] == "import" {
			outDir := func(n string) string {
				if n == "" {
					return ""
				}
				return ts.MkAbs(n)
			}
			code = traceImport(context.Background(), args[2:], ts.Stdout(), ts.Stderr(), tio, outDir)
		} else {
			code = traceMain(context.Background(), args[1:], ts.Stdout(), ts.Stderr(), tio)
		}
		if neg != (code != 0) {
			ts.Fatalf("exit code %d", code)
		}
		if code != 0 {
			fmt.Fprintf(ts.Stderr(), "[exit status %d]\n", code)
		}
	}
	testscript.Run(t, testscript.Params{
		Files: mustGlob(t, filepath.Join("testdata", "import-script", "*.txtar")),
		Setup: func(env *testscript.Env) error {
			files := mustGlob(t, filepath.Join(otlpFixtures, "*.otlp.jsonl"))
			files = append(files, mustGlob(t, filepath.Join(otlpFixtures, "*.otlp.binpb"))...)
			files = append(files, mustGlob(t, filepath.Join(otlpFixtures, "golden", "*", "*.json"))...)
			for _, f := range files {
				data, err := os.ReadFile(f)
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(otlpFixtures, f)
				dst := filepath.Join(env.WorkDir, rel)
				if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
					return err
				}
				if err := os.WriteFile(dst, data, 0o644); err != nil {
					return err
				}
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"import-cli": func(ts *testscript.TestScript, neg bool, args []string) {
				runIn(ts, neg, strings.NewReader(""), args)
			},
			"import-stdin": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) == 0 {
					ts.Fatalf("usage: import-stdin FILE args...")
				}
				runIn(ts, neg, strings.NewReader(ts.ReadFile(args[0])), args[1:])
			},
		},
	})
}

// TestTraceImportDispatch checks that "masrl trace import" reaches the
// import command through the trace command.
func TestTraceImportDispatch(t *testing.T) {
	var out, errb bytes.Buffer
	code := traceMain(context.Background(), []string{"import", "--jsonl", filepath.Join(otlpFixtures, "genai.otlp.jsonl")}, &out, &errb, trace.OSBatchInput())
	if code != exitOK || strings.Count(out.String(), "\n") != 2 {
		t.Fatalf("exit %d, stdout %d lines, stderr:\n%s", code, strings.Count(out.String(), "\n"), errb.String())
	}
}
