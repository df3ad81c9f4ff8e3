package outdir

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestListingReplacesSweep builds into one output again and again, as
// masrl serve does, handing each Open the listing its build before last
// published. The buffer must then be taken from the listing, not swept,
// and the listing must say exactly what a sweep finds; the output must
// hold exactly the last build's files (stale ones removed through the
// listing, a file where a directory was and the reverse). A build of
// another Open without a listing (another process) exchanges the
// directories: the next Open must see that and sweep.
func TestListingReplacesSweep(t *testing.T) {
	root := t.TempDir()
	out := filepath.Join(root, "public")
	builds := [][]string{
		{"index.html", "a/index.html", "b/index.html", "x"},
		{"index.html", "a/index.html", "c/d/index.html", "x/index.html"},
		{"index.html", "b/index.html", "x"},
		{"index.html", "c/index.html", "a"},
		{"index.html", "a/b/c", "x/index.html"},
	}
	listings := []*Listing{nil, nil} // by build: what it published
	for i, names := range builds {
		buffer := listings[len(listings)-2]
		if buffer != nil {
			found, err := sweep(BufferDir(out))
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(found, buffer.names) {
				t.Fatalf("build %d: the buffer holds %v, its listing says %v", i, found, buffer.names)
			}
		}
		o := build(t, out, buffer, names)
		if swept := o.files.swept != nil; swept != (buffer == nil) {
			t.Fatalf("build %d: swept %v with a listing %v", i, swept, buffer != nil)
		}
		listings = append(listings, o.Listing())
		o.Close()
		want := map[string]bool{}
		for _, n := range names {
			want[n] = false
			for d := filepath.Dir(n); d != "."; d = filepath.Dir(d) {
				want[filepath.ToSlash(d)] = true
			}
		}
		got, err := sweep(out)
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(got, want) {
			t.Fatalf("build %d: the output holds %v, want %v", i, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
		}
		if l := o.Listing(); !maps.Equal(l.names, got) {
			t.Fatalf("build %d: the listing says %v, the output holds %v", i, l.names, got)
		}
	}
	// Another process builds: it exchanges the directories.
	build(t, out, nil, []string{"index.html"}).Close()
	o := build(t, out, listings[len(listings)-2], []string{"index.html", "z"})
	defer o.Close()
	if o.files.swept == nil {
		t.Fatal("a buffer another build exchanged was taken from a stale listing, not swept")
	}
}

// build writes names (content: the name) through Open and publishes.
func build(t *testing.T, out string, buffer *Listing, names []string) *Output {
	t.Helper()
	o, err := Open(out, "", buffer)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if err := o.Files().Add(n, []byte(n)); err != nil {
			t.Fatal(err)
		}
	}
	if err := o.Publish(); err != nil {
		t.Fatal(err)
	}
	return o
}

// TestListingAfterTwoForeignBuilds: two builds of another process
// exchange the directories twice, which puts each back at its place: the
// buffer is the same directory as the one listed, but holds the other
// process's site. The mark it wrote tells them apart: the next Open
// sweeps, and reports that the buffer is not the one its listing (and a
// cache of page keys) describes.
func TestListingAfterTwoForeignBuilds(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	var listings []*Listing
	for range 2 {
		o := build(t, out, nil, []string{"index.html", "a/index.html"})
		listings = append(listings, o.Listing())
		o.Close()
	}
	for _, names := range [][]string{{"index.html", "b/index.html"}, {"index.html", "c/index.html"}} {
		if err := buildContent(t, out, map[string]string{names[0]: "other", names[1]: "other"}); err != nil {
			t.Fatal(err)
		}
	}
	o, err := Open(out, "", listings[0])
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if o.files.swept == nil {
		t.Fatal("a buffer two foreign builds wrote was taken from the listing, not swept")
	}
	if o.Found() == listings[0].mark {
		t.Error("the buffer's mark is the listed one after two foreign builds")
	}
}

// TestListedDirectoryGone: a build trusts its buffer's listing for the
// directories it holds and makes none of them again; one removed by hand
// since the listing was made is made again when a file goes into it, and
// the build publishes all its files.
func TestListedDirectoryGone(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	names := []string{"index.html", "a/index.html", "a/b/index.html", "c/index.html"}
	first := build(t, out, nil, names)
	listing := first.Listing()
	first.Close()
	build(t, out, nil, names).Close()
	// The buffer is now the directory first published.
	if err := os.RemoveAll(filepath.Join(BufferDir(out), "a")); err != nil {
		t.Fatal(err)
	}
	build(t, out, listing, names).Close()
	got, err := sweep(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if isDir, ok := got[n]; !ok || isDir {
			t.Errorf("the output lacks %s: %v", n, slices.Sorted(maps.Keys(got)))
		}
	}
}
