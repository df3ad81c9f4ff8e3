// Package linkcheck checks the links of a corpus: every URL of papers.csv,
// excluded.csv and papers.bib, each at its file:line:col. arXiv links are
// verified through arXiv's API and DOI links through Crossref (the
// intake.Client masrl refresh uses), because arXiv answers link checkers
// with false alarms; other links are asked directly, a few at a time per
// host, with retries on 429 and 503 that honour Retry-After.
package linkcheck

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/intake"
)

// Link is one URL at its position.
type Link struct {
	URL string
	Pos corpus.Pos
}

// Collect returns every http(s) URL of the corpus's three files, in file
// order. Positions point at the URL itself, inside its field.
func Collect(c *corpus.Corpus) ([]Link, error) {
	var out []Link
	lines := map[string][]string{}
	source := func(file string) ([]string, error) {
		if l, ok := lines[file]; ok {
			return l, nil
		}
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		l := strings.Split(string(b), "\n")
		lines[file] = l
		return l, nil
	}
	// inField finds u in the field that starts at p and returns its
	// position: the field may be quoted, and several URLs share one.
	inField := func(p corpus.Pos, u string) (corpus.Pos, error) {
		ls, err := source(p.File)
		if err != nil {
			return p, err
		}
		if p.Line < 1 || p.Line > len(ls) {
			return p, nil
		}
		line := ls[p.Line-1]
		if p.Col >= 1 && p.Col <= len(line) {
			if i := strings.Index(line[p.Col-1:], u); i >= 0 {
				p.Col += i
			}
		}
		return p, nil
	}
	for i := range c.Papers {
		e := &c.Papers[i]
		for _, u := range corpus.SplitURLs(e.URL) {
			p, err := inField(e.Pos("url"), u)
			if err != nil {
				return nil, err
			}
			out = append(out, Link{URL: u, Pos: p})
		}
	}
	for i := range c.Excluded {
		x := &c.Excluded[i]
		if u := strings.TrimSpace(x.URL); u != "" {
			p, err := inField(x.Pos("url"), u)
			if err != nil {
				return nil, err
			}
			out = append(out, Link{URL: u, Pos: p})
		}
	}
	for i := range c.Bib {
		b := &c.Bib[i]
		for _, f := range []string{"url", "doi"} {
			v := strings.TrimSpace(b.Fields[f])
			if f == "doi" && v != "" {
				if d, ok := corpus.ParseDOI(v); ok {
					v = "https://doi.org/" + d
				}
			}
			if !corpus.IsWebURL(v) {
				continue
			}
			needle := b.Fields[f]
			out = append(out, Link{URL: v, Pos: offset(b.Pos, b.Raw, needle)})
		}
	}
	return out, nil
}

// offset is the position of needle inside raw, which starts at p.
func offset(p corpus.Pos, raw, needle string) corpus.Pos {
	i := strings.Index(raw, needle)
	if i < 0 || needle == "" {
		return p
	}
	before := raw[:i]
	if n := strings.Count(before, "\n"); n > 0 {
		p.Line += n
		p.Col = len(before) - strings.LastIndexByte(before, '\n')
	} else {
		p.Col += i
	}
	return p
}

// Checker checks links. HTTP must not follow redirects (Check reports
// them); NewHTTPClient makes one.
type Checker struct {
	HTTP    *http.Client
	Service *intake.Client // arXiv and Crossref look-ups
	// PerHost (default 2) is how many requests run at once per host;
	// Workers (default 8) in all.
	PerHost, Workers int
	// Retries (default 3), Backoff (default a second) and MaxWait (default
	// a minute) govern 429 and 503 answers, as in intake.Client.
	Retries          int
	Backoff, MaxWait time.Duration
}

// NewHTTPClient returns a client that does not follow redirects and gives
// each request timeout.
func NewHTTPClient(timeout time.Duration) *http.Client {
	return &http.Client{
		Timeout:       timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// Result is every finding, sorted by position, and the number of
// distinct URLs checked.
type Result struct {
	URLs     int
	Findings corpus.Diagnostics
}

// verdict is what one URL check found.
type verdict struct {
	sev     corpus.Severity
	message string
	ok      bool
}

// Check checks every distinct URL once and reports it at each of its
// positions. A service error (arXiv's or Crossref's API failing) stops
// the check: its links cannot be judged.
func (ck *Checker) Check(ctx context.Context, links []Link) (*Result, error) {
	perHost, workers := ck.PerHost, ck.Workers
	if perHost <= 0 {
		perHost = 2
	}
	if workers <= 0 {
		workers = 8
	}
	var urls []string
	seen := map[string]bool{}
	for _, l := range links {
		if !seen[l.URL] {
			seen[l.URL] = true
			urls = append(urls, l.URL)
		}
	}
	verdicts := make([]verdict, len(urls))
	errs := make([]error, len(urls))
	var mu sync.Mutex
	hosts := map[string]chan struct{}{}
	slot := func(host string) chan struct{} {
		mu.Lock()
		defer mu.Unlock()
		if hosts[host] == nil {
			hosts[host] = make(chan struct{}, perHost)
		}
		return hosts[host]
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range jobs {
				host := ""
				if u, err := url.Parse(urls[i]); err == nil {
					host = u.Host
				}
				s := slot(host)
				s <- struct{}{}
				verdicts[i], errs[i] = ck.one(ctx, urls[i])
				<-s
			}
		})
	}
	for i := range urls {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	byURL := map[string]verdict{}
	for i, u := range urls {
		byURL[u] = verdicts[i]
	}
	res := &Result{URLs: len(urls)}
	for _, l := range links {
		v := byURL[l.URL]
		if v.ok {
			continue
		}
		res.Findings = append(res.Findings, corpus.Diagnostic{Severity: v.sev, Pos: l.Pos, Field: "url", Value: l.URL, Message: v.message})
	}
	res.Findings.Sort()
	return res, nil
}

// one checks one URL.
func (ck *Checker) one(ctx context.Context, raw string) (verdict, error) {
	u, err := url.Parse(raw)
	if err != nil || !corpus.IsWebURL(raw) {
		return verdict{sev: corpus.Error, message: fmt.Sprintf("%q is not an absolute http(s) URL", raw)}, nil
	}
	host := strings.ToLower(u.Hostname())
	if host == "arxiv.org" || strings.HasSuffix(host, ".arxiv.org") {
		if id, ok := corpus.ParseArxivID(raw); ok {
			_, err := ck.Service.Arxiv(ctx, id)
			switch {
			case errors.Is(err, intake.ErrNotFound):
				return verdict{sev: corpus.Error, message: fmt.Sprintf("dead link: arXiv has no paper %s", id)}, nil
			case err != nil:
				return verdict{}, err
			}
			return verdict{ok: true}, nil
		}
	}
	if host == "doi.org" || host == "dx.doi.org" {
		if doi, ok := corpus.ParseDOI(raw); ok {
			_, err := ck.Service.Crossref(ctx, doi)
			switch {
			case err == nil:
				return verdict{ok: true}, nil
			case !errors.Is(err, intake.ErrNotFound):
				return verdict{}, err
			}
			// Not a Crossref DOI (DataCite, mEDRA): ask the resolver
			// itself, which redirects a known DOI and answers 404 to
			// an unknown one.
			return ck.fetch(ctx, raw, false)
		}
	}
	return ck.fetch(ctx, raw, true)
}

// fetch asks a URL (HEAD, then GET when HEAD is refused), following
// redirects when follow is set: a permanent first redirect is a warning
// with the final URL.
func (ck *Checker) fetch(ctx context.Context, raw string, follow bool) (verdict, error) {
	retries, backoff, maxWait := ck.Retries, ck.Backoff, ck.MaxWait
	if retries == 0 {
		retries = 3
	}
	if backoff == 0 {
		backoff = time.Second
	}
	if maxWait == 0 {
		maxWait = time.Minute
	}
	cur, permanent := raw, ""
	for hop := range 10 {
		resp, err := ck.ask(ctx, cur, retries, backoff, maxWait)
		if err != nil {
			return verdict{sev: corpus.Error, message: fmt.Sprintf("unreachable: %v", err)}, nil
		}
		switch s := resp.StatusCode; {
		case s >= 200 && s < 300:
			if permanent != "" {
				return verdict{sev: corpus.Warning, message: fmt.Sprintf("moved permanently (%s): use %s", permanent, cur)}, nil
			}
			return verdict{ok: true}, nil
		case s >= 300 && s < 400 && resp.Header.Get("Location") != "":
			if !follow {
				return verdict{ok: true}, nil // a resolver's redirect is its answer
			}
			next, err := url.Parse(cur)
			if err == nil {
				next, err = next.Parse(resp.Header.Get("Location"))
			}
			if err != nil || (next.Scheme != "http" && next.Scheme != "https") {
				return verdict{sev: corpus.Error, message: fmt.Sprintf("redirects to %q, which is not an http(s) URL", resp.Header.Get("Location"))}, nil
			}
			if hop == 0 && (s == http.StatusMovedPermanently || s == http.StatusPermanentRedirect) {
				permanent = resp.Status
			}
			cur = next.String()
		case intake.Retryable(s):
			return verdict{sev: corpus.Warning, message: fmt.Sprintf("not verified: the host still answered %s after %d retries", resp.Status, retries)}, nil
		case s == http.StatusUnauthorized || s == http.StatusForbidden:
			// Publishers behind bot protection refuse checkers the page
			// they show readers: not a dead link, not verified either.
			return verdict{sev: corpus.Warning, message: fmt.Sprintf("not verified: the host refused the checker (%s)", resp.Status)}, nil
		default:
			return verdict{sev: corpus.Error, message: fmt.Sprintf("dead link: %s", resp.Status)}, nil
		}
	}
	return verdict{sev: corpus.Error, message: "more than 10 redirects"}, nil
}

// answer is the part of a response fetch reads; the body is discarded.
type answer struct {
	StatusCode int
	Status     string
	Header     http.Header
}

// ask sends HEAD (GET when the server refuses HEAD) and retries 429 and
// 503 after Retry-After or a doubling back-off.
func (ck *Checker) ask(ctx context.Context, raw string, retries int, backoff, maxWait time.Duration) (*answer, error) {
	method := http.MethodHead
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, method, raw, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("User-Agent", "masrl-links (https://github.com/masrl/masrl)")
		resp, err := ck.HTTP.Do(req)
		if err != nil {
			return nil, err
		}
		resp.Body.Close()
		a := &answer{StatusCode: resp.StatusCode, Status: resp.Status, Header: resp.Header}
		if method == http.MethodHead && (a.StatusCode == http.StatusMethodNotAllowed || a.StatusCode == http.StatusNotImplemented || a.StatusCode == http.StatusForbidden) {
			method = http.MethodGet
			attempt--
			continue
		}
		if !intake.Retryable(a.StatusCode) || attempt >= retries {
			return a, nil
		}
		wait, given := intake.RetryAfter(a.Header.Get("Retry-After"), time.Now())
		if !given {
			wait = backoff << attempt
		}
		if wait > maxWait {
			return a, nil
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}
