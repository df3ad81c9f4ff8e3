package corpus

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFormatDir: a corpus once rewritten in canonical form has nothing to rewrite; rows out of
// order are a change of papers.csv alone; a file that does not parse is a
// problem with its position, one that cannot be read an Unread problem;
// and nothing is ever written.
func TestFormatDir(t *testing.T) {
	dir := baseCorpus(t)
	if err := Apply(dir, FormatDir(dir).Changes, ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	if r := FormatDir(dir); len(r.Changes)+len(r.Names)+len(r.Problems) != 0 {
		t.Fatalf("the base corpus: %d changes (%v), %d problems, want none", len(r.Changes), r.Names, len(r.Problems))
	}
	papers, _ := os.ReadFile(filepath.Join(dir, PapersFile))
	lines := strings.SplitAfter(string(papers), "\n")
	lines[1], lines[2] = lines[2], lines[1]
	os.WriteFile(filepath.Join(dir, PapersFile), []byte(strings.Join(lines, "")), 0o644)
	before := dirState(t, dir)
	r := FormatDir(dir)
	if len(r.Problems) != 0 || len(r.Names) != 1 || r.Names[0] != PapersFile || string(r.Changes[PapersFile]) != string(papers) {
		t.Fatalf("rows out of order: names %v, problems %v; want papers.csv back in order", r.Names, r.Problems)
	}
	if !maps.Equal(before, dirState(t, dir)) {
		t.Fatal("FormatDir wrote the corpus")
	}
	os.WriteFile(filepath.Join(dir, ExcludedFile), []byte("record_id,title\n\"E001,x\n"), 0o644)
	os.Remove(filepath.Join(dir, SpotcheckFile))
	os.Mkdir(filepath.Join(dir, SpotcheckFile), 0o755)
	before = dirState(t, dir)
	r = FormatDir(dir)
	if len(r.Problems) != 2 || r.Problems[0].Unread || !strings.HasPrefix(r.Problems[0].Err.Error(), filepath.Join(dir, ExcludedFile)+":") || !r.Problems[1].Unread {
		t.Fatalf("problems %v, want excluded.csv's syntax error at its position, then spotcheck.csv unread", r.Problems)
	}
	if !maps.Equal(before, dirState(t, dir)) {
		t.Fatal("FormatDir wrote the corpus")
	}
	var b strings.Builder
	r.WriteProblems(&b, "masrl fmt")
	if want := r.Problems[0].Err.Error() + "\nmasrl fmt: " + r.Problems[1].Err.Error() + "\n"; b.String() != want {
		t.Errorf("WriteProblems:\n%s\nwant:\n%s", b.String(), want)
	}
}
