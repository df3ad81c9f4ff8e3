package site

import (
	"strconv"

	"github.com/masrl/masrl/corpus"
)

// The functions of this file write what entry.html and the entry-item
// templates of layout.html write, without html/template: they run once
// per entry, which made them most of a large build's time (escape.go
// says why and how they stay equal to the templates).

// entryPageHTML appends entry.html inside layout.html for ep to b.
func entryPageHTML(b htmlBuf, ep *entryPage) htmlBuf {
	e, c, root := ep.Entry, ep.Entry.Entry, ep.Root
	b.raw("<!DOCTYPE html>\n<html lang=\"")
	b.text(ep.Site.Language)
	b.raw("\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
	b.text(ep.Title)
	if ep.Section != "home" {
		b.raw(" · ")
		b.text(ep.Site.Title)
	}
	b.raw("</title>\n")
	if ep.Description != "" {
		b.raw("<meta name=\"description\" content=\"")
		b.text(ep.Description)
		b.raw("\">\n")
	}
	if ep.URL != "" {
		b.raw("<link rel=\"canonical\" href=\"")
		b.url(ep.URL)
		b.raw("\">\n")
	}
	b.raw(string(ep.Top))
	b.raw("\n<main id=\"main\" tabindex=\"-1\">\n\n<article class=\"entry-page\" data-key=\"")
	b.text(c.Key)
	b.raw("\">\n<p class=\"breadcrumb\"><a href=\"")
	b.url(root)
	b.raw("papers/\">Papers</a> › ")
	category := e.Tag("category")
	b.link(root, category.Href, category.Label)
	b.raw("</p>\n<h1>")
	b.text(c.Title)
	b.raw("</h1>\n<dl class=\"facts\">\n<dt>First author</dt><dd>")
	b.text(c.FirstAuthor)
	if c.Affiliation != "" {
		b.raw(" <span class=\"affiliation\">(")
		b.text(c.Affiliation)
		b.raw(")</span>")
	}
	b.raw("</dd>\n<dt>Year</dt><dd>")
	b.text(c.YearText)
	b.raw("</dd>\n<dt>Venue</dt><dd>")
	b.text(c.Venue)
	b.raw("</dd>")
	if c.ArxivID != "" {
		b.raw("\n<dt>arXiv</dt><dd>")
		if e.ArxivURL != "" {
			b.raw("<a href=\"")
			b.url(e.ArxivURL)
			b.raw("\">arXiv:")
			b.text(c.ArxivID)
			b.raw("</a>")
		} else {
			b.text(c.ArxivID)
		}
		b.raw("</dd>")
	}
	b.raw("\n<dt>Links</dt><dd>")
	if len(e.Links) > 0 {
		b.raw("<ul class=\"links\">")
		for _, l := range e.Links {
			b.raw("<li>")
			if l.Web {
				b.raw("<a href=\"")
				b.url(l.URL)
				b.raw("\">")
				b.text(l.URL)
				b.raw("</a>")
			} else {
				b.raw("<span class=\"not-a-link\">")
				b.text(l.Text)
				b.raw("</span>")
			}
			b.raw("</li>")
		}
		b.raw("</ul>")
	} else {
		b.raw("none")
	}
	b.raw("</dd>\n<dt>Verified</dt><dd>")
	if verified := e.Tag("verified"); verified.Href != "" {
		b.link(root, verified.Href, verified.Label)
	} else {
		b.text(verified.Label)
	}
	b.raw("</dd>\n</dl>\n")
	if c.OneLiner != "" {
		b.raw("<p class=\"one-liner\">")
		b.text(c.OneLiner)
		b.raw("</p>")
	}
	b.raw("\n\n<section aria-labelledby=\"tags-h\">\n<h2 id=\"tags-h\">Tags</h2>\n<ul class=\"tags\">")
	b.pieces(ep.TagItems)
	b.raw("\n</ul>\n</section>")
	if c.Notes != "" {
		b.raw("\n<section aria-labelledby=\"notes-h\">\n<h2 id=\"notes-h\">Notes</h2>\n<p>")
		b.text(c.Notes)
		b.raw("</p>\n</section>")
	}
	b.raw("\n\n<section aria-labelledby=\"bib-h\">\n<h2 id=\"bib-h\">BibTeX</h2>")
	if e.Bib != "" {
		b.raw("\n<pre class=\"bibtex\" id=\"bib-")
		b.text(c.Key)
		b.raw("\" tabindex=\"0\"><code>")
		b.text(e.Bib)
		b.raw("</code></pre>\n<p class=\"bib-actions\"><button type=\"button\" class=\"copy\" data-copy=\"bib-")
		b.text(c.Key)
		b.raw("\" hidden>Copy</button> <button type=\"button\" class=\"download\" data-download=\"bib-")
		b.text(c.Key)
		b.raw("\" data-filename=\"")
		b.text(c.Key)
		b.raw(".bib\" hidden>Download ")
		b.text(c.Key)
		b.raw(".bib</button> <a href=\"")
		b.url(root)
		b.raw("papers.bib\">papers.bib</a> holds every entry</p>")
	} else {
		b.raw("\n<p>This entry has no BibTeX entry in papers.bib.</p>")
	}
	b.raw("\n</section>")
	if a := ep.Audit; a != nil {
		b.raw("\n<section aria-labelledby=\"audit-h\">\n<h2 id=\"audit-h\">Spot-check audit</h2>\n<p>A second reader re-tagged this entry independently. Agreement: ")
		b.text(a.AgreementNote)
		if a.StrictExplicitCredit != "" {
			b.raw("; strict explicit credit: ")
			b.text(a.StrictExplicitCredit)
		}
		b.raw(".</p>\n<div class=\"table-scroll\" tabindex=\"0\">\n<table>\n<caption>Original tags and the second reader's tags</caption>\n<thead><tr><th scope=\"col\">Field</th><th scope=\"col\">Original</th><th scope=\"col\">Second reader</th><th scope=\"col\">Agree</th></tr></thead>\n<tbody>")
		for _, row := range a.Rows {
			b.raw("\n<tr")
			if !row.Agree {
				b.raw(" class=\"disagree\"")
			}
			b.raw("><th scope=\"row\">")
			b.text(row.Label)
			b.raw("</th><td>")
			b.text(row.Orig)
			b.raw("</td><td>")
			b.text(row.Annotated)
			b.raw("</td><td>")
			if row.Agree {
				b.raw("yes")
			} else {
				b.raw("<strong>no</strong>")
			}
			b.raw("</td></tr>")
		}
		b.raw("\n</tbody>\n</table>\n</div>")
		if a.AnnotatorNote != "" {
			b.raw("\n<p class=\"annotator-note\"><strong>Annotator's note:</strong> ")
			b.text(a.AnnotatorNote)
			b.raw("</p>")
		}
		b.raw("\n</section>")
	}
	if len(ep.Subdecisions) > 0 {
		b.raw("\n<section aria-labelledby=\"orch-h\">\n<h2 id=\"orch-h\">Orchestration sub-decisions</h2>\n<p>The survey names this entry for:</p>\n<ul>")
		for _, s := range ep.Subdecisions {
			b.raw("\n<li><a href=\"")
			b.url(root)
			b.urlPart(s.Href)
			b.raw("\">")
			b.text(s.ID)
			b.raw(": ")
			b.text(s.Label)
			b.raw("</a></li>")
		}
		b.raw("\n</ul>\n</section>")
	}
	if len(ep.Claims) > 0 {
		b.raw("\n<section aria-labelledby=\"claims-h\">\n<h2 id=\"claims-h\">Paper claims this entry takes part in</h2>\n<p>Figures the survey prints that count or name this entry, recomputed from the CSV (<a href=\"")
		b.url(root)
		b.raw("claims/\">all claims</a>):</p>\n<ul class=\"entry-claims\">")
		b.pieces(ep.ClaimItems)
		b.raw("\n</ul>\n</section>")
	}
	if cell := ep.Cell; cell != nil {
		b.raw("\n<section aria-labelledby=\"cell-h\">\n<h2 id=\"cell-h\">Same reward and credit</h2>\n<p>Other entries with reward type ")
		b.link(root, cell.Row.Href, cell.Row.Label)
		b.raw(" and credit granularity ")
		b.link(root, cell.Col.Href, cell.Col.Label)
		b.raw(" (")
		b.link(root, cell.Href, "the whole cell")
		b.raw("):</p>")
		if len(ep.SameCell) > 0 {
			b.raw("\n<ul>")
			b.pieces(ep.SameCellItems)
			b.raw("\n</ul>")
			if ep.SameCellMore != 0 {
				b.raw("\n<p class=\"more\">And ")
				b.raw(strconv.Itoa(ep.SameCellMore))
				b.raw(" more: ")
				b.link(root, cell.Href, "all "+strconv.Itoa(cell.Count)+" entries in this cell")
				b.raw(".</p>")
			}
		} else {
			b.raw("\n<p>None: this entry is alone in its cell.</p>")
		}
		b.raw("\n</section>")
	}
	if ep.Edit != "" {
		b.raw("\n<p class=\"entry-repo\"><a href=\"")
		b.url(ep.Edit)
		b.raw("\">Edit this entry</a> · <a href=\"")
		b.url(ep.Report)
		b.raw("\">Report a problem</a></p>")
	}
	b.raw("\n</article>\n\n</main>\n")
	b.raw(string(ep.Bottom))
	b.raw("\n")
	return b
}

// pieces appends each piece after a newline, as pieces.Join joins them.
func (b *htmlBuf) pieces(p pieces) {
	for _, s := range p {
		*b = append(*b, '\n')
		*b = append(*b, s...)
	}
}

// link appends <a href="root+href">text</a>, the site's internal link.
func (b *htmlBuf) link(root, href, text string) {
	b.raw("<a href=\"")
	b.url(root)
	b.urlPart(href)
	b.raw("\">")
	b.text(text)
	b.raw("</a>")
}

// appendItemOpen appends entry-item-open to b.
func appendItemOpen(b htmlBuf, c *corpus.Entry) htmlBuf {
	b.raw("<li class=\"entry\" id=\"entry-")
	b.text(c.Key)
	for _, a := range [...]struct{ name, value string }{
		{"key", c.Key}, {"year", c.YearText}, {"category", string(c.Category)}, {"is_rl", string(c.IsRL)},
		{"reward_type", string(c.RewardType)}, {"credit_granularity", string(c.CreditGranularity)},
		{"orchestration_form", string(c.OrchestrationForm)}, {"scenario", string(c.Scenario)},
		{"is_core", string(c.IsCore)}, {"verified", string(c.Verified)},
	} {
		b.raw("\" data-")
		b.raw(a.name)
		b.raw("=\"")
		b.text(a.value)
	}
	b.raw("\">\n<h3 class=\"entry-title\">")
	return b
}

// entryItemLink is entry-item-link.
func entryItemLink(root string, e *EntryView) string {
	b := make(htmlBuf, 0, 64+len(root)+len(e.Href)+len(e.Title))
	b.link(root, e.Href, e.Title)
	return string(b)
}

// appendItemClose appends entry-item-close to b, tags being its tags'
// pieces.
func appendItemClose(b htmlBuf, c *corpus.Entry, tags pieces) htmlBuf {
	b.raw("</h3>\n<p class=\"meta\">")
	b.meta(c)
	b.raw("</p>\n")
	if c.OneLiner != "" {
		b.raw("<p class=\"one-liner\">")
		b.text(c.OneLiner)
		b.raw("</p>")
	}
	b.raw("\n<ul class=\"tags compact\">")
	b.pieces(tags)
	b.raw("\n</ul>\n</li>")
	return b
}

// entryBriefOpen is entry-brief-open.
func entryBriefOpen(c *corpus.Entry) string {
	b := make(htmlBuf, 0, 64+len(c.Key))
	b.raw("<li class=\"entry-brief\" data-key=\"")
	b.text(c.Key)
	b.raw("\">")
	return string(b)
}

// entryBriefClose is entry-brief-close.
func entryBriefClose(c *corpus.Entry) string {
	b := make(htmlBuf, 0, 128)
	b.raw(" <span class=\"meta\">")
	b.meta(c)
	b.raw("</span></li>")
	return string(b)
}

// meta appends an entry's year, venue and first author.
func (b *htmlBuf) meta(c *corpus.Entry) {
	b.text(c.YearText)
	b.raw(" · ")
	b.text(c.Venue)
	b.raw(" · ")
	b.text(c.FirstAuthor)
}
