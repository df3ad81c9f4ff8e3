// Package chart builds the site's charts as data for the "chart" template
// partial (templates/chart.html), which draws them as inert markup: a
// <figure> with a container <div>, the ECharts option as a JSON data
// island, a caption and the same numbers as an HTML table. html/template
// is the only escaper, and --templates restyles the charts as any page.
//
// The options are built with go-echarts, but never with its renderer:
// go-echarts writes the option into an executable <script> unescaped (a
// label "</script><script>…" runs) and turns any string "__f__…__f__" into
// live JavaScript. Here every label is rejected if it contains "__f__", every
// number must be finite, and the option is marshalled by html/template with
// encoding/json (which escapes <, > and &) into a
// <script type="application/json"> that browsers never execute. The site
// asset charts.js reads it and draws the chart, so pages need no inline
// executable script and work under a strict Content-Security-Policy.
package chart

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrFuncMarker is returned for any text containing go-echarts' function
// marker "__f__": a renderer that honours it would turn the text into code.
var ErrFuncMarker = errors.New(`text contains the function marker "__f__"`)

// ErrNotFinite is returned for a NaN or infinite number, which JSON cannot
// represent and which go-echarts would write as broken JavaScript.
var ErrNotFinite = errors.New("number is NaN or infinite")

// ErrInvalidUTF8 is returned for text that is not valid UTF-8: JSON would
// silently replace its bytes, so the chart would not say what the data says.
var ErrInvalidUTF8 = errors.New("text is not valid UTF-8")

// namePattern is what a chart name may look like: it becomes part of an
// element ID, so it is restricted rather than escaped.
var namePattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// ID returns the element ID of the chart container for a chart name. IDs are
// derived from names, never random, so two builds are byte-identical and
// tests can find a chart by name.
func ID(name string) string { return "chart-" + name }

// figure is what every chart kind hands to render: the option (already
// checked), the text around the chart and its data table.
type figure struct {
	name    string
	kind    string // bar, heatmap, flow, stacked, ladder: a CSS class suffix
	title   string
	caption string
	summary string // aria-label of the chart container
	height  int    // pixels
	option  map[string]any
	table   table
}

// table is the accessible twin of a chart. Header cells of the first column
// are row headers (th scope=row).
type table struct {
	head []string
	rows [][]tableCell
	foot [][]tableCell
}

type tableCell struct {
	text string
	href string // a link to the cell's entries, or ""
}

// checker collects every problem with a chart's input, so the caller learns
// all of them at once.
type checker struct {
	errs []error
}

func (c *checker) text(what, s string) {
	if !utf8.ValidString(s) {
		c.errs = append(c.errs, fmt.Errorf("%s %q: %w", what, s, ErrInvalidUTF8))
	}
	if strings.Contains(strings.ToLower(s), "__f__") {
		c.errs = append(c.errs, fmt.Errorf("%s %q: %w", what, s, ErrFuncMarker))
	}
}

func (c *checker) number(what string, f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		c.errs = append(c.errs, fmt.Errorf("%s: %v: %w", what, f, ErrNotFinite))
	}
}

// link accepts a link target for a chart click or table cell: a path on the
// site (relative, or absolute without host) or an http(s) URL. Anything
// else (javascript:, data:, protocol-relative //host) is refused.
func (c *checker) link(what, s string) {
	if s == "" {
		return
	}
	c.text(what, s)
	u, err := url.Parse(s)
	switch {
	case err != nil:
		c.errs = append(c.errs, fmt.Errorf("%s %q: %w", what, s, err))
	case u.Scheme == "" && u.Host == "" && !strings.HasPrefix(s, "//"):
	case (u.Scheme == "http" || u.Scheme == "https") && u.Host != "":
	default:
		c.errs = append(c.errs, fmt.Errorf("%s %q: only site paths and http(s) links are allowed", what, s))
	}
}

func (c *checker) err(name string) error {
	if len(c.errs) == 0 {
		return nil
	}
	return fmt.Errorf("chart %s: %w", name, errors.Join(c.errs...))
}

// checkCommon validates what every chart has: its name and texts.
func checkCommon(c *checker, name, title, caption string) {
	if !namePattern.MatchString(name) {
		c.errs = append(c.errs, fmt.Errorf("name %q: want lower-case letters and digits separated by single hyphens", name))
	}
	c.text("title", title)
	c.text("caption", caption)
	if strings.TrimSpace(title) == "" {
		c.errs = append(c.errs, errors.New("title is empty"))
	}
}

// marshalOption turns the option into JSON that is safe inside any HTML
// element: encoding/json escapes <, >, &, U+2028 and U+2029, and
// json.HTMLEscape is applied again so the guarantee does not depend on
// encoder settings. Map keys are sorted by encoding/json, so the bytes are
// deterministic.
func marshalOption(option map[string]any) ([]byte, error) {
	raw, err := json.Marshal(option)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	json.HTMLEscape(&out, raw)
	return out.Bytes(), nil
}

// Figure is a chart as the page templates draw it (templates/chart.html,
// the "chart" partial): the container's id, class and size, the text
// around the chart, the option for the JSON data island and the same
// numbers as a table. Every text is escaped by html/template where the
// partial puts it, the option too: in a <script type="application/json">
// html/template marshals it with encoding/json, which escapes <, >, &,
// U+2028 and U+2029, so the island holds no markup and two builds the
// same bytes (map keys are sorted).
type Figure struct {
	ID      string // the container's element ID, ID(name)
	Kind    string // bar, heatmap, flow, stacked, ladder: a CSS class suffix
	Title   string
	Caption string
	Summary string // aria-label of the chart container
	Height  int    // pixels
	Option  any    // the ECharts option, checked
	Table   Table
}

// Table is the accessible twin of a chart. The first cell of each row is a
// row header (th scope=row).
type Table struct {
	Head       []string
	Rows, Foot [][]Cell
}

// Cell is one table cell: its text, and a link to its entries or "".
type Cell struct{ Text, Href string }

// render checks that the option marshals and returns the figure.
func (f *figure) render() (*Figure, error) {
	if _, err := marshalOption(f.option); err != nil {
		return nil, fmt.Errorf("chart %s: %w", f.name, err)
	}
	cells := func(rows [][]tableCell) [][]Cell {
		out := make([][]Cell, len(rows))
		for i, row := range rows {
			out[i] = make([]Cell, len(row))
			for j, c := range row {
				out[i][j] = Cell{Text: c.text, Href: c.href}
			}
		}
		return out
	}
	return &Figure{
		ID: ID(f.name), Kind: f.kind, Title: f.title, Caption: f.caption, Summary: f.summary,
		Height: f.height, Option: f.option,
		Table: Table{Head: f.table.head, Rows: cells(f.table.rows), Foot: cells(f.table.foot)},
	}, nil
}

// formatNumber prints a count without a fraction and other numbers with at
// most two decimals, so tables and labels agree.
func formatNumber(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'f', 2, 64)
}
