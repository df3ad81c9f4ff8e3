// Package site turns a checked corpus into a static website: one page per
// entry, per controlled field and value, per orchestration sub-decision and
// per coverage cell, plus the exclusion log, the claims audit, feeds and
// downloads. Render keeps the site in memory; Build writes every file into
// a buffer directory beside the output as soon as it is rendered, so that
// its memory is bounded by the corpus and not by the site, and exchanges
// it with the output only when everything succeeded (outdir.go).
//
// Nothing on a page that exists once per entry grows with the corpus (the
// cell neighbours and claim key lists are capped), and pieces many pages
// share, above all every entry's list item, are rendered once (items.go):
// the build is linear in the number of entries.
//
// Every page type is a struct embedding Page (views.go) and one template,
// templates/NAME.html, that defines "content" inside the shared
// layout.html. To add a page type: add the struct, the template, its name
// to pageNames, and a step in Render that fills the struct and calls
// r.render. A page that draws charts sets Page.Charts, and the layout then
// loads assets/echarts.min.js and assets/charts.js; anything else a page
// needs goes in Page.Scripts.
package site

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/siteconfig"
	"github.com/masrl/masrl/templates"
)

// Options configure a build.
type Options struct {
	// CorpusDir is the corpus directory (papers.csv and the rest).
	CorpusDir string
	// BaseURL is where the site will be published, an absolute http(s) URL.
	// Canonical links, Open Graph URLs, the feed and the sitemap use it;
	// pages link relatively, so the site also works under a sub-path of it.
	// Empty: those are left out (Result.Omitted says so), never pointed at
	// a guessed address.
	BaseURL string
	// Title, Description and Language describe the site (masrl.yaml's
	// title, description and language); empty: the survey list's title,
	// no site description, and "en".
	Title, Description, Language string
	// Repository is where the list's sources are kept (masrl.yaml's
	// repository); with a URL, entry pages link to edit the entry and to
	// report a problem, and the contributing page to the repository.
	Repository siteconfig.Repository
	// Release is a published masrl release (masrl.yaml's release); with a
	// URL and no binaries in Downloads, the traces page links the binaries
	// there, with their SHA-256 sums when Release.Sums names the release's
	// SHA256SUMS file.
	Release siteconfig.Release
	// Templates overrides the embedded templates; nil uses them as built in.
	Templates fs.FS
	// Data overrides the embedded data directory (vocabulary, claims,
	// orchestration sub-decisions, prose pages); nil uses it as built in.
	// masrl serve points it at data/ so that edits show without a rebuild
	// of the binary.
	Data fs.FS
	// Today is passed to corpus.Check; zero means now.
	Today time.Time
	// ECharts is the chart library: DefaultECharts for the one masrl
	// embeds, or the path of an echarts.min.js to publish instead. The site
	// draws charts on the pages that have them; empty means no charts (the
	// numbers stay as tables).
	ECharts string
	// TraceExample is the path of an example orchestration trace. The
	// traces page offers it for download and counts its types; it must be
	// valid. Empty: the example embedded in package trace.
	TraceExample string
	// Downloads is a directory holding what make site cross-compiles: the
	// masrl binary for every platform of Platforms (masrl-OS-ARCH[.exe]) and
	// the WebAssembly validator (masrl.wasm, wasm_exec.js, validator.js).
	// The traces page then offers the binaries with their SHA-256 sums and
	// runs the validator in the browser. Empty: the page offers the schema
	// and the example only and says where the binaries come from.
	Downloads string
}

// DefaultBaseURL is the address masrl serve listens on by default. A
// build never falls back to it: without a base URL the site has no
// absolute URLs (Options.BaseURL).
const DefaultBaseURL = "http://127.0.0.1:8080/"

// DefaultTitle is the list's title when masrl.yaml sets none: the pages'
// and masrl cite's.
const DefaultTitle = "Awesome RL for LLM Multi-Agent Systems"

// Result describes a finished build.
type Result struct {
	Files *Files
	// Warnings are the check's findings that did not stop the build.
	Warnings corpus.Diagnostics
}

// Build loads and checks the corpus, renders the site and replaces out with
// it. A corpus with check errors returns a *corpus.CheckError holding every
// finding, and out is not touched. Pages are written as they are rendered
// into the build buffer beside out (outdir.go), which is exchanged with out
// only when every page succeeded; on failure out stays as it was.
func Build(opt Options, out string) (res *Result, err error) {
	if err := checkOutDir(out, opt.CorpusDir); err != nil {
		return nil, err
	}
	unlock, err := lockOutput(out)
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", out, err)
	}
	defer unlock()
	// The buffer is swept while the corpus loads and the views are
	// prepared; the first write waits for it.
	files := newDirFiles(bufferDir(out), nil)
	files.swept = make(chan struct{})
	go func() {
		defer close(files.swept)
		_, files.old, files.sweepErr = openBuffer(out)
	}()
	defer func() { <-files.swept }() // before unlock: a sweep never outlives the lock
	c, v, err := loadCorpus(opt)
	if err != nil {
		return nil, err
	}
	// The check runs while the site's views are prepared, and no page is
	// rendered before it has passed: at 100,000 entries checking was half
	// a second of a build that did nothing else meanwhile. Whatever the
	// preparation writes (assets, downloads) goes to the buffer, never to
	// out, and the check's findings win over any error of the unchecked
	// preparation.
	var checkErr error
	checked := make(chan struct{})
	go func() {
		defer close(checked)
		res, checkErr = checkCorpus(c, v, opt)
	}()
	waitCheck := func() error { <-checked; return checkErr }
	r, err := renderAfter(c, v, opt, files, waitCheck)
	if cerr := waitCheck(); cerr != nil {
		return res, cerr
	}
	if err != nil {
		return res, err
	}
	res.Warnings = append(res.Warnings, r.warnings...)
	if err := files.removeStale(); err != nil {
		return res, fmt.Errorf("writing %s: %w", out, err)
	}
	if err := publish(files.dir, out); err != nil {
		return res, fmt.Errorf("writing %s: %w", out, err)
	}
	files.dir = filepath.Clean(out)
	res.Files = files
	return res, nil
}

// checkOutDir refuses an output directory whose replacement would destroy
// something that is not a site: the corpus or a folder above it, the
// current directory or a file system root, or a non-empty directory without
// the index.html an earlier build leaves. Build removes what it replaces,
// so a mistyped --out must fail before anything moves.
func checkOutDir(out, corpusDir string) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	if filepath.Dir(abs) == abs {
		return fmt.Errorf("refusing to replace %s: a file system root", out)
	}
	if wd, err := os.Getwd(); err == nil && within(wd, abs) {
		return fmt.Errorf("refusing to replace %s: it holds the current directory", out)
	}
	if corpusDir != "" {
		if c, err := filepath.Abs(corpusDir); err == nil && within(c, abs) {
			return fmt.Errorf("refusing to replace %s: it holds the corpus %s", out, corpusDir)
		}
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if st, serr := os.Stat(abs); serr == nil && !st.IsDir() {
			return fmt.Errorf("refusing to replace %s: not a directory", out)
		}
		return err
	}
	if len(entries) > 0 {
		if _, err := os.Stat(filepath.Join(abs, "index.html")); err != nil {
			return fmt.Errorf("refusing to replace %s: it is not empty and has no index.html from an earlier build", out)
		}
	}
	return nil
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && (rel == "." || !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && rel != "..")
}

// Load loads, checks and renders the site into memory without writing it.
func Load(opt Options) (*Result, error) {
	c, v, res, err := loadChecked(opt)
	if err != nil {
		return res, err
	}
	files, warns, err := Render(c, v, opt)
	if err != nil {
		return res, err
	}
	res.Files = files
	res.Warnings = append(res.Warnings, warns...)
	return res, nil
}

// loadChecked loads and checks the corpus; a result with the check's
// warnings is returned even when the check fails.
func loadChecked(opt Options) (*corpus.Corpus, *corpus.Vocabulary, *Result, error) {
	c, v, err := loadCorpus(opt)
	if err != nil {
		return nil, nil, nil, err
	}
	res, err := checkCorpus(c, v, opt)
	if err != nil {
		return nil, nil, res, err
	}
	return c, v, res, nil
}

// loadCorpus loads the corpus and the vocabulary.
func loadCorpus(opt Options) (*corpus.Corpus, *corpus.Vocabulary, error) {
	c, err := corpus.Load(opt.CorpusDir)
	if err != nil {
		return nil, nil, err
	}
	v, err := vocabulary(opt.Data)
	if err != nil {
		return nil, nil, err
	}
	return c, v, nil
}

// checkCorpus checks a loaded corpus; the result holds the warnings even
// when the check fails.
func checkCorpus(c *corpus.Corpus, v *corpus.Vocabulary, opt Options) (*Result, error) {
	today := opt.Today
	if today.IsZero() {
		today = time.Now()
	}
	ds := corpus.Check(c, v, corpus.CheckOptions{Today: today})
	res := &Result{}
	for _, d := range ds {
		if d.Severity == corpus.Warning {
			res.Warnings = append(res.Warnings, d)
		}
	}
	return res, ds.Err()
}

// vocabulary reads vocab.yaml from the data directory, or the embedded one.
func vocabulary(dfs fs.FS) (*corpus.Vocabulary, error) {
	if dfs == nil {
		return corpus.DefaultVocabulary()
	}
	b, err := fs.ReadFile(dfs, "vocab.yaml")
	if err != nil {
		return nil, err
	}
	return corpus.ParseVocabulary("data/vocab.yaml", b)
}

// IsCheckError reports whether err is a failed corpus check and returns its
// findings.
func IsCheckError(err error) (corpus.Diagnostics, bool) {
	var ce *corpus.CheckError
	if errors.As(err, &ce) {
		return ce.Diagnostics, true
	}
	return nil, false
}

// parseBaseURL checks the base URL and returns it with a trailing slash.
// No base URL gives the path "/" alone, the root 404.html links from; the
// renderer then writes no absolute URL (renderer.absURL).
func parseBaseURL(s string) (*url.URL, error) {
	if s == "" {
		return &url.URL{Path: "/"}, nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("base URL %q: want an absolute http(s) URL without query or fragment", s)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	u.RawPath = ""
	return u, nil
}

// TemplateFS returns the embedded templates with the files of dir laid
// over them: a file in dir replaces the embedded one of the same name, and
// templates dir does not have are taken from the binary.
func TemplateFS(dir string) fs.FS {
	if dir == "" {
		return templates.FS
	}
	return overlayFS{top: os.DirFS(dir), bottom: templates.FS}
}

// DataFS is TemplateFS for the data directory; "" means the embedded data
// alone (nil).
func DataFS(dir string) fs.FS {
	if dir == "" {
		return nil
	}
	return overlayFS{top: os.DirFS(dir), bottom: data.FS}
}

// overlayFS reads from top and falls back to bottom for missing files.
type overlayFS struct{ top, bottom fs.FS }

func (o overlayFS) Open(name string) (fs.File, error) {
	f, err := o.top.Open(name)
	if err == nil {
		return f, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return o.bottom.Open(name)
}

// ReadDir lists a directory of either layer, top entries replacing bottom
// ones of the same name, sorted by name; fs.Glob uses it.
func (o overlayFS) ReadDir(name string) ([]fs.DirEntry, error) {
	top, terr := fs.ReadDir(o.top, name)
	bottom, berr := fs.ReadDir(o.bottom, name)
	if terr != nil && berr != nil {
		return nil, terr
	}
	seen := map[string]bool{}
	var out []fs.DirEntry
	for _, e := range top {
		seen[e.Name()] = true
		out = append(out, e)
	}
	for _, e := range bottom {
		if !seen[e.Name()] {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}
