package chartlib

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/masrl/masrl/internal/golden"
)

// esbuildArgs are the one definition of how echarts.min.js is built: the
// entry bundled with its imports, minified, as a script that sets the
// global echarts (charts.js and the browser tests use window.echarts),
// with echarts' development checks compiled out and the licences of the
// bundled code kept at the end. The output goes to stdout, so no path of
// the machine that built it can enter the file.
var esbuildArgs = []string{
	"entry.js", "--bundle", "--minify", "--format=iife", "--global-name=echarts",
	"--target=es2017", "--charset=utf8", "--legal-comments=eof",
	`--define:process.env.NODE_ENV="production"`, "--log-level=warning",
}

// TestBuild rebuilds the chart library with the pinned esbuild from the
// pinned echarts and requires the committed bytes: the file is
// reproducible, and entry.js, the lock and the file agree. It skips
// without node_modules unless MASRL_BROWSER is set (make test), where a
// missing install is a failure.
func TestBuild(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	esbuild := filepath.Join(root, "node_modules", ".bin", "esbuild")
	if _, err := os.Stat(filepath.Join(root, "node_modules", "echarts", "core.js")); err != nil {
		if os.Getenv("MASRL_BROWSER") == "" {
			t.Skipf("echarts not installed (make node_modules): %v", err)
		}
		t.Fatalf("echarts not installed (make node_modules): %v", err)
	}
	cmd := exec.Command(esbuild, esbuildArgs...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("esbuild: %v\n%s", err, stderr.Bytes())
	}
	if golden.Update() {
		if err := os.WriteFile("echarts.min.js", got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(got, Library()) {
		t.Errorf("echarts.min.js (%d bytes) differs from a fresh build from node_modules (%d bytes): run make echarts after changing entry.js or package-lock.json", len(Library()), len(got))
	}
}

// TestLibrary checks the embedded file is the bundle of entry.js: it sets
// the global echarts and carries every chart type entry.js registers.
func TestLibrary(t *testing.T) {
	lib := Library()
	if !bytes.HasPrefix(lib, []byte("var echarts=")) {
		t.Errorf("the library does not start by defining the global echarts: %q", lib[:min(40, len(lib))])
	}
	for _, name := range []string{`"bar"`, `"heatmap"`, `"sankey"`, `"visualMap"`, "Apache License"} {
		if !bytes.Contains(lib, []byte(name)) {
			t.Errorf("the library lacks %s", name)
		}
	}
}
