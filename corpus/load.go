// Package corpus is the paper pool as typed Go values: it loads the CSVs and
// the BibTeX file with the position of every field, checks them against the
// controlled vocabularies, and counts them.
package corpus

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// File names inside a corpus directory.
const (
	PapersFile    = "papers.csv"
	ExcludedFile  = "excluded.csv"
	BibFile       = "papers.bib"
	SpotcheckFile = "spotcheck.csv"
)

// Corpus is a loaded paper pool. Loading never rejects content: every
// problem found while reading (CSV syntax, invalid UTF-8, a short record)
// is kept as a diagnostic and reported by Check with the others.
type Corpus struct {
	Dir      string
	Papers   []Entry
	Excluded []Exclusion
	Bib      []BibEntry
	Audits   []Audit // nil when there is no spotcheck.csv

	HasExcluded, HasBib, HasSpotcheck bool

	papers, excluded, spotcheck *table
	loadDiags                   Diagnostics
	bibIdx                      bibIndex
}

// Load reads a corpus directory: papers.csv (required), excluded.csv and
// papers.bib (expected; their absence is a finding), spotcheck.csv
// (optional). The error is only for I/O failures; content problems are
// diagnostics.
func Load(dir string) (*Corpus, error) {
	c := &Corpus{Dir: dir}
	b, err := os.ReadFile(filepath.Join(dir, PapersFile))
	if err != nil {
		return nil, err
	}
	if err := c.loadPapers(filepath.Join(dir, PapersFile), b); err != nil {
		return nil, err
	}
	optional := func(name string) ([]byte, bool, error) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false, nil
		}
		return b, err == nil, err
	}
	if b, ok, err := optional(ExcludedFile); err != nil {
		return nil, err
	} else if ok {
		if err := c.loadExcluded(filepath.Join(dir, ExcludedFile), b); err != nil {
			return nil, err
		}
	} else {
		c.loadDiags.add(Error, Pos{File: filepath.Join(dir, ExcludedFile)}, "", "", "missing: the exclusion log is part of the corpus")
	}
	if b, ok, err := optional(BibFile); err != nil {
		return nil, err
	} else if ok {
		c.HasBib = true
		var d Diagnostics
		c.Bib, d = parseBib(filepath.Join(dir, BibFile), b)
		c.loadDiags = append(c.loadDiags, d...)
		c.bibIdx = newBibIndex(c.Bib)
	} else {
		c.loadDiags.add(Warning, Pos{File: filepath.Join(dir, BibFile)}, "", "", "missing: entries will have no BibTeX")
	}
	if b, ok, err := optional(SpotcheckFile); err != nil {
		return nil, err
	} else if ok {
		if err := c.loadSpotcheck(filepath.Join(dir, SpotcheckFile), b); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// LoadPapersFile reads a single papers.csv, for comparing versions of it
// (the history folder holds papers.csv files without the rest of a corpus).
func LoadPapersFile(path string) (*Corpus, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c := &Corpus{Dir: filepath.Dir(path)}
	if err := c.loadPapers(path, b); err != nil {
		return nil, err
	}
	return c, nil
}

// ParsePapers reads papers.csv content; name is used in positions. It is
// the entry point of the loader's fuzz test.
func ParsePapers(name string, b []byte) (*Corpus, error) {
	c := &Corpus{}
	return c, c.loadPapers(name, b)
}

func (c *Corpus) loadPapers(name string, b []byte) error {
	t := readTable(name, b)
	c.papers = t
	c.loadDiags = append(c.loadDiags, t.diags...)
	if err := t.decode(&c.Papers); err != nil {
		return fmt.Errorf("%s: decoding rows: %w", name, err)
	}
	for i := range c.Papers {
		e := &c.Papers[i]
		e.file = name
		e.Line = t.recordLine(i)
		t.columnPositions(i, paperColumns[:], e.pos[:])
		e.URLs = SplitURLs(e.URL)
		if y, err := strconv.Atoi(strings.TrimSpace(e.YearText)); err == nil {
			e.Year = y
		}
	}
	return nil
}

func (c *Corpus) loadExcluded(name string, b []byte) error {
	c.HasExcluded = true
	t := readTable(name, b)
	c.excluded = t
	c.loadDiags = append(c.loadDiags, t.diags...)
	if err := t.decode(&c.Excluded); err != nil {
		return fmt.Errorf("%s: decoding rows: %w", name, err)
	}
	for i := range c.Excluded {
		x := &c.Excluded[i]
		x.file = name
		x.Line = t.recordLine(i)
		t.columnPositions(i, excludedColumns[:], x.pos[:])
	}
	return nil
}

func (c *Corpus) loadSpotcheck(name string, b []byte) error {
	c.HasSpotcheck = true
	t := readTable(name, b)
	c.spotcheck = t
	c.loadDiags = append(c.loadDiags, t.diags...)
	if err := t.decode(&c.Audits); err != nil {
		return fmt.Errorf("%s: decoding rows: %w", name, err)
	}
	if c.Audits == nil {
		c.Audits = []Audit{}
	}
	for i := range c.Audits {
		a := &c.Audits[i]
		a.file = name
		a.Line = t.recordLine(i)
		a.pos = make(map[string]fieldPos, len(t.header))
		for j, h := range t.header {
			if j < len(t.pos[i]) {
				a.pos[h] = t.pos[i][j]
			}
		}
	}
	return nil
}

// Entry returns the retained entry with the given key, or nil.
func (c *Corpus) Entry(key string) *Entry {
	for i := range c.Papers {
		if c.Papers[i].Key == key {
			return &c.Papers[i]
		}
	}
	return nil
}

// BibFor returns the BibTeX entry of a retained row: the bib key equals the
// row key, or is the key followed by a year with or without a hyphen
// (magrpo -> magrpo2025, c3 -> c3-2026), the three forms the real file uses.
// An entry with the row's own year is preferred; a different year still
// resolves, so that Check can report the contradiction instead of a
// missing entry.
func (c *Corpus) BibFor(e *Entry) *BibEntry {
	if m := c.bibMatches(e); len(m) > 0 {
		return &c.Bib[m[0]]
	}
	return nil
}

// bibMatches returns the indexes of the BibTeX entries that resolve to e,
// best first: exact key, key with the row's year, key with another year.
// Ties keep file order.
func (c *Corpus) bibMatches(e *Entry) []int {
	if e.Key == "" {
		return nil
	}
	y := strings.TrimSpace(e.YearText)
	rank := func(bibKey string) int {
		rest, ok := strings.CutPrefix(bibKey, e.Key)
		switch {
		case !ok:
			return -1
		case rest == "":
			return 0
		case rest == y || rest == "-"+y:
			return 1
		}
		rest = strings.TrimPrefix(rest, "-")
		if len(rest) == 4 && strings.Trim(rest, "0123456789") == "" {
			return 2
		}
		return -1
	}
	candidates := c.bibIdx.candidates(c.Bib, e.Key, y)
	var out []int
	for r := 0; r <= 2; r++ {
		for _, i := range candidates {
			if rank(c.Bib[i].Key) == r {
				out = append(out, i)
			}
		}
	}
	return out
}

// bibIndex maps the keys a BibTeX entry can resolve from to its indexes in
// Corpus.Bib, so that resolving every row is linear in the corpus: a scan
// of the whole bibliography per row took minutes at 100,000 entries.
type bibIndex struct {
	n     int
	first *BibEntry
	// byKey holds every BibTeX key; byStem holds the key without a trailing
	// four-digit year, and without "-" and the year.
	byKey, byStem map[string][]int
}

func newBibIndex(bib []BibEntry) bibIndex {
	x := bibIndex{n: len(bib), byKey: make(map[string][]int, len(bib)), byStem: map[string][]int{}}
	if len(bib) > 0 {
		x.first = &bib[0]
	}
	for i := range bib {
		k := bib[i].Key
		x.byKey[k] = append(x.byKey[k], i)
		if n := len(k); n >= 4 && strings.Trim(k[n-4:], "0123456789") == "" {
			stem := k[:n-4]
			x.byStem[stem] = append(x.byStem[stem], i)
			if s, ok := strings.CutSuffix(stem, "-"); ok {
				x.byStem[s] = append(x.byStem[s], i)
			}
		}
	}
	return x
}

// candidates returns, in file order and without repeats, the indexes of
// every entry of bib whose key may resolve to a row with key and year: a
// superset of bibMatches' result. When the index does not describe bib
// (a Corpus built by hand, or Bib replaced after loading), it returns
// every index.
func (x *bibIndex) candidates(bib []BibEntry, key, year string) []int {
	if x.n != len(bib) || x.byKey == nil || (len(bib) > 0 && x.first != &bib[0]) {
		all := make([]int, len(bib))
		for i := range all {
			all[i] = i
		}
		return all
	}
	var out []int
	out = append(out, x.byKey[key]...)
	if year != "" {
		out = append(out, x.byKey[key+year]...)
		out = append(out, x.byKey[key+"-"+year]...)
	}
	out = append(out, x.byStem[key]...)
	slices.Sort(out)
	return slices.Compact(out)
}

// Audit returns the spot-check audit of an entry, or nil when it was not audited.
func (c *Corpus) Audit(key string) *Audit {
	for i := range c.Audits {
		if c.Audits[i].Key == key {
			return &c.Audits[i]
		}
	}
	return nil
}
