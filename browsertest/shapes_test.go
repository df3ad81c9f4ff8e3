package browsertest

import (
	"slices"
	"strings"

	"github.com/masrl/masrl/corpus"
)

// shape is what a drawn chart must hold, per series: its type, its number
// of data points (nodes for a sankey), its number of links (sankey) and
// the sum of its values (of its links for a sankey).
type shape struct {
	Type   string  `json:"type"`
	Points int     `json:"points"`
	Links  int     `json:"links"`
	Sum    float64 `json:"sum"`
}

// chartID is the element ID of a chart the site names with parts, as
// site.ChartName and chart.ID do; it is spelled out here so that a change
// of names in the site shows up as a missing chart.
func chartID(parts ...string) string {
	return "chart-" + strings.ReplaceAll(strings.Join(parts, "-"), "_", "-")
}

// corpusShapes computes, from the corpus' own counting and without the
// chart package, every chart the site may draw and what it must hold:
// a bar chart per controlled field, a heatmap per pair of papers.csv
// fields (and, with a pool, the same over the pool's restriction of the
// corpus, as coverage-survey-…), the screening flow, entries per year by
// category, and the credit-unit ladder.
func corpusShapes(c *corpus.Corpus, v *corpus.Vocabulary, pool *corpus.Pool) map[string][]shape {
	out := map[string][]shape{}
	sum := func(cells []corpus.Cell) float64 {
		n := 0
		for _, cell := range cells {
			n += cell.Count
		}
		return float64(n)
	}
	for _, f := range v.Fields {
		h := c.Histogram(v, f.Name)
		out[chartID("field", f.Name)] = []shape{{Type: "bar", Points: len(f.Values), Sum: sum(h.Cells)}}
	}
	papers := v.FieldsOf(corpus.PapersFile)
	for _, rf := range papers {
		for _, cf := range papers {
			if rf == cf {
				continue
			}
			x := c.CrossTab(v, rf.Name, cf.Name)
			out[chartID("coverage", rf.Name, cf.Name)] = []shape{{Type: "heatmap", Points: len(rf.Values) * len(cf.Values), Sum: float64(x.Total)}}
			if pool != nil {
				x := pool.Restrict(c).CrossTab(v, rf.Name, cf.Name)
				out[chartID("coverage", "survey", rf.Name, cf.Name)] = []shape{{Type: "heatmap", Points: len(rf.Values) * len(cf.Values), Sum: float64(x.Total)}}
			}
		}
	}
	fn := c.Funnel(v)
	stages := 0
	for _, cell := range fn.ByStage.Cells {
		if cell.Count > 0 {
			stages++
		}
	}
	out[chartID("screening")] = []shape{{Type: "sankey", Points: 3 + stages, Links: 2 + stages,
		Sum: float64(fn.Retained + fn.Excluded + int(sum(fn.ByStage.Cells)))}}

	var years []int
	for _, e := range c.Papers {
		if !slices.Contains(years, e.Year) {
			years = append(years, e.Year)
		}
	}
	var stacked []shape
	for _, cell := range c.Histogram(v, "category").Cells {
		stacked = append(stacked, shape{Type: "bar", Points: len(years), Sum: float64(cell.Count)})
	}
	out[chartID("years")] = append(stacked, shape{Type: "bar", Points: len(years)}) // the totals' carrier
	cg := c.Histogram(v, "credit_granularity")
	var levels []corpus.Cell
	for _, cell := range cg.Cells {
		if cell.Value != "NA" {
			levels = append(levels, cell)
		}
	}
	out[chartID("credit_ladder")] = []shape{{Type: "bar", Points: len(levels), Sum: sum(levels)}}
	return out
}
