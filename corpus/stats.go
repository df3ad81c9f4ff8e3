package corpus

import (
	"fmt"
	"slices"
	"strings"
)

// StatsFields are the controlled fields of papers.csv that the artifact's
// statistics script histograms, in its order.
func StatsFields() []string {
	return []string{"category", "is_rl", "reward_type", "credit_granularity",
		"orchestration_form", "scenario", "is_core", "verified"}
}

// StatsCrossTabs are the cross-tabs the artifact's statistics script prints
// (Appendix C.6): reward_type × credit_granularity (Table 2),
// orchestration_form × credit_granularity (Table 22) and category × verified.
func StatsCrossTabs() [][2]string {
	return [][2]string{
		{"reward_type", "credit_granularity"},
		{"orchestration_form", "credit_granularity"},
		{"category", "verified"},
	}
}

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
}

// ExclusionLog counts excluded.csv by stage (controlled, whole vocabulary),
// source and query family (free text, largest first).
type ExclusionLog struct {
	ByStage       *Histogram `json:"by_stage"`
	BySource      []Cell     `json:"by_source"`
	ByQueryFamily []Cell     `json:"by_query_family"`
}

// ComputeStats computes the default report: the totals, a histogram of each
// of StatsFields and the cross-tabs of StatsCrossTabs. Fields the vocabulary
// lacks are left out rather than reported as nil.
func ComputeStats(c *Corpus, v *Vocabulary) Stats {
	t, _ := newStatsTally(v, nil) // the default cross-tabs are always valid
	for i := range c.Papers {
		t.add(&c.Papers[i])
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
}

// StreamStats computes the report of ComputeStats for the corpus in dir
// without keeping its retained rows in memory: each row is counted as it is
// decoded and dropped, and only the columns the report reads are decoded,
// so a million-row papers.csv costs the keys in the cells, not the rows. It
// fails when an extra pair is not two controlled fields of papers.csv.
func StreamStats(dir string, v *Vocabulary, opt StatsOptions) (Stats, error) {
	t, err := newStatsTally(v, opt.Extra)
	if err != nil {
		return Stats{}, err
	}
	t.countsOnly = opt.CountsOnly
	c, err := LoadWith(dir, LoadOptions{EachPaper: t.add, SkipBib: true, Columns: t.columns()})
	if err != nil {
		return Stats{}, err
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
}

// columns lists the papers.csv columns the tally reads.
func (t *statsTally) columns() []string {
	cols := []string{"key"}
	for _, h := range t.hists {
		cols = append(cols, h.Field)
	}
	for _, x := range t.xtabs {
		cols = append(cols, x.Rows, x.Cols)
	}
	slices.Sort(cols)
	return slices.Compact(cols)
}

func newStatsTally(v *Vocabulary, extra [][2]string) (*statsTally, error) {
	t := &statsTally{hists: []*Histogram{}, xtabs: []*CrossTab{}}
	for _, name := range StatsFields() {
		if f := v.Field(name); f != nil {
			t.hists = append(t.hists, newHistogram(f))
		}
	}
	for _, p := range StatsCrossTabs() {
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
