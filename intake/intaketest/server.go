// Package intaketest serves recorded arXiv and doi.org answers over
// httptest, so that tests of masrl add never touch the network.
package intaketest

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
)

// Server answers like the two services from the recordings in a
// directory:
//
//	GET /arxiv?id_list=ID   arxiv-ID.atom, or arxiv-empty.atom (arXiv's
//	                        answer to an id it does not know)
//	GET /doi/DOI            doi-DOI.json with '/' in DOI spelled '_',
//	                        or 404; 406 unless the request asks for CSL JSON
//
// ArxivAPI and DOIAPI are the URLs to pass to --arxiv-api and --doi-api.
type Server struct {
	*httptest.Server
	ArxivAPI, DOIAPI string
}

// New starts a server on the recordings in dir; Close stops it.
func New(dir string) *Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/arxiv", func(w http.ResponseWriter, r *http.Request) {
		id := r.URL.Query().Get("id_list")
		b, err := os.ReadFile(filepath.Join(dir, "arxiv-"+filepath.Base(id)+".atom"))
		if err != nil {
			b, err = os.ReadFile(filepath.Join(dir, "arxiv-empty.atom"))
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/atom+xml; charset=utf-8")
		w.Write(b)
	})
	mux.HandleFunc("/doi/", func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept"), "application/vnd.citationstyles.csl+json") {
			http.Error(w, "ask for application/vnd.citationstyles.csl+json", http.StatusNotAcceptable)
			return
		}
		doi := strings.TrimPrefix(r.URL.Path, "/doi/")
		b, err := os.ReadFile(filepath.Join(dir, "doi-"+strings.ReplaceAll(doi, "/", "_")+".json"))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/vnd.citationstyles.csl+json")
		w.Write(b)
	})
	s := &Server{Server: httptest.NewServer(mux)}
	s.ArxivAPI, s.DOIAPI = s.URL+"/arxiv", s.URL+"/doi"
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
