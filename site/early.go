package site

import (
	"bytes"
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
}

// newEarlyPages finds the jobs of opt.First; nil when there are none or
// nobody receives them.
func newEarlyPages(jobs []renderJob, opt Options) *earlyPages {
	if opt.Early == nil || len(opt.First) == 0 {
		return nil
	}
	names := make(map[string]bool, len(opt.First))
	for _, n := range opt.First {
		names[n] = true
	}
	e := &earlyPages{wanted: map[int]bool{}, send: opt.Early, pages: map[string][]byte{}}
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
// pages once the last one is in and none failed.
func (e *earlyPages) done(file string, b []byte) {
	e.mu.Lock()
	if b == nil {
		e.failed = true
	} else {
		e.pages[file] = bytes.Clone(b)
	}
	e.left--
	send := e.left == 0 && !e.failed
	e.mu.Unlock()
	if send {
		e.send(e.pages)
	}
}
