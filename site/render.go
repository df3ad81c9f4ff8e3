package site

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/url"
	"path"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/data"
	"github.com/yuin/goldmark"
)

// categoryOrder is the order of the paper list's groups: methods first,
// then what they build on and are measured with, classical work last.
var categoryOrder = []string{"rl_method", "framework", "benchmark", "survey", "industry", "classical_marl"}

// crossTabs are the survey's three coverage tables, rows × columns.
var crossTabs = [][2]string{
	{"reward_type", "credit_granularity"},
	{"orchestration_form", "credit_granularity"},
	{"category", "verified"},
}

// proseOrder puts the known markdown pages of data/pages first in the
// navigation; any other page follows in name order.
var proseOrder = []string{"about", "method", "contribute"}

// The survey the list belongs to.
const (
	surveyArxivID = "2605.02801"
	surveyTitle   = "Reinforcement Learning for LLM-based Multi-Agent Systems through Orchestration Traces"
)

// renderer holds everything one Render call derives from the corpus.
type renderer struct {
	c     *corpus.Corpus
	v     *corpus.Vocabulary
	base  *url.URL
	tmpl  map[string]*template.Template
	data  fs.FS // the project's data directory (pages, orchestration, claims)
	files *Files
	site  *SiteInfo
	md    goldmark.Markdown

	fields     []*FieldView
	entries    []*EntryView // papers.csv order
	byKey      map[string]*EntryView
	subs       []*SubdecisionView
	tables     []*TableView
	cellOf     map[string]*CellView // key -> its reward_type × credit_granularity cell
	claims     []*ClaimView
	claimsOf   map[string][]*ClaimView  // key -> the claims it takes part in
	audits     map[string]*corpus.Audit // key -> its spot-check; corpus.Audit scans
	records    []*ExclusionView
	pages      []string // page directories for the sitemap, in creation order
	citation   string
	warnings   corpus.Diagnostics
	jobs       []renderJob
	cache      pieceCache         // pieces many pages share, rendered once (items.go)
	tags       map[[2]string]*Tag // (field, value) -> the Tag entries share
	proseNames []string           // names of data/pages/*.md, in navigation order
	echarts    []byte             // the chart library; nil: no charts
	opt        Options
	// byHand is true with the embedded templates alone (no --templates):
	// entry pages and list items are then written by entryhtml.go, which
	// equals the embedded entry.html and layout.html byte for byte;
	// templates from --templates are always executed.
	byHand bool
	// scratch holds *htmlBuf buffers for the pages written by hand.
	scratch sync.Pool
}

// Render builds every file of the site in memory and returns it with the
// warnings rendering found (data naming entries the corpus lacks). The
// corpus should have passed corpus.Check; Render still refuses keys that are
// not plain slugs, because keys become directory names.
func Render(c *corpus.Corpus, v *corpus.Vocabulary, opt Options) (*Files, corpus.Diagnostics, error) {
	files := newFiles()
	r, err := render(c, v, opt, files)
	if err != nil {
		return nil, nil, err
	}
	return files, r.warnings, nil
}

// render renders the site into files, which either keeps it in memory or
// writes each file as soon as it is ready.
func render(c *corpus.Corpus, v *corpus.Vocabulary, opt Options, files *Files) (*renderer, error) {
	return renderAfter(c, v, opt, files, nil)
}

// renderAfter is render that calls ready, when it is not nil, once every
// page is prepared and before the first is written, and stops with its
// error: Build checks the corpus meanwhile.
func renderAfter(c *corpus.Corpus, v *corpus.Vocabulary, opt Options, files *Files, ready func() error) (*renderer, error) {
	base, err := parseBaseURL(opt.BaseURL)
	if err != nil {
		return nil, err
	}
	tfs := opt.Templates
	if tfs == nil {
		tfs = TemplateFS("")
	}
	tmpl, err := parseTemplates(tfs)
	if err != nil {
		return nil, err
	}
	dfs := opt.Data
	if dfs == nil {
		dfs = data.FS
	}
	r := &renderer{c: c, v: v, base: base, tmpl: tmpl, data: dfs, files: files, md: newMarkdown(), opt: opt, byHand: tfs == TemplateFS("")}
	if err := r.loadECharts(opt.ECharts); err != nil {
		return nil, err
	}
	steps := []func() error{
		r.prepare, r.prepareClaims, r.home, r.papers, r.entryPages, r.taxonomy,
		r.orchestration, r.coverage, r.excluded, r.claimsAudit, r.traces, r.prose, r.notFound,
		r.assets, r.echartsAsset, r.downloads, r.searchIndex, r.feed, r.sitemap, r.renderItems,
	}
	if ready != nil {
		steps = append(steps, ready)
	}
	steps = append(steps, r.runJobs)
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// pageNames are the page templates; each is parsed together with layout.html.
var pageNames = []string{
	"home", "papers", "entry", "taxonomy", "field", "term", "orchestration",
	"subdecision", "coverage", "cell", "excluded", "claims", "traces", "prose", "404",
}

// parseTemplates parses layout.html and each page template into its own
// set, so that every page type defines its own "content" block.
func parseTemplates(tfs fs.FS) (map[string]*template.Template, error) {
	layoutSrc, err := fs.ReadFile(tfs, "layout.html")
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	layout, err := template.New("layout.html").Funcs(templateFuncs()).Parse(string(layoutSrc))
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	out := make(map[string]*template.Template, len(pageNames))
	for _, name := range pageNames {
		src, err := fs.ReadFile(tfs, name+".html")
		if err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
		t, err := template.Must(layout.Clone()).New(name + ".html").Parse(string(src))
		if err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
		out[name] = t
	}
	return out, nil
}

func templateFuncs() template.FuncMap {
	return template.FuncMap{
		// entryItem passes the page's root along with an entry to a shared
		// sub-template.
		"entryItem": func(root string, e *EntryView) entryItemArgs { return entryItemArgs{root, e} },
		// fieldTable passes a table of schema fields to its sub-template.
		"fieldTable":   func(caption, id string, fs []SchemaField) fieldTableArgs { return fieldTableArgs{caption, id, fs} },
		"markdownCode": inlineCode,
		"osLabel":      osLabel,
		// mebibytes prints a file size for a download link.
		"mebibytes": func(n int) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) },
		// plural picks the singular or plural noun for n.
		"plural": func(n int, one, many string) string {
			if n == 1 {
				return one
			}
			return many
		},
	}
}

type entryItemArgs struct {
	Root string
	E    *EntryView
}

// newPage fills the common page data for a page served at dir (a directory
// URL from the root such as "papers/magrpo/", or "" for the home page).
func (r *renderer) newPage(dir, title, section string) Page {
	file := pageFile(dir)
	root := rootFor(file)
	return Page{
		Title: title, File: file, Root: root, Section: section,
		URL: r.base.ResolveReference(&url.URL{Path: dir}).String(), Site: r.site,
		NavItems: r.navItems(root, section),
	}
}

// renderJob is one page waiting to be rendered.
type renderJob struct {
	tmpl  string // "" for a file whose content is raw or written by write
	file  string
	data  any
	raw   string
	write func(io.Writer) error
	build func() (any, *Page) // the page's data, made when it is rendered
}

// render queues a page; runJobs executes the queue once every page's data
// is ready. The paths are claimed at once, so a collision is reported where
// it happens.
func (r *renderer) render(name string, p *Page, data any) error {
	if err := r.files.claim(p.File); err != nil {
		return err
	}
	r.frame(name, p)
	if name != "404" {
		r.pages = append(r.pages, strings.TrimSuffix(p.File, "index.html"))
	}
	r.jobs = append(r.jobs, renderJob{tmpl: name, file: p.File, data: data})
	return nil
}

// renderLater queues a page whose data build returns when the page is
// rendered, on a worker: the data of 100,000 entry pages, with their
// pieces, is then never in memory at once.
func (r *renderer) renderLater(name, file string, build func() (any, *Page)) error {
	if err := r.files.claim(file); err != nil {
		return err
	}
	r.pages = append(r.pages, strings.TrimSuffix(file, "index.html"))
	r.jobs = append(r.jobs, renderJob{tmpl: name, file: file, build: build})
	return nil
}

// runJobs executes the queued pages on every CPU and hands each page to
// r.files as soon as it is rendered: a streaming build writes it through a
// buffered writer straight into its file, so that it never holds more than
// one page per CPU, and those only in part. Page data is read-only by now,
// html/template is safe for concurrent use and Files locks, so the only
// other shared state is each job's error slot; the first error in queue
// order is returned, so failures are reported the same way on every run.
func (r *renderer) runJobs() error {
	if r.cache.err != nil {
		return r.cache.err
	}
	errs := make([]error, len(r.jobs))
	next := make(chan int, 64)
	var wg sync.WaitGroup
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := bufio.NewWriterSize(nil, 64<<10)
			for i := range next {
				if r.files.dir == "" {
					errs[i] = r.runJobInMemory(r.jobs[i])
				} else {
					errs[i] = r.runJobToFile(r.jobs[i], w)
				}
			}
		}()
	}
	for _, i := range r.jobOrder() {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return r.cache.err // a piece of a page built on a worker
}

// jobOrder is the order runJobs hands out the jobs: the few large ones
// first (the papers page with every entry, term and cell pages, the
// JSON downloads, the search index and the feeds, each a second or more of
// one CPU at 100,000 entries), then the many small ones, so that no CPU
// is left alone with a large job at the end. Queue order still decides
// which error is reported.
func (r *renderer) jobOrder() []int {
	order := make([]int, 0, len(r.jobs))
	for pass := range 2 {
		for i, j := range r.jobs {
			large := j.write != nil || j.tmpl == "papers" || j.tmpl == "term" || j.tmpl == "cell"
			if large == (pass == 0) {
				order = append(order, i)
			}
		}
	}
	return order
}

// execute writes a job's content to w. Only a page's template output
// goes through listWriter; other files are written as they are.
func (r *renderer) execute(j renderJob, w *bufio.Writer) error {
	switch {
	case j.write != nil:
		if err := j.write(w); err != nil {
			return fmt.Errorf("writing %s: %w", j.file, err)
		}
		return nil
	case j.tmpl == "":
		_, err := w.WriteString(j.raw)
		return err
	}
	data := j.data
	if j.build != nil {
		var p *Page
		data, p = j.build()
		r.frame(j.tmpl, p)
	}
	if ep, ok := data.(*entryPage); ok && r.byHand {
		// entry.html's bytes, by hand (entryhtml.go), in a buffer
		// that the next entry page reuses.
		b, _ := r.scratch.Get().(*htmlBuf)
		if b == nil {
			b = new(htmlBuf)
		}
		*b = entryPageHTML((*b)[:0], ep)
		_, err := w.Write(*b)
		r.scratch.Put(b)
		return err
	}
	if err := r.tmpl[j.tmpl].ExecuteTemplate(listWriter{w, r}, "layout", data); err != nil {
		return fmt.Errorf("rendering %s with %s.html: %w", j.file, j.tmpl, err)
	}
	return nil
}

// generate queues a file whose content write produces while the pages are
// rendered (feeds, indexes, JSON downloads), so that it takes its share of
// the CPUs instead of running before them.
func (r *renderer) generate(name string, write func(w io.Writer) error) error {
	if err := r.files.claim(name); err != nil {
		return err
	}
	r.jobs = append(r.jobs, renderJob{file: name, write: write})
	return nil
}

func (r *renderer) runJobInMemory(j renderJob) error {
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	if err := r.execute(j, w); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return r.files.put(j.file, buf.Bytes())
}

// runJobToFile renders a job into its file through w, which it resets.
// A half-written file after an error does no harm: Build removes the
// whole staging directory.
func (r *renderer) runJobToFile(j renderJob, w *bufio.Writer) error {
	f, err := r.files.create(j.file)
	if err != nil {
		return fmt.Errorf("writing %s: %w", j.file, err)
	}
	defer f.Close()
	w.Reset(f)
	if err := r.execute(j, w); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("writing %s: %w", j.file, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", j.file, err)
	}
	return nil
}

// prepare derives the views every page shares: fields with counts, entries
// with tags and links, sub-decisions, cross-tabs and exclusion records.
func (r *renderer) prepare() error {
	r.site = &SiteInfo{
		Title:    "Awesome RL for LLM Multi-Agent Systems",
		ArxivID:  surveyArxivID,
		ArxivURL: "https://arxiv.org/abs/" + surveyArxivID,
		Nav: []NavItem{
			{"Home", "", "home"},
			{"Papers", "papers/", "papers"},
			{"Taxonomy", "taxonomy/", "taxonomy"},
			{"Orchestration", "orchestration/", "orchestration"},
			{"Coverage", "coverage/", "coverage"},
			{"Exclusions", "excluded/", "excluded"},
			{"Claims", "claims/", "claims"},
			{"Traces", tracesDir, "traces"},
		},
	}
	names, err := proseNames(r.data)
	if err != nil {
		return err
	}
	r.proseNames = names
	for _, name := range names {
		src, err := fs.ReadFile(r.data, "pages/"+name+".md")
		if err != nil {
			return err
		}
		r.site.Nav = append(r.site.Nav, NavItem{markdownTitle(src, name), name + "/", name})
	}
	if err := r.prepareViews(); err != nil {
		return err
	}
	sd, err := loadSubdecisions(r.data)
	if err != nil {
		return err
	}
	for _, s := range sd.Subdecisions {
		sv := &SubdecisionView{
			ID: s.ID, Slug: s.Slug, Label: s.Label, Source: s.Source,
			Definition: s.Definition, Gap: s.Gap, Href: "orchestration/" + s.Slug + "/",
		}
		for _, se := range s.Entries {
			ev := r.byKey[se.Key]
			if ev == nil {
				// Another corpus than the survey's (a fixture, a fork) need
				// not hold every entry the survey names: say so, keep going.
				r.warnings = append(r.warnings, corpus.Diagnostic{
					Severity: corpus.Warning, Pos: corpus.Pos{File: "data/orchestration.yaml"}, Field: s.ID, Value: se.Key,
					Message: fmt.Sprintf("names %q, which is not a key of %s; listed without a link", se.Key, corpus.PapersFile),
				})
			}
			sv.Entries = append(sv.Entries, SubdecisionEntry{Key: se.Key, Entry: ev, Source: se.Source, Note: se.Note})
		}
		r.subs = append(r.subs, sv)
	}

	for _, rc := range crossTabs {
		x := r.c.CrossTab(r.v, rc[0], rc[1])
		if x == nil {
			return fmt.Errorf("vocabulary: cannot cross %s with %s", rc[0], rc[1])
		}
		rows, cols := r.field(rc[0]), r.field(rc[1])
		id := rc[0] + "-" + rc[1]
		tv := &TableView{
			ID: id, Title: rows.Label + " × " + cols.Label, Rows: rows, Cols: cols,
			Href: "coverage/" + id + "/", ColTotal: x.ColTotals, Total: x.Total,
		}
		for i, rt := range rows.Terms {
			line := TableRow{Term: rt, Total: x.RowTotals[i]}
			for j, ct := range cols.Terms {
				cell := &CellView{Table: tv, Row: rt, Col: ct, Count: x.Cells[i][j].Count}
				if cell.Count > 0 {
					cell.Href = tv.Href + path.Base(rt.Href) + "-" + path.Base(ct.Href) + "/"
					for _, k := range x.Cells[i][j].Keys {
						cell.Entries = append(cell.Entries, r.byKey[k])
					}
					sortEntries(cell.Entries)
				}
				line.Cells = append(line.Cells, cell)
			}
			tv.Lines = append(tv.Lines, line)
		}
		r.tables = append(r.tables, tv)
	}
	// Entry pages show the entry's reward × credit cell, the first table.
	r.audits = make(map[string]*corpus.Audit, len(r.c.Audits))
	for i := range r.c.Audits {
		if a := &r.c.Audits[i]; r.audits[a.Key] == nil { // the first, as corpus.Audit
			r.audits[a.Key] = a
		}
	}
	r.cellOf = map[string]*CellView{}
	for _, line := range r.tables[0].Lines {
		for _, cell := range line.Cells {
			for _, ev := range cell.Entries {
				r.cellOf[ev.Key] = cell
			}
		}
	}

	for i := range r.c.Excluded {
		x := &r.c.Excluded[i]
		l := Link{Text: x.URL, URL: x.URL, Web: corpus.IsWebURL(x.URL)}
		r.records = append(r.records, &ExclusionView{Exclusion: x, Link: l, Stage: *r.tag("stage", string(x.Stage))})
	}
	slices.SortStableFunc(r.records, func(a, b *ExclusionView) int { return cmp.Compare(a.RecordID, b.RecordID) })

	cite, err := fs.ReadFile(r.data, "pages/about.md")
	if err != nil {
		return err
	}
	r.citation = citationBlock(string(cite))
	return nil
}

// prepareViews derives the fields with their counts and the entries with
// their tags and links: the part the README list shares with the pages.
func (r *renderer) prepareViews() error {
	for _, f := range r.v.Fields {
		if !segmentPattern.MatchString(f.Name) {
			return fmt.Errorf("vocabulary: field name %q is not a path segment", f.Name)
		}
		fv := &FieldView{Field: f, Href: "taxonomy/" + f.Name + "/", Entries: f.File == corpus.PapersFile}
		h := r.c.Histogram(r.v, f.Name)
		fv.Total = h.Total
		segs := valueSegments(f.Allowed())
		for i, t := range f.Values {
			cell := h.Cells[i]
			fv.Terms = append(fv.Terms, &TermView{
				Term: t, Field: fv, Href: fv.Href + segs[i] + "/", Count: cell.Count, Keys: cell.Keys,
			})
		}
		r.fields = append(r.fields, fv)
	}

	// The parts of a view that depend on its entry alone (links, date,
	// BibTeX) are made on every CPU; keys and tags, which share maps,
	// after them in order.
	views := make([]EntryView, len(r.c.Papers))
	workers := max(1, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(views); i += workers {
				e := &r.c.Papers[i]
				ev := &views[i]
				*ev = EntryView{Entry: e, Href: "papers/" + e.Key + "/", Links: links(e.URLs), Date: entryDate(e), index: i}
				if isArxivIDText(e.ArxivID) {
					ev.ArxivURL = "https://arxiv.org/abs/" + e.ArxivID
				}
				if b := r.c.BibFor(e); b != nil {
					ev.Bib = strings.TrimSpace(b.Raw) + "\n"
				}
			}
		})
	}
	wg.Wait()
	r.byKey = make(map[string]*EntryView, len(r.c.Papers))
	r.entries = make([]*EntryView, 0, len(views))
	for i := range views {
		ev := &views[i]
		e := ev.Entry
		if !isSafeKey(e.Key) {
			return fmt.Errorf("%s: key %q is not a lowercase slug; refusing to use it as a path", e.Pos("key"), e.Key)
		}
		if _, dup := r.byKey[e.Key]; dup {
			return fmt.Errorf("%s: key %q repeats", e.Pos("key"), e.Key)
		}
		for _, fv := range r.fields {
			if fv.Entries {
				ev.Tags = append(ev.Tags, r.tag(fv.Name, e.Value(fv.Name)))
			}
		}
		r.entries = append(r.entries, ev)
		r.byKey[e.Key] = ev
	}
	rankEntries(r.entries)

	return nil
}

// proseNames lists data/pages/*.md by name without extension: the known
// pages first, the rest sorted. A name that is not a plain path segment is
// an error, since it becomes the page's directory.
func proseNames(dfs fs.FS) ([]string, error) {
	paths, err := fs.Glob(dfs, "pages/*.md")
	if err != nil {
		return nil, err
	}
	var names []string
	for _, p := range paths {
		name := strings.TrimSuffix(path.Base(p), ".md")
		if !segmentPattern.MatchString(name) {
			return nil, fmt.Errorf("data/%s: the page name must be a lowercase path segment", p)
		}
		names = append(names, name)
	}
	rank := func(n string) int {
		if i := slices.Index(proseOrder, n); i >= 0 {
			return i
		}
		return len(proseOrder)
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(a, b)) })
	return names, nil
}

// citationBlock takes the survey's BibTeX from the about page's fenced
// bibtex block, so that the citation is written down once.
func citationBlock(md string) string {
	_, rest, ok := strings.Cut(md, "```bibtex\n")
	if !ok {
		return ""
	}
	block, _, _ := strings.Cut(rest, "```")
	return block
}

func (r *renderer) field(name string) *FieldView {
	for _, f := range r.fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// tag returns the Tag for a field's value; a value outside the vocabulary
// (possible only for an unchecked corpus) gets no page link.
// Entries with the same value share one Tag: at 100,000 entries a copy
// per entry was a tenth of the build's memory.
func (r *renderer) tag(field, value string) *Tag {
	k := [2]string{field, value}
	if t := r.tags[k]; t != nil {
		return t
	}
	fv := r.field(field)
	t := &Tag{Field: field, FieldLabel: fv.Label, Value: value, Label: value}
	if i := fv.Index(value); i >= 0 {
		tv := fv.Terms[i]
		t.Label, t.ID, t.Href = tv.Label, tv.ID, tv.Href
	}
	if r.tags == nil {
		r.tags = map[[2]string]*Tag{}
	}
	r.tags[k] = t
	return t
}

// links turns the url column's pieces into links; only web URLs are live.
func links(urls []string) []Link {
	out := make([]Link, 0, len(urls))
	for _, u := range urls {
		l := Link{Text: u, URL: u, Web: corpus.IsWebURL(u)}
		if l.Web {
			if p, err := url.Parse(u); err == nil {
				l.Text = strings.TrimPrefix(p.Host, "www.")
			}
		}
		out = append(out, l)
	}
	return out
}

var arxivIDText = regexp.MustCompile(`^[0-9]{4}\.[0-9]{4,5}(v[0-9]+)?$`)

func isArxivIDText(s string) bool { return arxivIDText.MatchString(s) }

// datePattern finds ISO dates in the notes column ("v7 2025-12-09").
var datePattern = regexp.MustCompile(`\b([0-9]{4})-([0-9]{2})-([0-9]{2})\b`)

// entryDate is the date the feed gives an entry: the latest valid ISO date
// in its notes (the version date the curators recorded), else January 1 of
// its year. Using data rather than the build time keeps the feed stable.
func entryDate(e *corpus.Entry) string {
	best := ""
	for _, m := range datePattern.FindAllStringSubmatch(e.Notes, -1) {
		mo, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[3])
		if mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && m[0] > best {
			best = m[0]
		}
	}
	if best != "" {
		return best
	}
	if e.Year > 0 && e.Year < 10000 {
		return fmt.Sprintf("%04d-01-01", e.Year)
	}
	return ""
}

// rankEntries numbers the entries in the order of every list of entries on
// the site: newest first, then by title ignoring case, then by key. Lists
// are then sorted by that number, which at 100,000 entries is much cheaper
// than lowercasing two titles per comparison in every list.
func rankEntries(entries []*EntryView) {
	type ranked struct {
		e     *EntryView
		title string
	}
	rs := make([]ranked, len(entries))
	for i, e := range entries {
		rs[i] = ranked{e, strings.ToLower(e.Title)}
	}
	slices.SortStableFunc(rs, func(a, b ranked) int {
		return cmp.Or(cmp.Compare(b.e.Year, a.e.Year), cmp.Compare(a.title, b.title), cmp.Compare(a.e.Key, b.e.Key))
	})
	for i, r := range rs {
		r.e.rank = i
	}
}

// sortEntries orders entries as rankEntries numbered them.
func sortEntries(es []*EntryView) {
	slices.SortFunc(es, func(a, b *EntryView) int { return cmp.Compare(a.rank, b.rank) })
}

func (r *renderer) entriesOf(keys []string) []*EntryView {
	out := make([]*EntryView, 0, len(keys))
	for _, k := range keys {
		if ev := r.byKey[k]; ev != nil {
			out = append(out, ev)
		}
	}
	sortEntries(out)
	return out
}

// categoryGroups returns the category terms in the paper list's order;
// a category the fixed order does not name follows in vocabulary order.
func (r *renderer) categoryGroups() []*TermView {
	cat := r.field("category")
	var out []*TermView
	for _, name := range categoryOrder {
		if i := cat.Index(name); i >= 0 {
			out = append(out, cat.Terms[i])
		}
	}
	for _, t := range cat.Terms {
		if !slices.Contains(categoryOrder, t.Value) {
			out = append(out, t)
		}
	}
	return out
}

func (r *renderer) home() error {
	p := r.newPage("", r.site.Title, "home")
	p.Description = "The tagged paper pool of the survey " + surveyTitle + " (arXiv:" + surveyArxivID + ")."
	hp := &homePage{
		Page: p, Retained: len(r.c.Papers), Excluded: len(r.c.Excluded),
		Candidates: len(r.c.Papers) + len(r.c.Excluded), SpotChecked: len(r.c.Audits),
		Fields: r.fields, Citation: r.citation, Claims: len(r.claims), ClaimCounts: r.claimCounts(),
	}
	// Offer only the downloads this corpus has (downloads skips a missing
	// bib or exclusion log).
	dl := []string{"papers.csv", "papers.json", "papers.bib", "excluded.csv", "excluded.json", "stats.json"}
	for _, name := range dl {
		if (name == corpus.BibFile && !r.c.HasBib) || (name == corpus.ExcludedFile && !r.c.HasExcluded) {
			continue
		}
		hp.Downloads = append(hp.Downloads, Link{Text: name, URL: name})
	}
	hp.Downloads = append(hp.Downloads, Link{Text: "feed.xml (Atom)", URL: "feed.xml"})
	if r.charts() {
		figs, err := r.homeCharts(hp.Root)
		if err != nil {
			return err
		}
		hp.Figures, hp.Charts, hp.Styles = figs, true, []string{readerCSS}
	}
	return r.render("home", &hp.Page, hp)
}

func (r *renderer) entryPages() error {
	for _, ev := range r.entries {
		err := r.renderLater("entry", pageFile(ev.Href), func() (any, *Page) {
			ep := r.entryPage(ev)
			return ep, &ep.Page
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// sameCellLimit is how many neighbours of its reward × credit cell an
// entry page lists; the rest are on the cell's page. Listing the whole cell
// made every entry page grow with the corpus and the site with its square
// (a cell can hold a third of all entries). Five are enough to browse on;
// ten made the median entry page of a large corpus 8.3 KB, a third 4 KB
// page of cache to write for each of 100,000 entries.
const sameCellLimit = 5

// entryPage gathers what an entry's page shows besides the entry itself:
// its audit, the sub-decisions naming it and its reward × credit cell.
func (r *renderer) entryPage(ev *EntryView) *entryPage {
	ep := &entryPage{Page: r.newPage(ev.Href, ev.Title, "papers"), Entry: ev}
	ep.Description = ev.OneLiner
	ep.Scripts = []string{"assets/site.js"}
	if a := r.audits[ev.Key]; a != nil {
		av := &AuditView{StrictExplicitCredit: a.StrictExplicitCredit, AgreementNote: a.AgreementNote, AnnotatorNote: a.AnnotatorNote}
		for _, f := range corpus.AuditedFields() {
			label := f
			if fv := r.field(f); fv != nil {
				label = fv.Label
			}
			av.Rows = append(av.Rows, AuditRow{Field: f, Label: label, Orig: a.Orig(f), Annotated: a.Annotated(f), Agree: a.Orig(f) == a.Annotated(f)})
		}
		ep.Audit = av
	}
	for _, s := range r.subs {
		for _, se := range s.Entries {
			if se.Key == ev.Key {
				ep.Subdecisions = append(ep.Subdecisions, s)
				break
			}
		}
	}
	ep.TagItems = r.tagItems(ep.Root, ev.Tags)
	ep.Claims = r.claimsOf[ev.Key]
	ep.ClaimItems = r.claimItems(ep.Root, ep.Claims)
	if cell := r.cellOf[ev.Key]; cell != nil {
		ep.Cell = cell
		ep.SameCellMore = len(cell.Entries) - 1
		for _, o := range cell.Entries {
			if len(ep.SameCell) == sameCellLimit {
				break
			}
			if o != ev {
				ep.SameCell = append(ep.SameCell, o)
			}
		}
		ep.SameCellMore -= len(ep.SameCell)
		ep.SameCellItems = r.neighbourItems(ep.Root, ep.SameCell)
	}
	return ep
}

func (r *renderer) taxonomy() error {
	tp := &taxonomyPage{Page: r.newPage("taxonomy/", "Taxonomy", "taxonomy"), Fields: r.fields}
	if err := r.render("taxonomy", &tp.Page, tp); err != nil {
		return err
	}
	for _, fv := range r.fields {
		fp := &fieldPage{Page: r.newPage(fv.Href, fv.Label, "taxonomy"), Field: fv}
		if r.charts() {
			h, err := r.fieldChart(fv, fp.Root)
			if err != nil {
				return err
			}
			fp.Chart, fp.Charts, fp.Styles = h, true, []string{readerCSS}
		}
		if err := r.render("field", &fp.Page, fp); err != nil {
			return err
		}
		for _, tv := range fv.Terms {
			title := fv.Label + ": " + tv.Label
			if fv.Entries {
				all := r.entriesOf(tv.Keys)
				err := r.briefPages(tv.Href, title, "taxonomy", len(all), func(p Page, lo, hi int, pg *Pager) error {
					tp := &termPage{Page: p, Term: tv, Entries: all[lo:hi], Pager: pg}
					tp.List = r.briefList(tp.Root, tp.Entries)
					return r.render("term", &tp.Page, tp)
				})
				if err != nil {
					return err
				}
				continue
			}
			tp := &termPage{Page: r.newPage(tv.Href, title, "taxonomy"), Term: tv}
			{
				for _, rec := range r.records {
					if rec.Value(fv.Name) == tv.Value {
						tp.Records = append(tp.Records, rec)
					}
				}
			}
			if err := r.render("term", &tp.Page, tp); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *renderer) orchestration() error {
	op := &orchestrationPage{Page: r.newPage("orchestration/", "Orchestration sub-decisions", "orchestration"), Subdecisions: r.subs}
	if err := r.render("orchestration", &op.Page, op); err != nil {
		return err
	}
	for _, s := range r.subs {
		sp := &subdecisionPage{Page: r.newPage(s.Href, s.ID+": "+s.Label, "orchestration"), Sub: s}
		if err := r.render("subdecision", &sp.Page, sp); err != nil {
			return err
		}
	}
	return nil
}

func (r *renderer) coverage() error {
	cp := &coveragePage{Page: r.newPage("coverage/", "Coverage", "coverage"), Tables: r.tables}
	if r.charts() {
		cp.Charts, cp.Styles = true, []string{readerCSS}
		for _, tv := range r.tables {
			h, err := r.tableChart(tv, cp.Root)
			if err != nil {
				return err
			}
			tv.Chart = h
		}
	}
	if err := r.render("coverage", &cp.Page, cp); err != nil {
		return err
	}
	for _, tv := range r.tables {
		for _, line := range tv.Lines {
			for _, cell := range line.Cells {
				if cell.Href == "" {
					continue
				}
				title := fmt.Sprintf("%s: %s × %s: %s", tv.Rows.Label, cell.Row.Label, tv.Cols.Label, cell.Col.Label)
				err := r.briefPages(cell.Href, title, "coverage", len(cell.Entries), func(p Page, lo, hi int, pg *Pager) error {
					pp := &cellPage{Page: p, Cell: cell, Pager: pg}
					pp.List = r.briefList(pp.Root, cell.Entries[lo:hi])
					return r.render("cell", &pp.Page, pp)
				})
				if err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (r *renderer) excluded() error {
	ep := &excludedPage{Page: r.newPage("excluded/", "Exclusion log", "excluded"), Records: r.records, Stages: r.field("stage"), Total: len(r.records)}
	if r.charts() {
		h, err := r.flowChart(ep.Root)
		if err != nil {
			return err
		}
		ep.Flow, ep.Charts, ep.Styles = h, true, []string{readerCSS}
	}
	return r.render("excluded", &ep.Page, ep)
}

func (r *renderer) prose() error {
	for _, name := range r.proseNames {
		src, err := fs.ReadFile(r.data, "pages/"+name+".md")
		if err != nil {
			return err
		}
		body, err := renderMarkdown(r.md, src, "")
		if err != nil {
			return fmt.Errorf("data/pages/%s.md: %w", name, err)
		}
		pp := &prosePage{Page: r.newPage(name+"/", markdownTitle(src, name), name), Body: body}
		if err := r.render("prose", &pp.Page, pp); err != nil {
			return err
		}
	}
	return nil
}

// notFound renders 404.html. A server shows it at any depth, so its links
// are rooted at the base URL's path instead of relative.
func (r *renderer) notFound() error {
	p := r.newPage("", "Page not found", "")
	p.File = "404.html"
	p.Root = r.base.Path
	p.NavItems = r.navItems(p.Root, p.Section)
	p.URL = r.base.ResolveReference(&url.URL{Path: "404.html"}).String()
	return r.render("404", &p, &p)
}
