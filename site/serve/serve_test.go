package serve

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/site"
	"github.com/masrl/masrl/site/outdir"

	"github.com/masrl/masrl/internal/corpustest"
)

func newTestServer(t *testing.T, corpusDir string) (*Server, *httptest.Server) {
	t.Helper()
	s := New(testOptions(corpusDir, filepath.Join(t.TempDir(), "public")))
	s.Rebuild()
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts
}

// watch runs s.Watch until the test ends and waits for it to return
// before the test's folders are removed: Watch returns only after the
// rebuild it is running, which may still be writing the output.
func watch(t *testing.T, s *Server) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Watch(t.Context())
	}()
	t.Cleanup(func() { <-done })
}

// testOptions serve the corpus in dir into out, as masrl serve does
// without masrl.yaml or charts.
func testOptions(dir, out string) Options {
	return Options{
		Corpus: dir, Out: out,
		Site: func() (site.Options, error) {
			return site.Options{Config: siteconfig.Config{BaseURL: "http://127.0.0.1/"}}, nil
		},
	}
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

var hrefPattern = regexp.MustCompile(`\bhref="([^"#]*)(#[^"]*)?"`)

// TestServeReach walks the served site from / and checks every entry page
// is reachable in at most three clicks.
func TestServeReach(t *testing.T) {
	dir := corpustest.Dir(t)
	_, ts := newTestServer(t, dir)
	c, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	depth := map[string]int{"/": 0}
	queue := []string{"/"}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if depth[cur] == 3 {
			continue
		}
		code, body := get(t, ts.URL+cur)
		if code != http.StatusOK {
			t.Errorf("GET %s: %d", cur, code)
			continue
		}
		for _, m := range hrefPattern.FindAllStringSubmatch(body, -1) {
			ref := m[1]
			if ref == "" || strings.Contains(ref, "://") || !(strings.HasSuffix(ref, "/") || strings.HasSuffix(ref, ".html")) {
				continue
			}
			next := path.Join(path.Dir(cur+"x"), ref)
			if strings.HasSuffix(ref, "/") && next != "/" {
				next += "/"
			}
			if _, seen := depth[next]; !seen {
				depth[next] = depth[cur] + 1
				queue = append(queue, next)
			}
		}
	}
	for _, e := range c.Papers {
		if _, ok := depth["/papers/"+e.Key+"/"]; !ok {
			t.Errorf("/papers/%s/ not reachable from / in three clicks", e.Key)
		}
	}
}

// TestServeRebuild changes the corpus under a running server: an invalid
// row turns HTML responses into the error page listing the finding, and
// fixing it brings the site back with the change.
func TestServeRebuild(t *testing.T) {
	dir := corpustest.CopyCorpus(t, corpustest.Dir(t))
	s, ts := newTestServer(t, dir)
	if code, body := get(t, ts.URL+"/papers/magrpo/"); code != 200 || !strings.Contains(body, "MAGRPO") {
		t.Fatalf("entry page: %d", code)
	}
	if code, body := get(t, ts.URL+"/no/such/page/"); code != 404 || !strings.Contains(body, "Page not found") {
		t.Errorf("missing page: %d, want 404 with the site's page", code)
	}
	if s.changedFiles() {
		t.Fatal("changed() before any change")
	}

	papers := filepath.Join(dir, corpus.PapersFile)
	orig, _ := os.ReadFile(papers)
	bad := bytes.Replace(orig, []byte(",rl_method,yes,shared,agent,centralized,general,core,Models LLM"), []byte(",rl_method,yes,shared,agnt,centralized,general,core,Models LLM"), 1)
	if bytes.Equal(bad, orig) {
		t.Fatal("fixture edit did not apply")
	}
	corpustest.WriteLater(t, papers, bad)
	if !s.changedFiles() {
		t.Fatal("changed() missed an edit of papers.csv")
	}
	s.Rebuild()
	code, body := get(t, ts.URL+"/papers/magrpo/")
	if code != http.StatusInternalServerError || !strings.Contains(body, `credit_granularity: &#34;agnt&#34; is not in the vocabulary`) {
		t.Errorf("after a bad edit: %d %s", code, body)
	}
	if code, _ := get(t, ts.URL+"/assets/style.css"); code != 200 {
		t.Errorf("assets should still be served from the last good build: %d", code)
	}

	fixed := bytes.Replace(orig, []byte("Models LLM collaboration as cooperative MARL"), []byte("Edited one-liner"), 1)
	corpustest.WriteLater(t, papers, fixed)
	s.Rebuild()
	if code, body := get(t, ts.URL+"/papers/magrpo/"); code != 200 || !strings.Contains(body, "Edited one-liner") {
		t.Errorf("after the fix: %d", code)
	}
}

// TestServeLiveScriptOnlyServed: every HTML page masrl serve sends
// carries the live-reload script, and no file of the built site (the
// output or its build buffer) does.
func TestServeLiveScriptOnlyServed(t *testing.T) {
	s, ts := newTestServer(t, corpustest.CopyCorpus(t, corpustest.Dir(t)))
	for _, p := range []string{"/", "/papers/magrpo/", "/no/such/page/"} {
		_, body := get(t, ts.URL+p)
		if !strings.Contains(body, `<script src="`+liveScriptPath+`" data-version="1"></script>`+"\n</body>") {
			t.Errorf("GET %s: no live-reload script before </body>", p)
		}
	}
	if _, js := get(t, ts.URL+liveScriptPath); !strings.Contains(js, "EventSource") {
		t.Errorf("GET %s: %.100s", liveScriptPath, js)
	}
	s.RebuildQuietly() // fills the buffer too
	for _, dir := range []string{s.opt.Out, outdir.BufferDir(s.opt.Out)} {
		n := 0
		filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			n++
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte("_masrl/")) {
				t.Errorf("%s holds the live-reload script", p)
			}
			return nil
		})
		if n < 100 {
			t.Errorf("%s: %d files, want the whole site", dir, n)
		}
	}
}

// TestServeLiveReload edits papers.csv under a running server that
// watches the corpus: the event stream announces a new version, and the
// page then shows the edit. It waits for the events, not for a time.
func TestServeLiveReload(t *testing.T) {
	dir := corpustest.CopyCorpus(t, corpustest.Dir(t))
	s, ts := newTestServer(t, dir)
	watch(t, s)

	resp, err := http.Get(ts.URL + liveEventsPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("events: Content-Type %q", ct)
	}
	events := bufio.NewScanner(resp.Body)
	next := func() string {
		t.Helper()
		for events.Scan() {
			if v, ok := strings.CutPrefix(events.Text(), "data: "); ok {
				return v
			}
		}
		t.Fatalf("event stream ended: %v", events.Err())
		return ""
	}
	if v := next(); v != "1" {
		t.Fatalf("first version %q, want 1", v)
	}
	// The watcher may start after the write below; edit until it sees one.
	papers := filepath.Join(dir, corpus.PapersFile)
	orig, _ := os.ReadFile(papers)
	edited := bytes.Replace(orig, []byte("Models LLM collaboration as cooperative MARL"), []byte("Live-reloaded one-liner"), 1)
	if bytes.Equal(edited, orig) {
		t.Fatal("fixture edit did not apply")
	}
	done := make(chan string)
	go func() { done <- next() }()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var v string
	for v == "" {
		corpustest.WriteLater(t, papers, edited)
		select {
		case v = <-done:
		case <-tick.C:
		}
	}
	if v == "1" {
		t.Fatalf("version after the edit: %s", v)
	}
	if code, body := get(t, ts.URL+"/papers/magrpo/"); code != 200 || !strings.Contains(body, "Live-reloaded one-liner") {
		t.Errorf("after the edit: %d, page without it", code)
	}
}

// TestServeIgnoresScratchFiles: the temporary file an editor (or
// benchrun) writes before renaming it over papers.csv, and the swap and
// backup files of Vim and Emacs, are no change: only the rename is.
func TestServeIgnoresScratchFiles(t *testing.T) {
	dir := corpustest.CopyCorpus(t, corpustest.Dir(t))
	s, _ := newTestServer(t, dir)
	papers := filepath.Join(dir, corpus.PapersFile)
	orig, err := os.ReadFile(papers)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(orig, []byte("Models LLM collaboration as cooperative MARL"), []byte("Saved through a temporary file"), 1)
	for _, name := range []string{"papers.csv.tmp", ".papers.csv.swp", "4913", "papers.csv~", "#papers.csv#", ".#papers.csv"} {
		corpustest.WriteLater(t, filepath.Join(dir, name), edited)
		if s.changedFiles() {
			t.Errorf("writing %s counts as a change of the inputs", name)
		}
	}
	if err := os.Rename(filepath.Join(dir, "papers.csv.tmp"), papers); err != nil {
		t.Fatal(err)
	}
	if !s.changedFiles() {
		t.Error("renaming the temporary file over papers.csv is not a change")
	}
}

// TestServeIgnoresItsOutput: with the output inside the watched corpus
// directory, a build's own writes are not a change to rebuild for (they
// would make serve rebuild forever).
func TestServeIgnoresItsOutput(t *testing.T) {
	dir := corpustest.CopyCorpus(t, corpustest.Dir(t))
	out := filepath.Join(dir, "public")
	s := New(testOptions(dir, out))
	s.Rebuild()
	s.RebuildQuietly() // writes the buffer beside the output, in the corpus too
	if _, err := os.Stat(filepath.Join(out, "index.html")); err != nil {
		t.Fatal(err)
	}
	if s.changedFiles() {
		t.Error("the build's own output counts as a change of the inputs")
	}
	corpustest.WriteLater(t, filepath.Join(dir, corpus.PapersFile), []byte("key\n"))
	if !s.changedFiles() {
		t.Error("an edit of papers.csv is not a change")
	}
}

// TestServeShowsVisitedPagesFirst: after an edit, the pages served last
// are rendered before the rest of the site and shown while it is built
// (the log says so, and the open pages are told once, not twice); a
// request for another page then waits for the build and gets the edit
// too, never the site before it.
func TestServeShowsVisitedPagesFirst(t *testing.T) {
	dir := corpustest.CopyCorpus(t, corpustest.Dir(t))
	s, ts := newTestServer(t, dir)
	var log corpustest.LogBuffer
	s.log = &log
	s.RebuildQuietly() // the buffer, as serve's start does
	for _, p := range []string{"/papers/magrpo/", "/taxonomy/", "/papers/magrpo/"} {
		if code, _ := get(t, ts.URL+p); code != 200 {
			t.Fatalf("%s: %d", p, code)
		}
	}
	if want := []string{"taxonomy/index.html", "papers/magrpo/index.html"}; !slices.Equal(s.visited, want) {
		t.Fatalf("visited %q, want %q", s.visited, want)
	}
	papers := filepath.Join(dir, corpus.PapersFile)
	orig, _ := os.ReadFile(papers)
	edited := bytes.Replace(orig, []byte("Models LLM collaboration as cooperative MARL"), []byte("Shown before the build ends"), 1)
	corpustest.WriteLater(t, papers, edited)
	s.mu.Lock()
	version, changed := s.version, s.changed
	s.mu.Unlock()
	done := make(chan struct{})
	go func() {
		s.Rebuild()
		close(done)
	}()
	<-changed
	// A page not visited: it waits for the build.
	if code, body := get(t, ts.URL+"/papers/"); code != 200 || !strings.Contains(body, "Shown before the build ends") {
		t.Errorf("/papers/ during the build: %d, without the edit", code)
	}
	if code, body := get(t, ts.URL+"/papers/magrpo/"); code != 200 || !strings.Contains(body, "Shown before the build ends") {
		t.Errorf("/papers/magrpo/ after the announcement: %d, without the edit", code)
	}
	<-done
	if !strings.Contains(log.String(), "showing 2 pages visited last after") {
		t.Errorf("the log does not show the visited pages first:\n%s", log.String())
	}
	if s.version != version+1 {
		t.Errorf("version %d after one edit, want %d: the open pages reload once", s.version, version+1)
	}
}

// TestServeOnlyGetAndHead: serve is a file server; any other method is
// answered 405 with the methods it allows, never with the page.
func TestServeOnlyGetAndHead(t *testing.T) {
	_, ts := newTestServer(t, corpustest.CopyCorpus(t, corpustest.Dir(t)))
	for _, p := range []string{"/", "/papers/magrpo/", "/assets/style.css", liveScriptPath, "/no/such/page/"} {
		for _, m := range []string{http.MethodOptions, http.MethodPost, http.MethodDelete, http.MethodPut, http.MethodPatch} {
			req, _ := http.NewRequest(m, ts.URL+p, strings.NewReader("x"))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, HEAD" || bytes.Contains(b, []byte("<html")) {
				t.Errorf("%s %s: %d, Allow %q, %.60q", m, p, resp.StatusCode, resp.Header.Get("Allow"), b)
			}
		}
	}
	resp, err := http.Head(ts.URL + "/papers/magrpo/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("HEAD: %d", resp.StatusCode)
	}
}

// TestServeForeignBuilds: while serve runs, two masrl build runs of
// another corpus write into its output (each exchanges the output with
// the buffer, which puts the directories back where they were). Serve's
// next rebuild must not keep any page of the other corpus: its output
// equals a fresh build of its own corpus.
func TestServeForeignBuilds(t *testing.T) {
	dir := corpustest.CopyCorpus(t, corpustest.Dir(t))
	s, _ := newTestServer(t, dir)
	s.RebuildQuietly()
	other := corpustest.CopyCorpus(t, corpustest.Dir(t))
	papers := filepath.Join(other, corpus.PapersFile)
	b, err := os.ReadFile(papers)
	if err != nil {
		t.Fatal(err)
	}
	b = regexp.MustCompile(`(?m)^([a-z0-9-]+),([A-Z])`).ReplaceAll(b, []byte("${1},Other ${2}"))
	if err := os.WriteFile(papers, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := s.opt.Out
	for range 2 {
		buildOnce(t, other, out)
	}
	s.Rebuild()
	fresh := filepath.Join(t.TempDir(), "fresh")
	buildOnce(t, dir, fresh)
	want, got := corpustest.ReadTree(t, fresh), corpustest.ReadTree(t, out)
	foreign := 0
	for name, w := range want {
		if got[name] != w {
			foreign++
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s is left from the other corpus", name)
		}
	}
	if foreign > 0 {
		t.Errorf("after two foreign builds serve's rebuild kept %d files that differ from its own site", foreign)
	}
}

// buildOnce builds the corpus in dir into out as masrl build does, with
// the options of testOptions.
func buildOnce(t *testing.T, dir, out string) {
	t.Helper()
	ck, err := corpus.Open(dir, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := site.Build(ck, site.Options{Out: out, Config: siteconfig.Config{BaseURL: "http://127.0.0.1/"}}); err != nil {
		t.Fatalf("build of %s: %v", dir, err)
	}
}

// TestServeRebuildsMatchFull holds serve's rebuilds after a seeded series
// of random edits of papers.csv (incremental check, corpus.Reopen, and
// incremental pages, site.Cache) to a fresh build of the same files: the
// same site byte for byte after each edit that passes the check, and the
// same findings shown after each that does not.
func TestServeRebuildsMatchFull(t *testing.T) {
	dir := corpustest.CopyCorpus(t, corpustest.Dir(t))
	s, _ := newTestServer(t, dir)
	s.RebuildQuietly()
	papers := filepath.Join(dir, corpus.PapersFile)
	b, err := os.ReadFile(papers)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) int { return slices.Index(rows[0], name) }
	title, key, year := col("title"), col("key"), col("year")
	rnd := rand.New(rand.NewPCG(39, 2))
	row := func() int { return 1 + rnd.IntN(len(rows)-1) }
	edits := []func(){
		func() { rows[row()][title] = fmt.Sprintf("Edited title %d", rnd.IntN(1000)) },
		func() { rows[row()][title] = rows[row()][title] },
		func() { rows[row()][key] = rows[row()][key] },
		func() { rows[row()][year] = "19x9" },
		func() { rows[row()][title] += "\nover two lines" },
		func() {
			i := row()
			rows = slices.Delete(rows, i, i+1)
		},
	}
	fresh := filepath.Join(t.TempDir(), "fresh")
	last := rows
	for n := range 12 {
		edits[rnd.IntN(len(edits))]()
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		w.WriteAll(rows)
		corpustest.WriteLater(t, papers, buf.Bytes())
		s.Rebuild()
		ck, err := corpus.Open(dir, nil, "")
		if err != nil {
			t.Fatal(err)
		}
		if cerr := ck.Err(); cerr != nil {
			// A failed build shows the findings of a full check.
			want := strings.Split(strings.TrimSpace(cerr.Error()), "\n")
			s.mu.Lock()
			failure := s.failure
			s.mu.Unlock()
			if !slices.Equal(failure, want) {
				t.Fatalf("edit %d: serve shows\n%s\nwant\n%s", n, strings.Join(failure, "\n"), strings.Join(want, "\n"))
			}
			rows = slices.Clone(last) // undo it, as the maintainer would
			continue
		}
		last = slices.Clone(rows)
		os.RemoveAll(fresh)
		buildOnce(t, dir, fresh)
		want, got := corpustest.ReadTree(t, fresh), corpustest.ReadTree(t, s.opt.Out)
		for name, w := range want {
			if got[name] != w {
				t.Errorf("edit %d: %s differs from a full build", n, name)
			}
		}
		for name := range got {
			if _, ok := want[name]; !ok {
				t.Errorf("edit %d: %s is not in a full build", n, name)
			}
		}
		if t.Failed() {
			t.FailNow()
		}
	}
}

// TestServeWatchesInputs: a folder Options.Inputs names outside the
// corpus is watched, and one it names only after a build (masrl.yaml
// edited to name another templates: folder) is watched from that build
// on.
func TestServeWatchesInputs(t *testing.T) {
	dir := corpustest.CopyCorpus(t, corpustest.Dir(t))
	theme, later := t.TempDir(), t.TempDir()
	inputs := []string{theme}
	opt := testOptions(dir, filepath.Join(t.TempDir(), "public"))
	opt.Inputs = func() []string { return inputs }
	s := New(opt)
	s.Rebuild()
	if s.changedFiles() {
		t.Fatal("a change before any")
	}
	corpustest.WriteLater(t, filepath.Join(theme, "home.html"), []byte("x"))
	if !s.changedFiles() {
		t.Error("an edit in a folder of Options.Inputs is not a change")
	}
	s.Rebuild()
	inputs = append(inputs, later)
	s.Rebuild() // reads Inputs again
	s.Rebuild() // the rebuild the new folder's first look asks for
	if s.changedFiles() {
		t.Fatal("a change after the rebuilds")
	}
	corpustest.WriteLater(t, filepath.Join(later, "home.html"), []byte("y"))
	if !s.changedFiles() {
		t.Error("an edit in a folder Options.Inputs names after a build is not a change")
	}
}
