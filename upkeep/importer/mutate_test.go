package importer

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
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
		readAll(in)
	}
}

// readAll is what the fuzz targets run: read, report, make and check
// the files.
func readAll(src []byte) {
	var r Result
	if err := r.Read("fuzz", src, Options{}); err != nil {
		return
	}
	var b bytes.Buffer
	r.Report(&b)
	if files, err := r.Files(nil); err == nil {
		_ = Check("list", files)
	}
}
