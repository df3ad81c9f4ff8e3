package outdir

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/masrl/masrl/internal/corpustest"
)

// buildContent writes names with the given content through Open and
// publishes.
func buildContent(t *testing.T, out string, files map[string]string) error {
	t.Helper()
	o, err := Open(out, "", nil)
	if err != nil {
		return err
	}
	defer o.Close()
	for _, n := range slices.Sorted(maps.Keys(files)) {
		if err := o.Files().Add(n, []byte(files[n])); err != nil {
			t.Fatal(err)
		}
	}
	return o.Publish()
}

// TestRefusesForeignFolder: a hand-written folder (a GitHub Pages docs
// folder, a web root) has an index.html like a site, but not masrl's
// mark: every build into it is refused with a message that says where
// and what to do, and nothing in it or beside it changes, byte for byte.
// An empty directory, a missing one and one masrl published are
// replaced.
func TestRefusesForeignFolder(t *testing.T) {
	root := t.TempDir()
	docs := filepath.Join(root, "docs")
	mine := map[string]string{
		"index.html":         "<h1>my project</h1>",
		"guide/install.md":   "# Install",
		"assets/site.css":    "body{}",
		".nojekyll":          "",
		"CNAME":              "example.org",
		"deep/a/b/notes.txt": "keep me",
	}
	corpustest.WriteTree(t, docs, mine)
	for i := range 2 {
		err := buildContent(t, docs, map[string]string{"index.html": "site", "papers/index.html": "papers"})
		if err == nil {
			t.Fatalf("build %d into a hand-written folder was not refused", i+1)
		}
		for _, want := range []string{docs, MarkName, "empty or new directory", "remove"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("build %d: the refusal %q does not say %q", i+1, err, want)
			}
		}
	}
	if got := corpustest.ReadTree(t, docs); !maps.Equal(got, mine) {
		t.Errorf("the refused folder changed: %v", got)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 1 {
		t.Errorf("beside the refused folder: %d entries, want only docs", len(entries))
	}

	empty := filepath.Join(root, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{empty, filepath.Join(root, "new")} {
		for i := range 3 {
			if err := buildContent(t, out, map[string]string{"index.html": "site " + string(rune('a'+i))}); err != nil {
				t.Fatalf("build %d into %s: %v", i+1, out, err)
			}
		}
		if b, err := os.ReadFile(filepath.Join(out, MarkName)); err != nil || !strings.HasPrefix(string(b), markHead) {
			t.Errorf("%s: no mark after a build: %q, %v", out, b, err)
		}
	}
}

// TestRefusesUnmarkedBuffer: a build buffer without the mark, as a masrl
// before the mark left it (it may hold what a hand-written output held
// before that masrl's first build moved it there), is not swept: the
// build is refused and the buffer stays as it is.
func TestRefusesUnmarkedBuffer(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	moved := map[string]string{"index.html": "mine", "notes/a.txt": "keep"}
	corpustest.WriteTree(t, BufferDir(out), moved)
	err := buildContent(t, out, map[string]string{"index.html": "site"})
	if err == nil || !strings.Contains(err.Error(), BufferDir(out)) {
		t.Fatalf("build beside an unmarked buffer: %v", err)
	}
	if got := corpustest.ReadTree(t, BufferDir(out)); !maps.Equal(got, moved) {
		t.Errorf("the unmarked buffer changed: %v", got)
	}
	if _, err := os.Lstat(out); err == nil {
		t.Error("the refused build made the output")
	}
}

// TestHardLinkSnapshotUnchanged: a snapshot of the published site made
// with hard links (cp -al public snap, rsync --link-dest) shares its
// files' inodes with the output; the builds after it must write new
// files, never through those inodes, so the snapshot keeps its bytes.
func TestHardLinkSnapshotUnchanged(t *testing.T) {
	root := t.TempDir()
	out := filepath.Join(root, "public")
	site := func(v string) map[string]string {
		return map[string]string{
			"index.html":        "home " + v,
			"papers/a.html":     "<p>paper a, version " + v + "</p>",
			"papers/same.html":  "unchanged",
			"feed.xml":          "<feed>" + v + strings.Repeat(".", 5000) + "</feed>",
			"longer/x.html":     "x",
			"shorter/y.html":    "a longer first version of y " + v,
			"search-index.json": strings.Repeat("[1,2,3]", 3000) + v,
		}
	}
	for _, v := range []string{"1", "2"} {
		if err := buildContent(t, out, site(v)); err != nil {
			t.Fatal(err)
		}
	}
	snap := filepath.Join(root, "snap")
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(snap, rel), 0o755)
		}
		return os.Link(p, filepath.Join(snap, rel))
	})
	if err != nil {
		t.Fatal(err)
	}
	want := corpustest.ReadTree(t, snap)
	later := []string{"3", "4"}
	for _, v := range later {
		s := site(v)
		s["longer/x.html"] = "x, now longer " + v
		s["shorter/y.html"] = "y"
		if err := buildContent(t, out, s); err != nil {
			t.Fatal(err)
		}
		if got := corpustest.ReadTree(t, out); got["index.html"] != "home "+v {
			t.Fatalf("build %s: the output holds %q", v, got["index.html"])
		}
	}
	got := corpustest.ReadTree(t, snap)
	for name, b := range want {
		if got[name] != b {
			t.Errorf("the snapshot's %s changed to %.40q", name, got[name])
		}
	}
}

// TestSymlinkOutRefused: an output that is a symbolic link is refused
// with a message naming its target and the --out that builds there; the
// link and its target stay as they are.
func TestSymlinkOutRefused(t *testing.T) {
	root := t.TempDir()
	target := filepath.Join(root, "www")
	if err := buildContent(t, target, map[string]string{"index.html": "site"}); err != nil {
		t.Fatal(err)
	}
	before := corpustest.ReadTree(t, target)
	link := filepath.Join(root, "public")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		err := buildContent(t, link, map[string]string{"index.html": "new"})
		if err == nil || !strings.Contains(err.Error(), "symbolic link") || !strings.Contains(err.Error(), "--out "+target) {
			t.Fatalf("build %d through a link: %v", i+1, err)
		}
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	if got := corpustest.ReadTree(t, target); !maps.Equal(got, before) {
		t.Errorf("the link's target changed: %v", got)
	}
	if _, err := os.Lstat(BufferDir(link)); err == nil {
		t.Error("a buffer was made beside the link")
	}
}

// TestBufferNotADirectory: a file or a link in the buffer's place is
// masrl's to replace (the name is its own); the link's target stays.
func TestBufferNotADirectory(t *testing.T) {
	root := t.TempDir()
	out := filepath.Join(root, "public")
	outside := filepath.Join(root, "outside")
	corpustest.WriteTree(t, outside, map[string]string{"a": "keep"})
	for _, put := range []func() error{
		func() error { return os.WriteFile(BufferDir(out), []byte("x"), 0o644) },
		func() error { return os.Symlink(outside, BufferDir(out)) },
	} {
		os.RemoveAll(BufferDir(out))
		if err := put(); err != nil {
			t.Fatal(err)
		}
		if err := buildContent(t, out, map[string]string{"index.html": "site"}); err != nil {
			t.Fatal(err)
		}
	}
	if got := corpustest.ReadTree(t, outside); !maps.Equal(got, map[string]string{"a": "keep"}) {
		t.Errorf("the link's target changed: %v", got)
	}
}
