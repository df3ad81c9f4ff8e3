package site

import (
	"bytes"
	"fmt"
	"html/template"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// Pieces that many pages share (a navigation, a tag, a claim, an entry's
// list item) are rendered once by their own template (nav-item, tag-item,
// entry-claim, entry-item-open and the others of layout.html) and joined into every page that shows them. Executing
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

// pieceCache holds the rendered pieces of one Render call. It is filled
// while pages are queued (one goroutine) and by renderItems, and only read
// while pages are rendered.
type pieceCache struct {
	nav        map[[2]string]template.HTML // (root, section)
	tags       map[rootTag]template.HTML   // an entry page's tag
	itemTags   map[Tag]template.HTML       // a list item's compact tag
	claims     map[rootClaim]template.HTML // an entry page's claim
	neighbours map[rootEntry]template.HTML // an entry page's cell neighbour
	links      map[string][]template.HTML  // root -> each entry's list link, by EntryView.index
	err        error                       // the first failure, reported by runJobs
}

type rootTag struct {
	Root string
	Tag  Tag
}

type rootClaim struct {
	Root string
	C    *ClaimView
}

type rootEntry struct {
	Root string
	E    *EntryView
}

type navArgs struct {
	Root, Section string
	Item          NavItem
}

type itemCloseArgs struct {
	E    *EntryView
	Tags template.HTML
}

// piece renders the template name of the page template set with data;
// the pieces are defined in layout.html, which every set holds.
// A failure is kept for runJobs, so that the callers, which build page
// data, need not return errors.
func (r *renderer) piece(set, name string, data any) template.HTML {
	var buf bytes.Buffer
	if err := r.tmpl[set].ExecuteTemplate(&buf, name, data); err != nil {
		if r.cache.err == nil {
			r.cache.err = fmt.Errorf("rendering %s with %s.html: %w", name, set, err)
		}
		return ""
	}
	return template.HTML(buf.String())
}

// cached returns m[k], rendering it with render on first use.
func cached[K comparable](m *map[K]template.HTML, k K, render func() template.HTML) template.HTML {
	if *m == nil {
		*m = map[K]template.HTML{}
	}
	h, ok := (*m)[k]
	if !ok {
		h = render()
		(*m)[k] = h
	}
	return h
}

// navItems returns the main navigation of a page at root in section.
func (r *renderer) navItems(root, section string) template.HTML {
	return cached(&r.cache.nav, [2]string{root, section}, func() template.HTML {
		var p pieces
		for _, it := range r.site.Nav {
			p = append(p, r.piece("home", "nav-item", navArgs{root, section, it}))
		}
		return p.Join()
	})
}

// tagItems returns an entry page's tags.
func (r *renderer) tagItems(root string, ts []Tag) pieces {
	p := make(pieces, len(ts))
	for i, t := range ts {
		p[i] = cached(&r.cache.tags, rootTag{root, t}, func() template.HTML {
			return r.piece("home", "tag-item", rootTag{root, t})
		})
	}
	return p
}

// claimItems returns the claims an entry page lists.
func (r *renderer) claimItems(root string, cs []*ClaimView) pieces {
	p := make(pieces, len(cs))
	for i, c := range cs {
		p[i] = cached(&r.cache.claims, rootClaim{root, c}, func() template.HTML {
			return r.piece("home", "entry-claim", rootClaim{root, c})
		})
	}
	return p
}

// neighbourItems returns the cell neighbours an entry page lists.
func (r *renderer) neighbourItems(root string, es []*EntryView) pieces {
	p := make(pieces, len(es))
	for i, e := range es {
		p[i] = cached(&r.cache.neighbours, rootEntry{root, e}, func() template.HTML {
			return r.piece("home", "cell-neighbour", rootEntry{root, e})
		})
	}
	return p
}

// EntryList is a list of entries as one page shows it.
type EntryList struct {
	// Root is the page's way back to the site root, which the items'
	// links start with.
	Root    string
	Entries []*EntryView
	cache   *pieceCache
}

// Items returns the list's items, each after a newline.
func (l EntryList) Items() template.HTML {
	links := l.cache.links[l.Root]
	n := 0
	for _, e := range l.Entries {
		n += 1 + len(e.itemOpen) + len(links[e.index]) + len(e.itemClose)
	}
	var b strings.Builder
	b.Grow(n)
	for _, e := range l.Entries {
		b.WriteByte('\n')
		b.WriteString(string(e.itemOpen))
		b.WriteString(string(links[e.index]))
		b.WriteString(string(e.itemClose))
	}
	return template.HTML(b.String())
}

// entryList returns the list of es for a page at root, and registers the
// root so that renderItems renders the entries' links for it.
func (r *renderer) entryList(root string, es []*EntryView) EntryList {
	if r.cache.links == nil {
		r.cache.links = map[string][]template.HTML{}
	}
	if _, ok := r.cache.links[root]; !ok {
		r.cache.links[root] = nil
	}
	return EntryList{Root: root, Entries: es, cache: &r.cache}
}

// renderItems renders every entry's list item, on every CPU: the parts
// that do not depend on the page once per entry, the link once per root
// an entry list was registered for. The compact tags are rendered first,
// once per value.
func (r *renderer) renderItems() error {
	if r.cache.err != nil {
		return r.cache.err
	}
	for _, e := range r.entries {
		for _, t := range e.Tags {
			cached(&r.cache.itemTags, t, func() template.HTML { return r.piece("home", "entry-item-tag", t) })
		}
	}
	if r.cache.err != nil {
		return r.cache.err
	}
	roots := make([]string, 0, len(r.cache.links))
	for root := range r.cache.links {
		roots = append(roots, root)
	}
	slices.Sort(roots)
	for _, root := range roots {
		r.cache.links[root] = make([]template.HTML, len(r.entries))
	}
	t := r.tmpl["papers"]
	errs := make([]error, len(r.entries))
	workers := max(1, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf bytes.Buffer
			exec := func(name string, data any) (template.HTML, error) {
				buf.Reset()
				err := t.ExecuteTemplate(&buf, name, data)
				return template.HTML(buf.String()), err
			}
			tags := make(pieces, 0, 16)
			for i := w; i < len(r.entries); i += workers {
				e := r.entries[i]
				var err error
				if e.itemOpen, err = exec("entry-item-open", e); err != nil {
					errs[i] = err
					continue
				}
				tags = tags[:0]
				for _, tg := range e.Tags {
					tags = append(tags, r.cache.itemTags[tg])
				}
				if e.itemClose, err = exec("entry-item-close", itemCloseArgs{e, tags.Join()}); err != nil {
					errs[i] = err
					continue
				}
				for _, root := range roots {
					if r.cache.links[root][i], err = exec("entry-item-link", entryItemArgs{root, e}); err != nil {
						errs[i] = err
						break
					}
				}
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("rendering the list item of %s: %w", r.entries[i].Key, err)
		}
	}
	return nil
}
