package outdir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutFile rewrites a file with equal, shorter, longer and different
// content, in one write and in several, and checks the file then holds
// exactly the new content, in the same inode.
func TestOutFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "f.html")
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
		if err := os.WriteFile(name, []byte(old), 0o644); err != nil {
			t.Fatal(err)
		}
		before, _ := os.Stat(name)
		for _, exists := range []bool{true, false} {
			f, err := openOut(name, exists)
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
			got, _ := os.ReadFile(name)
			if want := strings.Join(tt.writes, ""); string(got) != want {
				t.Errorf("%s (exists %v): file holds %q, want %q", tt.name, exists, got, want)
			}
			if after, _ := os.Stat(name); !os.SameFile(before, after) {
				t.Errorf("%s: the file was replaced, not rewritten", tt.name)
			}
		}
	}
}
