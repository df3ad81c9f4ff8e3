package intake

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
)

// addRecordings adds the recorded answers with the given suffix as seeds.
func addRecordings(f *testing.F, suffix string) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*"+suffix))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
}

// FuzzParseArxiv: any answer of the arXiv API is read without panic, and
// what it yields drafts a BibTeX entry that parses.
func FuzzParseArxiv(f *testing.F) {
	addRecordings(f, ".atom")
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := parseArxiv("2606.01234", b)
		if err != nil {
			return
		}
		checkDraft(t, m)
	})
}

// FuzzParseCSL: the same for doi.org's CSL JSON.
func FuzzParseCSL(f *testing.F) {
	addRecordings(f, ".json")
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := parseCSL("10.5555/x", b)
		if err != nil {
			return
		}
		checkDraft(t, m)
	})
}

// FuzzDraftBib: whatever text the metadata holds, the drafted entry is one
// BibTeX entry that formats without error and keeps the title's words.
func FuzzDraftBib(f *testing.F) {
	f.Add("OrchestraRL: Routing {LLM} Agents", "Jane Doe", "Proc. of X & Y")
	f.Add("Unbalanced } { braces % and \\", "}{", "a\\")
	f.Fuzz(func(t *testing.T, title, author, venue string) {
		m := &Metadata{Title: oneLine(title), Authors: []Author{splitName(author)}, Year: 2026, Kind: "inproceedings", Booktitle: venue, URL: "https://example.org/{x}"}
		checkDraft(t, m)
	})
}

func checkDraft(t *testing.T, m *Metadata) {
	t.Helper()
	d := NewDraft(m, "k", map[string]string{}, "x", "")
	out, err := corpus.FormatBib("papers.bib", []byte(d.BibText))
	if err != nil {
		t.Fatalf("drafted entry does not parse: %v\n%s", err, d.BibText)
	}
	n := 0
	for line := range strings.SplitSeq(string(out), "\n") {
		if strings.HasPrefix(line, "@") {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("drafted entry became %d entries:\n%s", n, out)
	}
}
