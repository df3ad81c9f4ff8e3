package corpus

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
	s := Stats{
		Retained: len(c.Papers), Excluded: len(c.Excluded),
		Audited: len(c.Papers) + len(c.Excluded), SpotChecked: len(c.Audits),
		Histograms: []*Histogram{}, CrossTabs: []*CrossTab{},
	}
	for _, f := range StatsFields() {
		if h := c.Histogram(v, f); h != nil {
			s.Histograms = append(s.Histograms, h)
		}
	}
	for _, p := range StatsCrossTabs() {
		if x := c.CrossTab(v, p[0], p[1]); x != nil {
			s.CrossTabs = append(s.CrossTabs, x)
		}
	}
	s.Exclusions = ExclusionLog{
		ByStage:       c.Histogram(v, "stage"),
		BySource:      nonNil(c.CountColumn(ExcludedFile, "source")),
		ByQueryFamily: nonNil(c.CountColumn(ExcludedFile, "query_family")),
	}
	return s
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
