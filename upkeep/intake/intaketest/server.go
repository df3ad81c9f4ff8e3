// Package intaketest serves recorded arXiv, doi.org, Crossref and
// OpenAlex answers over httptest, so that tests of masrl add, refresh and
// links never touch the network.
package intaketest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Server answers like the two services from the recordings in a
// directory:
//
//	GET /arxiv?id_list=ID   arxiv-ID.atom, or arxiv-empty.atom (arXiv's
//	                        answer to an id it does not know)
//	GET /doi/DOI            doi-DOI.json with '/' in DOI spelled '_',
//	                        or 404; 406 unless the request asks for CSL JSON
//	GET /crossref/works/DOI crossref-DOI.json ('/' spelled '_'), or
//	                        Crossref's 404 "Resource not found."
//	GET /openalex/works/doi:DOI?api_key=K
//	                        openalex-DOI.json, or 404; 401 without a key
//	GET /s2/paper/ID/citations?offset=N (and /references)
//	                        s2-ID-citations.json (':' and '/' spelled '_';
//	                        -N before .json for offset N > 0), or 404
//	GET /s2/paper/ID        s2-ID.json (an id without '/'), or 404
//	GET /html/...           200 with an HTML page, as a service behind a
//	                        maintenance page or a captive portal answers
//
// Every answer carries an ETag (a hash of its body) and a request whose
// If-None-Match names it gets 304 Not Modified, as the real services do.
// ArxivAPI, DOIAPI, CrossrefAPI and OpenAlexAPI are the URLs to pass to
// the --arxiv-api, --doi-api, --crossref-api and --openalex-api flags;
// HTMLAPI, passed to any of them, answers every request with the HTML
// page.
type Server struct {
	*httptest.Server
	ArxivAPI, DOIAPI, CrossrefAPI, OpenAlexAPI, S2API string
	HTMLAPI                                           string

	mu       sync.Mutex
	fails    map[string][]Failure
	requests map[string]int
	notMod   int
}

// Failure is one answer the server gives instead of the recording.
type Failure struct {
	Status     int
	RetryAfter string // the Retry-After header, when set
}

// Fail makes the next requests to a service ("arxiv", "doi", "crossref",
// "openalex") answer with the failures in turn before the recordings
// again; Status 0 means "from now on, always the last one".
func (s *Server) Fail(service string, fs ...Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fails[service] = append(s.fails[service], fs...)
}

// Requests returns how many requests a service has had.
func (s *Server) Requests(service string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[service]
}

// NotModified returns how many requests were answered 304.
func (s *Server) NotModified() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.notMod
}

// failure counts a request and returns the failure to answer it with.
func (s *Server) failure(service string) (Failure, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests[service]++
	q := s.fails[service]
	if len(q) == 0 {
		return Failure{}, false
	}
	f := q[0]
	if len(q) > 1 {
		s.fails[service] = q[1:]
	} else if f.Status != 0 {
		delete(s.fails, service)
	} else {
		return Failure{Status: http.StatusServiceUnavailable}, true
	}
	if f.Status == 0 {
		f.Status = http.StatusServiceUnavailable
	}
	return f, true
}

// wrap answers a service's requests: a queued failure first, then the
// handler's recording with an ETag and 304 on If-None-Match.
func (s *Server) wrap(service string, h func(r *http.Request) (body []byte, contentType string, status int)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if f, ok := s.failure(service); ok {
			if f.RetryAfter != "" {
				w.Header().Set("Retry-After", f.RetryAfter)
			}
			http.Error(w, http.StatusText(f.Status), f.Status)
			return
		}
		body, ct, status := h(r)
		if status != http.StatusOK {
			w.Header().Set("Content-Type", ct)
			w.WriteHeader(status)
			w.Write(body)
			return
		}
		sum := sha256.Sum256(body)
		etag := `"` + hex.EncodeToString(sum[:8]) + `"`
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			s.mu.Lock()
			s.notMod++
			s.mu.Unlock()
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Content-Type", ct)
		w.Write(body)
	}
}

// New starts a server on the recordings in dir; Close stops it.
func New(dir string) *Server {
	s := &Server{fails: map[string][]Failure{}, requests: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/arxiv", s.wrap("arxiv", func(r *http.Request) ([]byte, string, int) {
		id := r.URL.Query().Get("id_list")
		b, err := os.ReadFile(filepath.Join(dir, "arxiv-"+filepath.Base(id)+".atom"))
		if err != nil {
			b, err = os.ReadFile(filepath.Join(dir, "arxiv-empty.atom"))
		}
		if err != nil {
			return []byte(err.Error()), "text/plain", http.StatusInternalServerError
		}
		return b, "application/atom+xml; charset=utf-8", http.StatusOK
	}))
	mux.HandleFunc("/doi/", s.wrap("doi", func(r *http.Request) ([]byte, string, int) {
		if !strings.Contains(r.Header.Get("Accept"), "application/vnd.citationstyles.csl+json") {
			return []byte("ask for application/vnd.citationstyles.csl+json"), "text/plain", http.StatusNotAcceptable
		}
		doi := strings.TrimPrefix(r.URL.Path, "/doi/")
		b, err := os.ReadFile(filepath.Join(dir, "doi-"+strings.ReplaceAll(doi, "/", "_")+".json"))
		if err != nil {
			return []byte("404 page not found"), "text/plain", http.StatusNotFound
		}
		return b, "application/vnd.citationstyles.csl+json", http.StatusOK
	}))
	mux.HandleFunc("/crossref/works/", s.wrap("crossref", func(r *http.Request) ([]byte, string, int) {
		doi := strings.ToLower(strings.TrimPrefix(r.URL.Path, "/crossref/works/"))
		b, err := os.ReadFile(filepath.Join(dir, "crossref-"+strings.ReplaceAll(doi, "/", "_")+".json"))
		if err != nil {
			return []byte("Resource not found."), "text/plain;charset=utf-8", http.StatusNotFound
		}
		return b, "application/json;charset=utf-8", http.StatusOK
	}))
	mux.HandleFunc("/openalex/works/", s.wrap("openalex", func(r *http.Request) ([]byte, string, int) {
		if r.URL.Query().Get("api_key") == "" {
			return []byte(`{"error":"API key required"}`), "application/json", http.StatusUnauthorized
		}
		doi, ok := strings.CutPrefix(strings.ToLower(strings.TrimPrefix(r.URL.Path, "/openalex/works/")), "doi:")
		b, err := os.ReadFile(filepath.Join(dir, "openalex-"+strings.ReplaceAll(doi, "/", "_")+".json"))
		if !ok || err != nil {
			return fmt.Appendf(nil, `{"error":"Not Found","message":%q}`, doi+" is not a valid OpenAlex ID"), "application/json", http.StatusNotFound
		}
		return b, "application/json", http.StatusOK
	}))
	mux.HandleFunc("/s2/paper/", s.wrap("s2", func(r *http.Request) ([]byte, string, int) {
		rest := strings.TrimPrefix(r.URL.Path, "/s2/paper/")
		i := strings.LastIndexByte(rest, '/')
		if i < 0 {
			// The paper itself (an arXiv id: no '/').
			b, err := os.ReadFile(filepath.Join(dir, "s2-"+strings.NewReplacer(":", "_").Replace(filepath.Base(rest))+".json"))
			if err != nil {
				return []byte(`{"error":"Not found"}`), "application/json", http.StatusNotFound
			}
			return b, "application/json", http.StatusOK
		}
		id, direction := rest[:i], rest[i+1:]
		name := "s2-" + strings.NewReplacer(":", "_", "/", "_").Replace(id) + "-" + direction
		if off := r.URL.Query().Get("offset"); off != "" && off != "0" {
			name += "-" + filepath.Base(off)
		}
		b, err := os.ReadFile(filepath.Join(dir, name+".json"))
		if err != nil {
			return fmt.Appendf(nil, `{"error":"Paper with id %s not found"}`, id), "application/json", http.StatusNotFound
		}
		return b, "application/json", http.StatusOK
	}))
	mux.HandleFunc("/html/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<!DOCTYPE html>\n<html><head><title>Service unavailable</title></head><body><h1>We are down for maintenance</h1></body></html>\n"))
	})
	s.Server = httptest.NewServer(mux)
	s.HTMLAPI = s.URL + "/html/api"
	s.ArxivAPI, s.DOIAPI = s.URL+"/arxiv", s.URL+"/doi"
	s.CrossrefAPI, s.OpenAlexAPI, s.S2API = s.URL+"/crossref", s.URL+"/openalex", s.URL+"/s2"
	return s
}

// Unreachable returns a URL on which nothing listens: a server started
// and closed at once, so a connection is refused.
func Unreachable() string {
	s := httptest.NewServer(http.NotFoundHandler())
	u := s.URL
	s.Close()
	return u
}
