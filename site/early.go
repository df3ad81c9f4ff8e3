package site

import (
	"bytes"
	"maps"
	"sync"
)

// earlyPages are the pages of Options.First in one build: rendered
// first, and handed to Options.Early together as soon as the last of
// them is done.
type earlyPages struct {
	wanted map[int]bool // job index -> rendered first
	send   func(map[string][]byte)
	mu     sync.Mutex
	left   int
	pages  map[string][]byte
	failed bool
	// sent are the pages showFirst handed to Options.Early before the
	// site's other views were made; nil when it did not. When the
	// render step renders the same bytes they are not sent again.
	sent map[string][]byte
}

// newEarlyPages finds the jobs of opt.First; nil when there are none or
// nobody receives them. sent are the pages already shown (showFirst).
func newEarlyPages(jobs []renderJob, opt Options, sent map[string][]byte) *earlyPages {
	if opt.Early == nil || len(opt.First) == 0 {
		return nil
	}
	names := make(map[string]bool, len(opt.First))
	for _, n := range opt.First {
		names[n] = true
	}
	e := &earlyPages{wanted: map[int]bool{}, send: opt.Early, pages: map[string][]byte{}, sent: sent}
	for i, j := range jobs {
		if j.tmpl != "" && names[j.file] {
			e.wanted[i] = true
		}
	}
	if len(e.wanted) == 0 {
		return nil
	}
	e.left = len(e.wanted)
	return e
}

// wants reports whether job i is one of the first pages.
func (e *earlyPages) wants(i int) bool { return e != nil && e.wanted[i] }

// done records job i's page, or that it failed (b nil), and sends the
// pages once the last one is in and none failed, unless they are the
// pages sent already.
func (e *earlyPages) done(file string, b []byte) {
	e.mu.Lock()
	if b == nil {
		e.failed = true
	} else {
		e.pages[file] = bytes.Clone(b)
	}
	e.left--
	send := e.left == 0 && !e.failed && !maps.EqualFunc(e.pages, e.sent, bytes.Equal)
	e.mu.Unlock()
	if send {
		e.send(e.pages)
	}
}

// showFirst is the step right after the entry pages are queued: when
// every page of Options.First is an entry page queued by now, it
// renders them and hands them to Options.Early at once, before the
// list pages, the taxonomy, the items and the search index are made
// for every entry (which grow with the list, the edited entry's page
// does not). An entry page reads only the views prepare made (the
// entry, its cell, the site's context), so these are the bytes the
// render step writes; should they differ, the render step sends its
// own (earlyPages.done), and the open pages reload again. Nothing is
// shown here when the check fails, or a page is not an entry page, is
// not queued or fails:
// the render step renders it first and reports its error.
func (r *renderer) showFirst() error {
	// Pages shown before the build (Cache.quickFirst) are not made
	// twice: the render step sends them again should they differ.
	if r.opt.Early == nil || len(r.opt.First) == 0 || r.shownEarly != nil {
		return nil
	}
	want := make(map[string]bool, len(r.opt.First))
	for _, n := range r.opt.First {
		want[n] = true
	}
	var jobs []renderJob
	for _, j := range r.jobs {
		if want[j.file] && j.tmpl == "entry" && j.build != nil {
			jobs = append(jobs, j)
			delete(want, j.file)
		}
	}
	// A corpus that fails its check shows its findings, never a page.
	if len(want) > 0 || r.checked.Verdict(r.opt.WithClaims).Err() != nil {
		return nil
	}
	pages := make(map[string][]byte, len(jobs))
	var page bytes.Buffer
	for _, j := range jobs {
		var p *Page
		j.data, p = j.build(j.input())
		r.frame(j.tmpl, p)
		b, err := r.renderToMemory(j, &page)
		if err != nil || r.cache.err != nil {
			return nil
		}
		pages[j.file] = b
	}
	r.shownEarly = pages
	r.opt.Early(pages)
	return nil
}
