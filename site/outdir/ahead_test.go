package outdir

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestMakeDirsAhead: MakeDirs makes every directory the names need
// before a file is written, in a buffer that held a file where one of
// them goes; the build then publishes exactly its files, and its
// listing names the directories made ahead, as a sweep finds them.
func TestMakeDirsAhead(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	build(t, out, nil, []string{"index.html", "a"}).Close()
	build(t, out, nil, []string{"index.html"}).Close()
	// The buffer now holds the first build: a file a.
	names := []string{"index.html", "a/index.html", "b/c/index.html", "b/d/index.html"}
	o, err := Open(out, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	o.Files().MakeDirs(names)
	o.files.ahead.Wait()
	for _, d := range []string{"a", "b", "b/c", "b/d"} {
		st, err := os.Stat(filepath.Join(BufferDir(out), d))
		if err != nil || !st.IsDir() {
			t.Errorf("%s was not made ahead: %v", d, err)
		}
	}
	for _, n := range names {
		if err := o.Files().Add(n, []byte(n)); err != nil {
			t.Fatal(err)
		}
	}
	if err := o.Publish(); err != nil {
		t.Fatal(err)
	}
	got, err := sweep(out)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"index.html": false, "a": true, "a/index.html": false, "b": true, "b/c": true, "b/c/index.html": false, "b/d": true, "b/d/index.html": false}
	if !maps.Equal(got, want) {
		t.Errorf("the output holds %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	if l := o.Listing(); !maps.Equal(l.names, got) {
		t.Errorf("the listing says %v, the output holds %v", l.names, got)
	}
}

// TestMakeDirsInMemory: a Files in memory makes no directory.
func TestMakeDirsInMemory(t *testing.T) {
	wd := t.TempDir()
	t.Chdir(wd)
	Memory().MakeDirs([]string{"a/index.html"})
	if _, err := os.Stat(filepath.Join(wd, "a")); !os.IsNotExist(err) {
		t.Errorf("a Files in memory made a directory: %v", err)
	}
}

// TestMakeDirsRefusesPaths: MakeDirs is told the entry pages' names
// before they are claimed (site's prepare), so it checks each itself:
// a name that would leave the buffer, or is not clean, makes nothing,
// and the names after it are still made.
func TestMakeDirsRefusesPaths(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site", "public")
	o, err := Open(out, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	bad := []string{"../../escaped/index.html", "a/../../up/index.html", "b/./c/index.html"}
	o.Files().MakeDirs(append(bad, "ok/index.html"))
	o.files.ahead.Wait()
	for _, n := range bad {
		d := filepath.Dir(filepath.Join(BufferDir(out), n))
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("MakeDirs made %s for %s, a name it must refuse: %v", d, n, err)
		}
	}
	if st, err := os.Stat(filepath.Join(BufferDir(out), "ok")); err != nil || !st.IsDir() {
		t.Errorf("ok was not made: %v", err)
	}
	if _, err := os.Stat(filepath.Join(BufferDir(out), "a")); !os.IsNotExist(err) {
		t.Errorf("MakeDirs made a, of a name it should refuse: %v", err)
	}
}
