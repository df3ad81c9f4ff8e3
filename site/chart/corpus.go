package chart

import (
	"slices"
	"strconv"

	"github.com/masrl/masrl/corpus"
)

// The functions below turn the corpus' counts into chart specs. Labels come
// from the vocabulary, order from the vocabulary, numbers from
// corpus.Histogram, CrossTab and Funnel, so a chart can never disagree with
// the tables the checker computes. The browser tests use the same specs to
// know how many series and points each drawn chart must hold.

// FieldBars is the bar chart of one controlled field over its whole
// vocabulary. link gives the entry list of a value ("" for none).
func FieldBars(name string, f *corpus.Field, h *corpus.Histogram, link func(value string) string) BarSpec {
	s := BarSpec{
		Name: name, Title: f.Label + ": entries per value",
		Caption: "Every value of the controlled vocabulary, in its order; values no entry has yet are marked " + zeroText + ".",
		XName:   f.Label, YName: "Entries",
	}
	s.Bars = histogramBars(f, h, link, false)
	if h.Multiple {
		s.Caption += " " + corpus.MultipleNote
	}
	return s
}

// CreditLadder is the survey's Figure 12 with counts: the credit-bearing
// units from team (coarsest, at the top) to token (finest), and how many
// entries assign credit at each. NA is not a level and is left out.
func CreditLadder(name string, f *corpus.Field, h *corpus.Histogram, link func(value string) string) BarSpec {
	return BarSpec{
		Name: name, Title: "The credit-unit ladder",
		Caption: "Entries per credit-bearing unit, from the coarsest (team, top) to the finest (token, bottom); entries without a credit unit (NA) are not shown.",
		XName:   "Credit unit", YName: "Entries",
		Bars: histogramBars(f, h, link, true),
	}
}

func histogramBars(f *corpus.Field, h *corpus.Histogram, link func(string) string, skipNA bool) []Bar {
	var bars []Bar
	for _, cell := range h.Cells {
		if skipNA && cell.Value == "NA" {
			continue
		}
		label := cell.Value
		if t := f.Term(cell.Value); t != nil && t.Label != "" {
			label = t.Label
		}
		b := Bar{Label: label, Value: float64(cell.Count)}
		if link != nil {
			b.URL = link(cell.Value)
		}
		bars = append(bars, b)
	}
	return bars
}

// CrossTabHeatmap is the heatmap of a cross-tab, rows and columns labelled
// from the vocabulary. link gives the entry list of a cell.
func CrossTabHeatmap(name string, rows, cols *corpus.Field, x *corpus.CrossTab, link func(row, col string) string) HeatmapSpec {
	s := HeatmapSpec{
		Name: name, Title: rows.Label + " × " + cols.Label,
		Caption: "Entries per pair of values; grey cells with 0 are combinations no entry covers. Click a cell (or use the links in the table) to list its entries.",
		RowName: rows.Label, ColName: cols.Label,
	}
	if x.Multiple {
		s.Caption += " " + corpus.MultipleNote
	}
	for _, v := range x.RowValues {
		s.Rows = append(s.Rows, termLabel(rows, v))
	}
	for _, v := range x.ColValues {
		s.Cols = append(s.Cols, termLabel(cols, v))
	}
	s.Counts = make([][]float64, len(x.RowValues))
	if link != nil {
		s.URLs = make([][]string, len(x.RowValues))
	}
	for i, rv := range x.RowValues {
		s.Counts[i] = make([]float64, len(x.ColValues))
		if link != nil {
			s.URLs[i] = make([]string, len(x.ColValues))
		}
		for j, cv := range x.ColValues {
			s.Counts[i][j] = float64(x.Cells[i][j].Count)
			if link != nil {
				s.URLs[i][j] = link(rv, cv)
			}
		}
	}
	return s
}

// FunnelFlow is the screening flow of a funnel, stages labelled from the
// vocabulary field "stage".
func FunnelFlow(name string, stage *corpus.Field, fn corpus.Funnel, link func(stage string) string) FlowSpec {
	s := FlowSpec{
		Name: name, Title: "Screening flow",
		Caption:    "Every audited candidate record is either retained in the list or excluded at one screening stage.",
		Candidates: float64(fn.Candidates), Retained: float64(fn.Retained), Excluded: float64(fn.Excluded),
	}
	s.Stages = histogramBars(stage, fn.ByStage, link, false)
	return s
}

// YearsByCategory is the stacked chart of entries per year, one layer per
// value of field (e.g. category). Years are those with at least one entry,
// ascending: the pool reaches back to classical MARL, and a continuous axis
// would be mostly empty.
func YearsByCategory(name string, c *corpus.Corpus, f *corpus.Field) StackedSpec {
	var years []int
	for _, e := range c.Papers {
		if !slices.Contains(years, e.Year) {
			years = append(years, e.Year)
		}
	}
	slices.Sort(years)
	// "Retained" only where an exclusion log says what was not.
	what := "Entries"
	if c.HasExcluded {
		what = "Retained entries"
	}
	s := StackedSpec{
		Name: name, Title: "Entries per year by " + lower(f.Label),
		Caption: what + " by publication year, stacked by " + lower(f.Label) + "; the number above a column is its total.",
		XName:   "Year", YName: "Entries",
	}
	for _, y := range years {
		s.Columns = append(s.Columns, strconv.Itoa(y))
	}
	for _, t := range f.Values {
		ser := Series{Name: termLabel(f, t.Value), Values: make([]float64, len(years))}
		for _, e := range c.Papers {
			if slices.Contains(e.Values(f), t.Value) {
				ser.Values[slices.Index(years, e.Year)]++
			}
		}
		s.Series = append(s.Series, ser)
	}
	return s
}

func termLabel(f *corpus.Field, value string) string {
	if t := f.Term(value); t != nil && t.Label != "" {
		return t.Label
	}
	return value
}

func lower(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	// Acronyms ("RL relevance") keep their case.
	if r[0] >= 'A' && r[0] <= 'Z' && (len(r) == 1 || r[1] < 'A' || r[1] > 'Z') {
		r[0] += 'a' - 'A'
	}
	return string(r)
}
