// Package golden is the tests' one way to compare output with a golden
// file: go test -update rewrites the golden files instead of comparing,
// in every package that uses it, so the flag means the same everywhere.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// update is the one -update flag of the module's tests. A flag is
// registered once per test binary, when a test package imports golden.
var update = flag.Bool("update", false, "rewrite the golden files (and the generated fixtures) under testdata instead of comparing with them")

// Update reports whether go test runs with -update: a test that writes
// golden content in a form of its own (a txtar section, a script) asks
// it here.
func Update() bool { return *update }

// Check compares got with the golden file at path. With -update it writes
// got there instead (making its directory), but only inside a testdata
// directory: a golden file is test data, never an input elsewhere.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if !inTestdata(path) {
			t.Fatalf("refusing to write %s: golden files live under a testdata directory", path)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (go test -update rewrites it; review the diff):\n--- got\n%s", path, got)
	}
}

// inTestdata reports whether path has a directory named testdata.
func inTestdata(path string) bool {
	for dir := filepath.Dir(filepath.Clean(path)); dir != "." && dir != string(filepath.Separator); dir = filepath.Dir(dir) {
		if filepath.Base(dir) == "testdata" {
			return true
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return false
}
