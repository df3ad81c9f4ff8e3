package outdir

import (
	"errors"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/internal/corpustest"
)

// TestRawFile writes a file through createNew's rawFile in pieces and
// checks that it holds exactly what was written, with the mode
// os.WriteFile gives a new file (0644 less the umask); that reads and
// ReadAt give the bytes back and io.EOF at the end; that createNew
// replaces an existing file by a new one, leaving a hard link to the
// old one its bytes; and that an error names the file.
func TestRawFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "page.html")
	pieces := []string{"<!doctype html>\n", strings.Repeat("<p>row</p>\n", 10000), "</html>\n"}
	want := strings.Join(pieces, "")

	f, err := createNew(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pieces {
		if n, err := f.Write([]byte(p)); n != len(p) || err != nil {
			t.Fatalf("write: %d, %v", n, err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err == nil {
		t.Error("a second Close reported no error")
	}
	if got, _ := os.ReadFile(name); string(got) != want {
		t.Fatalf("file holds %d bytes, want %d", len(got), len(want))
	}
	ref := filepath.Join(dir, "ref.html")
	if err := os.WriteFile(ref, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(name)
	rst, _ := os.Stat(ref)
	if st.Mode() != rst.Mode() {
		t.Errorf("mode %v, os.WriteFile gives %v", st.Mode(), rst.Mode())
	}

	r, err := openRaw(name, os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	if err != nil || string(got) != want {
		t.Errorf("ReadAll: %d bytes, %v", len(got), err)
	}
	mid := make([]byte, 11)
	if n, err := r.ReadAt(mid, int64(len(pieces[0]))); n != 11 || err != nil || string(mid) != "<p>row</p>\n" {
		t.Errorf("ReadAt: %d %q %v", n, mid, err)
	}
	if n, err := r.ReadAt(mid, int64(len(want)-3)); n != 3 || err != io.EOF {
		t.Errorf("ReadAt past the end: %d, %v; want 3, io.EOF", n, err)
	}
	r.Close()

	snap := filepath.Join(dir, "snap.html")
	if err := os.Link(name, snap); err != nil {
		t.Fatal(err)
	}
	f, err = createNew(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("new")); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if b, _ := os.ReadFile(name); string(b) != "new" {
		t.Errorf("replaced file holds %q", b)
	}
	if b, _ := os.ReadFile(snap); string(b) != want {
		t.Error("the hard link to the replaced file lost its bytes")
	}

	_, err = openRaw(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if !errors.Is(err, iofs.ErrExist) || !strings.Contains(err.Error(), name) {
		t.Errorf("O_EXCL on an existing file: %v; want ErrExist naming %s", err, name)
	}
	ro, err := openRaw(name, os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.Write([]byte("x")); err == nil || !strings.Contains(err.Error(), name) {
		t.Errorf("write to a file opened read-only: %v; want an error naming %s", err, name)
	}
}

// TestFailedBuildLeavesOutput: a build that stops midway, one page
// written and the next one half-written through the raw writer, leaves
// the output as it was, byte for byte, and the next build publishes
// exactly its own files over the buffer the failed one left.
func TestFailedBuildLeavesOutput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	v1 := map[string]string{"index.html": "home 1", "papers/a/index.html": "paper a 1", "feed.xml": strings.Repeat("<item/>", 2000)}
	for range 2 {
		if err := buildContent(t, out, v1); err != nil {
			t.Fatal(err)
		}
	}
	before := corpustest.ReadTree(t, out)

	o, err := Open(out, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Files().Add("index.html", []byte("home 2")); err != nil {
		t.Fatal(err)
	}
	if err := o.Files().Claim("papers/b/index.html"); err != nil {
		t.Fatal(err)
	}
	w, err := o.Files().Create("papers/b/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("half of paper b")); err != nil {
		t.Fatal(err)
	}
	w.Close()
	o.Close() // the build failed: no Publish
	after := corpustest.ReadTree(t, out)
	if len(after) != len(before) {
		t.Errorf("the output holds %d files after a failed build, %d before", len(after), len(before))
	}
	for name, b := range before {
		if after[name] != b {
			t.Errorf("a failed build changed the output's %s to %.40q", name, after[name])
		}
	}

	v2 := map[string]string{"index.html": "home 2", "papers/b/index.html": "paper b 2"}
	if err := buildContent(t, out, v2); err != nil {
		t.Fatal(err)
	}
	got := corpustest.ReadTree(t, out)
	delete(got, MarkName)
	if len(got) != len(v2) {
		t.Errorf("the next build's output holds %v", got)
	}
	for name, b := range v2 {
		if got[name] != b {
			t.Errorf("the next build's %s holds %q, want %q", name, got[name], b)
		}
	}
}

// TestMkdirOne makes a directory with the mode os.Mkdir gives it, and
// reports an existing one as fs.ErrExist and a missing parent as
// fs.ErrNotExist, naming the directory: Files.mkdir tells them apart.
func TestMkdirOne(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "papers")
	if err := mkdirOne(name); err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join(dir, "ref")
	if err := os.Mkdir(ref, 0o755); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(name)
	if err != nil || !st.IsDir() {
		t.Fatalf("after mkdirOne: %v, %v", st, err)
	}
	if rst, _ := os.Stat(ref); st.Mode() != rst.Mode() {
		t.Errorf("mode %v, os.Mkdir gives %v", st.Mode(), rst.Mode())
	}
	if err := mkdirOne(name); !errors.Is(err, iofs.ErrExist) || !strings.Contains(err.Error(), name) {
		t.Errorf("again: %v, want fs.ErrExist naming %s", err, name)
	}
	missing := filepath.Join(dir, "none", "papers")
	if err := mkdirOne(missing); !errors.Is(err, iofs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("under a missing parent: %v, want fs.ErrNotExist naming %s", err, missing)
	}
}
