package intake

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/masrl/masrl/intake/intaketest"
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
		w.Write([]byte("{}"))
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	const gap = 40 * time.Millisecond
	c := &Client{Limiter: &Limiter{}, Intervals: map[string]time.Duration{host: gap}}
	start := time.Now()
	for range 3 {
		if _, err := c.get(context.Background(), "test", srv.URL+"/x", "application/json"); err != nil {
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
	c2 := &Client{Cache: &Cache{Dir: dir2}}
	if _, err := c2.get(context.Background(), "test", noTag.URL, "text/plain"); err != nil {
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
