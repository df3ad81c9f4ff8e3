// Package serve is masrl serve: it builds a site, serves it on a local
// address, rebuilds it incrementally when its inputs change and tells the
// open pages to reload (live.go). It keeps the corpus and the pages of
// the last build, so that an edit is checked and rendered from what
// changed (corpus.Reopen, site.Cache), and it renders the pages a
// browser showed last before the rest (site.Options.First).
package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/site"
	"github.com/masrl/masrl/site/outdir"
)

// pollInterval is how often serve looks at modification times when the
// file system cannot be watched (fsnotify failed: no inotify instances
// left, an unsupported file system).
const pollInterval = 500 * time.Millisecond

// settle is how long serve waits after a change for the next one before
// it rebuilds: an editor's save or a git checkout is several events,
// and one build should see all of them. It is added to every rebuild's
// delay, so it is short.
const settle = 15 * time.Millisecond

// Options are what a Server builds and watches.
type Options struct {
	// Corpus is the corpus directory, Data the data directory it is read
	// against (nil: the embedded one).
	Corpus string
	Data   fs.FS
	// Out is the output directory the site is built into and served from.
	Out string
	// Site returns the options of one build, read again for every build
	// because masrl.yaml may have changed; its Out, Cache, First and
	// Early are the server's own.
	Site func() (site.Options, error)
	// Inputs returns the files and folders whose changes rebuild the
	// site, asked again after every build: masrl.yaml may name other
	// templates: or assets: folders. "" entries are ignored.
	Inputs func() []string
	// Report writes a build's warnings and, when it failed, its findings
	// or error, one per line.
	Report func(w io.Writer, res *site.Result, err error)
	// Log receives the report and a line for each build.
	Log io.Writer
}

// Run builds the site, serves it on ln until ctx is done, and rebuilds it
// whenever its inputs change. It writes where it serves to stdout and
// returns the error that stopped the server, nil when ctx ended it.
func Run(ctx context.Context, ln net.Listener, opt Options, stdout io.Writer) error {
	return New(opt).run(ctx, ln, stdout)
}

func (s *Server) run(ctx context.Context, ln net.Listener, stdout io.Writer) error {
	opt := s.opt
	s.Rebuild()
	fmt.Fprintf(stdout, "serving %s at http://%s/ (Ctrl-C to stop)\n", opt.Out, ln.Addr())
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	srv.RegisterOnShutdown(s.Stop)
	// Run returns only after the watcher and any build it started have
	// ended: a build still writing its buffer after serve stopped would
	// race whoever removes or reuses the output next.
	var builds sync.WaitGroup
	defer builds.Wait()
	watchCtx, stopWatching := context.WithCancel(ctx)
	defer stopWatching() // before the wait: the watcher ends with it
	builds.Go(func() { s.Watch(watchCtx) })
	// The second build fills the build buffer beside the output, so that
	// the first edit is incremental too (site.Cache). It begins once the
	// watcher hears: the window it begins is then heard whole, and the
	// first edit skips an unchanged papers.bib (known). Begun before,
	// the first edit read and compared papers.bib again, 27 MB at
	// 100,000 entries.
	builds.Go(func() {
		select {
		case <-s.listening:
			s.RebuildQuietly()
		case <-watchCtx.Done():
		}
	})
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shut)
		return nil
	case err := <-errc:
		return err
	}
}

// Server serves the output directory, rebuilds it incrementally when
// inputs change and tells the open pages to reload. A failed build keeps
// the last good site on disk, and HTML requests get a page listing the
// findings until the next successful build.
type Server struct {
	opt   Options
	cache *site.Cache // the builds' pages, for incremental rebuilds
	// corpus is what the last build opened: the next reads again only
	// the files and rows changed since and checks only what they can
	// change (corpus.Reopen). Used under buildMu.
	corpus *corpus.Checked

	buildMu sync.Mutex // one build at a time

	mu sync.Mutex
	// log is where builds are reported (Options.Log).
	log io.Writer
	// watch are the files and directories whose changes trigger a
	// rebuild (Options.Inputs at the last build).
	watch    []string
	failure  []string // findings or error of the last build; nil when it succeeded
	stamp    string   // fingerprint of the watched files at the last build
	builds   int
	lastGood time.Time
	// version numbers the site the pages see: a build that succeeded or
	// failed changes it, and every open page whose version differs
	// reloads (live.go).
	version int
	// changed is closed when version changes, and replaced.
	changed chan struct{}
	quit    chan struct{} // closed when the server shuts down
	// visited are the pages (output files) served last, oldest first:
	// a rebuild renders them first and shows them early (fast render).
	visited []string
	// early are those pages as the running build rendered them, shown
	// before it publishes the site; a request for any other page waits
	// for settled, closed when the build is over. Both nil between
	// builds.
	early   map[string][]byte
	settled chan struct{}
	// fetched is closed when a request got one of the early pages, and
	// nil after; earlyGrace is how long the build waits for that before
	// it goes on (showEarly).
	fetched    chan struct{}
	earlyGrace time.Duration
	// hearing: Watch's watcher is running. heard are the paths its
	// events named since the last build began, and heardAll that they
	// are all of the changes since then: the watcher was hearing when
	// that build began, lost no event since and the build opened the
	// corpus. Only then may a build skip a file no event named (known).
	hearing  bool
	heard    map[string]bool
	heardAll bool
	// listening is closed once Watch hears (listen), for Run's second
	// build to begin a window heard whole.
	listening  chan struct{}
	listenOnce sync.Once
	// firstHeard is when the watcher heard the first change the next
	// build reads (zero when no event started it: the first build, a
	// poll), so that its log tells the settle and any wait for the
	// build before from the build's own time. Used under mu.
	firstHeard time.Time
	// bibStat is papers.bib's size, time and mode when the last build
	// began, "" when it was no regular file. Used under buildMu.
	bibStat string
}

// earlyGrace is how long a build waits, after showing the pages visited
// last, for a request of one of them before it builds the rest: the
// open page's reload (live.js) asks at once; with no page open, the
// build is that much longer.
const earlyGrace = 100 * time.Millisecond

// visitedLimit is how many of the pages served last a rebuild renders
// first: the open tabs of one person at work, as Hugo keeps ten.
const visitedLimit = 10

// New returns a server of opt that has built nothing yet.
func New(opt Options) *Server {
	log := opt.Log
	if log == nil {
		log = io.Discard
	}
	s := &Server{opt: opt, log: log, cache: site.NewCache(), changed: make(chan struct{}), quit: make(chan struct{}), earlyGrace: earlyGrace,
		listening: make(chan struct{})}
	s.watch = s.inputs()
	return s
}

// inputs are the files and folders to watch: Options.Inputs, and the
// corpus directory always.
func (s *Server) inputs() []string {
	in := []string{s.opt.Corpus}
	if s.opt.Inputs != nil {
		for _, p := range s.opt.Inputs() {
			if p != "" && !slices.Contains(in, p) {
				in = append(in, p)
			}
		}
	}
	return in
}

// Stop ends the live-reload streams, so that shutdown does not wait for
// them.
func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.quit:
	default:
		close(s.quit)
	}
}

// Rebuild builds once, records the outcome and tells the open pages.
func (s *Server) Rebuild() { s.build(true) }

// RebuildQuietly builds without telling the open pages: the site is the
// one they show.
func (s *Server) RebuildQuietly() { s.build(false) }

func (s *Server) build(announce bool) {
	s.buildMu.Lock()
	defer s.buildMu.Unlock()
	s.mu.Lock()
	watch, heardAt := s.watch, s.firstHeard
	s.firstHeard = time.Time{}
	s.mu.Unlock()
	stamp := fingerprint(watch, s.outputs())
	start := time.Now()
	var res *site.Result
	opt, err := s.opt.Site()
	shown := false // the build's first pages were shown (showEarly)
	if err == nil {
		opt.Out, opt.Cache = s.opt.Out, s.cache
		if announce {
			s.mu.Lock()
			opt.First = slices.Clone(s.visited)
			s.mu.Unlock()
			opt.Early = func(pages map[string][]byte) {
				s.showEarly(pages, start, heardAt)
				shown = true
			}
		}
		var ck *corpus.Checked
		ck, err = corpus.ReopenKnowing(s.corpus, s.opt.Corpus, s.opt.Data, opt.Profile, corpus.CheckOptions{}, s.known())
		if err == nil {
			s.corpus = ck
			res, err = site.Build(ck, opt)
		} else {
			s.distrust() // s.corpus was read before this build's window
		}
	}
	var msgs []string
	var buf bytes.Buffer
	if s.opt.Report != nil {
		s.opt.Report(&buf, res, err)
	} else if err != nil {
		fmt.Fprintln(&buf, err)
	}
	if err != nil {
		msgs = strings.Split(strings.TrimSpace(buf.String()), "\n")
	}
	// masrl.yaml may name other folders now: the next look compares
	// them with the stamp of the old ones, and rebuilds once more.
	inputs := s.inputs()
	s.mu.Lock()
	s.stamp, s.failure = stamp, msgs
	s.watch = inputs
	s.builds++
	if err == nil {
		s.lastGood = time.Now()
	}
	if s.settled != nil {
		close(s.settled)
		s.early, s.settled, s.fetched = nil, nil, nil
	}
	// The open pages reloaded when the first pages were shown; they show
	// this build already, unless it failed after.
	if announce && !(shown && err == nil) {
		s.announce()
	}
	s.mu.Unlock()
	io.WriteString(s.log, buf.String())
	if err == nil {
		fmt.Fprintf(s.log, "built %s: %d files (%d pages rendered, %d kept) in %s\n", s.opt.Out, res.Files.Len(),
			s.cache.Rendered, s.cache.Reused, time.Since(start).Round(time.Millisecond))
	}
}

// announce tells the open pages a new version; s.mu is held.
func (s *Server) announce() {
	s.version++
	close(s.changed)
	s.changed = make(chan struct{})
}

// showEarly serves a build's first pages, rendered but not yet
// published, and reloads the open pages: one of those pages shows the
// edit now, any other page waits for the build. Its log line gives the
// time since the build began and, when the watcher heard the change,
// since then: the settle, the look at the files and any wait for the
// build before are in the second and not in the first, and a slow edit
// is told apart from a slow build.
//
// The build goes on once one of those pages was served, or after
// earlyGrace: the open page reloads at once, and its request then finds
// both processors free. At 100,000 entries the rest of the build (the
// check of every row, the views) kept both busy with long-running
// goroutines, and a request made right after the page was shown waited
// up to 65 ms for one (the server's goroutine in the scheduler's global
// queue), longer than the page took to make.
func (s *Server) showEarly(pages map[string][]byte, start, heard time.Time) {
	fetched := make(chan struct{})
	s.mu.Lock()
	s.early, s.settled, s.fetched = pages, make(chan struct{}), fetched
	s.announce()
	s.mu.Unlock()
	defer func() {
		t := time.NewTimer(s.earlyGrace)
		defer t.Stop()
		select {
		case <-fetched:
		case <-t.C:
		case <-s.quit:
		}
	}()
	since := ""
	if !heard.IsZero() {
		since = fmt.Sprintf(", %s after the change was heard", time.Since(heard).Round(time.Millisecond))
	}
	fmt.Fprintf(s.log, "showing %s visited last after %s%s, before the rest of the build\n", pagesCount(len(pages)),
		time.Since(start).Round(time.Millisecond), since)
}

// visit records a page served, as an output file name.
func (s *Server) visit(file string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.visited = slices.DeleteFunc(s.visited, func(v string) bool { return v == file })
	s.visited = append(s.visited, file)
	if len(s.visited) > visitedLimit {
		s.visited = slices.Delete(s.visited, 0, len(s.visited)-visitedLimit)
	}
}

// Watch rebuilds whenever a watched file changes, told by the
// operating system (fsnotify), or, where it cannot watch, by polling.
func (s *Server) Watch(ctx context.Context) {
	w, err := fsnotify.NewWatcher()
	if err == nil {
		err = s.addWatches(w)
	}
	if err != nil {
		if w != nil {
			w.Close()
		}
		fmt.Fprintf(s.log, "masrl serve: cannot watch the inputs (%v); looking for changes every %s\n", err, pollInterval)
		s.listen()
		s.poll(ctx)
		return
	}
	defer w.Close()
	s.mu.Lock()
	s.hearing = true
	s.mu.Unlock()
	s.listen()
	defer func() {
		s.mu.Lock()
		s.hearing, s.heardAll = false, false
		s.mu.Unlock()
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case err := <-w.Errors:
			// An overflow lost events: the next build reads everything.
			s.distrust()
			fmt.Fprintf(s.log, "masrl serve: watching the inputs: %v\n", err)
		case ev := <-w.Events:
			// heard is when the first event of the burst named a file a
			// build reads: an editor's scratch file written before its
			// rename (papers.csv.tmp) is not the change yet.
			var heard time.Time
			note := func(ev fsnotify.Event) {
				if heard.IsZero() && !scratch(filepath.Base(ev.Name)) {
					heard = time.Now()
				}
				s.hear(ev.Name)
				s.addCreatedDir(w, ev)
			}
			first := time.Now()
			note(ev)
			// Take the events that follow at once, then build if the
			// files did change (not only their access or the output).
			t := time.NewTimer(settle)
		drain:
			for {
				select {
				case ev := <-w.Events:
					note(ev)
					t.Reset(settle)
				case <-t.C:
					break drain
				case <-ctx.Done():
					return
				}
			}
			if heard.IsZero() {
				heard = first
			}
			if s.changedFiles() {
				s.mu.Lock()
				s.firstHeard = heard
				s.mu.Unlock()
				s.Rebuild()
				// Folders masrl.yaml names now are watched from here.
				if err := s.addWatches(w); err != nil {
					fmt.Fprintf(s.log, "masrl serve: watching the inputs: %v\n", err)
				}
			}
		}
	}
}

// listen closes listening, once: Watch hears the inputs' changes from
// now on (or looks for them, where it cannot watch).
func (s *Server) listen() { s.listenOnce.Do(func() { close(s.listening) }) }

// hear notes that an event named path.
func (s *Server) hear(path string) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.heard == nil {
		s.heard = make(map[string]bool)
	}
	s.heard[path] = true
}

// distrust makes the next build read every file: the events heard may
// not be all the changes since the corpus it reopens was read.
func (s *Server) distrust() {
	s.mu.Lock()
	s.heardAll = false
	s.mu.Unlock()
}

// racyWindow is how long after its last write a file's size and time
// are not taken to mean it is unchanged (known).
const racyWindow = 2 * time.Second

// known is what a build about to reopen the corpus knows unchanged
// since the last build began, and starts the window of the next: at
// 100,000 entries, reading and comparing papers.bib again was a third
// of reopening the corpus after an edit of papers.csv. papers.bib is
// known unchanged only when the watcher heard every change since (it
// was hearing then and lost nothing), no event named it, its folder or
// a folder above (a folder renamed or replaced), and its size,
// modification time and mode are those of then (a change the events
// cannot see: through a hard link or a symbolic link's target). In
// doubt, it is read as before.
func (s *Server) known() corpus.Known {
	s.mu.Lock()
	all, heard := s.heardAll, s.heard
	s.heard, s.heardAll = nil, s.hearing
	s.mu.Unlock()
	bib := filepath.Join(s.opt.Corpus, corpus.BibFile)
	stat := ""
	// A time this recent may be shared by a write still to come (the
	// clock's tick), as git treats a "racy" index entry: not trusted.
	if info, err := os.Lstat(bib); err == nil && info.Mode().IsRegular() && time.Since(info.ModTime()) > racyWindow {
		stat = fmt.Sprintf("%d %d %v", info.Size(), info.ModTime().UnixNano(), info.Mode())
	}
	before := s.bibStat
	s.bibStat = stat
	if !all || s.corpus == nil || stat == "" || stat != before {
		return corpus.Known{}
	}
	abs, err := filepath.Abs(bib)
	if err != nil {
		return corpus.Known{}
	}
	for p := abs; ; p = filepath.Dir(p) {
		if heard[p] {
			return corpus.Known{}
		}
		if p == filepath.Dir(p) {
			break
		}
	}
	return corpus.Known{BibUnchanged: true}
}

// addWatches watches every directory under the watched directories, and
// the directory of each watched file.
func (s *Server) addWatches(w *fsnotify.Watcher) error {
	skip := s.outputs()
	s.mu.Lock()
	watch := s.watch
	s.mu.Unlock()
	for _, root := range watch {
		if root == "" {
			continue
		}
		st, err := os.Stat(root)
		if errors.Is(err, fs.ErrNotExist) {
			continue // a folder masrl.yaml names before it is made
		}
		if err != nil {
			return err
		}
		if !st.IsDir() {
			if err := w.Add(filepath.Dir(root)); err != nil {
				return err
			}
			continue
		}
		err = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err != nil || !e.IsDir() {
				return err
			}
			if slices.Contains(skip, filepath.Clean(p)) {
				return filepath.SkipDir
			}
			return w.Add(p)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// addCreatedDir watches a directory created under a watched one.
func (s *Server) addCreatedDir(w *fsnotify.Watcher, ev fsnotify.Event) {
	if !ev.Has(fsnotify.Create) {
		return
	}
	if st, err := os.Stat(ev.Name); err == nil && st.IsDir() {
		w.Add(ev.Name)
	}
}

// poll rebuilds whenever the fingerprint of the watched files changes.
func (s *Server) poll(ctx context.Context) {
	t := time.NewTicker(pollInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if s.changedFiles() {
				s.Rebuild()
			}
		}
	}
}

// changedFiles reports whether the watched files differ from those of the
// last build.
func (s *Server) changedFiles() bool {
	s.mu.Lock()
	watch := s.watch
	s.mu.Unlock()
	now := fingerprint(watch, s.outputs())
	s.mu.Lock()
	defer s.mu.Unlock()
	return now != s.stamp
}

// outputs are the output directory and its build buffer: a watched
// directory may hold them, and their changes are the builds' own.
func (s *Server) outputs() []string {
	out := filepath.Clean(s.opt.Out)
	return []string{out, filepath.Clean(outdir.BufferDir(out))}
}

// fingerprint lists the name, size and modification time of every regular
// file under dirs (or of a file named in dirs) but those under skip and
// editors' scratch files, sorted, as one string.
func fingerprint(dirs, skip []string) string {
	var lines []string
	for _, d := range dirs {
		if d == "" {
			continue
		}
		filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if e != nil && e.IsDir() && slices.Contains(skip, filepath.Clean(p)) {
				return filepath.SkipDir
			}
			if err != nil {
				lines = append(lines, p+" "+err.Error())
				return nil
			}
			if e.Type().IsRegular() && !scratch(e.Name()) {
				if info, err := e.Info(); err == nil {
					lines = append(lines, fmt.Sprintf("%s %d %d", p, info.Size(), info.ModTime().UnixNano()))
				}
			}
			return nil
		})
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// scratch reports whether a file name is one an editor or a tool writes
// beside the file it saves and then renames or removes: "papers.csv.tmp"
// before a rename over papers.csv, Vim's ".papers.csv.swp" and "4913",
// Emacs's "#papers.csv#" and ".#papers.csv", backups ending in "~". No
// build reads them, and one taken as a change started a rebuild of the
// unchanged corpus that the save's rename then waited for: at 100,000
// entries, writing the temporary file outlasts settle, and the edit
// reached the page a whole rebuild later.
func scratch(name string) bool {
	switch {
	case name == "4913", strings.HasSuffix(name, "~"), strings.HasPrefix(name, ".#"),
		len(name) > 1 && strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"):
		return true
	}
	switch path.Ext(name) {
	case ".tmp", ".swp", ".swx", ".swo":
		return true
	}
	return false
}

var errorPage = template.Must(template.New("error").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Build failed · masrl serve</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:60rem}pre{white-space:pre-wrap;background:#fff4e0;color:#5a3000;padding:1rem}</style>
</head><body><main>
<h1>The last build failed</h1>
<p>Fix the corpus or the templates; the page reloads into the site after the next successful build. The last good site is still in the output directory.</p>
<pre>{{range .}}{{.}}
{{end}}</pre>
</main></body></html>
`))

// pagesCount says how many pages, in words.
func pagesCount(n int) string {
	if n == 1 {
		return "1 page"
	}
	return fmt.Sprintf("%d pages", n)
}

// ServeHTTP serves the site to GET and HEAD only: serve is a file
// server, and answering any other method with the page (as it once did)
// would tell a client that a POST or DELETE took effect.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "masrl serve answers GET and HEAD only", http.StatusMethodNotAllowed)
		return
	}
	switch r.URL.Path {
	case liveScriptPath:
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		io.WriteString(w, liveScript)
		return
	case liveEventsPath:
		s.serveEvents(w, r)
		return
	}
	name := path.Clean("/" + r.URL.Path)
	html := strings.HasSuffix(r.URL.Path, "/") || path.Ext(name) == ".html"
	page := strings.TrimPrefix(name, "/")
	if html && path.Ext(name) != ".html" {
		page = path.Join(page, "index.html")
	}
	s.mu.Lock()
	b, shown := s.early[page]
	settled := s.settled
	failure, version := s.failure, s.version
	s.mu.Unlock()
	switch {
	case shown:
		s.visit(page)
		w.Header().Set("Cache-Control", "no-cache")
		writeHTML(w, http.StatusOK, withLiveScript(b, version))
		s.mu.Lock()
		if s.fetched != nil {
			close(s.fetched) // the build goes on (showEarly)
			s.fetched = nil
		}
		s.mu.Unlock()
		return
	case settled != nil && html:
		// A page of the site before the edit would not be told to
		// reload: it waits. Other files (the stylesheet an early page
		// needs at once, the search index) are served as published.
		select {
		case <-settled:
		case <-r.Context().Done():
			return
		}
		s.mu.Lock()
		failure, version = s.failure, s.version
		s.mu.Unlock()
	}
	if failure != nil && html {
		var b bytes.Buffer
		errorPage.Execute(&b, failure)
		w.Header().Set("Cache-Control", "no-store")
		writeHTML(w, http.StatusInternalServerError, withLiveScript(b.Bytes(), version))
		return
	}
	root := http.Dir(s.opt.Out)
	f, err := root.Open(name)
	if err == nil {
		st, serr := f.Stat()
		if serr == nil && st.IsDir() {
			f.Close()
			f, err = root.Open(path.Join(name, "index.html"))
			html, page = true, path.Join(strings.TrimPrefix(name, "/"), "index.html")
		}
	}
	if err != nil {
		s.notFound(w, r, version)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	if !html {
		f.Close()
		http.FileServer(root).ServeHTTP(w, r)
		return
	}
	b, err = io.ReadAll(f)
	f.Close()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	s.visit(page)
	writeHTML(w, http.StatusOK, withLiveScript(b, version))
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request, version int) {
	b, err := os.ReadFile(filepath.Join(s.opt.Out, "404.html"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if b == nil {
		http.NotFound(w, r)
		return
	}
	writeHTML(w, http.StatusNotFound, withLiveScript(b, version))
}

func writeHTML(w http.ResponseWriter, code int, b []byte) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	w.Write(b)
}
