package site

import (
	"encoding/json"
	"fmt"
	"hash/maphash"
	"html/template"
	"io"
	"io/fs"
	"os"
	"reflect"
	"strings"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/site/chart"
	"github.com/masrl/masrl/site/chartlib"
	"github.com/masrl/masrl/site/search"
)

// EChartsAsset is where the chart library is published, from the root.
const EChartsAsset = "assets/echarts.min.js"

// DefaultECharts, as Options.ECharts, publishes the chart library masrl
// embeds (package site/chartlib: echarts with only the chart types the
// site draws), so an installed masrl needs no node_modules. Any other
// non-empty value is the path of a library to publish instead.
const DefaultECharts = "builtin"

// readerCSS styles the charts and the search.
const readerCSS = "assets/reader.css"

// SearchIndexFile is the papers page's search index, from the root.
const SearchIndexFile = "search-index.json"

// HomeCharts are the figures of the home page.
type HomeCharts struct {
	Years, Ladder, Flow *chart.Figure
	Fields              []*chart.Figure // one bar chart per controlled field, vocabulary order
}

// DrawFigure draws a chart with the "chart" partial of the templates tfs
// (nil: the embedded ones), outside a page: for fixtures that hold
// charts.js to every chart kind without building a site.
func DrawFigure(tfs fs.FS, f *chart.Figure) (template.HTML, error) {
	if tfs == nil {
		tfs = TemplateFS("")
	}
	tmpl, _, err := parseTemplates(tfs)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := tmpl["home"].ExecuteTemplate(&b, "chart", f); err != nil {
		return "", err
	}
	return template.HTML(b.String()), nil
}

// loadECharts reads the chart library when the build draws charts.
func (r *renderer) loadECharts(path string) error {
	switch path {
	case "":
		return nil
	case DefaultECharts:
		r.echarts = chartlib.Library()
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("chart library: %w (run make node_modules, or build without charts)", err)
	}
	r.echarts = b
	return nil
}

// charts reports whether pages draw charts. Without the library (a build
// with an empty ECharts option, as the package's own tests do) every page
// still carries the same numbers as tables.
func (r *renderer) charts() bool { return r.echarts != nil }

// ChartName returns the chart names the site uses, so that tests can find
// each chart: field-FIELD, coverage-ROWS-COLS, coverage-survey-ROWS-COLS
// (the survey's pool), screening, years and credit-ladder, with
// underscores turned into hyphens.
func ChartName(parts ...string) string {
	return strings.ReplaceAll(strings.Join(parts, "-"), "_", "-")
}

// fieldChart is the bar chart of one field over its vocabulary; root leads
// from the page it is drawn on to the site root.
func (r *renderer) fieldChart(fv *FieldView, root string) (*chart.Figure, error) {
	h := r.histogram(fv.Name)
	spec := chart.FieldBars(ChartName("field", fv.Name), fv.Field, h, r.termLink(fv, root))
	if !fv.Entries {
		spec.YName = "Records"
	}
	return chart.Bars(spec)
}

// histogram returns the counts of a field, which prepareViews counted;
// the charts only read them.
func (r *renderer) histogram(field string) *corpus.Histogram {
	if h, ok := r.hists[field]; ok {
		return h
	}
	return r.c.Histogram(r.v, field)
}

// termLink links a value of fv to its term page.
func (r *renderer) termLink(fv *FieldView, root string) func(string) string {
	return func(value string) string {
		for _, t := range fv.Terms {
			if t.Value == value {
				return root + t.Href
			}
		}
		return ""
	}
}

// tableChart is the heatmap of one coverage table; a cell links to its
// entry list, empty cells to nothing. It draws the counts the table
// prints, of the table's view.
func (r *renderer) tableChart(tv *TableView, root string) (*chart.Figure, error) {
	name := ChartName("coverage", tv.ID)
	if tv.View.Survey {
		name = ChartName("coverage", "survey", tv.ID)
	}
	spec := chart.CrossTabHeatmap(name, tv.Rows.Field, tv.Cols.Field, tv.x, func(row, col string) string {
		for _, line := range tv.Lines {
			for _, cell := range line.Cells {
				if cell.Row.Value == row && cell.Col.Value == col && cell.Href != "" {
					return root + cell.Href
				}
			}
		}
		return ""
	})
	return chart.Heatmap(spec)
}

// flowChart is the screening flow.
func (r *renderer) flowChart(root string) (*chart.Figure, error) {
	stage := r.field("stage")
	if stage == nil {
		return nil, fmt.Errorf("vocabulary: no field stage for the screening flow")
	}
	spec := chart.FunnelFlow("screening", stage.Field, r.c.Funnel(r.v), r.termLink(stage, root))
	spec.RetainedURL = root + "papers/"
	spec.ExcludedURL = root + "excluded/"
	return chart.Flow(spec)
}

// homeCharts draws the home page's figures: the years stacked by the
// list's field (the survey's category), the survey's credit ladder when
// the list has credit_granularity, the screening flow when it has an
// exclusions page (exclusionPage) with the stage field, and a bar chart
// per field.
func (r *renderer) homeCharts(root string) (*HomeCharts, error) {
	hc := &HomeCharts{}
	var err error
	if lf := r.v.ListField(); lf != nil {
		if hc.Years, err = chart.Stacked(chart.YearsByCategory("years", r.c, lf)); err != nil {
			return nil, err
		}
	}
	if cg := r.field("credit_granularity"); cg != nil {
		ladder := chart.CreditLadder("credit-ladder", cg.Field, r.histogram(cg.Name), r.termLink(cg, root))
		if hc.Ladder, err = chart.Ladder(ladder); err != nil {
			return nil, err
		}
	}
	if r.exclusionPage() && r.field("stage") != nil {
		if hc.Flow, err = r.flowChart(root); err != nil {
			return nil, err
		}
	}
	for _, fv := range r.fields {
		h, err := r.fieldChart(fv, root)
		if err != nil {
			return nil, err
		}
		hc.Fields = append(hc.Fields, h)
	}
	return hc, nil
}

// searchIndex writes the papers page's search index.
func (r *renderer) searchIndex() error {
	// The index reads the entries (their fields, BibTeX authors, pages
	// and, through New, the since facet), the papers' vocabulary and the
	// survey's pool.
	err := r.generateKeyed(SearchIndexFile, func(kw *keyWalker) {
		r.surveyInputs(kw)
		kw.walk(reflect.ValueOf(r.v.FieldsOf(corpus.PapersFile)))
		kw.walk(reflect.ValueOf(r.pool != nil))
		if r.pool != nil {
			kw.str(r.pool.Paper)
		}
	}, func(w io.Writer) error {
		ix := search.Build(r.c, r.v, func(key string) string {
			if ev := r.byKey[key]; ev != nil {
				return ev.Href
			}
			return ""
		})
		r.sinceFacet(ix)
		for i := range ix.Entries {
			ix.Entries[i].Survey = r.surveyOf[ix.Entries[i].Key].SearchText()
		}
		// An entry's piece reads its row and, of the rest, the
		// facets' names and whether there is a pool (sinceFacet).
		fields, err := json.Marshal(ix.Fields)
		if err != nil {
			return err
		}
		var context uint64
		if r.inc != nil {
			context = maphash.Bytes(r.inc.cache.seed, append(fields, fmt.Sprint(r.pool != nil, r.surveyContext())...))
		}
		pieces, err := r.rowPieces(SearchIndexFile, context, func(i int) ([]byte, error) { return ix.Entries[i].JSON() })
		if err != nil {
			return err
		}
		b, err := ix.JSONOf(func(i int) ([]byte, error) { return pieces[i], nil })
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
	if err != nil {
		return err
	}
	// The BibTeX file reads each entry's key and source (EntryView.Bib).
	return r.generateKeyed(search.BibFile, r.entriesInputs, func(w io.Writer) error {
		b, err := search.Bib(r.c, r.v.Links...)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
}

// echartsAsset publishes the chart library when charts are drawn.
func (r *renderer) echartsAsset() error {
	if !r.charts() {
		return nil
	}
	return r.files.Add(EChartsAsset, r.echarts)
}

// sinceFacet adds a facet to the papers page's search: in the survey's
// pool, or added since. search.js builds its facets from the index, so the
// facet needs no code of its own; without a pool file there is none.
func (r *renderer) sinceFacet(ix *search.Index) {
	if r.pool == nil {
		return
	}
	ix.Fields = append(ix.Fields, search.Field{Name: "since", Label: "Survey", Values: []search.Value{
		{Value: "survey", Label: "In the survey (" + r.pool.Paper + ")"},
		{Value: "added", Label: "Added since the survey"},
	}})
	for i := range ix.Entries {
		e := &ix.Entries[i]
		e.Tags["since"] = "survey"
		if !r.pool.HasKey(e.Key) {
			e.Tags["since"] = "added"
		}
	}
}
