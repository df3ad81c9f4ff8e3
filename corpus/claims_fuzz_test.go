package corpus

import (
	"os"
	"path/filepath"
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
	v := testVocab(f)
	c, err := LoadPapersFile(filepath.Join("testdata", "claims", "papers.csv"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		cl, err := ParseClaims("fuzz.yaml", b, v)
		if err != nil {
			return
		}
		for _, r := range VerifyClaims(c, v, cl) {
			if r.Status == "" || r.Pos.File != "fuzz.yaml" {
				t.Fatalf("result %+v lacks a status or position", r)
			}
		}
	})
}
