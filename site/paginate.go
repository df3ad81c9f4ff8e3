package site

import (
	"fmt"
	"strconv"
	"strings"
)

// PapersPerPage is how many entries one page of the papers list holds. A
// list item weighs about 1.5 KB, so a page stays near 400 KB whatever the
// corpus' size (one page for all of 100,000 entries weighed 148 MB). The
// first page is papers/, the others papers/page/N/: stable addresses, as
// Hugo's pagination gives, so that readers without JavaScript (and
// crawlers) reach every entry by following the page links. With
// JavaScript, search.js searches the whole corpus from the index.
const PapersPerPage = 50

// Pager is the navigation between the pages of a list; nil or a Count of
// one: a single page, no navigation.
type Pager struct {
	Number, Count int
	Prev, Next    string // links from this page, "" at either end
	Pages         []pagerLink
}

// pagerLink is one page of a list, linked from the current page.
type pagerLink struct {
	Href, Label string
	Current     bool
	Gap         bool // pages left out between two links
}

// listPageDir is the directory of page n (from 1) of the list at dir.
func listPageDir(dir string, n int) string {
	if n <= 1 {
		return dir
	}
	return dir + "page/" + strconv.Itoa(n) + "/"
}

// pagerReach is how many pages on either side of the current one the
// pager links by number, besides the first and the last: a list of 10,000
// entries has 200 pages, and a pager naming each of them would be a
// screen of links on a phone and weigh on every page.
const pagerReach = 2

// pager links page n of count pages of the list at dir from a page whose
// root is root: the first page, the pages within pagerReach of n, the
// last, and a gap ("…", not a link) where pages are left out.
func pager(dir, root string, n, count int) *Pager {
	p := &Pager{Number: n, Count: count}
	for i := 1; i <= count; i++ {
		if i != 1 && i != count && (i < n-pagerReach || i > n+pagerReach) {
			if k := len(p.Pages); k > 0 && !p.Pages[k-1].Gap {
				p.Pages = append(p.Pages, pagerLink{Gap: true})
			}
			continue
		}
		p.Pages = append(p.Pages, pagerLink{Href: root + listPageDir(dir, i), Label: strconv.Itoa(i), Current: i == n})
	}
	if n > 1 {
		p.Prev = root + listPageDir(dir, n-1)
	}
	if n < count {
		p.Next = root + listPageDir(dir, n+1)
	}
	return p
}

// categoryLink is one line of the papers list's table of contents: a
// category, its number of entries, and where its entries start; in a
// nested field, the lines of its child values below it.
type categoryLink struct {
	Href, Label string
	Count       int
	Children    []*categoryLink
}

// headingLevel is the level of the papers page's heading of a value at
// depth (0 for a root): h2, and one more per ancestor, so that the page
// nests as the README does and skips no level; HTML has no level past 6.
func headingLevel(depth int) int { return min(2+depth, 6) }

// papers renders the papers list, PapersPerPage entries a page, grouped by
// category in the list's order, newest first within a category.
func (r *renderer) papers() error {
	type span struct {
		term   *TermView
		es     []*EntryView
		offset int // index of the category's first entry in the whole list
		depth  int // of the value in a nested field: 0 for a root
		// end is the index after the last entry of the value's subtree
		// (the value and its descendants, which follow it).
		end int
	}
	var spans []span
	total := 0
	lf := r.v.ListField()
	for _, t := range r.categoryGroups() {
		es := r.listedEntries(t)
		spans = append(spans, span{term: t, es: es, offset: total, depth: lf.Depth(t.Value)})
		total += len(es)
	}
	for i := range spans {
		j := i + 1
		for j < len(spans) && spans[j].depth > spans[i].depth {
			j++
		}
		spans[i].end = spans[j-1].offset + len(spans[j-1].es)
	}
	count := max(1, (total+PapersPerPage-1)/PapersPerPage)
	for n := 1; n <= count; n++ {
		dir := listPageDir("papers/", n)
		title := "Papers"
		if n > 1 {
			title = fmt.Sprintf("Papers, page %d of %d", n, count)
		}
		pp := &papersPage{Page: r.newPage(dir, title, "papers"), Total: total}
		if lf != nil {
			pp.GroupedBy = strings.ToLower(lf.Label)
		}
		pp.Scripts = []string{"assets/search.js"}
		pp.Styles = []string{readerCSS}
		pp.SearchIndex = pp.Root + SearchIndexFile
		lo, hi := (n-1)*PapersPerPage, min(n*PapersPerPage, total)
		// open holds the table of contents' line of each ancestor of the
		// value at hand, root first (spans are in tree order).
		var open []*categoryLink
		for _, s := range spans {
			// The table of contents links each category where its first
			// entry is: on this page, or on the page that holds it.
			href := "#cat-" + s.term.Value
			if first := s.offset/PapersPerPage + 1; len(s.es) > 0 && first != n {
				href = pp.Root + listPageDir("papers/", first) + href
			}
			link := &categoryLink{Href: href, Label: s.term.Label, Count: len(s.es)}
			open = open[:min(len(open), s.depth)]
			if len(open) == 0 {
				pp.Categories = append(pp.Categories, link)
			} else {
				parent := open[len(open)-1]
				parent.Children = append(parent.Children, link)
			}
			open = append(open, link)
			// A page shows the groups its entries are in, and the
			// headings of their ancestors, so that a page that starts
			// in a child value skips no heading level.
			if !(count == 1) && max(lo, s.offset) >= min(hi, s.end) {
				continue
			}
			// The group's entries on this page: none for an ancestor
			// whose own entries are all on other pages.
			a := min(max(lo-s.offset, 0), len(s.es))
			es := s.es[a:min(max(hi-s.offset, a), len(s.es))]
			level := headingLevel(s.depth)
			pp.Groups = append(pp.Groups, paperGroup{Term: s.term, Entries: es, Count: len(s.es), Level: level,
				List: r.entryListAt(pp.Root, es, min(level+1, 6))})
		}
		if count > 1 {
			pp.Pager = pager("papers/", pp.Root, n, count)
		}
		if err := r.render("papers", &pp.Page, pp); err != nil {
			return err
		}
	}
	return nil
}

// briefsPerPage is how many brief items (about 250 bytes each) a term or
// cell page lists: a value that most of 100,000 entries carry made a page
// of 25 MB.
const briefsPerPage = 2000

// briefPages renders the list of n entries at dir as pages of
// briefsPerPage: page calls render with the page's frame, the range of
// entries it lists and its navigation (nil for a single page). Page 1 is
// dir itself, and keeps title; the others add their number to it.
func (r *renderer) briefPages(dir, title, section string, n int, render func(p Page, lo, hi int, pg *Pager) error) error {
	count := max(1, (n+briefsPerPage-1)/briefsPerPage)
	for k := 1; k <= count; k++ {
		t := title
		if k > 1 {
			t = fmt.Sprintf("%s, page %d of %d", title, k, count)
		}
		p := r.newPage(listPageDir(dir, k), t, section)
		var pg *Pager
		if count > 1 {
			pg = pager(dir, p.Root, k, count)
		}
		if err := render(p, (k-1)*briefsPerPage, min(k*briefsPerPage, n), pg); err != nil {
			return err
		}
	}
	return nil
}
