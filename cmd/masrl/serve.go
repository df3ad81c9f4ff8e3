package main

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

	"github.com/masrl/masrl/site"
)

func serveCommand() command {
	return command{summary: "build, serve the site locally and rebuild when the corpus, templates or data change", run: runServe}
}

// pollInterval is how often serve looks at modification times. Polling
// keeps the command free of platform-specific watchers; at this size a
// directory listing costs microseconds.
const pollInterval = 500 * time.Millisecond

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve", "serve [--addr 127.0.0.1:8080] "+buildUsage, stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "`address` to listen on")
	bf := addBuildFlags(fs, "`URL` for canonical links, the sitemap and the feed (default http://ADDR/; masrl.yaml's base_url is not used, so the local site links to itself)")
	if code, ok := parseNoArgs(fs, args); !ok {
		return code
	}
	if err := needCorpus(*bf.corpus); err != nil {
		fmt.Fprintf(stderr, "masrl serve: %v\n", err)
		return exitUsage
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "masrl serve: %v\n", err)
		return exitUsage
	}
	if *bf.baseURL == "" {
		*bf.baseURL = "http://" + ln.Addr().String() + "/"
	}
	s := &server{flags: bf, watch: []string{*bf.corpus, *bf.config, *bf.templates, *bf.data}, log: stderr}
	s.rebuild()
	fmt.Fprintf(stdout, "serving %s at http://%s/ (Ctrl-C to stop)\n", *bf.out, ln.Addr())
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go s.poll(ctx)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shut)
		return exitOK
	case err := <-errc:
		fmt.Fprintf(stderr, "masrl serve: %v\n", err)
		return exitUsage
	}
}

// server serves the output directory and rebuilds it when inputs change.
// A failed build keeps the last good site on disk, and HTML requests get a
// page listing the findings until the next successful build.
type server struct {
	flags buildFlags
	watch []string // directories whose files trigger a rebuild
	log   io.Writer

	mu       sync.Mutex
	failure  []string // findings or error of the last build; nil when it succeeded
	stamp    string   // fingerprint of the watched files at the last build
	builds   int
	lastGood time.Time
}

// rebuild builds once and records the outcome.
func (s *server) rebuild() {
	stamp := fingerprint(s.watch)
	start := time.Now()
	var res *site.Result
	opt, err := s.flags.options()
	if err == nil {
		res, err = s.flags.build(opt)
	}
	var msgs []string
	var buf bytes.Buffer
	reportBuild(&buf, "masrl serve", res, err)
	if err != nil {
		msgs = strings.Split(strings.TrimSpace(buf.String()), "\n")
	}
	s.mu.Lock()
	s.stamp, s.failure = stamp, msgs
	s.builds++
	if err == nil {
		s.lastGood = time.Now()
	}
	s.mu.Unlock()
	io.WriteString(s.log, buf.String())
	if err == nil {
		fmt.Fprintf(s.log, "built %s: %d files in %s\n", *s.flags.out, res.Files.Len(), time.Since(start).Round(time.Millisecond))
	}
}

// poll rebuilds whenever the fingerprint of the watched files changes.
func (s *server) poll(ctx context.Context) {
	t := time.NewTicker(pollInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if s.changed() {
				s.rebuild()
			}
		}
	}
}

func (s *server) changed() bool {
	now := fingerprint(s.watch)
	s.mu.Lock()
	defer s.mu.Unlock()
	return now != s.stamp
}

// fingerprint lists the name, size and modification time of every regular
// file under dirs, sorted, as one string.
func fingerprint(dirs []string) string {
	var lines []string
	for _, d := range dirs {
		if d == "" {
			continue
		}
		filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				lines = append(lines, p+" "+err.Error())
				return nil
			}
			if e.Type().IsRegular() {
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

var errorPage = template.Must(template.New("error").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Build failed · masrl serve</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:60rem}pre{white-space:pre-wrap;background:#fff4e0;color:#5a3000;padding:1rem}</style>
</head><body><main>
<h1>The last build failed</h1>
<p>Fix the corpus or the templates; the page reloads into the site after the next successful build (reload this page). The last good site is still in the output directory.</p>
<pre>{{range .}}{{.}}
{{end}}</pre>
</main></body></html>
`))

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	failure := s.failure
	s.mu.Unlock()
	name := path.Clean("/" + r.URL.Path)
	if failure != nil && (strings.HasSuffix(r.URL.Path, "/") || path.Ext(name) == ".html") {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusInternalServerError)
		errorPage.Execute(w, failure)
		return
	}
	root := http.Dir(*s.flags.out)
	f, err := root.Open(name)
	if err == nil {
		st, serr := f.Stat()
		if serr == nil && st.IsDir() {
			f.Close()
			f, err = root.Open(path.Join(name, "index.html"))
		}
	}
	if err != nil {
		s.notFound(w, r)
		return
	}
	f.Close()
	w.Header().Set("Cache-Control", "no-cache")
	http.FileServer(root).ServeHTTP(w, r)
}

func (s *server) notFound(w http.ResponseWriter, r *http.Request) {
	b, err := os.ReadFile(filepath.Join(*s.flags.out, "404.html"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if b == nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	w.Write(b)
}
