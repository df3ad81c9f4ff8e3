package outdir

import (
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutFile rewrites a file with equal, shorter, longer and different
// content, in one write and in several, and checks the file then holds
// exactly the new content and its sum; that an equal file keeps its
// inode; and that a changed one is a new file, so that a hard link to
// the old one (a snapshot) keeps the old bytes.
func TestOutFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f.html")
	snap := filepath.Join(dir, "snap.html")
	const old = "<p>hello, world</p>\n"
	for _, tt := range []struct {
		name   string
		writes []string
	}{
		{"equal", []string{old}},
		{"equal in pieces", []string{"<p>hel", "lo, world</p>", "\n"}},
		{"shorter", []string{"<p>hello"}},
		{"longer", []string{old, "<p>more</p>\n"}},
		{"differs in the middle", []string{"<p>hello, there</p>\n"}},
		{"differs in a later piece", []string{"<p>hello, ", "World</p>\n"}},
		{"empty", nil},
	} {
		for _, exists := range []bool{true, false} {
			os.Remove(snap)
			if err := os.WriteFile(name, []byte(old), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(name, snap); err != nil {
				t.Fatal(err)
			}
			before, _ := os.Stat(name)
			fs := newDirFiles(dir, nil)
			f, err := openOut(fs, "f.html", name, exists)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.writes {
				if n, err := f.Write([]byte(w)); err != nil || n != len(w) {
					t.Fatalf("%s: write %q: %d, %v", tt.name, w, n, err)
				}
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			want := strings.Join(tt.writes, "")
			got, _ := os.ReadFile(name)
			if string(got) != want {
				t.Errorf("%s (exists %v): file holds %q, want %q", tt.name, exists, got, want)
			}
			if s := fs.sums["f.html"]; s.size != int64(len(want)) || s.crc != crc32.Checksum([]byte(want), castagnoli) {
				t.Errorf("%s (exists %v): sum %v", tt.name, exists, s)
			}
			if b, _ := os.ReadFile(snap); string(b) != old {
				t.Errorf("%s (exists %v): the hard link to the old file now holds %q", tt.name, exists, b)
			}
			after, _ := os.Stat(name)
			if same := os.SameFile(before, after); same != (exists && want == old) {
				t.Errorf("%s (exists %v): same inode %v", tt.name, exists, same)
			}
		}
	}
}
