package awesome

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUpdateFile: a stale block is reported and, unless checking,
// replaced with the text around it kept; an up-to-date file is left as
// it is; a file without the markers is refused with its name.
func TestUpdateFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "README.md")
	doc := "# Mine\n" + BeginMarker + "\nold\n" + EndMarker + "\nafter\n"
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, check := range []bool{true, false} {
		stale, err := UpdateFile(file, []byte("new\n"), check)
		b, _ := os.ReadFile(file)
		want := doc
		if !check {
			want = strings.Replace(doc, "old", "new", 1)
		}
		if err != nil || !stale || string(b) != want {
			t.Errorf("check %v: stale %v, %v; file %q, want %q", check, stale, err, b, want)
		}
	}
	if stale, err := UpdateFile(file, []byte("new\n"), true); err != nil || stale {
		t.Errorf("up to date: stale %v, %v", stale, err)
	}
	if err := os.WriteFile(file, []byte("# no block\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := UpdateFile(file, []byte("new\n"), false); !errors.Is(err, ErrNoMarkers) || !strings.HasPrefix(err.Error(), file+": ") {
		t.Errorf("no markers: %v", err)
	}
}

// TestStandaloneMeta: without the survey's pool, a standalone list needs
// its own title and description, and says them.
func TestStandaloneMeta(t *testing.T) {
	if _, ok := StandaloneMeta(nil, nil, "Mine", ""); ok {
		t.Error("a list without a description got words")
	}
	m, ok := StandaloneMeta(nil, nil, "Mine", "Papers on X.")
	if !ok || m != ListMeta("Mine", "Papers on X.") {
		t.Errorf("a list's own words: %+v, %v", m, ok)
	}
}
