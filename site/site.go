// Package site turns a checked corpus (corpus.Open) into a static website:
// one page per entry, per controlled field and value, per orchestration
// sub-decision and per coverage cell, plus the exclusion log, the claims
// audit, feeds and downloads. It renders only: the corpus, its data and
// its check come in one *corpus.Checked, and Build is the one entry
// point. Without an output directory Build keeps the site in memory;
// with one it writes every file into a buffer directory beside the output
// as soon as it is rendered, so that its memory is bounded by the corpus
// and not by the site, and exchanges it with the output only when
// everything succeeded (outdir.go).
//
// Nothing on a page that exists once per entry grows with the corpus (the
// cell neighbours and claim key lists are capped), and pieces many pages
// share, above all every entry's list item, are rendered once (items.go):
// the build is linear in the number of entries.
//
// With Options.Cache a build is incremental (incremental.go): every
// page's key hashes its template set and the data its template executes
// with, and a page whose key is the last build's is kept (from memory, or
// left as the build buffer holds it) instead of rendered. Each page's
// data reaches only what its template prints (a term page its field's
// name, not every other term), so one edited row renders its entry page,
// the entry pages that show it as a neighbour and the list pages that
// show it (its papers page, term pages and cells' pages), and, when a
// tag changed, the pages that count every entry; the output is
// byte-identical to a full build. masrl serve keeps one Cache for its lifetime; the
// Cache also keeps what its builds published into the output, so that
// the build after next takes the buffer's listing instead of reading the
// buffer's every directory (outdir.Open).
//
// Every page type is a struct embedding Page (views.go) and one template,
// templates/NAME.html, that defines "content" inside the shared
// layout.html. To add a page type: add the struct, the template, its name
// to pageNames, and a step in render that fills the struct and calls
// r.render. A page that draws charts sets Page.Charts, and the layout then
// loads assets/echarts.min.js and assets/charts.js; anything else a page
// needs goes in Page.Scripts.
package site

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"strings"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/release"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/site/outdir"
)

// Options configure a build.
type Options struct {
	// Config is the site's settings (masrl.yaml). BaseURL is where the
	// site will be published, an absolute http(s) URL: canonical links,
	// Open Graph URLs, the feed and the sitemap use it; pages link
	// relatively, so the site also works under a sub-path of it. Empty:
	// those are left out (never pointed at a guessed address). Empty
	// Title, Description and Language: the survey list's title (the
	// pool's, data/survey-pool.yaml) when the corpus was opened with the
	// survey profile, else siteconfig.DefaultTitle; a description of the
	// list; and "en". Profile is not read here: the checked corpus
	// carries the profile it was opened with (corpus.Open). With
	// a Repository URL, entry pages link to edit the entry and to report a
	// problem, and the contributing page to the repository. With a Release
	// URL and no binaries in Downloads, the traces page links the binaries
	// there, with their SHA-256 sums when Release.Sums names the release's
	// SHA256SUMS file.
	siteconfig.Config
	// Out is the output directory, replaced by the new site only when
	// every page succeeded (outdir.go); empty keeps the site in memory
	// (Result.Files) and writes nothing.
	Out string
	// Templates overrides the embedded templates (TemplateFS); nil uses
	// them as built in. Its assets/ folder replaces built-in assets.
	Templates fs.FS
	// AssetFiles is the list's assets folder (masrl.yaml's assets),
	// published under assets/ as it is; nil: none. The caller opens it
	// inside the corpus directory (corpus.CheckInside), for the site reads
	// nothing from disk itself.
	AssetFiles fs.FS
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
	// Cache, when not nil, makes the build incremental (incremental.go):
	// a page whose inputs hash as in the last build with the same cache
	// is kept instead of rendered, with byte-identical output. Build
	// updates it.
	Cache *Cache
	// First names pages, as output files ("papers/KEY/index.html"), to
	// render before any other once the check has passed; Early, when
	// not nil, then receives them, rendered, before the build goes on
	// with the rest of the site and long before it publishes it. masrl
	// serve passes the pages a browser visited last, shows them at once
	// and reloads the open pages, as Hugo's fast render mode does. These
	// pages are always rendered, never kept from an earlier build, so
	// that Early holds the bytes the build then publishes; names the
	// build does not make are ignored. Early is not called when the
	// check fails or a page errs before they are all rendered.
	First []string
	Early func(pages map[string][]byte)
	// shown are the pages of First handed to Early before the build
	// started (Cache.quickFirst); nil when none were.
	shown map[string][]byte
	// htmlOnly executes every template with html/template instead of
	// tmplexec: the tests that hold the two to the same bytes set it.
	htmlOnly bool
	// WithClaims makes the list's claims part of the verdict the build
	// waits for (corpus.Checked.Verdict), as they are of masrl check's:
	// a failing claim then refuses the build as it fails the check.
	// False gates on the check's findings alone (check --claims=false);
	// the claims page shows the claims either way.
	WithClaims bool
	// History is the list's releases, upkeep dates and papers.csv
	// snapshots (release.ReadHistory): the release pages and the home
	// page show the first two, and each renamed entry of the snapshots
	// keeps a page at its old address (redirects.go); nil: none. The caller reads it from the corpus directory, for
	// the site reads nothing from disk itself.
	History *release.History
	// AddedDates, when not nil, returns the day each row joined the
	// list, by key, from the corpus's git history (keyColumn is the key's
	// column in papers.csv's header): a list's own feed without an added
	// column dates its entries so. The command fills it
	// (corpus.AddedFromHistory), for git's history is not a corpus file
	// and the site reads nothing from disk itself; it is called only when
	// the feed needs it.
	AddedDates func(keyColumn int) (map[string]string, error)
	// StepTime, when not nil, is told each step of the build (the
	// renderer's steps, then "publish") and how long it took: masrl build
	// --verbose prints them.
	StepTime func(step string, took time.Duration)
}

// DefaultBaseURL is the address masrl serve listens on by default. A
// build never falls back to it: without a base URL the site has no
// absolute URLs (Options.BaseURL).
const DefaultBaseURL = "http://127.0.0.1:8080/"

// Result describes a finished build.
type Result struct {
	Files *outdir.Files
	// Warnings are the check's findings that did not stop the build, and
	// those rendering found (data naming entries the corpus lacks).
	Warnings corpus.Diagnostics
}

// Build renders the site of a checked corpus, into opt.Out or, without
// one, into memory. The site's views are prepared while the check runs,
// and no page is written before it has passed: a corpus with check errors
// (its verdict, corpus.Checked.Verdict, with the claims when
// opt.WithClaims) returns a *corpus.CheckError holding every finding (and the result
// with the warnings), and opt.Out is not touched. Pages are written as
// they are rendered into the build buffer beside opt.Out (outdir.go),
// which is exchanged with it only when every page succeeded; on failure
// opt.Out stays as it was.
func Build(ck *corpus.Checked, opt Options) (*Result, error) {
	var shown map[string][]byte // the first pages shown before the build
	if opt.Cache != nil {
		opt.Cache.startBuild(opt.Out)
		var ok bool
		if shown, ok = opt.Cache.quickFirst(ck, opt); ok {
			opt.Early(shown)
		}
		opt.Cache.quick = ok
	}
	// The check of a reopened corpus starts after the first pages: the
	// views are prepared while it runs.
	ck.Start()
	opt.shown = shown
	if opt.Out == "" {
		files := outdir.Memory()
		res, r, err := build(ck, opt, files)
		finishCache(opt.Cache, r, files, err == nil)
		return res, err
	}
	var buffer *outdir.Listing
	if opt.Cache != nil {
		buffer = opt.Cache.bufferListing
	}
	out, err := outdir.Open(opt.Out, ck.Corpus.Dir, buffer)
	if err != nil {
		return nil, err
	}
	defer out.Close()
	if opt.Cache != nil {
		opt.Cache.found(out.Found())
	}
	res, r, err := build(ck, opt, out.Files())
	if err == nil {
		err = step{"publish", out.Publish}.run(opt.StepTime)
	}
	finishCache(opt.Cache, r, out.Files(), err == nil)
	if opt.Cache != nil {
		opt.Cache.listed(out)
	}
	return res, err
}

// finishCache records a build in its cache, if it has one.
func finishCache(c *Cache, r *renderer, files *outdir.Files, ok bool) {
	if c == nil {
		return
	}
	var keys map[string]uint64
	// A build that stopped before its pages (a check error) left the
	// buffer's pages as they were.
	touched := r != nil && r.inc != nil && r.inc.keys != nil
	if ok {
		keys = r.pageKeys()
		for i, kept := range r.inc.reused {
			if kept {
				c.Reused++
			} else if j := r.jobs[i]; j.tmpl != "" && j.build == nil {
				c.rendered = append(c.rendered, j.file)
			}
		}
		c.Rendered = len(r.jobs) - c.Reused
		c.items = r.inc.items
		if c.pieces == nil {
			c.pieces = map[string]map[uint64][]byte{}
		}
		maps.Copy(c.pieces, r.inc.pieces)
		c.last = &lastBuild{r: r, ck: r.checked}
	}
	c.finish(keys, files, ok, touched)
	if ok {
		// The next build's first pages read the views and the pieces
		// (quick.go), not the queue, whose data of every list page
		// would otherwise stay in memory until then.
		r.jobs, r.pages, r.inc, r.early, r.shownEarly = nil, nil, nil, nil, nil
	}
}

// build renders the site into files once the check has passed. Whatever
// the preparation writes before (assets, downloads) goes to the buffer,
// never to the output, and the check's findings win over any error of
// the unchecked preparation.
func build(ck *corpus.Checked, opt Options, files *outdir.Files) (*Result, *renderer, error) {
	r, err := render(ck, opt, files)
	res := &Result{Warnings: ck.Warnings()}
	if cerr := ck.Verdict(opt.WithClaims).Err(); cerr != nil {
		return res, r, cerr
	}
	if err != nil {
		return res, r, err
	}
	res.Warnings = append(res.Warnings, r.warnings...)
	res.Files = files
	return res, r, nil
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
