package site

import (
	"bytes"
	"reflect"
	"slices"
	"strings"

	"github.com/masrl/masrl/corpus"
)

// This file shows the visited entry pages of an edit before anything of
// the build that grows with the list (issue 39): from the views the last
// build with the same Cache made, with the views of the changed rows
// made again. A maintainer edits a row's title, authors, notes or links;
// an entry page shows its own row, its tags, its cell (its count and its
// neighbours in the list's order) and what the data says of it, so when
// the rows changed in place (same keys, same tags) and nothing else did
// (the data, papers.bib, the spot-checks, the options, the templates),
// the visited page is its last view's page with the changed rows' views
// put in and its cell's order made again. Whatever else changed, or the
// page shows claims (whose results any row can move), the build shows
// the pages itself as before (showFirst), after its views are made.
// The build that follows renders the pages again, and sends them again
// only when they differ (earlyPages.done), which
// TestIncrementalMatchesFull holds never to happen: it holds these
// bytes to a full build's.

// lastBuild is what a quick first page starts from: the last build's
// views (its renderer) and the checked corpus they were made of.
type lastBuild struct {
	r  *renderer
	ck *corpus.Checked
}

// quickLimit is how many rows an edit may change for its first pages to
// be made from the last build's views; more (a title over two lines moves
// every row after it) and the build makes them as before.
const quickLimit = 64

// quickFirst returns opt.First rendered from the last build's views
// (above), or false when they cannot be. A corpus that fails its check
// shows its findings, never a page: it returns them only once it knows
// that the check passes.
func (c *Cache) quickFirst(ck *corpus.Checked, opt Options) (map[string][]byte, bool) {
	last := c.last
	if last == nil || opt.Early == nil || len(opt.First) == 0 {
		return nil, false
	}
	pr, prev := last.r, last.ck.Corpus
	nc := ck.Corpus
	if ck.Data != last.ck.Data || nc.Dir != prev.Dir || len(nc.Papers) != len(prev.Papers) ||
		len(pr.entries) != len(nc.Papers) || !nc.SameBib(prev) || nc.HasExcluded != prev.HasExcluded ||
		!reflect.DeepEqual(nc.Audits, prev.Audits) || !sameOptions(opt, pr.opt) {
		return nil, false
	}
	// The templates as they are now: the last build's sources.
	tfs := opt.Templates
	if tfs == nil {
		tfs = TemplateFS("")
	}
	if _, sources, err := readTemplates(tfs); err != nil || sources != c.tmplSources {
		return nil, false
	}
	// The rows that changed, in place.
	changed := map[string]*EntryView{}
	listed := pr.v.FieldsOf(corpus.PapersFile)
	moved := map[string]bool{} // the changed rows whose place in the list's order moved
	var olds []*EntryView      // the last build's views of the changed rows
	lo, hi := nc.ChangedRows(prev)
	for i := lo; i < hi; i++ {
		e, old := nc.Papers[i], pr.entries[i]
		if e.SameRow(old.Entry) {
			continue
		}
		if len(changed) == quickLimit || e.Key != old.Key || !sameTags(pr, e, old.Entry) {
			return nil, false
		}
		nv := new(EntryView)
		pr.entryView(nv, nc, i, listed)
		nv.Tags, nv.New, nv.rank = old.Tags, old.New, old.rank
		nv.item.New = nv.New
		if corpus.ListKeyOf(e).Compare(corpus.ListKeyOf(old.Entry)) != 0 {
			moved[e.Key] = true
		}
		changed[e.Key] = nv
		olds = append(olds, old)
	}
	var claimed map[string]bool // keys some claim holds now
	if pr.claimSet != nil {
		// The claims' results are part of the verdict waited for below.
		claimed = map[string]bool{}
		for _, res := range ck.ClaimResults() {
			for _, k := range res.Keys {
				claimed[k] = true
			}
		}
	}
	ctx := pr.entryContext()
	var jobs []renderJob
	for _, file := range opt.First {
		key, ok := strings.CutPrefix(file, "papers/")
		key, ok2 := strings.CutSuffix(key, "/index.html")
		ev := pr.byKey[key]
		if !ok || !ok2 || ev == nil || strings.Contains(key, "/") || pageFile(ev.Href) != file ||
			len(pr.claimsOf[key]) > 0 || claimed[key] || pr.surveyOf[key] != nil {
			return nil, false
		}
		if nv := changed[key]; nv != nil {
			ev = nv
		}
		place, links := pr.cellOf[key], (*cellLinks)(nil)
		if place.cell != nil {
			links = pr.cellLinks(rootFor(file), place.cell)
			place = quickCell(place.cell, ev, olds, changed, moved)
		}
		in := pr.entryInput(ev, ctx, place, links)
		jobs = append(jobs, renderJob{tmpl: "entry", file: file, data: in})
	}
	// A corpus that fails its check shows its findings, never a page:
	// known at once when the last build's check passed and the changed
	// rows raise no error (corpus.Checked.PassesAfter), else waited for.
	if !ck.PassesAfter(last.ck, opt.WithClaims) && ck.Verdict(opt.WithClaims).Err() != nil {
		return nil, false
	}
	pages := make(map[string][]byte, len(jobs))
	var page bytes.Buffer
	for _, j := range jobs {
		in := j.data.(entryInput)
		ep := in.page(pr)
		pr.frame(j.tmpl, &ep.Page)
		j.data = ep
		b, err := pr.renderToMemory(j, &page)
		if err != nil || pr.cache.err != nil {
			return nil, false
		}
		pages[j.file] = b
	}
	return pages, true
}

// quickCell is the place of ev in its cell with the changed rows' views
// in it, in the list's order again: a changed row whose place in that
// order moved (moved holds it, by key) is taken out and put back where a
// binary search of the others finds its place. The others keep theirs,
// and the order is total (the key ends it), so that is the order the
// full build sorts; sorting the whole cell again, a third of a
// 100,000-entry list, took most of the first page's time. The changed
// rows are found among the cell's by their last views (olds), not by
// key: hashing a third of 100,000 keys on every edit was 14 ms.
func quickCell(cell *CellView, ev *EntryView, olds []*EntryView, changed map[string]*EntryView, moved map[string]bool) cellPlace {
	es := slices.Clone(cell.Entries)
	var out []*EntryView
	gone := 0 // the moved rows taken out so far
	for i, e := range cell.Entries {
		if !slices.Contains(olds, e) {
			if gone > 0 {
				es[i-gone] = e
			}
			continue
		}
		nv := changed[e.Key]
		if moved[e.Key] {
			out = append(out, nv)
			gone++
			continue
		}
		es[i-gone] = nv
	}
	es = es[:len(es)-gone]
	for _, nv := range out {
		k := corpus.ListKeyOf(nv.Entry)
		at, _ := slices.BinarySearchFunc(es, k, func(e *EntryView, k corpus.ListKey) int {
			return corpus.ListKeyOf(e.Entry).Compare(k)
		})
		es = slices.Insert(es, at, nv)
	}
	nc := *cell
	nc.Entries = es
	return cellPlace{&nc, slices.Index(es, ev)}
}

// sameTags reports whether e has old's values in every field of
// papers.csv the site tags entries with: its tags, its cells and the
// lists that hold it are then old's.
func sameTags(r *renderer, e, old *corpus.Entry) bool {
	for _, fv := range r.fields {
		if fv.Entries && !slices.Equal(e.Values(fv.Field), old.Values(fv.Field)) {
			return false
		}
	}
	return true
}

// sameOptions reports whether two builds' options make the same views
// of the same rows: all but the pages wanted first, who receives them,
// the step timer and the cache.
func sameOptions(a, b Options) bool {
	a.First, a.Early, a.StepTime, a.Cache, a.shown = nil, nil, nil, nil, nil
	b.First, b.Early, b.StepTime, b.Cache, b.shown = nil, nil, nil, nil, nil
	// A list's own feed dates its entries from git (AddedDates), which
	// no entry page shows; a function is never equal to another.
	fa, fb := a.AddedDates != nil, b.AddedDates != nil
	a.AddedDates, b.AddedDates = nil, nil
	// The releases and the list's assets folder reach no entry page:
	// the first pages' data holds neither (the build after checks the
	// theme's files in the folder, and fails as before when one is
	// gone). Both are read again for every build, History with every
	// papers.csv snapshot, and an assets folder is opened anew.
	a.History, b.History, a.AssetFiles, b.AssetFiles = nil, nil, nil, nil
	return fa == fb && reflect.DeepEqual(a, b)
}
