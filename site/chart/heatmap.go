package chart

import (
	"fmt"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/types"
)

// HeatmapSpec describes a cross-tab: rows × columns of counts, with the page
// listing each cell's entries.
type HeatmapSpec struct {
	Name    string
	Title   string
	Caption string
	RowName string // title of the row axis (a field label)
	ColName string
	Rows    []string // row labels, top to bottom
	Cols    []string // column labels, left to right
	Counts  [][]float64
	URLs    [][]string // optional; URLs[i][j] is the entry list of cell (i, j)
}

// heatCell is one data item of the heatmap series. go-echarts' HeatMapData
// has no room for a link, and ECharts hands the whole item to click
// handlers, so the link travels with its cell.
type heatCell struct {
	Value [3]float64 `json:"value"` // column index, row index, count
	URL   string     `json:"url,omitempty"`
	Label cellLabel  `json:"label"`
}

// cellLabel colours a cell's count for contrast with the cell's own fill,
// which is the same in light and dark mode: dark text on the pale bands,
// white on the deep ones, and a neutral grey for the empty cells, whose
// fill is translucent over the page.
type cellLabel struct {
	Color string `json:"color"`
}

func labelColor(v float64) string {
	switch {
	case v == 0:
		return "#8A8A8A"
	case v < 8:
		return "#0B1F33"
	default:
		return "#FFFFFF"
	}
}

// heatPieces are the colour bands. The first band is exactly zero, in a
// translucent grey that reads as "empty" on light and dark backgrounds;
// the others are a sequential blue scale.
func heatPieces(max float64) []map[string]any {
	pieces := []map[string]any{{"value": 0, "label": "0 (empty)", "color": "rgba(128,128,128,0.18)"}}
	bands := [][2]float64{{1, 1}, {2, 3}, {4, 7}, {8, 15}, {16, 31}, {32, 63}, {64, -1}}
	colors := []string{"#C6DBEF", "#9ECAE1", "#6BAED6", "#4292C6", "#2171B5", "#08519C", "#08306B"}
	for i, b := range bands {
		if b[0] > max && i > 0 {
			break
		}
		p := map[string]any{"min": b[0], "color": colors[i]}
		label := formatNumber(b[0])
		if b[1] > 0 {
			p["max"] = b[1]
			if b[1] != b[0] {
				label += "–" + formatNumber(b[1])
			}
		} else {
			label += "+"
		}
		p["label"] = label
		pieces = append(pieces, p)
	}
	return pieces
}

// Heatmap renders a cross-tab as a heatmap. Every cell shows its count;
// empty cells are drawn (grey, "0"), because the gaps are findings. A click
// on a cell opens its entry list; the table repeats the links for keyboard
// and screen-reader users.
func Heatmap(s HeatmapSpec) (*Figure, error) {
	var c checker
	checkCommon(&c, s.Name, s.Title, s.Caption)
	c.text("axis title", s.RowName)
	c.text("axis title", s.ColName)
	for _, r := range s.Rows {
		c.text("row", r)
	}
	for _, col := range s.Cols {
		c.text("column", col)
	}
	if len(s.Rows) == 0 || len(s.Cols) == 0 {
		c.errs = append(c.errs, fmt.Errorf("need at least one row and one column"))
	}
	if len(s.Counts) != len(s.Rows) {
		c.errs = append(c.errs, fmt.Errorf("%d rows of counts for %d rows", len(s.Counts), len(s.Rows)))
	}
	if s.URLs != nil && len(s.URLs) != len(s.Rows) {
		c.errs = append(c.errs, fmt.Errorf("%d rows of links for %d rows", len(s.URLs), len(s.Rows)))
	}
	for i, row := range s.Counts {
		if len(row) != len(s.Cols) {
			c.errs = append(c.errs, fmt.Errorf("row %d has %d counts for %d columns", i+1, len(row), len(s.Cols)))
		}
		for j, v := range row {
			c.number(fmt.Sprintf("cell (%d, %d)", i+1, j+1), v)
		}
	}
	for i, row := range s.URLs {
		if len(row) != len(s.Cols) {
			c.errs = append(c.errs, fmt.Errorf("row %d has %d links for %d columns", i+1, len(row), len(s.Cols)))
		}
		for j, u := range row {
			c.link(fmt.Sprintf("cell (%d, %d) link", i+1, j+1), u)
		}
	}
	if err := c.err(s.Name); err != nil {
		return nil, err
	}
	link := func(i, j int) string {
		if s.URLs == nil {
			return ""
		}
		return s.URLs[i][j]
	}

	var cells []heatCell
	max := 0.0
	rowTotals := make([]float64, len(s.Rows))
	colTotals := make([]float64, len(s.Cols))
	total := 0.0
	for i := range s.Rows {
		for j := range s.Cols {
			v := s.Counts[i][j]
			cells = append(cells, heatCell{Value: [3]float64{float64(j), float64(i), v}, URL: link(i, j), Label: cellLabel{labelColor(v)}})
			max = maxf(max, v)
			rowTotals[i] += v
			colTotals[j] += v
			total += v
		}
	}
	hm := charts.NewHeatMap()
	hm.SetGlobalOptions(
		charts.WithXAxisOpts(opts.XAxis{Name: s.ColName, NameLocation: "middle", NameGap: 72,
			AxisLabel: &opts.AxisLabel{Interval: "0", Rotate: 30}}),
		charts.WithYAxisOpts(opts.YAxis{Name: s.RowName, Inverse: opts.Bool(true)}),
	)
	hm.SetXAxis(s.Cols)
	hm.MultiSeries = append(hm.MultiSeries, charts.SingleSeries{Name: s.Title, Type: types.ChartHeatMap, Data: cells,
		Label:     &opts.Label{Show: opts.Bool(true), Formatter: "{@[2]}", FontWeight: "bold"},
		ItemStyle: &opts.ItemStyle{BorderColor: "rgba(128,128,128,0.5)", BorderWidth: 1}})
	hm.Validate()
	option := finish(hm.JSON())
	option["yAxis"] = []map[string]any{{"type": "category", "data": s.Rows, "inverse": true, "name": s.RowName,
		"nameLocation": "start", "nameTextStyle": map[string]any{"fontWeight": "bold", "align": "right"},
	}}
	option["xAxis"] = []map[string]any{{"type": "category", "data": s.Cols, "name": s.ColName,
		"nameLocation": "middle", "nameGap": 72, "nameTextStyle": map[string]any{"fontWeight": "bold"},
		"axisLabel": map[string]any{"interval": 0, "rotate": 30}}}
	option["visualMap"] = map[string]any{"type": "piecewise", "dimension": 2, "pieces": heatPieces(max),
		"orient": "horizontal", "left": "center", "bottom": 0, "itemGap": 6}
	option["grid"] = map[string]any{"containLabel": true, "left": 16, "right": 24, "top": 36, "bottom": 56}

	t := table{head: append([]string{s.RowName + " \\ " + s.ColName}, append(append([]string{}, s.Cols...), "Total")...)}
	for i, r := range s.Rows {
		row := []tableCell{{text: r}}
		for j := range s.Cols {
			cell := tableCell{text: formatNumber(s.Counts[i][j])}
			if s.Counts[i][j] != 0 {
				cell.href = link(i, j)
			}
			row = append(row, cell)
		}
		t.rows = append(t.rows, append(row, tableCell{text: formatNumber(rowTotals[i])}))
	}
	foot := []tableCell{{text: "Total"}}
	for _, v := range colTotals {
		foot = append(foot, tableCell{text: formatNumber(v)})
	}
	t.foot = [][]tableCell{append(foot, tableCell{text: formatNumber(total)})}

	empty := 0
	for i := range s.Rows {
		for j := range s.Cols {
			if s.Counts[i][j] == 0 {
				empty++
			}
		}
	}
	f := figure{
		name: s.Name, kind: "heatmap", title: s.Title, caption: s.Caption,
		summary: fmt.Sprintf("Heatmap, %s: %d rows (%s) by %d columns (%s), %s entries in all, %d of %d cells empty. The table below gives every cell.",
			s.Title, len(s.Rows), s.RowName, len(s.Cols), s.ColName, formatNumber(total), empty, len(s.Rows)*len(s.Cols)),
		height: 120 + 34*len(s.Rows), option: option, table: t,
	}
	return f.render()
}

func maxf(a, b float64) float64 {
	if b > a {
		return b
	}
	return a
}
