package site

import (
	"bytes"
	"fmt"
	"html/template"
	"runtime"
	"slices"
	"sync"
)

// itemCache holds every entry's list item, rendered once per root by the
// "entry-item" template of layout.html. The papers page, the term pages
// and the cell pages list each entry about a dozen times in all, and
// executing the item's template (a contextual escaper call by reflection
// for each of its fields) was most of a build's time; the cached item is
// html/template's own output, so its escaping is the template's.
type itemCache struct {
	// byRoot maps a page root ("../", "../../../") to the item of each
	// entry, by EntryView.index; entryList registers a root with a nil
	// slice and renderItems fills it.
	byRoot map[string][]template.HTML
}

// EntryList is a list of entries as one page shows it.
type EntryList struct {
	// Root is the page's way back to the site root, which the items' links
	// start with.
	Root    string
	Entries []*EntryView
	cache   *itemCache
}

// Items returns the rendered list item of each entry, in list order.
func (l EntryList) Items() []template.HTML {
	all := l.cache.byRoot[l.Root]
	out := make([]template.HTML, len(l.Entries))
	for i, e := range l.Entries {
		out[i] = all[e.index]
	}
	return out
}

// entryList returns the list of es for a page at root, and makes sure the
// items for that root will be rendered before the pages are.
func (r *renderer) entryList(root string, es []*EntryView) EntryList {
	if r.items.byRoot == nil {
		r.items.byRoot = map[string][]template.HTML{}
	}
	if _, ok := r.items.byRoot[root]; !ok {
		r.items.byRoot[root] = nil
	}
	return EntryList{Root: root, Entries: es, cache: &r.items}
}

// renderItems renders the item of every entry for every registered root,
// on every CPU. The item template is the papers page's "entry-item" (from
// layout.html), the one every list uses.
func (r *renderer) renderItems() error {
	roots := make([]string, 0, len(r.items.byRoot))
	for root := range r.items.byRoot {
		roots = append(roots, root)
	}
	slices.Sort(roots)
	t := r.tmpl["papers"]
	for _, root := range roots {
		items := make([]template.HTML, len(r.entries))
		errs := make([]error, len(r.entries))
		workers := max(1, runtime.GOMAXPROCS(0))
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var buf bytes.Buffer
				for i := w; i < len(r.entries); i += workers {
					buf.Reset()
					if err := t.ExecuteTemplate(&buf, "entry-item", entryItemArgs{root, r.entries[i]}); err != nil {
						errs[i] = fmt.Errorf("rendering the list item of %s: %w", r.entries[i].Key, err)
						continue
					}
					items[i] = template.HTML(buf.String())
				}
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		r.items.byRoot[root] = items
	}
	return nil
}
