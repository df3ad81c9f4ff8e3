package site

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/masrl/masrl/corpus"
)

// Pieces that many pages share (a navigation, a tag, a claim, an entry's
// list item) are rendered once by their own template (nav-item, tag-item,
// entry-claim, entry-item and the others of layout.html) and joined
// into every page that shows them. Executing
// html/template costs a contextual escaper call by reflection per action,
// and the papers page, the term pages and the cell pages list each entry
// about a dozen times in all: rendering the pieces once made the build
// several times faster. A piece is html/template's own output, so its
// escaping is the template's; only whole pieces are joined.

// pieces is a list of rendered pieces that a page shows one after another.
type pieces []template.HTML

// Join returns the pieces, each after a newline, as the templates' range
// loops laid out lists before the pieces were cached.
func (p pieces) Join() template.HTML {
	n := 0
	for _, s := range p {
		n += 1 + len(s)
	}
	var b strings.Builder
	b.Grow(n)
	for _, s := range p {
		b.WriteByte('\n')
		b.WriteString(string(s))
	}
	return template.HTML(b.String())
}

// pieceCache holds the rendered pieces of one Render call. The entry
// lists' pieces (links, lists, the items in EntryView) are filled while
// pages are queued and by renderItems, and only read while pages are
// rendered; the other maps are filled on first use, under mu.
type pieceCache struct {
	mu         sync.Mutex
	nav        map[[2]string]template.HTML // (root, section)
	tops       map[string]template.HTML    // a page frame above main, by root, section and styles
	bottoms    map[string]template.HTML    // a page frame below main, by root, charts and scripts
	tags       map[rootTag]template.HTML   // an entry page's tag
	itemTags   map[*Tag]template.HTML      // a list item's compact tag
	claims     map[rootClaim]template.HTML // an entry page's claim
	neighbours map[rootEntry]template.HTML // an entry page's cell neighbour
	shared     map[sharedKey]template.HTML // sharedPiece's pieces
	briefs     map[string][]template.HTML  // root -> each entry's brief item, by EntryView.index
	lists      []EntryList                 // every entry list, by EntryList.id
	err        error                       // the first failure, reported by runJobs
}

type rootTag struct {
	Root string
	Tag  *Tag
}

type rootClaim struct {
	Root string
	C    *ClaimView
}

type rootEntry struct {
	Root string
	E    *EntryView
}

// sharedKey names a piece of sharedPiece: its template, the page's root
// and the value it shows (a pointer the views share).
type sharedKey struct {
	name, root string
	of         any
}

// sharedPiece returns the piece template name renders for a page at root
// showing of, rendering it with data() on first use.
func (r *renderer) sharedPiece(name, root string, of any, data func() any) template.HTML {
	return cached(&r.cache.mu, &r.cache.shared, sharedKey{name, root, of}, func() template.HTML {
		return r.piece("entry", name, data())
	})
}

type navArgs struct {
	Root, Section string
	Item          NavItem
}

// piece renders the template name of the page template set with data
// (under pieceCache.mu, or before the workers start);
// the pieces are defined in layout.html, which every set holds.
// A failure is kept for runJobs, so that the callers, which build page
// data, need not return errors.
func (r *renderer) piece(set, name string, data any) template.HTML {
	var buf bytes.Buffer
	if err := r.tmpl[set].ExecuteTemplate(&buf, name, data); err != nil {
		r.cache.mu.Lock()
		if r.cache.err == nil {
			r.cache.err = fmt.Errorf("rendering %s with %s.html: %w", name, set, err)
		}
		r.cache.mu.Unlock()
		return ""
	}
	return template.HTML(buf.String())
}

// cached returns m[k], rendering it with render on first use. Entry
// pages are built on the worker goroutines, so the caches are guarded by
// mu, which is held for the lookup and the store only: render runs
// outside it, so that the other workers' lookups do not wait for it:
// the cell-neighbour items of a 10,000-entry build, each rendered by the
// first entry page that lists it, were 4 % of the build's CPU, all of it
// under the lock (bench/profile/build-10k-5.md). Two workers may render the same piece at once; the
// first stored is kept, and both are the same bytes, as render is a
// function of k. render must not hold mu (piece takes it for an error).
func cached[K comparable](mu *sync.Mutex, m *map[K]template.HTML, k K, render func() template.HTML) template.HTML {
	mu.Lock()
	h, ok := (*m)[k]
	mu.Unlock()
	if ok {
		return h
	}
	h = render()
	mu.Lock()
	defer mu.Unlock()
	if *m == nil {
		*m = map[K]template.HTML{}
	}
	if first, ok := (*m)[k]; ok {
		return first
	}
	(*m)[k] = h
	return h
}

// frame fills a page's Top and Bottom, rendered once per root, section,
// style sheets and scripts. r.render calls it for every queued page.
func (r *renderer) frame(set string, p *Page) {
	p.HeadTitle = p.Title
	if p.Section != "home" {
		p.HeadTitle += " · " + p.Site.Title
	}
	key := [2]string{p.Root + "\x00" + p.Section + "\x00" + strings.Join(p.Styles, "\x00"),
		p.Root + "\x00" + fmt.Sprint(p.Charts) + "\x00" + strings.Join(p.Scripts, "\x00")}
	p.Top = cached(&r.cache.mu, &r.cache.tops, key[0], func() template.HTML { return r.piece(set, "page-top", p) })
	p.Bottom = cached(&r.cache.mu, &r.cache.bottoms, key[1], func() template.HTML { return r.piece(set, "page-bottom", p) })
}

// navItems returns the main navigation of a page at root in section.
func (r *renderer) navItems(root, section string) template.HTML {
	return cached(&r.cache.mu, &r.cache.nav, [2]string{root, section}, func() template.HTML {
		var p pieces
		for _, it := range r.site.Nav {
			p = append(p, r.piece("home", "nav-item", navArgs{root, section, it}))
		}
		return p.Join()
	})
}

// tagItems returns an entry page's tags.
func (r *renderer) tagItems(root string, ts []*Tag) pieces {
	return cachedItems(r, &r.cache.tags, "tag-item", ts, func(t *Tag) rootTag { return rootTag{root, t} })
}

// claimItems returns the claims an entry page lists.
func (r *renderer) claimItems(root string, cs []*ClaimView) pieces {
	return cachedItems(r, &r.cache.claims, "entry-claim", cs, func(c *ClaimView) rootClaim { return rootClaim{root, c} })
}

// neighbourItems returns the cell neighbours an entry page lists.
func (r *renderer) neighbourItems(root string, es []*EntryView) pieces {
	return cachedItems(r, &r.cache.neighbours, "cell-neighbour", es, func(e *EntryView) rootEntry { return rootEntry{root, e} })
}

// cachedItems renders each of xs with the home template's piece name, given
// the item's key (its root-relative view) as data, once per key for the
// whole build.
func cachedItems[T any, K comparable](r *renderer, m *map[K]template.HTML, name string, xs []T, key func(T) K) pieces {
	p := make(pieces, len(xs))
	for i, x := range xs {
		k := key(x)
		p[i] = cached(&r.cache.mu, m, k, func() template.HTML { return r.piece("home", name, k) })
	}
	return p
}

// EntryList is a list of entries as one page shows it.
type EntryList struct {
	// Root is the page's way back to the site root, which the items'
	// links start with.
	Root    string
	Entries []*EntryView
	// Brief lists show each entry's title, year, venue and first author,
	// without its tags: a term or cell page lists entries that share a
	// tag, the entry pages and the papers page show the rest, and the
	// full items made the term and cell pages three quarters of the
	// site's bytes at 10,000 entries.
	Brief bool
	// Level is the heading level of the full items' titles: 0 for 3,
	// under a page's h2; deeper on the papers page under a nested
	// heading (paperGroup.Level).
	Level int
	// id is the list's number in pieceCache.lists, which only the
	// page's marker holds (Items): writePage writes the list's items in
	// its place, so the number never reaches the page.
	id int `hash:"-"`
}

// listMarkerPrefix starts the comment that stands for an entry list in a
// page's template output until writePage replaces it. A list of 100,000
// entries is 150 MB: joining it into one value for the template, which
// copies it again through fmt, cost more time and memory than the rest of
// its page, so the page is rendered with the marker and the list written
// to the page's file piece by piece in its place. The marker is a
// comment, so a page rendered without writePage still is valid HTML; no
// CSV text can produce it, because html/template escapes the "<" of any
// text.
const listMarkerPrefix = "<!--masrl-entry-list:"

// Items stands for the list's items, each after a newline: a marker that
// writePage replaces with them.
func (l EntryList) Items() template.HTML {
	return template.HTML(listMarkerPrefix + strconv.Itoa(l.id) + "-->")
}

// entryList returns the list of es with full items for a page at root.
func (r *renderer) entryList(root string, es []*EntryView) EntryList {
	l := EntryList{Root: root, Entries: es, id: len(r.cache.lists)}
	r.cache.lists = append(r.cache.lists, l)
	return l
}

// entryListAt is entryList with the items' titles at heading level.
func (r *renderer) entryListAt(root string, es []*EntryView, level int) EntryList {
	l := r.entryList(root, es)
	l.Level = level
	r.cache.lists[l.id] = l
	return l
}

// briefList is entryList with brief items, and registers the root so
// that renderItems renders every entry's brief item for it.
func (r *renderer) briefList(root string, es []*EntryView) EntryList {
	if r.cache.briefs == nil {
		r.cache.briefs = map[string][]template.HTML{}
	}
	if _, ok := r.cache.briefs[root]; !ok {
		r.cache.briefs[root] = nil
	}
	l := r.entryList(root, es)
	l.Brief = true
	r.cache.lists[l.id] = l
	return l
}

// writePage writes a page's template output to w with every entry list
// marker replaced by the list's items.
func (r *renderer) writePage(w *bufio.Writer, page []byte) error {
	for {
		i := bytes.Index(page, []byte(listMarkerPrefix))
		if i < 0 {
			break
		}
		end := bytes.Index(page[i:], []byte("-->"))
		if end < 0 {
			break
		}
		id, err := strconv.Atoi(string(page[i+len(listMarkerPrefix) : i+end]))
		if err != nil || id < 0 || id >= len(r.cache.lists) {
			return fmt.Errorf("an entry list marker names no list: %q", page[i:i+end+3])
		}
		w.Write(page[:i])
		if err := r.writeList(w, r.cache.lists[id]); err != nil {
			return err
		}
		page = page[i+end+3:]
	}
	w.Write(page)
	return nil // a failed write stays in w, whose Flush reports it
}

// writeList writes a list's items to w, each after a newline. A full
// item, which only the papers page shows, is rendered here and not kept:
// at 100,000 entries kept items were 170 MB that the garbage collector
// scanned again and again.
func (r *renderer) writeList(w *bufio.Writer, l EntryList) error {
	briefs := r.cache.briefs[l.Root]
	var buf bytes.Buffer
	var tags pieces
	for _, e := range l.Entries {
		w.WriteByte('\n')
		if l.Brief {
			w.WriteString(string(briefs[e.index]))
			continue
		}
		tags = r.appendItemTags(tags[:0], e)
		it := e.item
		it.Href = l.Root + e.Href
		it.Tags = tags.Join()
		it.Level = cmp.Or(l.Level, 3)
		item, err := r.listItem(&buf, "entry-item", e, &it)
		if err != nil {
			return fmt.Errorf("rendering the list item of %s: %w", e.Key, err)
		}
		w.WriteString(string(item))
	}
	return nil
}

// itemView is what an entry's list items print (entry-item and
// entry-brief in layout.html), as plain strings: the template then does
// one action per value, each a reflective escaper call, and the items are
// rendered once or twice per entry.
type itemView struct {
	Key, Year, Title, OneLiner string
	// Fields are the entry's controlled values of papers.csv, in
	// vocabulary order: the item's data attributes.
	Fields []itemField
	// Meta is the year, venue and first author.
	Meta string
	// Href leads from the listing page to the entry's page.
	Href string
	// Tags are the entry's compact tags (entry-item-tag); full items only.
	Tags template.HTML
	// Level is the heading level of a full item's title (EntryList.Level).
	Level int
	// New marks an entry added since the survey (EntryView.New).
	New bool
	// Links are the entry's own links the list item shows in one line
	// (entry-links): the list's link columns (code, project), labelled,
	// then its web URLs by host and its arXiv abstract.
	Links []Link
}

// itemLinks are the links an entry's list item shows: each web URL of
// the row, named by its host, and the arXiv abstract by its id unless a
// URL is that page already. Text that is not a web URL is left out: a
// list item shows links only.
func itemLinks(ev *EntryView) []Link {
	var out []Link
	for _, l := range ev.Links {
		if l.Web && l.URL != ev.ArxivURL {
			out = append(out, l)
		}
	}
	if ev.ArxivURL != "" {
		out = append(out, Link{Text: "arXiv:" + ev.ArxivID, URL: ev.ArxivURL, Web: true})
	}
	return out
}

// linkColumnLinks are e's link columns that hold a web link, labelled,
// in the vocabulary's order.
func linkColumnLinks(e *corpus.Entry, cols []*corpus.LinkColumn) []Link {
	var out []Link
	for _, l := range cols {
		if u := e.Value(l.Name); corpus.IsWebURL(u) {
			out = append(out, Link{Text: l.Label, URL: u, Web: true})
		}
	}
	return out
}

// newItemView fills the fields of an entry's items that do not depend on
// the page listing it.
func newItemView(e *corpus.Entry, fields []*corpus.Field, links []*corpus.LinkColumn) itemView {
	it := itemView{
		Key: e.Key, Year: e.YearText,
		Title: e.Title, OneLiner: e.OneLiner, Meta: itemMeta(e),
		Fields: make([]itemField, len(fields)),
		Links:  linkColumnLinks(e, links),
	}
	for i, f := range fields {
		it.Fields[i] = itemField{Name: template.HTMLAttr(f.Name), Value: e.Value(f.Name)}
	}
	return it
}

// itemField is one data attribute of an entry's item. Name is a field
// name, which prepareViews has checked is a path segment
// ([a-z0-9_-]): html/template refuses a name with an underscore unless
// it is typed as safe.
type itemField struct {
	Name  template.HTMLAttr
	Value string
}

// itemMeta is the line under an item's title: the year, venue and first
// author the row has, joined by middle dots.
func itemMeta(e *corpus.Entry) string {
	var parts []string
	for _, s := range []string{e.YearText, e.Venue, e.FirstAuthor} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " · ")
}

// appendItemTags appends the pieces of e's compact tags, which
// renderItems rendered, to p.
func (r *renderer) appendItemTags(p pieces, e *EntryView) pieces {
	for _, tg := range e.Tags {
		p = append(p, r.cache.itemTags[tg])
	}
	return p
}

// execPiece executes a piece's template of the papers page's set into
// buf, on any goroutine.
func (r *renderer) execPiece(buf *bytes.Buffer, name string, data any) (template.HTML, error) {
	buf.Reset()
	err := r.tmpl["papers"].ExecuteTemplate(buf, name, data)
	return template.HTML(buf.String()), err
}

// listItem renders an entry's list item (entry-item or entry-brief), or
// takes it from an incremental build's cache, where the items of every
// entry wait by their whole input.
func (r *renderer) listItem(buf *bytes.Buffer, name string, e *EntryView, it *itemView) (template.HTML, error) {
	if r.inc == nil {
		return r.execPiece(buf, name, it)
	}
	return r.inc.item(itemKey{name, r.inc.entryHash[e.index], it.Href, it.Level}, func() (template.HTML, error) { return r.execPiece(buf, name, it) })
}

// renderItems renders, on every CPU, every entry's brief item once per
// root a brief list was registered for. The compact tags of the full
// items are rendered first, once per value.
func (r *renderer) renderItems() error {
	if r.cache.err != nil {
		return r.cache.err
	}
	if r.inc != nil {
		r.hashEntries() // the items' keys
	}
	for _, e := range r.entries {
		for _, t := range e.Tags {
			cached(&r.cache.mu, &r.cache.itemTags, t, func() template.HTML { return r.piece("home", "entry-item-tag", t) })
		}
	}
	if r.cache.err != nil {
		return r.cache.err
	}
	roots := make([]string, 0, len(r.cache.briefs))
	for root := range r.cache.briefs {
		roots = append(roots, root)
	}
	slices.Sort(roots)
	for _, root := range roots {
		r.cache.briefs[root] = make([]template.HTML, len(r.entries))
	}
	errs := make([]error, len(r.entries))
	workers := max(1, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			var buf bytes.Buffer
			for i := w; i < len(r.entries); i += workers {
				e := r.entries[i]
				it := e.item
				for _, root := range roots {
					it.Href = root + e.Href
					r.cache.briefs[root][e.index], errs[i] = r.listItem(&buf, "entry-brief", e, &it)
					if errs[i] != nil {
						break
					}
				}
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("rendering the list item of %s: %w", r.entries[i].Key, err)
		}
	}
	return nil
}
