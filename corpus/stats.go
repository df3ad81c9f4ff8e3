package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
)

// Stats is everything the statistics report shows, as one value that the
// command prints and the site publishes as stats.json. Every slice is in a
// fixed order (vocabulary order, or count then value), never map order, so
// its JSON is byte-identical across runs.
type Stats struct {
	Retained int `json:"retained"`
	Excluded int `json:"excluded"`
	// Audited is every candidate record screened: retained plus excluded
	// (the survey's 116).
	Audited int `json:"audited"`
	// SpotChecked is the number of retained rows a second reader audited.
	SpotChecked int          `json:"spot_checked"`
	Histograms  []*Histogram `json:"histograms"`
	CrossTabs   []*CrossTab  `json:"crosstabs"`
	Exclusions  ExclusionLog `json:"exclusions"`
	// Screened is true for a list with an exclusion log (an excluded.csv,
	// or a vocabulary that declares a field of one, as the survey's
	// does). A list without one retains, excludes and audits nothing, so
	// its report is encoded in entries (see MarshalJSON).
	Screened bool `json:"-"`
}

// MarshalJSON encodes the report. A screened list's has every key above,
// in the survey's format; a list without an exclusion log has only
// "entries", "spot_checked" when a second reader checked any row,
// "histograms" and "crosstabs", so that its published stats.json says
// nothing of a screening it never had.
func (s Stats) MarshalJSON() ([]byte, error) {
	type screened Stats // the same fields without this method
	if s.Screened {
		return json.Marshal(screened(s))
	}
	return json.Marshal(struct {
		Entries     int          `json:"entries"`
		SpotChecked int          `json:"spot_checked,omitempty"`
		Histograms  []*Histogram `json:"histograms"`
		CrossTabs   []*CrossTab  `json:"crosstabs"`
	}{s.Retained, s.SpotChecked, s.Histograms, s.CrossTabs})
}

// ExclusionLog counts excluded.csv by stage (controlled, whole vocabulary),
// source and query family (free text, largest first).
type ExclusionLog struct {
	ByStage       *Histogram `json:"by_stage"`
	BySource      []Cell     `json:"by_source"`
	ByQueryFamily []Cell     `json:"by_query_family"`
}

// ComputeStats computes the default report: the totals, a histogram of each
// controlled field of papers.csv and the cross-tabs the vocabulary
// declares (Vocabulary.CrossTabs: the survey's are Table 2, Table 22 and
// category × verified, the artifact's statistics script's, Appendix C.6). Fields the vocabulary
// lacks are left out rather than reported as nil.
func ComputeStats(c *Corpus, v *Vocabulary) Stats {
	t, _ := newStatsTally(v, nil) // the default cross-tabs are always valid
	for i := range c.Papers {
		t.add(c.Papers[i])
	}
	return t.stats(c, v)
}

// StatsOptions change what StreamStats computes.
type StatsOptions struct {
	// Extra cross-tabs of two controlled fields of papers.csv, after the
	// default ones.
	Extra [][2]string
	// CountsOnly leaves the Keys of every cell empty: a report that prints
	// counts alone need not keep a million keys eleven times over.
	CountsOnly bool
	// Pool, when set, counts the survey's pool only, as Pool.Restrict
	// does: the retained rows whose key it holds and the excluded records
	// it names. Rows outside it are still read and checked as Load does.
	Pool *Pool
	// PresentOnly leaves out the values no row uses (Stats.PresentOnly).
	PresentOnly bool
}

// PresentOnly returns the report without the values no row uses: every
// histogram, cross-tab and the exclusion stages.
func (s Stats) PresentOnly() Stats {
	s.Histograms = slices.Clone(s.Histograms)
	for i, h := range s.Histograms {
		s.Histograms[i] = h.PresentOnly()
	}
	s.CrossTabs = slices.Clone(s.CrossTabs)
	for i, x := range s.CrossTabs {
		s.CrossTabs[i] = x.PresentOnly()
	}
	// A list without an exclusion log that declares no field of one
	// (masrl init's) has no stage histogram.
	if s.Exclusions.ByStage != nil {
		s.Exclusions.ByStage = s.Exclusions.ByStage.PresentOnly()
	}
	return s
}

// StreamStats computes the report of ComputeStats for the corpus in dir
// without keeping its retained rows in memory: papers.csv is counted in
// chunks on every core, each record by the header indexes of the columns
// the report reads, so a million-row papers.csv costs the keys in the
// cells, not the rows. Its records, and what is wrong with them, are those
// Load reads. It fails when an extra pair is not two controlled fields of
// papers.csv, and with a *CheckError when a CSV file does not read
// (ReadErrors): counts of what was left of it would look like real ones.
func StreamStats(dir string, v *Vocabulary, opt StatsOptions) (Stats, error) {
	s, err := streamStats(dir, v, opt, statsChunkSize)
	if err != nil || !opt.PresentOnly {
		return s, err
	}
	return s.PresentOnly(), nil
}

// streamStats is StreamStats with papers.csv cut into chunks of about
// chunkSize bytes; tests use tiny ones.
func streamStats(dir string, v *Vocabulary, opt StatsOptions, chunkSize int) (Stats, error) {
	t, err := newStatsTally(v, opt.Extra)
	if err != nil {
		return Stats{}, err
	}
	t.countsOnly = opt.CountsOnly
	if opt.Pool != nil {
		t.keep = opt.Pool.HasKey
	}
	c := &Corpus{Dir: dir}
	countFile := func(name string, r io.Reader, size int64) error {
		ra, ok := r.(io.ReaderAt)
		if !ok {
			b, err := io.ReadAll(r)
			if err != nil {
				return err
			}
			ra = bytes.NewReader(b)
		}
		tbl, diags := countPapers(name, ra, t, chunkSize, runtime.GOMAXPROCS(0))
		c.papers = tbl
		c.loadDiags = append(c.loadDiags, diags...)
		return nil
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return Stats{}, err
	}
	defer root.Close()
	if err := c.loadDir(root.FS(), LoadOptions{SkipBib: true}, countFile); err != nil {
		return Stats{}, err
	}
	if err := c.ReadErrors().Err(); err != nil {
		return Stats{}, err
	}
	if opt.Pool != nil {
		c = opt.Pool.Restrict(c)
	}
	return t.stats(c, v), nil
}

// statsTally counts retained rows one at a time into the report's
// histograms and cross-tabs.
type statsTally struct {
	retained   int
	hists      []*Histogram
	xtabs      []*CrossTab
	countsOnly bool
	// keep, when set, says which keys to count (StatsOptions.Pool).
	keep func(key string) bool

	// fields are the distinct controlled columns the histograms and
	// cross-tabs read; lookup finds a value's index in each one's
	// vocabulary (shared by forks, read-only); histField and xtabField say
	// which of fields each one reads, so that a column counted three times
	// is looked up once per record.
	fields    []string
	lookup    []valueLookup
	histField []int
	xtabField [][2]int
}

func newStatsTally(v *Vocabulary, extra [][2]string) (*statsTally, error) {
	t := &statsTally{hists: []*Histogram{}, xtabs: []*CrossTab{}}
	// Every controlled field of papers.csv, in vocabulary order: the
	// artifact's statistics script histograms the same eight.
	for _, f := range v.FieldsOf(PapersFile) {
		t.hists = append(t.hists, newHistogram(f))
	}
	for _, p := range v.CrossTabs {
		if x := newCrossTab(v, p[0], p[1]); x != nil {
			t.xtabs = append(t.xtabs, x)
		}
	}
	for _, p := range extra {
		x := newCrossTab(v, p[0], p[1])
		if x == nil || v.Field(p[0]).File != PapersFile {
			return nil, fmt.Errorf("cross-tab %s,%s: not two controlled fields of %s", p[0], p[1], PapersFile)
		}
		t.xtabs = append(t.xtabs, x)
	}
	at := map[string]int{}
	field := func(name string, values []string) int {
		if i, ok := at[name]; ok {
			return i
		}
		at[name] = len(t.fields)
		t.fields = append(t.fields, name)
		t.lookup = append(t.lookup, newValueLookup(values))
		return len(t.fields) - 1
	}
	for _, h := range t.hists {
		values := make([]string, len(h.Cells))
		for i, c := range h.Cells {
			values[i] = c.Value
		}
		t.histField = append(t.histField, field(h.Field, values))
	}
	for _, x := range t.xtabs {
		t.xtabField = append(t.xtabField, [2]int{field(x.Rows, x.RowValues), field(x.Cols, x.ColValues)})
	}
	return t, nil
}

// add counts one row. The key is copied so that a streamed row's text can
// be freed once it is counted.
func (t *statsTally) add(e *Entry) {
	t.retained++
	key := ""
	if !t.countsOnly {
		key = strings.Clone(e.Key)
	}
	for _, h := range t.hists {
		h.add(key, e.Value(h.Field))
	}
	for _, x := range t.xtabs {
		x.add(key, e.Value(x.Rows), e.Value(x.Cols))
	}
}

// fork returns an empty tally of the same shape, for one chunk of a file
// counted on its own goroutine; merge adds it back.
func (t *statsTally) fork() *statsTally {
	u := *t
	u.retained = 0
	u.hists = make([]*Histogram, len(t.hists))
	for i, h := range t.hists {
		u.hists[i] = h.emptyCopy()
	}
	u.xtabs = make([]*CrossTab, len(t.xtabs))
	for i, x := range t.xtabs {
		u.xtabs[i] = x.emptyCopy()
	}
	return &u
}

// merge adds the counts and keys of u, a fork of t that counted rows after
// those of t: keys stay in file order.
func (t *statsTally) merge(u *statsTally) {
	t.retained += u.retained
	for i, h := range t.hists {
		h.merge(u.hists[i])
	}
	for i, x := range t.xtabs {
		x.merge(u.xtabs[i])
	}
}

// recordCounter counts papers.csv records into a tally by column index:
// the indexes come from the header once, instead of each row's columns
// being matched by name.
type recordCounter struct {
	t      *statsTally
	keyCol int   // index of key in a record, -1 when the header lacks it
	cols   []int // index in a record of each of t.fields, or -1
	vals   []string
	idx    []int
}

// newRecordCounter maps t's columns onto header as StreamStats' gocsv
// decoding of the counted columns did: a column named twice is read from
// its last occurrence, and a name matches only exactly (Load's decoding of
// every column also takes " category" for category).
func newRecordCounter(t *statsTally, header []string) *recordCounter {
	last := func(name string) int {
		for i := len(header) - 1; i >= 0; i-- {
			if header[i] == name {
				return i
			}
		}
		return -1
	}
	rc := &recordCounter{t: t, keyCol: last("key"), cols: make([]int, len(t.fields)),
		vals: make([]string, len(t.fields)), idx: make([]int, len(t.fields))}
	for i, f := range t.fields {
		rc.cols[i] = last(f)
	}
	return rc
}

// add counts one record; a field missing from a short record is empty.
func (rc *recordCounter) add(rec []string) {
	t := rc.t
	key := ""
	if rc.keyCol >= 0 && rc.keyCol < len(rec) {
		key = rec[rc.keyCol]
	}
	if t.keep != nil && !t.keep(key) {
		return
	}
	t.retained++
	if t.countsOnly {
		key = ""
	} else {
		key = strings.Clone(key)
	}
	for f, c := range rc.cols {
		v := ""
		if c >= 0 && c < len(rec) {
			v = rec[c]
		}
		rc.vals[f], rc.idx[f] = v, t.lookup[f].index(v)
	}
	for k, h := range t.hists {
		f := t.histField[k]
		if h.split != nil {
			h.add(key, rc.vals[f])
			continue
		}
		h.addAt(key, rc.idx[f], rc.vals[f])
	}
	for k, x := range t.xtabs {
		f := t.xtabField[k]
		if x.rowSplit != nil || x.colSplit != nil {
			x.addMulti(key, rc.vals[f[0]], rc.vals[f[1]])
			continue
		}
		x.addAt(key, rc.idx[f[0]], rc.idx[f[1]])
	}
}

func (t *statsTally) stats(c *Corpus, v *Vocabulary) Stats {
	for _, h := range t.hists {
		h.finish()
	}
	return Stats{
		Retained: t.retained, Excluded: len(c.Excluded),
		Audited: t.retained + len(c.Excluded), SpotChecked: len(c.Audits),
		Histograms: t.hists, CrossTabs: t.xtabs,
		Exclusions: ExclusionLog{
			ByStage:       c.Histogram(v, "stage"),
			BySource:      nonNil(c.CountColumn(ExcludedFile, "source")),
			ByQueryFamily: nonNil(c.CountColumn(ExcludedFile, "query_family")),
		},
		Screened: c.HasExcluded || len(v.FieldsOf(ExcludedFile)) > 0,
	}
}

// PresentOnly returns a copy of the histogram without values no row uses.
func (h *Histogram) PresentOnly() *Histogram {
	out := *h
	out.Cells = nil
	for _, c := range h.Cells {
		if c.Count > 0 {
			out.Cells = append(out.Cells, c)
		}
	}
	out.Cells = nonNil(out.Cells)
	return &out
}

// PresentOnly returns a copy of the cross-tab without the rows and columns
// whose totals are zero.
func (x *CrossTab) PresentOnly() *CrossTab {
	var ri, ci []int
	for i, t := range x.RowTotals {
		if t > 0 {
			ri = append(ri, i)
		}
	}
	for j, t := range x.ColTotals {
		if t > 0 {
			ci = append(ci, j)
		}
	}
	out := &CrossTab{Rows: x.Rows, Cols: x.Cols, Total: x.Total, Outside: x.Outside,
		RowValues: []string{}, ColValues: []string{}, Cells: [][]Cell{}, RowTotals: []int{}, ColTotals: []int{}}
	for _, j := range ci {
		out.ColValues = append(out.ColValues, x.ColValues[j])
		out.ColTotals = append(out.ColTotals, x.ColTotals[j])
	}
	for _, i := range ri {
		out.RowValues = append(out.RowValues, x.RowValues[i])
		out.RowTotals = append(out.RowTotals, x.RowTotals[i])
		row := make([]Cell, 0, len(ci))
		for _, j := range ci {
			row = append(row, x.Cells[i][j])
		}
		out.Cells = append(out.Cells, row)
	}
	return out
}

// nonNil keeps an empty list as [] in JSON.
func nonNil(cells []Cell) []Cell {
	if cells == nil {
		return []Cell{}
	}
	return cells
}

// valueLookup finds a value's index in a field's vocabulary by its length,
// then one or two string comparisons: hashing every counted value for a map
// lookup was a tenth of masrl stats' CPU.
type valueLookup struct {
	byLen [][]lookupValue // by value length
}

type lookupValue struct {
	value string
	index int
}

// newValueLookup indexes values, a field's vocabulary in order.
func newValueLookup(values []string) valueLookup {
	var l valueLookup
	for i, v := range values {
		for len(l.byLen) <= len(v) {
			l.byLen = append(l.byLen, nil)
		}
		l.byLen[len(v)] = append(l.byLen[len(v)], lookupValue{v, i})
	}
	return l
}

// index returns the index of v, or -1 outside the vocabulary.
func (l valueLookup) index(v string) int {
	if len(v) < len(l.byLen) {
		for _, c := range l.byLen[len(v)] {
			if c.value == v {
				return c.index
			}
		}
	}
	return -1
}
