package outdir

import "testing"

// TestWriteDirRefusesEscapes: no name leaves the output directory, and no
// two outputs share one.
func TestWriteDirRefusesEscapes(t *testing.T) {
	fs := Memory()
	for _, name := range []string{"../x", "/abs", "a/../../b", "a//b", "./a", "a\\b", ""} {
		if err := fs.Add(name, nil); err == nil {
			t.Errorf("add(%q) accepted", name)
		}
	}
	if err := fs.Add("a/b.html", nil); err != nil {
		t.Fatal(err)
	}
	if err := fs.Add("a/b.html", nil); err == nil {
		t.Error("duplicate output accepted")
	}
}
