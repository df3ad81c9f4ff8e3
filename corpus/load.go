// Package corpus is the paper pool as typed Go values: it loads the CSVs and
// the BibTeX file with the position of every field, checks them against the
// controlled vocabularies, and counts them.
//
// # Columns declared in data
//
// A list's controlled fields are not Go types: they are declared in a
// vocab.yaml (Vocabulary), the list's own beside its papers.csv when it
// has one (ListVocabulary, LoadDataFor, Open), else the data directory's
// (data/vocab.yaml: the survey's eight fields). Entry holds the columns
// masrl itself reads as fields: key, title, year and url, which every
// list needs, and first_author, affiliation, arxiv_id, venue, one_liner
// and notes, used where present. Every other column, the controlled ones
// among them, is read by name (Entry.Value); a column neither read nor
// controlled is free text.
//
// The vocabulary may fix the header (Vocabulary.Columns): the survey's
// declares its 18 columns, and Check then wants exactly those, in order,
// every one non-empty but affiliation, arxiv_id and notes. Without it the
// header may hold its columns in any order; Check wants key, title, year,
// url and each controlled field of papers.csv once, and a value in every
// row for those. excluded.csv is required only when the vocabulary
// declares a field of it. Vocabulary.CrossTabs are the default cross-tabs
// (stats, the site's coverage page), and the first field with a
// list_order (else the first field) groups the paper list (ListField).
// A vocab.yaml is untrusted input: ParseVocabulary reports every problem
// at its file:line:col and never panics (FuzzParseVocabulary).
package corpus

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"
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
	Dir string
	// Papers are papers.csv's rows in file order. They are held by
	// pointer: a corpus reopened after an edit (Reopen) shares the rows
	// that did not change with the corpus before, whose readers (the
	// last build's views) still read them, so nothing writes into a
	// loaded row.
	Papers   []*Entry
	Excluded []Exclusion
	Bib      []BibEntry
	Audits   []Audit // nil when there is no spotcheck.csv

	HasExcluded, HasBib, HasSpotcheck bool
	// wholeDir is set when the corpus is a directory read whole (Load),
	// not a single papers.csv: only then is a missing file a finding.
	wholeDir bool

	papers, excluded, spotcheck *table
	loadDiags                   Diagnostics
	eachPaper                   func(*Entry) // LoadOptions.EachPaper
	paperColumns                []string     // LoadOptions.Columns
	// bibIdx is built on the first BibTeX lookup, so that loading for
	// counts alone does not pay for it; bibOnce is a pointer so that a
	// Corpus stays copyable.
	bibIdx  bibIndex
	bibOnce *sync.Once
	// bibSrc is the text papers.bib was parsed from (its entries' Raw are
	// pieces of it) and bibDiags what parsing it found, so that a later
	// load (LoadOptions.Previous) can tell it unchanged and keep them.
	bibSrc   string
	bibDiags Diagnostics
	// kept is papers.csv's text and its records' ends, kept for a later
	// load when LoadOptions.Keep asked for it; nil otherwise.
	kept *keptPapers
	// papersSrc, excludedSrc and introSrc are the text of papers.csv,
	// excluded.csv and intro.md as loading read them, and introErr why
	// intro.md could not be read (other than its absence): the site
	// publishes them from here (Source), so that each file is read once.
	papersSrc, excludedSrc, introSrc string
	hasPapersSrc, hasExcludedSrc     bool
	hasIntro                         bool
	introErr                         error
}

// IntroFile is a list's introduction, Markdown beside papers.csv, which
// the site's home page shows above the list.
const IntroFile = "intro.md"

// Source returns the text of the corpus file name (PapersFile,
// ExcludedFile, BibFile or IntroFile) as loading read it: whoever
// publishes it (the site's downloads and home page) takes it from here
// instead of reading the corpus directory again. A file the corpus does
// not have, or that this load did not keep (LoadOptions.EachPaper or
// SkipBib, a single papers.csv read from a file), is an error wrapping fs.ErrNotExist; an
// intro.md that could not be read is that error (a link out of the corpus
// is an *EscapeError).
func (c *Corpus) Source(name string) (string, error) {
	var src string
	var ok bool
	switch name {
	case PapersFile:
		src, ok = c.papersSrc, c.hasPapersSrc
	case ExcludedFile:
		src, ok = c.excludedSrc, c.HasExcluded && c.hasExcludedSrc
	case BibFile:
		src, ok = c.bibSrc, c.HasBib
	case IntroFile:
		if c.introErr != nil {
			return "", c.introErr
		}
		src, ok = c.introSrc, c.hasIntro
	}
	if !ok {
		return "", &fs.PathError{Op: "read", Path: filepath.Join(c.Dir, name), Err: fs.ErrNotExist}
	}
	return src, nil
}

// keepText wraps a loader of a corpus file so that the text it reads is
// kept in *dst (Source), read to its end even where load stops early.
func keepText(dst *string, load func(name string, r io.Reader, size int64) error) func(name string, r io.Reader, size int64) error {
	return func(name string, r io.Reader, size int64) error {
		var b strings.Builder
		b.Grow(int(size))
		tee := io.TeeReader(r, &b)
		if err := load(name, tee, size); err != nil {
			return err
		}
		if _, err := io.Copy(io.Discard, tee); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		*dst = b.String()
		return nil
	}
}

// Load reads a corpus directory: papers.csv (required), excluded.csv and
// papers.bib (expected; their absence is a finding), spotcheck.csv
// (optional). The error is only for I/O failures; content problems are
// diagnostics.
func Load(dir string) (*Corpus, error) {
	return LoadWith(dir, LoadOptions{})
}

// LoadOptions change what LoadWith keeps.
type LoadOptions struct {
	// EachPaper, when set, receives every retained row in file order as it
	// is decoded, and Corpus.Papers stays empty: the way to count a corpus
	// too large to hold. The entry is only valid during the call.
	EachPaper func(*Entry)
	// SkipBib leaves papers.bib unread (HasBib stays false, no finding is
	// added): counting needs no BibTeX, and parsing a million-entry
	// papers.bib took a third of masrl stats' time and most of its memory.
	SkipBib bool
	// Columns, when set, are the only papers.csv columns decoded into the
	// entries EachPaper receives; the others stay empty. Positions are kept
	// for every column. gocsv's reflection costs per field, so counting
	// nine columns of eighteen halves the decoding.
	Columns []string
	// Previous, when set, is a corpus loaded before from the same
	// directory (masrl serve's last build): a papers.bib whose bytes have
	// not changed since is not parsed again, its entries and findings are
	// Previous's (shared: nothing writes to them after parsing), and so
	// is its index for BibFor. At 10,000 entries parsing and indexing papers.bib
	// is a quarter of the CPU of opening the corpus. When Previous was
	// loaded with Keep, the rows of papers.csv before and after the
	// records that changed are Previous's too, and only the changed
	// records are decoded (reusePapers).
	Previous *Corpus
	// BibUnchanged says papers.bib has not changed since Previous read
	// it (Known.BibUnchanged): Previous's BibTeX is taken without
	// reading the file, when Previous read one from the same directory.
	BibUnchanged bool
	// Keep keeps papers.csv's text with the corpus, for a later load
	// with Previous set to it; it costs the file's size in memory, and
	// the file is read whole instead of streamed. EachPaper ignores it.
	Keep bool
	// NoSources keeps the text of papers.csv and excluded.csv only as
	// Keep asks (Corpus.Source has none otherwise), for a load that
	// publishes neither (CheckOptions.NoSources).
	NoSources bool
}

// LoadWith is Load with options. The directory is read through an
// os.Root, so that a corpus file that is a symbolic link leading out of
// dir (a pull request can add one) is refused with its name instead of
// read: excluded.csv pointing at /proc/self/environ must not print the
// environment in a check's annotations.
func LoadWith(dir string, opt LoadOptions) (*Corpus, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return LoadFS(root.FS(), dir, opt)
}

// LoadFS is LoadWith on the corpus directory's files in fsys, named dir in
// positions and messages: Propose loads the corpus with some files
// replaced in memory, and its findings name the real files.
func LoadFS(fsys fs.FS, dir string, opt LoadOptions) (*Corpus, error) {
	c := &Corpus{Dir: dir, eachPaper: opt.EachPaper}
	if opt.EachPaper != nil {
		c.paperColumns = opt.Columns
	}
	loadPapers := c.loadPapers
	if opt.Keep && opt.EachPaper == nil {
		prev := opt.Previous
		if prev != nil && prev.Dir != dir {
			prev = nil
		}
		loadPapers = func(name string, r io.Reader, size int64) error {
			var src string
			var err error
			if ra, ok := r.(io.ReaderAt); ok && size >= halvesFrom {
				src, err = readTextHalves(ra, size)
			} else {
				src, err = readText(r, size)
			}
			if err != nil {
				return err
			}
			c.papersSrc, c.hasPapersSrc = src, true
			return c.loadPapersText(name, c.papersSrc, prev)
		}
	} else if opt.EachPaper == nil && !opt.NoSources {
		loadPapers = keepText(&c.papersSrc, loadPapers)
		c.hasPapersSrc = true
	}
	if err := c.loadDir(fsys, opt, loadPapers); err != nil {
		return nil, err
	}
	return c, nil
}

// readText reads r to its end as one string, read straight into the
// string's memory: masrl serve reads a 100,000-entry papers.csv (34 MB)
// again on every edit, and copying it through io.Copy's 32 KB buffer
// into a strings.Builder was a thousand reads and a second copy of it.
// size is the expected length; one byte more is asked for, so that a
// file that grew since its size was taken is read whole all the same.
func readText(r io.Reader, size int64) (string, error) {
	b := make([]byte, 0, max(size, 0)+1)
	for {
		if len(b) == cap(b) {
			b = slices.Grow(b, len(b)/2+512)
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
	}
	if len(b) == 0 {
		return "", nil
	}
	// b is not kept, written or handed on: the string is its only
	// reference, as strings.Builder makes its String.
	return unsafe.String(&b[0], len(b)), nil
}

// halvesFrom is the size from which Reopen reads papers.csv in two halves
// at once (readTextHalves): below it one read is done before a second
// goroutine would have started.
const halvesFrom = 1 << 20

// readTextHalves is readText for a file read at offsets: its two halves
// are read at once, on two goroutines. masrl serve reads a 100,000-entry
// papers.csv (34 MB) again on every edit, before the edited page can be
// shown; most of that read is the kernel's copy into memory that is new
// to the process, and two processors do it in about half the time. A
// file that grew since size was taken is read on to its end; one that
// shrank is read again whole.
func readTextHalves(r io.ReaderAt, size int64) (string, error) {
	b := make([]byte, size, size+1)
	half := size / 2
	var nB int
	var errB error
	var wg sync.WaitGroup
	wg.Go(func() { nB, errB = r.ReadAt(b[half:], half) })
	nA, errA := r.ReadAt(b[:half], 0)
	wg.Wait()
	for _, err := range []error{errA, errB} {
		if err != nil && err != io.EOF {
			return "", err
		}
	}
	if int64(nA) < half || int64(nB) < size-half {
		return readText(io.NewSectionReader(r, 0, math.MaxInt64), size)
	}
	for {
		if len(b) == cap(b) {
			b = slices.Grow(b, len(b)/2+512)
		}
		n, err := r.ReadAt(b[len(b):cap(b)], int64(len(b)))
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
	}
	// As readText: the string is b's only reference.
	return unsafe.String(&b[0], len(b)), nil
}

// loadDir reads the files of c.Dir with loadPapers for papers.csv, so that
// StreamStats can count papers.csv its own way and load the rest as Load
// does.
func (c *Corpus) loadDir(fsys fs.FS, opt LoadOptions, loadPapers func(name string, r io.Reader, size int64) error) error {
	dir := c.Dir
	c.wholeDir = true
	// papers.bib is read and parsed on its own goroutine while the CSV
	// files are read: at 100,000 entries it is a quarter of loading.
	type parsedBib struct {
		bib   []BibEntry
		diags Diagnostics
		src   string
		prev  *Corpus // the previous load whose papers.bib this is
		err   error
	}
	bibDone := make(chan parsedBib, 1)
	if !opt.SkipBib {
		go func() {
			if prev := opt.Previous; opt.BibUnchanged && prev != nil && prev.HasBib && prev.Dir == dir {
				bibDone <- parsedBib{prev: prev}
				return
			}
			path := filepath.Join(dir, BibFile)
			b, err := readFile(fsys, dir, BibFile)
			if err != nil {
				bibDone <- parsedBib{err: err}
				return
			}
			if prev := opt.Previous; prev != nil && prev.HasBib && prev.Dir == dir && prev.bibSrc == string(b) {
				bibDone <- parsedBib{prev: prev}
				return
			}
			src := string(b)
			bib, d := parseBibText(path, src)
			bibDone <- parsedBib{bib: bib, diags: d, src: src}
		}()
	}
	if err := readCSVFile(fsys, dir, PapersFile, loadPapers); err != nil {
		return err
	}
	// A missing exclusion log is Check's finding when the vocabulary
	// declares fields of it (the survey's does); a list without one may
	// have none. An optional file that leads out of the corpus is a
	// finding at its name, and is not read.
	var escape *EscapeError
	loadExcluded := c.loadExcluded
	if !opt.NoSources {
		loadExcluded, c.hasExcludedSrc = keepText(&c.excludedSrc, c.loadExcluded), true
	}
	if err := readCSVFile(fsys, dir, ExcludedFile, loadExcluded); errors.As(err, &escape) {
		c.loadDiags.add(Error, Pos{File: escape.Path}, "", "", "%s", escape.Reason())
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if !opt.SkipBib {
		switch b := <-bibDone; {
		case errors.As(b.err, &escape):
			c.loadDiags.add(Error, Pos{File: escape.Path}, "", "", "%s", escape.Reason())
		case errors.Is(b.err, fs.ErrNotExist):
			c.loadDiags.add(Warning, Pos{File: filepath.Join(dir, BibFile)}, "", "", "missing: entries will have no BibTeX")
		case b.err != nil:
			return b.err
		case b.prev != nil:
			c.reuseBib(b.prev)
		default:
			c.HasBib = true
			c.Bib, c.bibSrc, c.bibDiags = b.bib, b.src, b.diags
			c.loadDiags = append(c.loadDiags, b.diags...)
			c.bibOnce = new(sync.Once)
		}
	}
	if err := readCSVFile(fsys, dir, SpotcheckFile, c.loadSpotcheck); errors.As(err, &escape) {
		c.loadDiags.add(Error, Pos{File: escape.Path}, "", "", "%s", escape.Reason())
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	c.loadDiags = append(c.loadDiags, journalFinding(fsys, dir)...)
	// The list's introduction is the site's, but read here with the rest
	// (Source): a missing one is none, one that cannot be read is the
	// site's error when it publishes it.
	if b, err := readFile(fsys, dir, IntroFile); err == nil {
		c.introSrc, c.hasIntro = string(b), true
	} else if !errors.Is(err, fs.ErrNotExist) {
		c.introErr = err
	}
	return nil
}

// reuseBib takes the papers.bib of prev, loaded from the same unchanged
// file: its entries (shared, as the rows are: nothing writes into a
// loaded entry, and copying 100,000 of them was a fifth of reopening
// after an edit), its findings and its index.
func (c *Corpus) reuseBib(prev *Corpus) {
	c.HasBib = true
	c.Bib, c.bibSrc, c.bibDiags = slices.Clip(prev.Bib), prev.bibSrc, prev.bibDiags
	c.loadDiags = append(c.loadDiags, prev.bibDiags...)
	// prev's index may still be being built by its own check: Do waits
	// for it, and it is only read after.
	prev.bibOnce.Do(func() { prev.bibIdx = newBibIndex(prev.Bib) })
	c.bibIdx = prev.bibIdx
	c.bibIdx.first = nil
	if len(c.Bib) > 0 {
		c.bibIdx.first = &c.Bib[0]
	}
	c.bibOnce = new(sync.Once)
	c.bibOnce.Do(func() {})
}

// readCSVFile streams the file name of the corpus directory dir, read
// through fsys, into load. The file is not read into memory first: a
// million-row papers.csv is 330 MB.
func readCSVFile(fsys fs.FS, dir, name string, load func(name string, r io.Reader, size int64) error) error {
	f, err := openFile(fsys, dir, name)
	if err != nil {
		return err
	}
	defer f.Close()
	var size int64
	if st, err := f.Stat(); err == nil {
		size = st.Size()
	}
	return load(filepath.Join(dir, name), f, size)
}

// LoadPapersFile reads a single papers.csv, for comparing versions of it
// (the history folder holds papers.csv files without the rest of a corpus).
// It is read through the root of its own directory, as Load reads a
// corpus: a papers.csv that is a link out of it is refused.
func LoadPapersFile(path string) (*Corpus, error) {
	dir := filepath.Dir(path)
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	c := &Corpus{Dir: dir}
	if err := readCSVFile(root.FS(), dir, filepath.Base(path), c.loadPapers); err != nil {
		return nil, err
	}
	return c, nil
}

// LoadPapersIn reads the papers.csv-like file name (slash-separated, such
// as history/2026-01-01.csv) of the corpus directory dir through an
// os.Root of dir: a file or folder on its way that links out of the
// corpus is an *EscapeError, never read.
func LoadPapersIn(dir, name string) (*Corpus, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	c := &Corpus{Dir: filepath.Join(dir, filepath.Dir(filepath.FromSlash(name)))}
	if err := readCSVFile(root.FS(), dir, name, c.loadPapers); err != nil {
		return nil, err
	}
	return c, nil
}

// pointers returns a pointer to each of rows, in order: the rows a load
// decodes are held in one array, and the corpus holds them by pointer so
// that a corpus reopened after an edit (Reopen) shares the rows that did
// not change with the one before instead of copying them (reusePapers).
// Nil for no rows, as decoding nothing gives.
func pointers(rows []Entry) []*Entry {
	if len(rows) == 0 {
		return nil
	}
	out := make([]*Entry, len(rows))
	for i := range rows {
		out[i] = &rows[i]
	}
	return out
}

// ParsePapers reads papers.csv content, kept as its Source; name is used
// in positions. It is the entry point of the loader's fuzz test.
func ParsePapers(name string, b []byte) (*Corpus, error) {
	c := &Corpus{papersSrc: string(b), hasPapersSrc: true}
	return c, c.loadPapers(name, bytes.NewReader(b), int64(len(b)))
}

func (c *Corpus) loadPapers(name string, r io.Reader, size int64) error {
	t, rows, diags, err := decodeCSV[Entry](name, r, size, c.eachPaper, c.paperColumns, nil)
	c.papers, c.Papers = t, pointers(rows)
	c.loadDiags = append(c.loadDiags, diags...)
	if err != nil {
		return fmt.Errorf("%s: decoding rows: %w", name, err)
	}
	return nil
}

func (c *Corpus) loadExcluded(name string, r io.Reader, size int64) error {
	c.HasExcluded = true
	t, rows, diags, err := decodeCSV[Exclusion](name, r, size, nil, nil, nil)
	c.excluded, c.Excluded = t, rows
	c.loadDiags = append(c.loadDiags, diags...)
	if err != nil {
		return fmt.Errorf("%s: decoding rows: %w", name, err)
	}
	return nil
}

func (c *Corpus) loadSpotcheck(name string, r io.Reader, size int64) error {
	c.HasSpotcheck = true
	t, rows, diags, err := decodeCSV[Audit](name, r, size, nil, nil, nil)
	c.spotcheck, c.Audits = t, rows
	c.loadDiags = append(c.loadDiags, diags...)
	if err != nil {
		return fmt.Errorf("%s: decoding rows: %w", name, err)
	}
	if c.Audits == nil {
		c.Audits = []Audit{}
	}
	return nil
}

// place implements placer for papers.csv rows.
func (e *Entry) place(file string, cols *rowColumns, rec []string, pos []fieldPos) {
	e.file = file
	if len(pos) > 0 {
		e.Line = int(pos[0].line)
	}
	e.cols, e.fields, e.pos = cols, rec, pos
	e.URLs = SplitURLs(e.URL)
	if y, err := strconv.Atoi(strings.TrimSpace(e.YearText)); err == nil {
		e.Year = y
	}
}

// place implements placer for excluded.csv rows.
func (x *Exclusion) place(file string, cols *rowColumns, _ []string, pos []fieldPos) {
	x.file = file
	if len(pos) > 0 {
		x.Line = int(pos[0].line)
	}
	columnPositions(cols.names, pos, excludedColumns[:], x.pos[:])
}

// place implements placer for spotcheck.csv rows.
func (a *Audit) place(file string, cols *rowColumns, _ []string, pos []fieldPos) {
	header := cols.names
	a.file = file
	if len(pos) > 0 {
		a.Line = int(pos[0].line)
	}
	a.pos = make(map[string]fieldPos, len(header))
	for j, h := range header {
		if j < len(pos) {
			a.pos[h] = pos[j]
		}
	}
}

// Entry returns the retained entry with the given key, or nil.
func (c *Corpus) Entry(key string) *Entry {
	for i := range c.Papers {
		if c.Papers[i].Key == key {
			return c.Papers[i]
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
// Ties keep file order. The slice is only to be read (it may be the
// index's own).
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
	if c.bibOnce != nil {
		c.bibOnce.Do(func() { c.bibIdx = newBibIndex(c.Bib) })
	}
	candidates := c.bibIdx.candidates(c.Bib, e.Key, y)
	if len(candidates) == 1 && rank(c.Bib[candidates[0]].Key) >= 0 {
		return candidates // the common case, without a copy; callers only read it
	}
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
	x := bibIndex{n: len(bib), byKey: make(map[string][]int, len(bib)), byStem: make(map[string][]int, len(bib))}
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
// superset of bibMatches' result. The caller must not change the slice,
// which may be the index's own. When the index does not describe bib
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
	lists := [4][]int{x.byKey[key], nil, nil, x.byStem[key]}
	if year != "" {
		lists[1], lists[2] = x.byKey[key+year], x.byKey[key+"-"+year]
	}
	var out []int
	nonEmpty := 0
	for _, l := range lists {
		if len(l) > 0 {
			out = l
			nonEmpty++
		}
	}
	if nonEmpty <= 1 {
		// One list of the index, already in file order without repeats:
		// returned as it is, for the caller only to read.
		return out
	}
	out = slices.Concat(lists[:]...)
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
