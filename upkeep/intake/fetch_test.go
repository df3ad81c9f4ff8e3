package intake

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/masrl/masrl/upkeep/intake/intaketest"
)

func TestRetryAfterHeader(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for h, want := range map[string]time.Duration{
		"0": 0, "7": 7 * time.Second,
		"Wed, 25 Nov 2026 12:00:30 GMT": 30 * time.Second,
		"Wed, 25 Nov 2026 11:00:00 GMT": 0, // in the past: now
	} {
		if got, ok := RetryAfter(h, now); !ok || got != want {
			t.Errorf("Retry-After %q: %v %v, want %v", h, got, ok, want)
		}
	}
	for _, h := range []string{"", "-1", "soon"} {
		if _, ok := RetryAfter(h, now); ok {
			t.Errorf("Retry-After %q read as a wait", h)
		}
	}
}

// TestLimiterSpacesRequests: with an interval set for the host, three
// requests take at least two intervals.
func TestLimiterSpacesRequests(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("{}"))
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	const gap = 40 * time.Millisecond
	c := &Client{CrossrefAPI: srv.URL, Limiter: &Limiter{}, Intervals: map[string]time.Duration{host: gap}}
	start := time.Now()
	for range 3 {
		if err := c.get(context.Background(), "test", srv.URL+"/x", jsonAnswer, func([]byte) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	// A lower bound only: the spacing must be there; how much longer
	// the machine takes is not this test's business.
	if d := time.Since(start); d < 2*gap || n.Load() != 3 {
		t.Errorf("3 requests in %v (%d answered), want at least %v", d, n.Load(), 2*gap)
	}
}

// TestRateLimitedThenDown: 429s are retried (Retry-After 0), a Retry-After
// beyond MaxWait is not waited for, and the error names the service.
func TestRateLimitedThenDown(t *testing.T) {
	s := intaketest.New("testdata")
	defer s.Close()
	c := &Client{CrossrefAPI: s.CrossrefAPI}
	s.Fail("crossref", intaketest.Failure{Status: 429, RetryAfter: "0"}, intaketest.Failure{Status: 429, RetryAfter: "0"})
	if _, err := c.Crossref(context.Background(), "10.5555/tmlr.2026.17"); err != nil {
		t.Errorf("after two 429s: %v", err)
	}
	if got := s.Requests("crossref"); got != 3 {
		t.Errorf("%d requests, want 3", got)
	}
	s.Fail("crossref", intaketest.Failure{Status: 503, RetryAfter: "3600"})
	c.MaxWait = time.Second
	_, err := c.Crossref(context.Background(), "10.5555/tmlr.2026.17")
	if !errors.Is(err, ErrRateLimited) || !strings.HasPrefix(err.Error(), "Crossref: ") || !strings.Contains(err.Error(), "3600") {
		t.Errorf("Retry-After an hour: %v", err)
	}
}

// TestCacheETag: the second request sends If-None-Match and a 304 gives
// the cached body; an answer without an ETag is not kept.
func TestCacheETag(t *testing.T) {
	s := intaketest.New("testdata")
	defer s.Close()
	dir := t.TempDir()
	c := &Client{CrossrefAPI: s.CrossrefAPI, Cache: &Cache{Dir: dir}}
	first, err := c.Crossref(context.Background(), "10.5555/jair.2026.88")
	if err != nil {
		t.Fatal(err)
	}
	second, err := c.Crossref(context.Background(), "10.5555/jair.2026.88")
	if err != nil {
		t.Fatal(err)
	}
	if s.NotModified() != 1 || first.Venue != second.Venue || second.Venue != "Journal of Artificial Intelligence Research" {
		t.Errorf("304s %d; venues %q %q", s.NotModified(), first.Venue, second.Venue)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 1 {
		t.Errorf("%d cache files, want 1", len(files))
	}
	// A damaged cache file is ignored and replaced.
	os.WriteFile(files[0], []byte("{not json"), 0o644)
	if _, err := c.Crossref(context.Background(), "10.5555/jair.2026.88"); err != nil {
		t.Errorf("damaged cache: %v", err)
	}

	noTag := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("x")) }))
	defer noTag.Close()
	dir2 := t.TempDir()
	c2 := &Client{CrossrefAPI: noTag.URL, Cache: &Cache{Dir: dir2}}
	text := mediaKind{"text/plain", []string{"text/plain"}}
	if err := c2.get(context.Background(), "test", noTag.URL, text, func([]byte) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if files, _ := filepath.Glob(filepath.Join(dir2, "*")); len(files) != 0 {
		t.Errorf("an answer without ETag was cached: %v", files)
	}
}

func TestCrossrefNotices(t *testing.T) {
	s := intaketest.New("testdata")
	defer s.Close()
	c := &Client{CrossrefAPI: s.CrossrefAPI}
	w, err := c.Crossref(context.Background(), "10.5555/RETRACTED.2024.9")
	if err != nil {
		t.Fatal(err)
	}
	if len(w.UpdatedBy) != 3 || w.UpdatedBy[0] != (Update{Type: "retraction", DOI: "10.5555/retraction.2026.3", Date: "2026-03-02", Source: "retraction-watch"}) {
		t.Errorf("updated-by: %+v", w.UpdatedBy)
	}
	n, err := c.Crossref(context.Background(), "10.5555/retraction.2026.3")
	if err != nil || len(n.UpdateTo) != 1 || n.UpdateTo[0].DOI != "10.5555/retracted.2024.9" {
		t.Errorf("update-to: %+v %v", n, err)
	}
	p, err := c.Crossref(context.Background(), "10.5555/preprint.2025.1")
	if err != nil || len(p.PreprintOf) != 1 || p.PreprintOf[0] != "10.5555/jair.2026.88" || p.Type != "posted-content" {
		t.Errorf("is-preprint-of: %+v %v", p, err)
	}
	if _, err := c.Crossref(context.Background(), "10.5555/nonesuch"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown DOI: %v", err)
	}
}

// FuzzParseCrossref: any answer is read without panic.
func FuzzParseCrossref(f *testing.F) {
	addRecordings(f, ".json")
	f.Fuzz(func(t *testing.T, b []byte) {
		w, err := parseCrossref("10.5555/x", b)
		if err == nil && w.DOI == "" {
			t.Error("a work without DOI")
		}
	})
}

// FuzzParseOpenAlex and FuzzParseS2Page: any answer is read without
// panic.
func FuzzParseOpenAlex(f *testing.F) {
	addRecordings(f, ".json")
	f.Fuzz(func(t *testing.T, b []byte) {
		// It reads or refuses; a panic fails the fuzz test.
		if w, err := parseOpenAlex("10.5555/x", b); (err == nil) == (w == nil) {
			t.Errorf("parseOpenAlex returned %v and %v", w, err)
		}
	})
}

func FuzzParseS2Page(f *testing.F) {
	addRecordings(f, ".json")
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, dir := range []string{"citations", "references"} {
			ls, _, err := parseS2Page(b, dir)
			if err != nil {
				continue
			}
			for _, l := range ls {
				if l.PaperID == "" && l.Title == "" {
					t.Errorf("a paper with neither id nor title: %+v", l)
				}
			}
		}
	})
}

// TestBadAnswers: a 200 that is not the service's answer (an HTML page,
// a body of another shape, one over the size limit) is ErrBadAnswer, a
// service failure, and never "no such paper" nor an empty list; it is not
// cached either.
func TestBadAnswers(t *testing.T) {
	const html = `<!DOCTYPE html><html><body><h1>arXiv is down for maintenance</h1></body></html>`
	answers := map[string]struct{ ct, body string }{
		"/html":         {"text/html; charset=utf-8", html},
		"/html-as-atom": {"application/atom+xml", `<html><body><h1>arXiv is down for maintenance</h1></body></html>`},
		"/rss":          {"application/xml", `<rss version="2.0"><channel></channel></rss>`},
		"/big":          {"application/atom+xml", `<feed xmlns="http://www.w3.org/2005/Atom">` + strings.Repeat(" ", maxBody) + `</feed>`},
		"/empty-json":   {"application/json", `{}`},
		"/json-as-html": {"text/html", `{"status":"ok","message-type":"work","message":{"DOI":"10.5555/x"}}`},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		first, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		a := answers["/"+first]
		w.Header().Set("Content-Type", a.ct)
		w.Header().Set("ETag", `"same"`)
		w.Write([]byte(a.body))
	}))
	defer srv.Close()
	dir := t.TempDir()
	ctx := context.Background()
	for _, tt := range []struct {
		name, path, want string
		ask              func(c *Client) error
	}{
		{"arXiv HTML page", "/html", "Content-Type", func(c *Client) error { _, err := c.Arxiv(ctx, "2606.01234"); return err }},
		{"arXiv HTML labelled Atom", "/html-as-atom", "want an Atom <feed>", func(c *Client) error { _, err := c.Arxiv(ctx, "2606.01234"); return err }},
		{"arXiv RSS", "/rss", "want an Atom <feed>", func(c *Client) error { _, err := c.Arxiv(ctx, "2606.01234"); return err }},
		{"arXiv over the limit", "/big", "exceeded the 8 MiB limit", func(c *Client) error { _, err := c.Arxiv(ctx, "2606.01234"); return err }},
		{"Crossref {}", "/empty-json", "not a work record", func(c *Client) error { _, err := c.Crossref(ctx, "10.5555/x"); return err }},
		{"Crossref as HTML", "/json-as-html", "Content-Type", func(c *Client) error { _, err := c.Crossref(ctx, "10.5555/x"); return err }},
		{"OpenAlex {}", "/empty-json", "not a work", func(c *Client) error { _, err := c.OpenAlex(ctx, "10.5555/x"); return err }},
		{"doi.org {}", "/empty-json", "not a CSL record", func(c *Client) error { _, err := c.DOI(ctx, "10.5555/x"); return err }},
		{"Semantic Scholar {}", "/empty-json", "not a page of papers", func(c *Client) error {
			_, _, err := c.Citations(ctx, "arXiv:2606.01234", "citations", 1)
			return err
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			base := srv.URL + tt.path
			c := &Client{ArxivAPI: base, DOIAPI: base, CrossrefAPI: base, OpenAlexAPI: base, S2API: base, Cache: &Cache{Dir: dir}}
			err := tt.ask(c)
			if !errors.Is(err, ErrBadAnswer) || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%v, want %v saying %q", err, ErrBadAnswer, tt.want)
			}
		})
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 0 {
		t.Errorf("bad answers were cached: %v", files)
	}
}

// TestCitationsWindow: Semantic Scholar lists at most 9,999 works (offset
// plus limit below 10,000, else 400): Citations reads up to there, never
// beyond, and says the list is cut when a next page is still offered.
func TestCitationsWindow(t *testing.T) {
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		offset, _ := strconv.Atoi(q.Get("offset"))
		limit, _ := strconv.Atoi(q.Get("limit"))
		asked = append(asked, q.Get("offset")+"+"+q.Get("limit"))
		if offset+limit >= 10000 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":"offset + limit must be < 10000"}`))
			return
		}
		var b strings.Builder
		fmt.Fprintf(&b, `{"offset":%d,"next":%d,"data":[`, offset, offset+limit)
		for i := range limit {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"citingPaper":{"paperId":"p%d","title":"T"}}`, offset+i)
		}
		b.WriteString("]}")
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(b.String()))
	}))
	defer srv.Close()
	c := &Client{S2API: srv.URL}
	got, more, err := c.Citations(context.Background(), "arXiv:1707.06347", "citations", 20)
	if err != nil || !more || len(got) != 9999 {
		t.Errorf("%d works, more %v, %v; want 9999, true, no error", len(got), more, err)
	}
	if last := asked[len(asked)-1]; len(asked) != 10 || last != "9000+999" {
		t.Errorf("asked %v, want 10 pages ending with offset 9000 limit 999", asked)
	}
	asked = nil
	got, more, err = c.Citations(context.Background(), "arXiv:1707.06347", "citations", 3)
	if err != nil || !more || len(got) != 3000 || len(asked) != 3 {
		t.Errorf("3 pages: %d works, more %v, %v, asked %v", len(got), more, err, asked)
	}
}

// TestCachedBadAnswerForgotten: a page kept in the cache before answers
// were checked (an HTML page under a valid ETag) is dropped on the 304
// and asked for again, not reported forever.
func TestCachedBadAnswerForgotten(t *testing.T) {
	s := intaketest.New("testdata")
	defer s.Close()
	dir := t.TempDir()
	c := &Client{CrossrefAPI: s.CrossrefAPI, Cache: &Cache{Dir: dir}}
	if _, err := c.Crossref(context.Background(), "10.5555/jair.2026.88"); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 1 {
		t.Fatalf("%d cache files, want 1", len(files))
	}
	b, _ := os.ReadFile(files[0])
	var e cached
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatal(err)
	}
	e.Body = []byte("<html><body>maintenance</body></html>")
	b, _ = json.Marshal(e)
	os.WriteFile(files[0], b, 0o644)
	w, err := c.Crossref(context.Background(), "10.5555/jair.2026.88")
	if err != nil || w.Venue != "Journal of Artificial Intelligence Research" {
		t.Errorf("after a bad cached page: %+v, %v", w, err)
	}
	if got := s.Requests("crossref"); got != 3 {
		t.Errorf("%d requests, want 3 (the first, the 304, the one asked again)", got)
	}
}
