package site

import (
	"slices"
	"strconv"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/release"
)

// This file renders the list's citable releases (package release reads
// them from the corpus's releases folder): a page per release saying what
// changed since the one before, computed by corpus.DiffCorpora as masrl
// diff computes it, an index of them, and a feed item each. A corpus
// without releases gets none of these, and its site is as before.

// ReleaseView is one release as its page shows it.
type ReleaseView struct {
	release.Meta
	Href             string // releases/vN/
	Papers, Excluded int
	Prev             *ReleaseView // nil for the first release
	Added, Removed   []ReleaseRef
	Changed          []ReleaseChange
}

// ReleaseRef is an entry a release added or removed; Href is its current
// page, empty when the list no longer has it.
type ReleaseRef struct {
	Key, Title, Href string
}

// ReleaseChange is an entry a release changed, with its changed columns.
type ReleaseChange struct {
	ReleaseRef
	Fields []corpus.FieldChange
}

// Summary is the change in one line, for the feed and the index.
func (rv *ReleaseView) Summary() string {
	if rv.Prev == nil {
		return "First release: " + strconv.Itoa(rv.Papers) + " entries."
	}
	return strconv.Itoa(len(rv.Added)) + " added, " + strconv.Itoa(len(rv.Removed)) + " removed, " +
		strconv.Itoa(len(rv.Changed)) + " changed since " + rv.Prev.Version + "."
}

// ReleaseRefList is a list of entries a release page shows under one
// heading: the added, the removed.
type ReleaseRefList struct {
	ID, Heading string
	Refs        []ReleaseRef
}

// RefLists are the release's added and removed entries, the lists that
// are not empty, so that the page writes both with one block.
func (rv *ReleaseView) RefLists() []ReleaseRefList {
	var out []ReleaseRefList
	for _, l := range []ReleaseRefList{{"added", "Added", rv.Added}, {"removed", "Removed", rv.Removed}} {
		if len(l.Refs) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// rootReleaseRef is a ReleaseRef with the root of the page showing it.
type rootReleaseRef struct {
	Root string
	Ref  ReleaseRef
}

type releasesPage struct {
	Page
	Releases []*ReleaseView // newest first
}

type releasePage struct {
	Page
	Release *ReleaseView
}

// loadReleases prepares the releases and the upkeep dates of
// opt.History before any page is rendered: the home page names the
// newest release and the dates.
func (r *renderer) loadReleases() error {
	h := r.opt.History
	if h == nil {
		return nil
	}
	r.upkeep = h.Upkeep
	rels := h.Releases
	var prev *release.Release
	var prevView *ReleaseView
	for i := range rels {
		rel := &rels[i]
		rv := &ReleaseView{
			Meta: rel.Meta, Href: "releases/" + rel.Version + "/", Prev: prevView,
			Papers: len(rel.Corpus.Papers), Excluded: len(rel.Corpus.Excluded),
		}
		if prev != nil {
			d := corpus.DiffCorpora(prev.Corpus, rel.Corpus, r.v, nil)
			for _, a := range d.Added {
				rv.Added = append(rv.Added, r.releaseRef(a.Key, a.Title))
			}
			for _, a := range d.Removed {
				rv.Removed = append(rv.Removed, r.releaseRef(a.Key, a.Title))
			}
			for _, c := range d.Changed {
				rv.Changed = append(rv.Changed, ReleaseChange{r.releaseRef(c.Key, c.Title), c.Fields})
			}
		}
		r.releases = append(r.releases, rv)
		prev, prevView = rel, rv
	}
	return nil
}

func (r *renderer) releaseRef(key, title string) ReleaseRef {
	ref := ReleaseRef{Key: key, Title: title}
	if ev := r.byKey[key]; ev != nil {
		ref.Href = ev.Href
	}
	return ref
}

// newestRelease is the latest release, nil without any.
func (r *renderer) newestRelease() *ReleaseView {
	if len(r.releases) == 0 {
		return nil
	}
	return r.releases[len(r.releases)-1]
}

// releasePages renders releases/ and releases/vN/ for every release.
func (r *renderer) releasePages() error {
	if len(r.releases) == 0 {
		return nil
	}
	newest := slices.Clone(r.releases)
	slices.Reverse(newest)
	ip := &releasesPage{Page: r.newPage("releases/", "Releases", "releases"), Releases: newest}
	ip.Description = "The citable releases of " + r.site.Title + ", each with what changed since the one before."
	if err := r.render("releases", &ip.Page, ip); err != nil {
		return err
	}
	for _, rv := range r.releases {
		title := "Version " + rv.Version
		if rv.Prev != nil {
			title += ": changes since " + rv.Prev.Version
		}
		p := &releasePage{Page: r.newPage(rv.Href, title, "releases"), Release: rv}
		p.Description = rv.Summary()
		if err := r.render("release", &p.Page, p); err != nil {
			return err
		}
	}
	return nil
}

// releaseFeedEntries are the feed's items for the releases, newest first.
func (r *renderer) releaseFeedEntries() []atomEntry {
	var out []atomEntry
	for i := len(r.releases) - 1; i >= 0; i-- {
		rv := r.releases[i]
		out = append(out, atomEntry{
			Title: "Version " + rv.Version, ID: r.absURL(rv.Href), Updated: rv.Date + "T00:00:00Z",
			Links: []atomLink{{Href: r.absURL(rv.Href)}}, Author: atomPerson{Name: "masrl"},
			Summary: rv.Summary(),
		})
	}
	return out
}
