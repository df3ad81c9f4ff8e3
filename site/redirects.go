package site

import (
	"html/template"
	"io"
	"slices"
	"strings"

	"github.com/masrl/masrl/corpus"
)

// This file leaves a page at the old address of every entry whose key
// changed, so that no published link breaks. The old keys come from the
// dated snapshots of papers.csv in the corpus's history folder (the files
// masrl diff compares), which the command reads (release.ReadSnapshots,
// Options.History): a key papers.csv no longer has, whose row had the
// same arXiv id or the same title as a current entry, is that entry
// renamed. Without snapshots, or without renames, nothing is written.

// redirectPage is the whole page at an old address: a refresh to the new
// one, its link for readers without refresh, noindex so search engines
// keep the new address. It does not use the layout: it is not a page of
// the site, only a forwarding address.
var redirectPage = template.Must(template.New("redirect").Parse(`<!DOCTYPE html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<title>Moved: {{.Title}}</title>
<meta name="robots" content="noindex">
{{- with .Canonical}}
<link rel="canonical" href="{{.}}">
{{- end}}
<meta http-equiv="refresh" content="0; url={{.Href}}">
</head>
<body>
<p>The entry <code>{{.Old}}</code> is now <a href="{{.Href}}">{{.Title}}</a> (key <code>{{.New}}</code>).</p>
</body>
</html>
`))

// renames returns old key → current entry from the history folder's
// snapshots (oldest name first), in key order.
func renames(c *corpus.Corpus, snapshots []*corpus.Corpus) map[string]*corpus.Entry {
	out := map[string]*corpus.Entry{}
	if len(snapshots) == 0 {
		return out
	}
	byArxiv, byTitle := map[string]*corpus.Entry{}, map[string]*corpus.Entry{}
	for i := range c.Papers {
		e := c.Papers[i]
		if e.ArxivID != "" {
			byArxiv[e.ArxivID] = e
		}
		byTitle[titleKey(e.Title)] = e
	}
	for _, old := range snapshots {
		for i := range old.Papers {
			o := old.Papers[i]
			if !corpus.IsKey(o.Key) || c.Entry(o.Key) != nil || out[o.Key] != nil {
				continue
			}
			e := byArxiv[o.ArxivID]
			if o.ArxivID == "" || e == nil {
				e = byTitle[titleKey(o.Title)]
			}
			if e != nil && titleKey(o.Title) != "" {
				out[o.Key] = e
			}
		}
	}
	return out
}

func titleKey(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// redirects queues the page at each renamed entry's old address.
func (r *renderer) redirects() error {
	var snapshots []*corpus.Corpus
	if r.opt.History != nil {
		snapshots = r.opt.History.Snapshots
	}
	moved := renames(r.c, snapshots)
	olds := make([]string, 0, len(moved))
	for k := range moved {
		olds = append(olds, k)
	}
	slices.Sort(olds)
	for _, old := range olds {
		e := moved[old]
		data := struct {
			Lang, Title, Old, New, Href, Canonical string
		}{r.site.Language, e.Title, old, e.Key, "../" + e.Key + "/", r.absURL("papers/" + e.Key + "/")}
		err := r.generate(pageFile("papers/"+old+"/"), func(w io.Writer) error {
			return redirectPage.Execute(w, data)
		})
		if err != nil {
			return err
		}
	}
	return nil
}
