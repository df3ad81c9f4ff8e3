// Package chart renders the site's charts as inert markup: a <figure> with a
// container <div>, the ECharts option as a JSON data island, a caption and the
// same numbers as an HTML table.
//
// The options are built with go-echarts, but never with its renderer:
// go-echarts writes the option into an executable <script> unescaped (a
// label "</script><script>…" runs) and turns any string "__f__…__f__" into
// live JavaScript. Here every label is rejected if it contains "__f__", every
// number must be finite, and the option is marshalled with encoding/json
// (which escapes <, > and &) and then passed through json.HTMLEscape, into a
// <script type="application/json"> that browsers never execute. The site
// asset charts.js reads it and draws the chart, so pages need no inline
// executable script and work under a strict Content-Security-Policy.
package chart

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
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

// render writes the figure's markup.
func (f *figure) render() (template.HTML, error) {
	opt, err := marshalOption(f.option)
	if err != nil {
		return "", fmt.Errorf("chart %s: %w", f.name, err)
	}
	esc := template.HTMLEscapeString
	id := ID(f.name)
	var b strings.Builder
	fmt.Fprintf(&b, "<figure class=\"chart-figure chart-figure-%s\">\n", f.kind)
	fmt.Fprintf(&b, "<figcaption><strong>%s.</strong>", esc(f.title))
	if f.caption != "" {
		fmt.Fprintf(&b, " %s", esc(f.caption))
	}
	b.WriteString("</figcaption>\n")
	fmt.Fprintf(&b, "<div id=\"%s\" class=\"chart chart-%s\" role=\"img\" aria-label=\"%s\" data-height=\"%d\"></div>\n",
		id, f.kind, esc(f.summary), f.height)
	fmt.Fprintf(&b, "<script type=\"application/json\" id=\"%s-option\">%s</script>\n", id, opt)
	// The table starts open so that it is the chart for readers without
	// JavaScript; charts.js closes it once the chart is drawn.
	fmt.Fprintf(&b, "<details class=\"chart-data\" id=\"%s-data\" open>\n<summary>Data table: %s</summary>\n", id, esc(f.title))
	fmt.Fprintf(&b, "<table>\n<caption>%s</caption>\n<thead><tr>", esc(f.title))
	for _, h := range f.table.head {
		fmt.Fprintf(&b, "<th scope=\"col\">%s</th>", esc(h))
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	writeRows(&b, f.table.rows)
	b.WriteString("</tbody>\n")
	if len(f.table.foot) > 0 {
		b.WriteString("<tfoot>\n")
		writeRows(&b, f.table.foot)
		b.WriteString("</tfoot>\n")
	}
	b.WriteString("</table>\n</details>\n</figure>\n")
	return template.HTML(b.String()), nil
}

func writeRows(b *strings.Builder, rows [][]tableCell) {
	esc := template.HTMLEscapeString
	for _, row := range rows {
		b.WriteString("<tr>")
		for i, c := range row {
			tag, attr := "td", ""
			if i == 0 {
				tag, attr = "th", " scope=\"row\""
			}
			if c.href != "" {
				fmt.Fprintf(b, "<%s%s><a href=\"%s\">%s</a></%s>", tag, attr, esc(c.href), esc(c.text), tag)
			} else {
				fmt.Fprintf(b, "<%s%s>%s</%s>", tag, attr, esc(c.text), tag)
			}
		}
		b.WriteString("</tr>\n")
	}
}

// formatNumber prints a count without a fraction and other numbers with at
// most two decimals, so tables and labels agree.
func formatNumber(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'f', 2, 64)
}
