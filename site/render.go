package site

import (
	"fmt"
	"hash/maphash"
	"html/template"
	"io/fs"
	"net/url"
	"strings"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/release"
	"github.com/masrl/masrl/site/internal/tmplexec"
	"github.com/masrl/masrl/site/outdir"
	"github.com/yuin/goldmark"
)

// This file is the pipeline: render runs the steps that
// prepare the views (prepare.go), queue every page (pages.go,
// entrypage.go) and files (publish.go, charts.go, ...), and execute the
// queue (jobs.go); and it parses the templates every page is rendered with.

// renderer is one build, in three parts: what it is given (inputs), the
// views it derives from them (views), and what it produces while it
// renders (output). The incremental build keys pages by the views their
// templates read, never by the renderer itself.
type renderer struct {
	inputs
	views
	output
}

// inputs are what a build is given: the checked corpus and its data, the
// options and the parsed templates. They do not change during the build.
type inputs struct {
	c        *corpus.Corpus
	v        *corpus.Vocabulary
	checked  *corpus.Checked // the corpus and its verdict, whose claim results the claims page shows
	claimSet *corpus.Claims  // data/claims.yaml with the survey's pool
	pool     *corpus.Pool    // the survey's pinned pool; nil: no pool file in data
	survey   *corpus.Pool    // the survey the list belongs to: its title and arXiv id
	data     fs.FS           // the project's data directory (pages, orchestration, claims)
	opt      Options
	base     *url.URL
	tmpl     map[string]*tmplexec.Set
	md       goldmark.Markdown
	echarts  []byte // the chart library; nil: no charts
}

// views are what the pages show, derived from the inputs by prepare and
// the steps after it, read-only once the pages are queued.
type views struct {
	site   *SiteInfo
	fields []*FieldView
	// hists are the fields' counts (corpus.Histogram), by field name,
	// counted once by prepareViews: the charts of the home and taxonomy
	// pages read them again, and counting 10,000 rows anew for each
	// chart was an eighth to a quarter of what the build does on one CPU
	// before rendering (bench/profile/build-10k-5.md).
	hists   map[string]*corpus.Histogram
	entries []*EntryView // papers.csv order
	byKey   map[string]*EntryView
	subs    []*SubdecisionView
	tables  []*TableView // the whole list's coverage tables
	// coverageViews are the coverage pages: the whole list, then, with a
	// pool file, the survey's pool.
	coverageViews []*CoverageView
	cellOf        map[string]cellPlace // key -> its reward_type × credit_granularity cell
	claims        []*ClaimView
	claimsOf      map[string][]*ClaimView  // key -> the claims it takes part in
	parts         []*ClaimPart             // the claims by part of the survey; nil without its sections
	surveyOf      map[string]*EntrySurvey  // key -> what the survey says of it; nil but for the survey
	audits        map[string]*corpus.Audit // key -> its spot-check; corpus.Audit scans
	records       []*ExclusionView
	citation      string
	tags          map[[2]string]*Tag // (field, value) -> the Tag entries share
	proseNames    []string           // names of data/pages/*.md, in navigation order
	proseSrc      map[string][]byte  // name -> its data/pages/NAME.md, read once
	releases      []*ReleaseView     // oldest first (releases.go)
	upkeep        release.Upkeep
}

// output is what the build produces: the queued pages, the files they go
// to, the pieces they share and the warnings.
type output struct {
	files *outdir.Files
	jobs  []renderJob
	pages []string     // page directories for the sitemap, in creation order
	cache pieceCache   // pieces many pages share, rendered once (items.go)
	inc   *incremental // nil: a full build (incremental.go)
	early *earlyPages  // nil: no page is wanted first (Options.First)
	// shownEarly are the pages showFirst handed to Options.Early; nil
	// when it did not.
	shownEarly map[string][]byte
	warnings   corpus.Diagnostics
}

// render renders the site of ck into files, which either keeps it in
// memory or writes each file as soon as it is ready. Every page is
// prepared first; then it waits for the check and stops with its error
// before the first page is written. Render still refuses keys that are
// not plain slugs, because keys become directory names.
func render(ck *corpus.Checked, opt Options, files *outdir.Files) (*renderer, error) {
	base, err := parseBaseURL(opt.BaseURL)
	if err != nil {
		return nil, err
	}
	tfs := opt.Templates
	if tfs == nil {
		tfs = TemplateFS("")
	}
	srcs, sources, err := readTemplates(tfs)
	if err != nil {
		return nil, err
	}
	// An incremental build reuses the templates the last build parsed
	// from the same sources, escaped already by their first execution.
	var tmpl map[string]*tmplexec.Set
	if opt.Cache != nil && opt.Cache.tmpl != nil && opt.Cache.tmplSources == sources && opt.Cache.tmplHTMLOnly == opt.htmlOnly {
		tmpl = opt.Cache.tmpl
	} else if tmpl, err = parseTemplateSources(srcs, opt.htmlOnly); err != nil {
		return nil, err
	}
	if opt.Cache != nil {
		opt.Cache.tmpl, opt.Cache.tmplSources, opt.Cache.tmplHTMLOnly = tmpl, sources, opt.htmlOnly
	}
	r := &renderer{
		inputs: inputs{
			c: ck.Corpus, v: ck.Vocabulary, base: base, tmpl: tmpl, data: ck.FS, md: newMarkdown(), opt: opt,
			checked: ck, claimSet: ck.Claims, pool: ck.Pool, survey: ck.Survey,
		},
		output: output{files: files, shownEarly: opt.shown},
	}
	if opt.Cache != nil {
		r.inc = &incremental{cache: opt.Cache, tmplKey: maphash.String(opt.Cache.seed, sources)}
		opt.Cache.useTemplates(r.inc.tmplKey)
	}
	if err := r.loadECharts(opt.ECharts); err != nil {
		return nil, err
	}
	steps := []step{
		{"prepare", r.prepare}, {"claims", r.prepareClaims}, {"releases", r.loadReleases},
		{"home", r.home}, {"papers", r.papers}, {"entry pages", r.entryPages}, {"first pages", r.showFirst}, {"taxonomy", r.taxonomy},
		{"orchestration", r.orchestration}, {"coverage", r.coverage}, {"excluded", r.excluded},
		{"claims audit", r.claimsAudit}, {"traces", r.traces}, {"prose", r.prose}, {"not found", r.notFound},
		{"redirects", r.redirects}, {"release pages", r.releasePages}, {"assets", r.assets},
		{"schemas", r.schemas}, {"echarts", r.echartsAsset}, {"downloads", r.downloads},
		{"search index", r.searchIndex}, {"feed", r.feed}, {"sitemap", r.sitemap}, {"list items", r.renderItems},
		{"check", func() error { return ck.Verdict(opt.WithClaims).Err() }},
		{"render", r.runJobs},
	}
	for _, st := range steps {
		if err := st.run(opt.StepTime); err != nil {
			return r, err
		}
	}
	return r, nil
}

// step is one step of a build: its name, which its errors are wrapped
// with ("entry pages: …") and masrl build --verbose prints with its time,
// and what it does.
type step struct {
	name string
	do   func() error
}

// run runs the step and, when timed is not nil, tells it the step's
// time. The check's error is returned as it is: it is the verdict, with
// every finding, not a failure of the step.
func (st step) run(timed func(name string, took time.Duration)) error {
	start := time.Now()
	err := st.do()
	if timed != nil {
		timed(st.name, time.Since(start))
	}
	if err == nil {
		return nil
	}
	if _, ok := IsCheckError(err); ok {
		return err
	}
	return fmt.Errorf("%s: %w", st.name, err)
}

// pageNames are the page templates; each is parsed together with layout.html.
var pageNames = []string{
	"home", "papers", "entry", "taxonomy", "field", "term", "orchestration",
	"subdecision", "coverage", "cell", "excluded", "claims", "traces", "prose", "404",
	"releases", "release",
}

// parseTemplates parses layout.html and each page template into its own
// set, so that every page type defines its own "content" block. It also
// returns the sources it read, one after another, which an incremental
// build's page keys include.
func parseTemplates(tfs fs.FS) (map[string]*tmplexec.Set, string, error) {
	srcs, sources, err := readTemplates(tfs)
	if err != nil {
		return nil, "", err
	}
	tmpl, err := parseTemplateSources(srcs, false)
	return tmpl, sources, err
}

// readTemplates reads the templates parseTemplateSources parses, by
// name, and returns them also one after another, names and lengths
// included.
func readTemplates(tfs fs.FS) (map[string][]byte, string, error) {
	var sources strings.Builder
	srcs := map[string][]byte{}
	for _, name := range append([]string{"layout", "chart"}, pageNames...) {
		b, err := fs.ReadFile(tfs, name+".html")
		if err != nil {
			return nil, "", fmt.Errorf("templates: %w", err)
		}
		fmt.Fprintf(&sources, "%s.html %d\n%s", name, len(b), b)
		srcs[name] = b
	}
	return srcs, sources.String(), nil
}

// parseTemplateSources parses the sources readTemplates read into one
// set per page template, each executed by tmplexec (html/template's
// escaped trees run without its reflection on every action) or, with
// htmlOnly, by html/template itself.
func parseTemplateSources(srcs map[string][]byte, htmlOnly bool) (map[string]*tmplexec.Set, error) {
	funcs := templateFuncs()
	layout, err := template.New("layout.html").Funcs(funcs).Parse(string(srcs["layout"]))
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	// Partials every page may use: chart.html draws a chart.Figure.
	if _, err := layout.New("chart.html").Parse(string(srcs["chart"])); err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	out := make(map[string]*tmplexec.Set, len(pageNames))
	for _, name := range pageNames {
		t, err := template.Must(layout.Clone()).New(name + ".html").Parse(string(srcs[name]))
		if err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
		out[name] = tmplexec.New(t, funcs, htmlOnly)
	}
	return out, nil
}

func templateFuncs() template.FuncMap {
	return template.FuncMap{
		// fieldTable passes a table of schema fields to its sub-template.
		"fieldTable":   func(caption, id string, fs []SchemaField) fieldTableArgs { return fieldTableArgs{caption, id, fs} },
		"markdownCode": inlineCode,
		// rootRef passes an entry a release names with the page's root.
		"rootRef": func(root string, ref ReleaseRef) rootReleaseRef { return rootReleaseRef{root, ref} },
		"osLabel": osLabel,
		// mebibytes prints a file size for a download link.
		"mebibytes": func(n int) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) },
		// claimsTable passes a table of claims to the claims page's
		// claims-table, once per part of the survey.
		"claimsTable": func(root string, cs []*ClaimView, caption string, survey bool) claimsTableArgs {
			return claimsTableArgs{root, cs, caption, survey}
		},
		// plural picks the singular or plural noun for n.
		"plural": func(n int, one, many string) string {
			if n == 1 {
				return one
			}
			return many
		},
	}
}

// newPage fills the common page data for a page served at dir (a directory
// URL from the root such as "papers/magrpo/", or "" for the home page).
func (r *renderer) newPage(dir, title, section string) Page {
	return pageAt(r.site, dir, title, section, r.absURL(dir), r.navItems)
}

// pageAt is newPage's data for a page of site at dir with the absolute
// address pageURL, whose navigation nav renders.
func pageAt(site *SiteInfo, dir, title, section, pageURL string, nav func(root, section string) template.HTML) Page {
	file := pageFile(dir)
	root := rootFor(file)
	return Page{
		Title: title, File: file, Root: root, Section: section,
		URL: pageURL, Site: site, NavItems: nav(root, section),
	}
}

// absURL returns the absolute URL of p, a path from the site's root, or ""
// when the build has no base URL (resolveURL).
func (r *renderer) absURL(p string) string { return resolveURL(r.opt.BaseURL, r.base, p) }

// resolveURL returns the absolute URL of p, a path from the site's root,
// under base (baseURL parsed), or "" when baseURL is "": a guessed
// address (a local server's) must never reach a canonical link, the feed
// or the sitemap.
func resolveURL(baseURL string, base *url.URL, p string) string {
	if baseURL == "" {
		return ""
	}
	return base.ResolveReference(&url.URL{Path: p}).String()
}
