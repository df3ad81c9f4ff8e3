package chart

import (
	"fmt"
	"slices"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/types"
)

// palette is the Okabe–Ito set: distinguishable with the common colour
// vision deficiencies and legible on both the light and the dark theme.
var palette = [...]string{"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#999999"}

// zeroColor marks a value no entry has. It is a mid-tone red that keeps a
// contrast above 4:1 on white and on the dark theme's background.
const zeroColor = "#E0435E"

// zeroText is how an empty category is labelled on a bar chart: a bar of
// height zero is invisible, and the gap is the finding.
const zeroText = "0 (none)"

// Bar is one category of a bar chart: its label, its value and, optionally,
// the page listing its entries.
type Bar struct {
	Label string
	Value float64
	URL   string
}

// BarSpec describes a bar chart of one controlled field over its whole
// vocabulary, in vocabulary order.
type BarSpec struct {
	Name      string // stable name; the container's ID is ID(Name)
	Title     string
	Caption   string
	XName     string // category axis title, e.g. the field's label
	YName     string // value axis title, e.g. "Entries"
	Bars      []Bar
	TableHead [2]string // column headers of the data table; defaults XName, YName
}

func (s *BarSpec) check(c *checker) {
	checkCommon(c, s.Name, s.Title, s.Caption)
	c.text("axis title", s.XName)
	c.text("axis title", s.YName)
	if len(s.Bars) == 0 {
		c.errs = append(c.errs, fmt.Errorf("no bars"))
	}
	for i, b := range s.Bars {
		c.text(fmt.Sprintf("bar %d label", i+1), b.Label)
		c.number(fmt.Sprintf("bar %d (%s) value", i+1, b.Label), b.Value)
		c.link(fmt.Sprintf("bar %d (%s) link", i+1, b.Label), b.URL)
	}
}

// barData turns bars into data items: every value labelled, zeros with a
// visible "0 (none)" in the zero colour.
func barData(bars []Bar, position string) []opts.BarData {
	data := make([]opts.BarData, len(bars))
	for i, b := range bars {
		data[i] = opts.BarData{Name: b.Label, Value: b.Value}
		if b.Value == 0 {
			data[i].Label = &opts.Label{Show: opts.Bool(true), Position: position, Formatter: zeroText,
				Color: zeroColor, FontStyle: "italic", FontWeight: "bold"}
		}
	}
	return data
}

// barItem is a bar's data item with the page listing its entries: ECharts
// hands the whole item to click handlers, and go-echarts' BarData has no
// room for a link.
type barItem struct {
	opts.BarData
	URL string `json:"url,omitempty"`
}

// linkBars puts each bar's link into the series' data items.
func linkBars(series *charts.SingleSeries, bars []Bar) {
	data := series.Data.([]opts.BarData)
	items := make([]barItem, len(data))
	for i := range data {
		items[i] = barItem{BarData: data[i], URL: bars[i].URL}
	}
	series.Data = items
}

// Bars renders a vertical bar chart of one field's counts.
func Bars(s BarSpec) (*Figure, error) {
	var c checker
	s.check(&c)
	if err := c.err(s.Name); err != nil {
		return nil, err
	}
	labels := make([]string, len(s.Bars))
	long := false
	for i, b := range s.Bars {
		labels[i] = b.Label
		long = long || len([]rune(b.Label)) > 8
	}
	rotate := 0
	if long && len(labels) > 4 {
		rotate = 30
	}
	bar := charts.NewBar()
	bar.SetXAxis(labels).AddSeries(s.YName, barData(s.Bars, "top"),
		charts.WithLabelOpts(opts.Label{Show: opts.Bool(true), Position: "top", Formatter: "{c}"}),
		charts.WithItemStyleOpts(opts.ItemStyle{Color: palette[0]}))
	linkBars(&bar.MultiSeries[0], s.Bars)
	bar.Validate()
	option := finish(bar.JSON())
	// The axes are written here rather than with opts.XAxis: go-echarts
	// types the label interval as a string and omits zero values.
	option["xAxis"] = []map[string]any{{"type": "category", "data": labels, "name": s.XName,
		"nameLocation": "middle", "nameGap": nameGap(rotate), "nameTextStyle": map[string]any{"fontWeight": "bold"},
		"axisLabel": map[string]any{"interval": 0, "rotate": rotate}}}
	option["yAxis"] = []map[string]any{{"type": "value", "name": s.YName, "nameLocation": "middle", "nameGap": 40,
		"minInterval": 1, "nameTextStyle": map[string]any{"fontWeight": "bold"}}}
	option["grid"] = map[string]any{"containLabel": true, "left": 72, "right": 16, "top": 24, "bottom": 40}
	f := figure{
		name: s.Name, kind: "bar", title: s.Title, caption: s.Caption,
		summary: summary("Bar chart", s.Title, s.Bars), height: 360, option: option,
		table: barTable(s.Bars, s.TableHead, s.XName, s.YName),
	}
	return f.render()
}

// nameGap leaves room for rotated category labels below the axis.
func nameGap(rotate int) int {
	if rotate > 0 {
		return 80
	}
	return 32
}

// Ladder renders the credit-unit ladder (the survey's Figure 12): a
// horizontal bar per level in the order given, coarsest at the top.
func Ladder(s BarSpec) (*Figure, error) {
	var c checker
	s.check(&c)
	if err := c.err(s.Name); err != nil {
		return nil, err
	}
	labels := make([]string, len(s.Bars))
	for i, b := range s.Bars {
		labels[i] = b.Label
	}
	bar := charts.NewBar()
	bar.SetXAxis(labels).AddSeries(s.YName, barData(s.Bars, "right"),
		charts.WithLabelOpts(opts.Label{Show: opts.Bool(true), Position: "right", Formatter: "{c}"}),
		charts.WithItemStyleOpts(opts.ItemStyle{Color: palette[2]}))
	linkBars(&bar.MultiSeries[0], s.Bars)
	bar.XYReversal()
	bar.Validate()
	option := finish(bar.JSON())
	// go-echarts puts the categories on both axes after XYReversal; the
	// value axis must not carry them.
	option["xAxis"] = []map[string]any{{"type": "value", "name": s.YName, "nameLocation": "middle", "nameGap": 30,
		"minInterval": 1, "nameTextStyle": map[string]any{"fontWeight": "bold"}}}
	option["yAxis"] = []map[string]any{{"type": "category", "data": labels, "inverse": true, "name": s.XName,
		"nameLocation": "start", "nameTextStyle": map[string]any{"fontWeight": "bold", "align": "right"}}}
	option["grid"] = map[string]any{"containLabel": true, "left": 16, "right": 72, "top": 32, "bottom": 40}
	f := figure{
		name: s.Name, kind: "ladder", title: s.Title, caption: s.Caption,
		summary: summary("Horizontal bar chart", s.Title, s.Bars), height: 40 + 34*len(s.Bars), option: option,
		table: barTable(s.Bars, s.TableHead, s.XName, s.YName),
	}
	return f.render()
}

func barTable(bars []Bar, head [2]string, x, y string) table {
	if head[0] == "" {
		head = [2]string{x, y}
	}
	t := table{head: head[:]}
	total := 0.0
	for _, b := range bars {
		t.rows = append(t.rows, []tableCell{{text: b.Label, href: b.URL}, {text: formatNumber(b.Value)}})
		total += b.Value
	}
	t.foot = [][]tableCell{{{text: "Total"}, {text: formatNumber(total)}}}
	return t
}

// summary is the text alternative of a bar chart: every label with its
// value, so a screen reader gets what the picture shows.
func summary(kind, title string, bars []Bar) string {
	parts := make([]string, len(bars))
	for i, b := range bars {
		parts[i] = b.Label + ": " + formatNumber(b.Value)
	}
	return kind + ", " + title + ". " + strings.Join(parts, "; ") + "."
}

// finish adds what every option shares and go-echarts cannot express: a
// transparent background (the page's colour shows through in light and dark
// mode), the palette, an axis tooltip, and no toolbox or legend unless a
// chart asks for one.
func finish(option map[string]any) map[string]any {
	option["backgroundColor"] = "transparent"
	option["color"] = palette[:]
	// Tooltips are drawn on the canvas (richText), never as HTML: the
	// names in them come from the CSV.
	option["tooltip"] = tooltip()
	option["animation"] = false
	delete(option, "toolbox")
	delete(option, "legend")
	delete(option, "title")
	return option
}

func tooltip() map[string]any {
	return map[string]any{"trigger": "item", "confine": true, "renderMode": "richText"}
}

// Series is one stacked layer: a name (a category) and one value per
// column.
type Series struct {
	Name   string
	Values []float64
}

// StackedSpec describes a stacked bar chart, e.g. entries per year stacked
// by category.
type StackedSpec struct {
	Name    string
	Title   string
	Caption string
	XName   string
	YName   string
	Columns []string // e.g. years, in order
	Series  []Series // stacked bottom to top, in legend order
}

// Stacked renders a stacked bar chart with a legend and a labelled total
// above every column.
func Stacked(s StackedSpec) (*Figure, error) {
	var c checker
	checkCommon(&c, s.Name, s.Title, s.Caption)
	c.text("axis title", s.XName)
	c.text("axis title", s.YName)
	for _, col := range s.Columns {
		c.text("column", col)
	}
	if len(s.Columns) == 0 || len(s.Series) == 0 {
		c.errs = append(c.errs, fmt.Errorf("need at least one column and one series"))
	}
	for _, ser := range s.Series {
		c.text("series", ser.Name)
		if len(ser.Values) != len(s.Columns) {
			c.errs = append(c.errs, fmt.Errorf("series %q has %d values for %d columns", ser.Name, len(ser.Values), len(s.Columns)))
		}
		for i, v := range ser.Values {
			c.number(fmt.Sprintf("series %q value %d", ser.Name, i+1), v)
		}
	}
	if err := c.err(s.Name); err != nil {
		return nil, err
	}
	totals := make([]float64, len(s.Columns))
	for _, ser := range s.Series {
		for i, v := range ser.Values {
			totals[i] += v
		}
	}
	// A segment gets its own label only when it is tall enough to hold
	// one; the table and the tooltip give the small ones.
	minLabelled := slices.Max(totals) / 12
	bar := charts.NewBar()
	bar.SetXAxis(s.Columns)
	for k, ser := range s.Series {
		data := make([]opts.BarData, len(ser.Values))
		for i, v := range ser.Values {
			data[i] = opts.BarData{Value: v}
			if v == 0 || v < minLabelled {
				data[i].Label = &opts.Label{Show: opts.Bool(false)}
			}
		}
		bar.AddSeries(ser.Name, data,
			charts.WithBarChartOpts(opts.BarChart{Stack: "total"}),
			charts.WithLabelOpts(opts.Label{Show: opts.Bool(true), Position: "inside", Formatter: "{c}"}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: palette[k%len(palette)]}))
	}
	// The totals ride on an invisible series stacked on top, so that each
	// column carries its sum as a label.
	totalData := make([]opts.BarData, len(totals))
	for i, t := range totals {
		totalData[i] = opts.BarData{Value: 0, Label: &opts.Label{Show: opts.Bool(true), Position: "top",
			Formatter: formatNumber(t), FontWeight: "bold"},
			// {b} is the column's name, filled in by ECharts; the
			// formatter itself carries no text from the data.
			Tooltip: &opts.Tooltip{Formatter: types.FuncStr("{b}: " + formatNumber(t) + " in all")}}
	}
	bar.AddSeries("Total", totalData,
		charts.WithBarChartOpts(opts.BarChart{Stack: "total"}),
		charts.WithItemStyleOpts(opts.ItemStyle{Color: "transparent"}))
	bar.Validate()
	option := finish(bar.JSON())
	names := make([]string, len(s.Series))
	for i, ser := range s.Series {
		names[i] = ser.Name
	}
	option["xAxis"] = []map[string]any{{"type": "category", "data": s.Columns, "name": s.XName,
		"nameLocation": "middle", "nameGap": 32, "nameTextStyle": map[string]any{"fontWeight": "bold"}}}
	option["yAxis"] = []map[string]any{{"type": "value", "name": s.YName, "nameLocation": "middle", "nameGap": 40,
		"minInterval": 1, "nameTextStyle": map[string]any{"fontWeight": "bold"}}}
	option["legend"] = map[string]any{"data": names, "top": 0, "type": "scroll"}
	option["grid"] = map[string]any{"containLabel": true, "left": 48, "right": 16, "top": 56, "bottom": 40}

	t := table{head: append([]string{s.XName}, append(names, "Total")...)}
	for i, col := range s.Columns {
		row := []tableCell{{text: col}}
		for _, ser := range s.Series {
			row = append(row, tableCell{text: formatNumber(ser.Values[i])})
		}
		t.rows = append(t.rows, append(row, tableCell{text: formatNumber(totals[i])}))
	}
	parts := make([]string, len(s.Columns))
	for i, col := range s.Columns {
		parts[i] = col + ": " + formatNumber(totals[i])
	}
	f := figure{
		name: s.Name, kind: "stacked", title: s.Title, caption: s.Caption,
		summary: "Stacked bar chart, " + s.Title + ". Totals " + strings.Join(parts, "; ") + ". The table below gives every layer.",
		height:  380, option: option, table: t,
	}
	return f.render()
}
