package refresh

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"

	"github.com/masrl/masrl/internal/golden"
)

// TestApplyBib: the BibTeX entries of the refreshed rows cite the
// published versions (venue in the field their type puts it, year, DOI,
// the arXiv id kept), the other entries stay byte for byte, and the
// refreshed corpus has no BibTeX finding (a year that disagrees, an arXiv
// id lost).
func TestApplyBib(t *testing.T) {
	s := recordings(t)
	dir := filepath.Join("testdata", "corpus")
	c, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	cl := client(s)
	cl.OpenAlexKey = "test-key" // delta's ICML version, an inproceedings
	res, err := Propose(context.Background(), c, Options{Client: cl, OpenAlex: true})
	if err != nil {
		t.Fatal(err)
	}
	papers, err := os.ReadFile(filepath.Join(dir, corpus.PapersFile))
	if err != nil {
		t.Fatal(err)
	}
	bib, err := os.ReadFile(filepath.Join(dir, corpus.BibFile))
	if err != nil {
		t.Fatal(err)
	}
	newPapers, err := Apply(corpus.PapersFile, papers, res.Proposals)
	if err != nil {
		t.Fatal(err)
	}
	newBib, edited, ds, err := ApplyBib(corpus.BibFile, bib, c, res.Proposals)
	if err != nil || len(ds) > 0 {
		t.Fatalf("ApplyBib: %v %v", err, ds)
	}
	var got []string
	for _, ch := range edited {
		got = append(got, ch.String())
	}
	wantChanges := []string{
		"testdata/corpus/papers.bib:4:1: alpha2025: journal, year, eprint, archiveprefix, doi",
		"testdata/corpus/papers.bib:20:1: delta2026: type, booktitle, doi; removes journal",
		"testdata/corpus/papers.bib:28:1: epsilon2025: type, journal, year, doi; removes publisher, howpublished",
	}
	if !slices.Equal(got, wantChanges) {
		t.Errorf("changes (gamma's proposal is a notice alone):\n got %q\nwant %q", got, wantChanges)
	}
	golden.Check(t, filepath.Join("testdata", "papers-refreshed.bib"), newBib)
	for _, key := range []string{"beta2025", "gamma2024", "zeta2025"} {
		if e := entryText(bib, key); e == "" || !bytes.Contains(newBib, []byte(e)) {
			t.Errorf("%s changed or is missing:\n%s", key, e)
		}
	}
	if f, err := corpus.FormatBib(corpus.BibFile, newBib); err != nil || !bytes.Equal(f, newBib) {
		t.Errorf("not in fmt's form (%v)", err)
	}

	// The corpus as refresh --write leaves it: no finding about BibTeX.
	out := t.TempDir()
	if err := corpus.WriteFiles(out, map[string][]byte{corpus.PapersFile: newPapers, corpus.BibFile: newBib, corpus.ExcludedFile: []byte(strings.Join(corpus.ExcludedColumns(), ",") + "\n")}); err != nil {
		t.Fatal(err)
	}
	nc, err := corpus.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range corpus.Check(nc, vocabulary(t), corpus.CheckOptions{}) {
		t.Errorf("refreshed corpus: %s", d)
	}
	// Applying the same proposals again changes nothing more.
	again, changed, _, err := ApplyBib(corpus.BibFile, newBib, nc, res.Proposals)
	if err != nil || !bytes.Equal(again, newBib) || len(changed) > 0 {
		t.Errorf("a second ApplyBib changed the file (%v, %v):\n%s", err, changed, again)
	}
}

// TestApplyBibComment: an entry with a comment inside is left as it was,
// with a warning at its position, and the others are still updated.
func TestApplyBibComment(t *testing.T) {
	c, err := corpus.Load(filepath.Join("testdata", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	bib, err := os.ReadFile(filepath.Join("testdata", "corpus", corpus.BibFile))
	if err != nil {
		t.Fatal(err)
	}
	bib = bytes.Replace(bib, []byte("  title   = {Alpha: a method},\n"), []byte("  title   = {Alpha: a method}, % as submitted\n"), 1)
	ps := []Proposal{
		{Key: "alpha", Set: map[string]string{"year": "2026"}},
		{Key: "beta", Set: map[string]string{"year": "2026"}},
	}
	out, edited, ds, err := ApplyBib(filepath.Join("testdata", "corpus", corpus.BibFile), bib, c, ps)
	if err != nil {
		t.Fatal(err)
	}
	if len(edited) != 1 || edited[0].String() != "testdata/corpus/papers.bib:12:1: beta2025: year" {
		t.Errorf("edited %v, want beta2025's year alone", edited)
	}
	if len(ds) != 1 || ds[0].String() != "testdata/corpus/papers.bib:4:1: warning: bib: alpha2025 not updated by refresh: the entry holds a comment, which rewriting it would lose; update it by hand as papers.csv's row says" {
		t.Errorf("findings %v, want one warning at papers.bib:4:1", ds)
	}
	if !bytes.Contains(out, []byte(entryText(bib, "alpha2025"))) {
		t.Error("alpha2025 was rewritten")
	}
	if !strings.Contains(entryText(out, "beta2025"), "year    = {2026},") {
		t.Errorf("beta2025 not updated:\n%s", entryText(out, "beta2025"))
	}
}

// entryText is the text of the entry with key in src, up to its closing
// line.
func entryText(src []byte, key string) string {
	s := string(src)
	i := strings.Index(s, "{"+key+",")
	if i < 0 {
		return ""
	}
	i = strings.LastIndex(s[:i], "@")
	j := strings.Index(s[i:], "\n}")
	return s[i : i+j+2]
}

func vocabulary(t *testing.T) *corpus.Vocabulary {
	t.Helper()
	d, err := corpus.LoadData(nil, "", "")
	if err != nil {
		t.Fatal(err)
	}
	return d.Vocabulary
}
