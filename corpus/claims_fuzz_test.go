package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/data"
)

// FuzzParseClaims feeds arbitrary claims files to the parser: it must
// return claims or an error, never panic, and every claim it accepts must
// verify against a corpus without panicking.
func FuzzParseClaims(f *testing.F) {
	for _, name := range []string{"claims.yaml", "bad.yaml"} {
		b, err := os.ReadFile(filepath.Join("testdata", "claims", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	real, err := data.FS.ReadFile("claims.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(real)
	for _, s := range []string{"", "# no claims\n", "claimz: []\n", "legend: {t: {fields: 3}}\nclaims: []\n", "claims:\n  - id: a\n    line: x\n    expekt: 1\n", "claims: [\x01]\n", "pool: \xff\n"} {
		f.Add([]byte(s))
	}
	v := testVocab(f)
	c, err := LoadPapersFile(filepath.Join("testdata", "claims", "papers.csv"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		cl, err := ParseClaims("fuzz.yaml", b, v)
		if err != nil {
			// Every problem is at a line, in the file's terms.
			var ce *CheckError
			if !errors.As(err, &ce) {
				t.Fatalf("%q: error %v is not a *CheckError", b, err)
			}
			for _, d := range ce.Diagnostics {
				if d.Pos.Line < 1 || strings.Contains(d.Message, "corpus.") || strings.Contains(d.Message, "!!") {
					t.Fatalf("%q: finding %q lacks a line or names a Go or YAML type", b, d)
				}
			}
			return
		}
		for _, r := range VerifyClaims(c, v, cl) {
			if r.Status == "" || r.Pos.File != "fuzz.yaml" {
				t.Fatalf("result %+v lacks a status or position", r)
			}
		}
	})
}

// FuzzParseMentions feeds arbitrary mentions files to the parser: it
// must return mentions or an error, never panic; what it accepts has its
// references numbered in order, each key cited once, and every mention
// of a cited key in the order of the paper.
func FuzzParseMentions(f *testing.F) {
	for _, name := range []string{"mentions.yaml", "badmentions.yaml"} {
		b, err := os.ReadFile(filepath.Join("testdata", "claims", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	real, err := data.FS.ReadFile("survey-mentions.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(real)
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseMentions("fuzz.yaml", b)
		if err != nil {
			return
		}
		cited := map[string]bool{}
		for i, r := range m.References {
			if r.Number != i+1 || cited[r.Key] {
				t.Fatalf("reference %d of %d: %+v", i, len(m.References), r)
			}
			cited[r.Key] = true
		}
		for k, ms := range m.ByKey {
			for i := range ms {
				if !cited[k] || i > 0 && ms[i].Line < ms[i-1].Line {
					t.Fatalf("mentions of %s: %+v", k, ms)
				}
			}
		}
		for i := range m.Sections {
			if i > 0 && m.Sections[i].Line <= m.Sections[i-1].Line {
				t.Fatalf("sections out of order: %+v", m.Sections)
			}
			_ = m.SectionAt(m.Sections[i].Line)
		}
	})
}
