package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/internal/corpustest"

	"github.com/masrl/masrl/internal/golden"
)

// checkGolden compares got with testdata/golden/name, or rewrites the file
// with -update. It refuses to write anywhere but testdata/golden, so that
// -update cannot overwrite an input.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if filepath.Dir(path) != filepath.Join("testdata", "golden") {
		t.Fatalf("golden name %q leaves testdata/golden", name)
	}
	golden.Check(t, path, got)
}

// runCmd runs masrl in-process and returns stdout, stderr and the exit code.
func runCmd(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), code
}

// TestStatsDiffGolden pins the output of stats and diff on the fixture
// corpora in every format, and on the real corpus for the tables the paper
// prints.
func TestStatsDiffGolden(t *testing.T) {
	old, new := filepath.Join("testdata", "corpus-old"), filepath.Join("testdata", "corpus-new")
	tests := []struct {
		golden string
		args   []string
		real   bool
	}{
		{"stats.md", []string{"stats", "--corpus", new}, false},
		{"stats-present.md", []string{"stats", "--corpus", new, "--present-only", "--crosstab", "scenario,is_core"}, false},
		{"stats.json", []string{"stats", "--corpus", new, "--format", "json"}, false},
		{"stats.csv", []string{"stats", "--corpus", new, "--format", "csv"}, false},
		{"diff.md", []string{"diff", old, new}, false},
		{"diff.json", []string{"diff", "--format", "json", old, new}, false},
		{"stats-real.md", []string{"stats", "--corpus", "REAL"}, true},
		{"diff-history.md", []string{"diff", "--profile", "survey", "REAL/history/papers-2026-04-30.csv", "REAL/papers.csv"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			args := tt.args
			if tt.real {
				dir := corpustest.Dir(t)
				args = nil
				for _, a := range tt.args {
					args = append(args, strings.Replace(a, "REAL", dir, 1))
				}
			}
			out, errOut, code := runCmd(t, args...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if tt.real { // the corpus path differs between machines
				out = strings.ReplaceAll(out, corpustest.Dir(t), "$MASRL_CORPUS")
			}
			checkGolden(t, tt.golden, []byte(out))
			again, _, _ := runCmd(t, args...)
			if tt.real {
				again = strings.ReplaceAll(again, corpustest.Dir(t), "$MASRL_CORPUS")
			}
			if again != out {
				t.Error("a second run printed something else")
			}
		})
	}
}

func TestStatsDiffUsage(t *testing.T) {
	tests := []struct {
		args []string
		code int
	}{
		{[]string{"stats", "--format", "xml", "--corpus", "testdata/corpus-new"}, exitUsage},
		{[]string{"stats", "--crosstab", "category", "--corpus", "testdata/corpus-new"}, exitUsage},
		{[]string{"stats", "--crosstab", "category,stage", "--corpus", "testdata/corpus-new"}, exitUsage},
		{[]string{"stats", "--corpus", "testdata/nonesuch"}, exitUsage},
		{[]string{"diff", "testdata/corpus-old"}, exitUsage},
		{[]string{"diff", "testdata/corpus-old", "testdata/nonesuch"}, exitUsage},
		{[]string{"diff", "testdata/corpus-old/papers.csv", "testdata/corpus-new/papers.csv"}, exitOK},
		{[]string{"diff", "testdata/corpus-old", "testdata/corpus-old"}, exitOK},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, errOut, code := runCmd(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d: %s", code, tt.code, errOut)
			}
		})
	}
}
