package chart

import (
	"fmt"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// FlowSpec describes the screening flow: every candidate record is either
// retained or excluded, and the excluded ones at one stage.
type FlowSpec struct {
	Name       string
	Title      string
	Caption    string
	Candidates float64
	Retained   float64
	Excluded   float64
	Stages     []Bar // the exclusions by stage, in screening order
	// RetainedURL and ExcludedURL link the two outcomes to their lists.
	RetainedURL string
	ExcludedURL string
}

// Flow renders the screening flow as a sankey diagram: candidates split into
// retained and excluded, the excluded into their stages. Stages nobody was
// excluded at have no band (a sankey cannot draw width zero); the table
// lists them with 0. Flow refuses numbers that do not add up, since a
// diagram of an inconsistent funnel would mislead.
func Flow(s FlowSpec) (*Figure, error) {
	var c checker
	checkCommon(&c, s.Name, s.Title, s.Caption)
	c.number("candidates", s.Candidates)
	c.number("retained", s.Retained)
	c.number("excluded", s.Excluded)
	c.link("retained link", s.RetainedURL)
	c.link("excluded link", s.ExcludedURL)
	sum := 0.0
	for i, st := range s.Stages {
		c.text(fmt.Sprintf("stage %d label", i+1), st.Label)
		c.number(fmt.Sprintf("stage %d (%s)", i+1, st.Label), st.Value)
		c.link(fmt.Sprintf("stage %d (%s) link", i+1, st.Label), st.URL)
		sum += st.Value
	}
	if len(c.errs) == 0 {
		if s.Retained+s.Excluded != s.Candidates {
			c.errs = append(c.errs, fmt.Errorf("retained %s + excluded %s != candidates %s",
				formatNumber(s.Retained), formatNumber(s.Excluded), formatNumber(s.Candidates)))
		}
		if sum != s.Excluded {
			c.errs = append(c.errs, fmt.Errorf("stages add up to %s, excluded is %s", formatNumber(sum), formatNumber(s.Excluded)))
		}
	}
	if err := c.err(s.Name); err != nil {
		return nil, err
	}
	cand := "Candidate records: " + formatNumber(s.Candidates)
	kept := "Retained: " + formatNumber(s.Retained)
	out := "Excluded: " + formatNumber(s.Excluded)
	nodes := []opts.SankeyNode{
		{Name: cand, ItemStyle: &opts.ItemStyle{Color: palette[0]}},
		{Name: kept, ItemStyle: &opts.ItemStyle{Color: palette[2]}},
		{Name: out, ItemStyle: &opts.ItemStyle{Color: palette[5]}},
	}
	links := []opts.SankeyLink{
		{Source: cand, Target: kept, Value: float32(s.Retained)},
		{Source: cand, Target: out, Value: float32(s.Excluded)},
	}
	for _, st := range s.Stages {
		if st.Value == 0 {
			continue
		}
		name := st.Label + ": " + formatNumber(st.Value)
		nodes = append(nodes, opts.SankeyNode{Name: name, ItemStyle: &opts.ItemStyle{Color: palette[1]}})
		links = append(links, opts.SankeyLink{Source: out, Target: name, Value: float32(st.Value)})
	}
	sk := charts.NewSankey()
	sk.AddSeries(s.Title, nodes, links,
		charts.WithLabelOpts(opts.Label{Show: opts.Bool(true), Position: "right", FontWeight: "bold"}),
		charts.WithLineStyleOpts(opts.LineStyle{Color: "gradient", Curveness: 0.5, Opacity: opts.Float(0.35)}))
	sk.MultiSeries[0].Right = "28%"
	sk.MultiSeries[0].NodeAlign = "left"
	sk.Validate()
	option := finish(sk.JSON())

	t := table{head: []string{"Screening outcome", "Records"}}
	t.rows = append(t.rows,
		[]tableCell{{text: "Candidate records"}, {text: formatNumber(s.Candidates)}},
		[]tableCell{{text: "Retained", href: s.RetainedURL}, {text: formatNumber(s.Retained)}},
		[]tableCell{{text: "Excluded", href: s.ExcludedURL}, {text: formatNumber(s.Excluded)}})
	for _, st := range s.Stages {
		t.rows = append(t.rows, []tableCell{{text: "Excluded at " + st.Label, href: st.URL}, {text: formatNumber(st.Value)}})
	}
	f := figure{
		name: s.Name, kind: "flow", title: s.Title, caption: s.Caption,
		summary: fmt.Sprintf("Flow diagram, %s. %s candidate records: %s retained, %s excluded. Excluded by stage: %s.",
			s.Title, formatNumber(s.Candidates), formatNumber(s.Retained), formatNumber(s.Excluded), stageList(s.Stages)),
		height: 340, option: option, table: t,
	}
	return f.render()
}

func stageList(stages []Bar) string {
	var b strings.Builder
	for i, st := range stages {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(st.Label + " " + formatNumber(st.Value))
	}
	return b.String()
}
