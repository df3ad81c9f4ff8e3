package importer

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestMutatedFixtures is the fuzz targets' property over a fixed set of
// inputs, so that every go test run holds it: each fixture with bytes
// changed, cut, repeated and truncated (a seeded generator, the same
// inputs every run) gives a report or an error, never a panic.
func TestMutatedFixtures(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var seeds [][]byte
	for _, s := range []string{"bullets.md", "table.md", "flat.md", "unreadable.md", "refs.bib", "zotero.json"} {
		b, err := os.ReadFile(filepath.Join(fixtureDir, s))
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	for range 600 {
		in := bytes.Clone(seeds[rng.Intn(len(seeds))])
		for k := rng.Intn(8) + 1; k > 0 && len(in) > 0; k-- {
			p := rng.Intn(len(in))
			switch rng.Intn(4) {
			case 0:
				in[p] = byte(rng.Intn(256))
			case 1:
				in = append(in[:p], in[min(len(in), p+rng.Intn(50)):]...)
			case 2:
				q := rng.Intn(len(in))
				in = append(in[:p], append(bytes.Clone(in[q:min(len(in), q+rng.Intn(40))]), in[p:]...)...)
			case 3:
				in = in[:p]
			}
		}
		readAll(t, in)
	}
}

// readAll is what the fuzz targets run: read, report, make and check
// the files. Besides never panicking it holds what an import promises:
// every problem is at a line of the source, every entry has a title, a
// year and a link, and files that could be made pass the check (else
// one odd item would stop the whole import).
func readAll(t testing.TB, src []byte) {
	var r Result
	if err := r.Read("fuzz", src, Options{}); err != nil {
		return
	}
	var b bytes.Buffer
	r.Report(&b)
	lines := bytes.Count(src, []byte("\n")) + 1
	for _, p := range r.Problems {
		n, err := strconv.Atoi(strings.TrimPrefix(p.Pos, "fuzz:"))
		if err != nil || n < 1 || n > lines {
			t.Errorf("problem %q is not at a line of the %d-line source", p, lines)
		}
	}
	for _, e := range r.Entries {
		if e.Title == "" || e.Year == 0 || e.URL == "" {
			t.Errorf("entry without a title, year or link: %+v", e)
		}
	}
	files, err := r.Files(nil)
	if err != nil {
		return
	}
	if err := Check("list", files); err != nil {
		t.Errorf("the imported files fail the check:\n%v\n--- papers.csv\n%s", err, files["papers.csv"])
	}
}
