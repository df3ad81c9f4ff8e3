//go:build !(js && wasm)

// The generator check runs natively only: fixturegen is not built for
// js/wasm (see its names.go), and the check is of the committed files, not
// of the importer the WebAssembly rerun is for.

package otlp

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/masrl/masrl/internal/golden"
	"github.com/masrl/masrl/trace/otlp/internal/fixturegen"
)

// TestFixturesAreGenerated checks that the committed fixtures are what the
// OTel SDK run of fixturegen writes (go test -update rewrites them).
func TestFixturesAreGenerated(t *testing.T) {
	forms := []struct {
		ext   string
		write func(io.Writer, string) error
	}{{".otlp.jsonl", fixturegen.Write}, {".otlp.binpb", fixturegen.WriteProto}}
	for _, form := range forms {
		for _, d := range fixturegen.Dialects() {
			checkFixture(t, filepath.Join("testdata", d+form.ext), d, form.write)
		}
	}
}

func checkFixture(t *testing.T, path, d string, write func(io.Writer, string) error) {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b, d); err != nil {
		t.Fatal(err)
	}
	if golden.Update() {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("%s differs from what fixturegen writes; run go test ./trace/otlp -update", path)
	}
	var again bytes.Buffer
	if err := write(&again, d); err != nil || !bytes.Equal(again.Bytes(), b.Bytes()) {
		t.Errorf("%s: two runs of fixturegen differ (%v)", path, err)
	}
}
