// Synthetic corpora: inputs for benchmarks at sizes the real corpus will
// not reach for years. Nothing here is part of the published site.

package synth

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/masrl/masrl/corpus"
)

// MaxExclusions is the largest exclusion log a corpus can hold: record ids
// are E followed by three digits, and E000 is not used.
const MaxExclusions = 999

// CorpusOptions says how large a synthetic corpus is and which random
// stream produces it. The same options and model give byte-identical files.
type CorpusOptions struct {
	Entries    int
	Exclusions int
	Seed       uint64
}

// Model is what the generator learned from a real corpus. Each synthetic
// row copies the controlled tags and the shape (text lengths, arXiv or not,
// number of URLs, author form) of one real row drawn at random, so that tag
// distributions, their cross-tabs and field lengths follow the real corpus;
// the text itself is new, drawn from the words of the same column.
type Model struct {
	papers   []*corpus.Entry
	excluded []corpus.Exclusion
	// bibExact is the share of real rows whose BibTeX key equals the row
	// key; the others carry a year suffix, as in the real papers.bib.
	bibExact float64
	words    map[string][]string // column -> words seen in it
	lasts    []string            // family names of "Last, First" authors
	firsts   []string
	orgs     []string // organisation authors ("Kimi Team")
	affils   []string
}

// Learn builds a model from a loaded corpus. The corpus should pass Check:
// its tags are copied as they are.
func Learn(c *corpus.Corpus) (*Model, error) {
	if len(c.Papers) == 0 {
		return nil, errors.New("synth: the corpus has no retained entries to learn from")
	}
	m := &Model{papers: c.Papers, excluded: c.Excluded, words: map[string][]string{}}
	exact := 0
	for i := range c.Papers {
		e := c.Papers[i]
		if b := c.BibFor(e); b == nil || b.Key == e.Key {
			exact++
		}
		for _, col := range []string{"title", "one_liner", "notes", "affiliation"} {
			m.words[col] = append(m.words[col], strings.Fields(e.Value(col))...)
		}
		if last, first, ok := strings.Cut(e.FirstAuthor, ", "); ok {
			m.lasts = append(m.lasts, last)
			m.firsts = append(m.firsts, first)
		} else if e.FirstAuthor != "" {
			m.orgs = append(m.orgs, e.FirstAuthor)
		}
		if e.Affiliation != "" {
			m.affils = append(m.affils, e.Affiliation)
		}
	}
	for i := range c.Excluded {
		m.words["screening_label"] = append(m.words["screening_label"], strings.Fields(c.Excluded[i].ScreeningLabel)...)
	}
	if len(m.words["screening_label"]) == 0 {
		m.words["screening_label"] = m.words["title"]
	}
	for col, ws := range m.words {
		m.words[col] = cleanWords(ws)
	}
	for _, col := range []string{"title", "one_liner", "notes", "screening_label"} {
		if len(m.words[col]) == 0 {
			m.words[col] = []string{"agents"}
		}
	}
	if len(m.lasts) == 0 {
		m.lasts, m.firsts = []string{"Doe"}, []string{"Jane"}
	}
	m.bibExact = float64(exact) / float64(len(c.Papers))
	return m, nil
}

// cleanWords drops characters that BibTeX or a taxonomy slug would
// interpret, so that every generated file stays valid; the word lengths
// and the commas and quotes CSV has to escape are kept.
func cleanWords(ws []string) []string {
	out := ws[:0]
	for _, w := range ws {
		w = strings.Map(func(r rune) rune {
			if strings.ContainsRune(`{}\%@#~^&$`, r) {
				return -1
			}
			return r
		}, w)
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// WriteCorpusFrom learns the model from the corpus in from (Learn) and
// writes a synthetic corpus with it into dir (WriteCorpus): what
// `synth corpus -from` does, and what a test or benchmark needs that
// makes its corpus in its own process.
func WriteCorpusFrom(from, dir string, opt CorpusOptions) error {
	real, err := corpus.Load(from)
	if err != nil {
		return err
	}
	m, err := Learn(real)
	if err != nil {
		return err
	}
	return WriteCorpus(dir, m, opt)
}

// WriteCorpus writes papers.csv, excluded.csv and papers.bib into dir
// (created if needed). It streams rows, so a million entries need little
// more memory than the model.
func WriteCorpus(dir string, m *Model, opt CorpusOptions) error {
	if opt.Entries < 1 {
		return fmt.Errorf("synth: need at least one entry, got %d", opt.Entries)
	}
	if opt.Exclusions < 0 || opt.Exclusions > MaxExclusions {
		return fmt.Errorf("synth: exclusions must be between 0 and %d (record ids are E and three digits), got %d", MaxExclusions, opt.Exclusions)
	}
	if opt.Exclusions > 0 && len(m.excluded) == 0 {
		return errors.New("synth: the model has no exclusions to learn from")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	g := &generator{m: m, rng: rand.New(rand.NewPCG(opt.Seed, opt.Seed^0x9e3779b97f4a7c15)), perYear: map[int]int{}}
	files := []struct {
		name  string
		write func(papers, bib io.Writer) error
	}{
		{corpus.PapersFile, func(p, b io.Writer) error { return g.papers(p, b, opt.Entries) }},
		{corpus.ExcludedFile, func(x, _ io.Writer) error { return g.exclusions(x, opt.Entries, opt.Exclusions) }},
	}
	bibFile, err := os.Create(filepath.Join(dir, corpus.BibFile))
	if err != nil {
		return err
	}
	defer bibFile.Close()
	bib := bufio.NewWriterSize(bibFile, 1<<16)
	fmt.Fprintf(bib, "%% Synthetic bibliography: %d entries, seed %d. Not real papers.\n\n", opt.Entries, opt.Seed)
	for _, f := range files {
		out, err := os.Create(filepath.Join(dir, f.name))
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(out, 1<<16)
		err = f.write(w, bib)
		if err == nil {
			err = w.Flush()
		}
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("synth: %s: %w", f.name, err)
		}
	}
	if err := bib.Flush(); err != nil {
		return err
	}
	return bibFile.Close()
}

type generator struct {
	m   *Model
	rng *rand.Rand
	// perYear numbers the arXiv ids handed out per year, so that every id
	// is new: papers and exclusions share the counter.
	perYear map[int]int
}

func (g *generator) pick(s []string) string { return s[g.rng.IntN(len(s))] }

// code returns a distinct upper-case acronym for every n: bijective base 26
// of n+703, so that every code has at least three letters.
func code(n int) string {
	n += 703
	var b []byte
	for n > 0 {
		n--
		b = append(b, byte('A'+n%26))
		n /= 26
	}
	slices.Reverse(b)
	return string(b)
}

// text fills about n bytes with words of a column; it never starts or ends
// with white space, nor starts as a spreadsheet formula (a learned word
// like "+12%" first would be a check warning).
func (g *generator) text(col string, n int) string {
	if n <= 0 {
		return ""
	}
	ws := g.m.words[col]
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(g.pick(ws))
	}
	s := b.String()
	for corpus.FormulaLeading(s) {
		s = strings.TrimLeft(s[1:], " ")
	}
	if s == "" {
		s = "text"
	}
	return s
}

// arxivID returns a new identifier dated in year.
func (g *generator) arxivID(year int) string {
	k := g.perYear[year]
	g.perYear[year]++
	return fmt.Sprintf("%02d%02d.%05d", year%100, 1+k%12, 1+k/12)
}

// slugWord returns the first word of a title as a lowercase slug of
// letters only, or "x": keys never end in digits, so that a BibTeX key with
// a year suffix cannot be read as another row's key.
func slugWord(title string) string {
	for w := range strings.FieldsSeq(title) {
		var b strings.Builder
		for _, r := range strings.ToLower(w) {
			if r >= 'a' && r <= 'z' {
				b.WriteRune(r)
			}
		}
		if b.Len() >= 2 {
			return b.String()
		}
	}
	return "x"
}

func hostOf(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		return u.Host
	}
	return "example.org"
}

func (g *generator) papers(w, bib io.Writer, n int) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(corpus.PaperColumns()); err != nil {
		return err
	}
	rec := make([]string, len(corpus.PaperColumns()))
	for i := range n {
		t := g.m.papers[g.rng.IntN(len(g.m.papers))]
		acr := code(i)
		words := g.text("title", max(len(t.Title)-len(acr)-2, 1))
		title := acr + ": " + words
		key := strings.ToLower(acr) + "-" + slugWord(words)
		year := t.Year
		if year == 0 {
			year = 2025
		}
		var arxiv, urls string
		if t.ArxivID != "" && year >= 2008 {
			arxiv = g.arxivID(year)
			urls = "https://arxiv.org/abs/" + arxiv
		} else {
			urls = "https://" + hostOf(t.URL) + "/synth/" + key
		}
		for j := 1; j < len(t.URLs); j++ {
			urls += " ; https://" + hostOf(t.URLs[j]) + "/synth/" + key + "/" + strconv.Itoa(j+1)
		}
		author := g.pick(g.m.lasts) + ", " + g.pick(g.m.firsts)
		if !strings.Contains(t.FirstAuthor, ", ") && len(g.m.orgs) > 0 {
			author = g.pick(g.m.orgs)
		}
		affil := ""
		if t.Affiliation != "" && len(g.m.affils) > 0 {
			affil = g.pick(g.m.affils)
		}
		// The generated texts are drawn in this order, one_liner first, so
		// that a seed gives the same corpus it always has.
		oneLiner := g.text("one_liner", len(t.OneLiner))
		notes := g.text("notes", len(t.Notes))
		made := map[string]string{"key": key, "title": title, "first_author": author, "affiliation": affil,
			"year": strconv.Itoa(year), "arxiv_id": arxiv, "url": urls, "one_liner": oneLiner, "notes": notes}
		for j, col := range corpus.PaperColumns() {
			v, ok := made[col]
			if !ok {
				v = t.Value(col) // venue and the controlled fields, as the model row has them
			}
			rec[j] = v
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
		bibKey := key
		if g.rng.Float64() >= g.m.bibExact {
			sep := ""
			if g.rng.IntN(2) == 0 {
				sep = "-"
			}
			bibKey = key + sep + strconv.Itoa(year)
		}
		writeBib(bib, bibKey, title, author, arxiv, strings.Split(urls, " ; "), year)
	}
	cw.Flush()
	return cw.Error()
}

// writeBib writes one BibTeX entry in the layout of the real papers.bib:
// @article citing the arXiv preprint, or @misc with \url for other sources.
func writeBib(w io.Writer, key, title, author, arxiv string, urls []string, year int) {
	if arxiv != "" {
		fmt.Fprintf(w, "@article{%s,\n  title   = {%s},\n  author  = {%s and others},\n  journal = {arXiv preprint arXiv:%s},\n  year    = {%d},\n  url     = {%s},\n}\n\n",
			key, title, author, arxiv, year, urls[0])
		return
	}
	for i, u := range urls {
		urls[i] = `\url{` + u + `}`
	}
	fmt.Fprintf(w, "@misc{%s,\n  title        = {%s},\n  author       = {%s},\n  howpublished = {%s},\n  year         = {%d},\n}\n\n",
		key, title, author, strings.Join(urls, "; "), year)
}

func (g *generator) exclusions(w io.Writer, entries, n int) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(corpus.ExcludedColumns()); err != nil {
		return err
	}
	for j := range n {
		t := &g.m.excluded[g.rng.IntN(len(g.m.excluded))]
		acr := code(entries + j) // distinct from every retained title
		label := acr + ": " + g.text("screening_label", max(len(t.ScreeningLabel)-len(acr)-2, 1))
		var ident, u string
		if strings.HasPrefix(t.Identifier, "arXiv:") {
			year := 2023
			if id := strings.TrimPrefix(t.Identifier, "arXiv:"); len(id) >= 2 {
				if yy, err := strconv.Atoi(id[:2]); err == nil {
					year = 2000 + yy
				}
			}
			id := g.arxivID(year)
			ident, u = "arXiv:"+id, "https://arxiv.org/abs/"+id
		} else {
			ident = "SYNTH-" + acr
			u = "https://" + hostOf(t.URL) + "/excluded/" + strings.ToLower(acr)
		}
		rec := []string{fmt.Sprintf("E%03d", j+1), t.Source, t.QueryFamily, label, ident, u,
			t.DateScreened, string(t.Stage), t.ExclusionReason}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// EditTitle returns papers.csv's text with key's title set to title: the
// one-row edit the live benchmarks make (benchrun's live section, the
// browser's reload test). It fails when the text has no title column or
// no row of key.
func EditTitle(papers []byte, key, title string) ([]byte, error) {
	rows, err := csv.NewReader(bytes.NewReader(papers)).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, errors.New("papers.csv is empty")
	}
	col := slices.Index(rows[0], "title")
	if col < 0 {
		return nil, errors.New("papers.csv has no title column")
	}
	found := false
	for _, r := range rows[1:] {
		if len(r) > col && r[0] == key {
			r[col], found = title, true
		}
	}
	if !found {
		return nil, fmt.Errorf("papers.csv has no row %q", key)
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.WriteAll(rows)
	return b.Bytes(), w.Error()
}
