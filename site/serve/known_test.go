package serve

import (
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/internal/corpustest"
)

// TestServeKnowsUnchangedBib: a build skips papers.bib only when the
// watcher heard every change since the build before, none named the
// file or a folder above it, and its size, time and mode are those of
// then; any doubt reads it again.
func TestServeKnowsUnchangedBib(t *testing.T) {
	dir := corpustest.CopyCorpus(t, corpustest.Dir(t))
	bib := filepath.Join(dir, corpus.BibFile)
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(bib, old, old); err != nil {
		t.Fatal(err)
	}
	s, _ := newTestServer(t, dir)
	setHearing := func(on bool) {
		s.mu.Lock()
		s.hearing = on
		s.mu.Unlock()
	}
	// known as a build calls it: the window it starts is the next's.
	known := func() bool {
		s.buildMu.Lock()
		defer s.buildMu.Unlock()
		return s.known().BibUnchanged
	}
	rewrite := func(b []byte, mtime time.Time) {
		t.Helper()
		if err := os.WriteFile(bib, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(bib, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	orig, err := os.ReadFile(bib)
	if err != nil {
		t.Fatal(err)
	}
	same := bytes.Replace(orig, []byte("v7 dated"), []byte("v8 dated"), 1) // same size
	if bytes.Equal(same, orig) {
		t.Fatal("fixture edit did not apply")
	}
	steps := []struct {
		name string
		do   func()
		want bool
	}{
		{"no watcher", func() {}, false},
		{"the window before began without a watcher", func() { setHearing(true) }, false},
		{"nothing heard, nothing changed", func() {}, true},
		{"an event for papers.bib", func() { s.hear(bib) }, false},
		{"again nothing heard", func() {}, true},
		{"an event for its folder", func() { s.hear(dir) }, false},
		{"an event for a folder above", func() { s.hear(filepath.Dir(dir)) }, false},
		{"an event for another file", func() { s.hear(filepath.Join(dir, corpus.PapersFile)) }, true},
		{"an overflow", s.distrust, false},
		{"changed, its event lost", func() { rewrite(same, old.Add(time.Second)) }, false},
		{"after a build that read it", func() {}, true},
		{"changed, same size and time, heard", func() { rewrite(orig, old.Add(time.Second)); s.hear(bib) }, false},
		{"written just now", func() { rewrite(orig, time.Now()) }, false},
		{"still just written", func() {}, false},
		{"the watcher stopped", func() { rewrite(orig, old); setHearing(false) }, false},
		{"and the window after it", func() {}, false},
	}
	for i, st := range steps {
		st.do()
		if got := known(); got != st.want {
			t.Errorf("step %d (%s): papers.bib known unchanged %v, want %v", i, st.name, got, st.want)
		}
	}
}

// TestServeSeesBibEdit: with the watcher running, an edit of papers.bib
// alone, and then one of papers.csv after it, both reach the page
// (the second build must not take the BibTeX of the one before the
// first).
func TestServeSeesBibEdit(t *testing.T) {
	dir := corpustest.CopyCorpus(t, corpustest.Dir(t))
	bib := filepath.Join(dir, corpus.BibFile)
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(bib, old, old); err != nil {
		t.Fatal(err)
	}
	s, ts := newTestServer(t, dir)
	watch(t, s)
	waitFor := func(what string, write func()) {
		t.Helper()
		for range 300 {
			write()
			time.Sleep(100 * time.Millisecond)
			if _, body := get(t, ts.URL+"/papers/magrpo/"); strings.Contains(body, what) {
				return
			}
		}
		t.Fatalf("the page never showed %q", what)
	}
	orig, _ := os.ReadFile(bib)
	papers := filepath.Join(dir, corpus.PapersFile)
	csvOrig, _ := os.ReadFile(papers)
	for i, note := range []string{"v8 dated", "v9 dated"} {
		edited := bytes.Replace(orig, []byte("v7 dated"), []byte(note), 1)
		waitFor(note, func() { corpustest.WriteLater(t, bib, edited) })
		line := []byte("Serve one-liner " + string(rune('a'+i)))
		edit := bytes.Replace(csvOrig, []byte("Models LLM collaboration as cooperative MARL"), line, 1)
		waitFor(string(line), func() { corpustest.WriteLater(t, papers, edit) })
		if _, body := get(t, ts.URL+"/papers/magrpo/"); !strings.Contains(body, note) {
			t.Fatalf("after the edit of papers.csv, the page lost papers.bib's %q", note)
		}
	}
}

// TestServeLogsTimeSinceHeard holds the early pages' log line to the
// time since the watcher heard the edit, beside the build's own: an edit
// slow to show because of the settle, the look at the files or a wait
// for the build before shows there, and not in the build's time. A
// build no event started (the first) gives the build's time alone.
func TestServeLogsTimeSinceHeard(t *testing.T) {
	dir := corpustest.CopyCorpus(t, corpustest.Dir(t))
	s, ts := newTestServer(t, dir)
	var log corpustest.LogBuffer
	s.log = &log
	s.RebuildQuietly()
	if code, _ := get(t, ts.URL+"/papers/magrpo/"); code != 200 {
		t.Fatalf("/papers/magrpo/: %d", code)
	}
	watch(t, s)
	papers := filepath.Join(dir, corpus.PapersFile)
	orig, _ := os.ReadFile(papers)
	edited := bytes.Replace(orig, []byte("Models LLM collaboration as cooperative MARL"), []byte("Heard and shown"), 1)
	for i := 0; ; i++ {
		corpustest.WriteLater(t, papers, edited)
		time.Sleep(100 * time.Millisecond)
		if strings.Contains(log.String(), "showing 1 page") {
			break
		}
		if i == 300 {
			t.Fatalf("the edit was never shown early:\n%s", log.String())
		}
	}
	line := regexp.MustCompile(`showing 1 page visited last after ([0-9.]+[mµn]?s), ([0-9.]+[mµn]?s) after the change was heard, before the rest of the build\n`)
	m := line.FindStringSubmatch(log.String())
	if m == nil {
		t.Fatalf("no time since the change was heard in the log:\n%s", log.String())
	}
	build, _ := time.ParseDuration(m[1])
	heard, _ := time.ParseDuration(m[2])
	if heard < build+settle-time.Millisecond { // each rounded to the millisecond
		t.Errorf("shown %s after the change was heard and %s after the build began: the settle (%s) is not in the first", heard, build, settle)
	}
}

// TestServeBuildWaitsForEarlyFetch holds the order of an edit's events:
// the visited page shown early, then a request served it, and only then
// the rest of the build, so that the request does not compete with the
// rest for the processors (showEarly). The grace is made endless here:
// the build must not end before the page's request, however long that
// takes.
func TestServeBuildWaitsForEarlyFetch(t *testing.T) {
	dir := corpustest.CopyCorpus(t, corpustest.Dir(t))
	s, ts := newTestServer(t, dir)
	s.earlyGrace = time.Hour
	s.RebuildQuietly()
	if code, _ := get(t, ts.URL+"/papers/magrpo/"); code != 200 {
		t.Fatalf("/papers/magrpo/: %d", code)
	}
	papers := filepath.Join(dir, corpus.PapersFile)
	orig, _ := os.ReadFile(papers)
	edited := bytes.Replace(orig, []byte("Models LLM collaboration as cooperative MARL"), []byte("Served before the rest"), 1)
	corpustest.WriteLater(t, papers, edited)
	s.mu.Lock()
	changed := s.changed
	s.mu.Unlock()
	done := make(chan struct{})
	go func() {
		s.Rebuild()
		close(done)
	}()
	<-changed // the early page is shown
	select {
	case <-done:
		t.Fatal("the build ended before the page it showed early was requested")
	case <-time.After(2 * time.Second):
	}
	if _, body := get(t, ts.URL+"/papers/magrpo/"); !strings.Contains(body, "Served before the rest") {
		t.Error("the early page does not show the edit")
	}
	<-done // the request let the build go on
	if _, body := get(t, ts.URL+"/papers/"); !strings.Contains(body, "Served before the rest") {
		t.Error("the built site does not show the edit")
	}
}

// TestServeFirstEditSkipsBib: Run's second build begins once the watcher
// hears, so that the first edit after serve starts already knows an
// unchanged papers.bib (known) instead of reading and comparing it again
// (27 MB at 100,000 entries, most of the first edit's time).
func TestServeFirstEditSkipsBib(t *testing.T) {
	dir := corpustest.CopyCorpus(t, corpustest.Dir(t))
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(dir, corpus.BibFile), old, old); err != nil {
		t.Fatal(err)
	}
	s := New(testOptions(dir, filepath.Join(t.TempDir(), "public")))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- s.run(ctx, ln, io.Discard) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	for i := 0; ; i++ {
		s.mu.Lock()
		builds := s.builds
		s.mu.Unlock()
		if builds == 2 {
			break
		}
		if i == 3000 {
			t.Fatalf("%d builds after 30 s, want Run's two", builds)
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.buildMu.Lock() // as the first edit's build calls it
	known := s.known()
	s.buildMu.Unlock()
	if !known.BibUnchanged {
		t.Error("the first edit after Run's two builds reads papers.bib again: the second build's window was not heard whole")
	}
}
