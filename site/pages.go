package site

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/masrl/masrl/corpus"
)

// IntroFile is a list's introduction, Markdown beside papers.csv, which
// the home page shows under the lede (corpus.Corpus.Source).
const IntroFile = corpus.IntroFile

// This file holds the builders of the pages that exist once per site,
// field, value, sub-decision or cell; entry pages are in entrypage.go.

func (r *renderer) home() error {
	p := r.newPage("", r.site.Title, "home")
	p.Description = r.opt.Description
	if p.Description == "" && r.site.Survey {
		p.Description = "The tagged paper pool of the survey " + r.site.SurveyTitle + " (arXiv:" + r.site.ArxivID + ")."
	} else if p.Description == "" {
		p.Description = r.site.Title + ": a tagged list of papers, with its taxonomy and coverage."
	}
	hp := &homePage{
		Page: p, Retained: len(r.c.Papers), Excluded: len(r.c.Excluded),
		Candidates: len(r.c.Papers) + len(r.c.Excluded), SpotChecked: len(r.c.Audits), ExclusionLog: r.exclusionPage(),
		Fields: r.fields, Citation: r.citation, Claims: len(r.claims), ClaimCounts: r.claimCounts(),
		Release: r.newestRelease(), Upkeep: r.upkeep,
	}
	if !r.site.Survey {
		hp.Lede = r.opt.Description
	}
	// A list's own introduction, intro.md beside papers.csv, as
	// corpus.Open read it (through the corpus's root like every corpus
	// file).
	if src, err := r.c.Source(IntroFile); err == nil {
		if hp.Intro, err = renderMarkdown(r.md, []byte(src), "intro-"); err != nil {
			return fmt.Errorf("%s: %w", IntroFile, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if r.pool != nil {
		hp.Pool, hp.Added = true, len(r.pool.Added(r.c))
		hp.Survey = len(r.c.Papers) - hp.Added
	}
	// Offer only the downloads this corpus has (downloads skips a missing
	// bib or exclusion log).
	dl := []string{"papers.csv", "papers.json", "papers.bib", "excluded.csv", "excluded.json", "stats.json"}
	for _, name := range dl {
		if (name == corpus.BibFile && !r.c.HasBib) || ((name == corpus.ExcludedFile || name == "excluded.json") && !r.c.HasExcluded) {
			continue
		}
		hp.Downloads = append(hp.Downloads, Link{Text: name, URL: name})
	}
	if r.site.Feed {
		hp.Downloads = append(hp.Downloads, Link{Text: "feed.xml (Atom)", URL: "feed.xml"})
	}
	hp.LinkedData = dataset(r.site.Title, hp.Description, r.site.ArxivURL, hp.Downloads, r.absURL)
	if r.charts() {
		figs, err := r.homeCharts(hp.Root)
		if err != nil {
			return err
		}
		hp.Figures, hp.Charts, hp.Styles = figs, true, []string{readerCSS}
	}
	return r.render("home", &hp.Page, hp)
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
				all := r.entriesOf(tv.keys)
				// A list's value has a feed of its own: what is new under
				// it. The survey's site keeps its one feed.
				var feed string
				if r.site.Feed && !r.site.Survey {
					feed = tv.Href + "feed.xml"
					tv, title := tv, r.site.Title+": "+title
					err := r.generate(feed, func(w io.Writer) error {
						return r.writeFeedOf(w, r.entriesOf(tv.keys), title, tv.Href+"feed.xml", tv.Href, false)
					})
					if err != nil {
						return err
					}
				}
				err := r.briefPages(tv.Href, title, "taxonomy", len(all), func(p Page, lo, hi int, pg *Pager) error {
					tp := &termPage{Page: p, Term: tv, Entries: all[lo:hi], Pager: pg, Feed: feed}
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

// orchestration renders the survey's orchestration sub-decisions: a page
// of the survey's list alone.
func (r *renderer) orchestration() error {
	if !r.site.Survey {
		return nil
	}
	op := &orchestrationPage{Page: r.newPage("orchestration/", "Orchestration sub-decisions", "orchestration")}
	for _, s := range r.subs {
		op.Subdecisions = append(op.Subdecisions, subdecisionRow{ID: s.ID, Label: s.Label, Href: s.Href, Entries: len(s.Entries)})
	}
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

// coverage renders the coverage pages: the whole current list at
// coverage/ and, when data holds the survey's pool, the pool at
// coverage/survey/, each with its tables, heatmaps and cell pages, linking
// to the other. Without a pool file there is one page and no link. A pool
// equal to the list still gets its page, with a note that both count the
// same entries, so that links to it hold before the first paper is added.
func (r *renderer) coverage() error {
	for i, cv := range r.coverageViews {
		title := "Coverage"
		if cv.Survey {
			title = "Coverage of the survey's pool"
		}
		cp := &coveragePage{Page: r.newPage(cv.Href, title, "coverage"), View: cv}
		if len(r.coverageViews) > 1 {
			other := r.coverageViews[1-i]
			cp.Other = &coverageLink{Href: other.Href, Entries: other.Entries}
			cp.Survey, cp.Added, cp.Paper = r.coverageViews[1].Entries, len(r.pool.Added(r.c)), r.pool.Paper
		}
		if err := r.coveragePage(cp); err != nil {
			return err
		}
	}
	return nil
}

// coveragePage renders one coverage view's page and its cell pages.
func (r *renderer) coveragePage(cp *coveragePage) error {
	if r.charts() {
		cp.Charts, cp.Styles = true, []string{readerCSS}
		for _, tv := range cp.View.Tables {
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
	for _, tv := range cp.View.Tables {
		for _, cell := range tv.cells {
			title := fmt.Sprintf("%s: %s × %s: %s", tv.Rows.Label, cell.Row.Label, tv.Cols.Label, cell.Col.Label)
			if tv.View.Survey {
				title += " (survey's pool)"
			}
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
	return nil
}

// excluded renders the exclusion log's page; a list with none has none
// (exclusionPage, which the navigation follows too).
func (r *renderer) excluded() error {
	if !r.exclusionPage() {
		return nil
	}
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
		src := r.proseSrc[name] // read once, by prepareSurvey
		body, err := renderMarkdown(r.md, src, "")
		if err != nil {
			return fmt.Errorf("data/pages/%s.md: %w", name, err)
		}
		pp := &prosePage{Page: r.newPage(name+"/", markdownTitle(src, name), name), Body: body}
		if name == "contribute" {
			pp.Repo = r.site.Repo
		}
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
	p.URL = r.absURL("404.html")
	return r.render("404", &p, &p)
}
