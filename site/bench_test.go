package site

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/site/outdir"

	"github.com/masrl/masrl/internal/corpustest"
)

// generatedCorpus writes a corpus of n entries built from the tiny
// fixture's rows with fresh keys, titles and arXiv ids.
func generatedCorpus(b testing.TB, n int) string {
	b.Helper()
	dir := corpusFromTxtar(b, "tiny.txtar")
	raw, err := os.ReadFile(filepath.Join(dir, "papers.csv"))
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	header, rows := lines[0], lines[1:]
	var out strings.Builder
	out.WriteString(header + "\n")
	for i := range n {
		row := rows[i%len(rows)]
		key, rest, _ := strings.Cut(row, ",")
		rest = strings.Replace(rest, "2508.04652", fmt.Sprintf("2508.%05d", i), -1)
		rest = strings.Replace(rest, "2301.00001", fmt.Sprintf("2301.%05d", i), -1)
		rest = strings.Replace(rest, "2502.00002", fmt.Sprintf("2502.%05d", i), -1)
		fmt.Fprintf(&out, "%s-%d,Paper %d %s\n", key, i, i, rest)
	}
	if err := os.WriteFile(filepath.Join(dir, "papers.csv"), []byte(out.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	// The spot-check and the bib refer to the fixture's keys; drop them.
	os.Remove(filepath.Join(dir, "spotcheck.csv"))
	os.WriteFile(filepath.Join(dir, "papers.bib"), nil, 0o644)
	return dir
}

// BenchmarkBuild measures a whole build (load, check, render, write) of a
// generated corpus of 300 entries, about three and a half times the real
// one. The fixture's rows fall into few reward × credit cells, so every
// entry page lists a quarter of the corpus as cell neighbours: a harsher
// case than real data.
func BenchmarkBuild(b *testing.B) {
	dir := generatedCorpus(b, 300)
	out := filepath.Join(b.TempDir(), "public")
	b.ResetTimer()
	for b.Loop() {
		if _, err := Build(openCorpus(b, dir, nil), Options{Out: out}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderEntryPage measures one entry page as the build writes
// it: entry.html inside layout.html, with its frame and pieces ready.
func BenchmarkRenderEntryPage(b *testing.B) {
	r, ep := benchEntryPage(b)
	r.frame("entry", &ep.Page)
	for b.Loop() {
		if err := r.tmpl["entry"].ExecuteTemplate(io.Discard, "layout", ep); err != nil {
			b.Fatal(err)
		}
	}
}

func benchEntryPage(b testing.TB) (*renderer, *entryPage) {
	b.Helper()
	r, err := render(openCorpus(b, corpusFromTxtar(b, "tiny.txtar"), nil), Options{}, outdir.Memory())
	if err != nil {
		b.Fatal(err)
	}
	return r, r.entryPage(r.byKey["alpha"])
}

// BenchmarkBuildReal measures a build of the survey's corpus (MASRL_CORPUS).
func BenchmarkBuildReal(b *testing.B) {
	dir := corpustest.Dir(b)
	out := filepath.Join(b.TempDir(), "public")
	for b.Loop() {
		if _, err := Build(openCorpus(b, dir, nil), Options{Out: out}); err != nil {
			b.Fatal(err)
		}
	}
}
