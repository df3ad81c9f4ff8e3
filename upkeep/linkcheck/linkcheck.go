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
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/upkeep/intake"

	"github.com/masrl/masrl/internal/diag"
)

// Link is one URL at its position.
type Link struct {
	URL string
	Pos corpus.Pos
}

// Collect returns every http(s) URL of the corpus's three files, in file
// order. Positions point at the URL itself, inside its field.
//
// columns are the list's link columns of papers.csv (code, project, ...:
// corpus.LinkColumn), whose links are collected after each row's url.
func Collect(c *corpus.Corpus, columns ...string) ([]Link, error) {
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
		e := c.Papers[i]
		for _, u := range corpus.SplitURLs(e.URL) {
			p, err := inField(e.Pos("url"), u)
			if err != nil {
				return nil, err
			}
			out = append(out, Link{URL: u, Pos: p})
		}
		for _, col := range columns {
			if u := strings.TrimSpace(e.Value(col)); u != "" {
				p, err := inField(e.Pos(col), u)
				if err != nil {
					return nil, err
				}
				out = append(out, Link{URL: u, Pos: p})
			}
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
	// Progress, when set, is called after each distinct URL is checked
	// with how many are done out of how many (masrl links shows it on a
	// terminal).
	Progress func(done, total int)
	// PerHost (default 2) is how many requests run at once per host;
	// Workers (default 8) in all.
	PerHost, Workers int
	// Retries (default 3), Backoff (default a second) and MaxWait (default
	// a minute) govern 429 and 503 answers, as in intake.Client.
	Retries          int
	Backoff, MaxWait time.Duration
}

// NewHTTPClient returns a client that does not follow redirects, gives
// each request timeout, and connects only where the policy allows (public
// addresses when it is nil): a corpus link to a loopback or private
// address is no public link, and a redirect there is not followed.
func NewHTTPClient(timeout time.Duration, p *intake.AddressPolicy) *http.Client {
	return intake.NewHTTPClient(timeout, false, p)
}

// ErrNetworkUnreachable is returned when no host could be reached at all
// (every name failed to resolve, every connection failed): the check
// could not run, and no link is called dead for it.
var ErrNetworkUnreachable = errors.New("the network looks unreachable")

// networkFailure reports whether err is a failure to resolve a name or
// to connect, and whether it is a hard one: a name server that does not
// answer, a connection that times out or has no route. A name the name
// server says does not exist (NXDOMAIN) or a connection the host refuses
// are soft: on a working network they are a dead link's answer, so only
// when every host fails so does the network. A refusal of masrl's own
// address policy is neither.
func networkFailure(err error) (failed, hard bool) {
	if err == nil || errors.Is(err, intake.ErrRefusedAddress) || errors.Is(err, intake.ErrInsecureRedirect) {
		return false, false
	}
	if errors.Is(err, syscall.ECONNREFUSED) {
		return true, false
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return true, !dns.IsNotFound
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true, true
	}
	return false, false
}

// Result is every finding, sorted by position, and the number of
// distinct URLs checked.
type Result struct {
	URLs     int
	Findings corpus.Diagnostics
}

// verdict is what one URL check found.
type verdict struct {
	sev     diag.Severity
	message string
	ok      bool
}

// Check checks every distinct URL once and reports it at each of its
// positions. A service error (arXiv's or Crossref's API failing) stops
// the check at once: its links cannot be judged. When no host answers
// at all, the check ends with ErrNetworkUnreachable rather than calling
// every link dead: at once when the first hosts asked (one per worker, or
// all of them) failed hard (a name server or route that does not answer,
// where each further try would wait its timeout), else when every host
// asked has failed to resolve or connect.
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
	hostsAll := map[string]bool{}
	for _, l := range links {
		if !seen[l.URL] {
			seen[l.URL] = true
			urls = append(urls, l.URL)
			hostsAll[hostOf(l.URL)] = true
		}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	verdicts := make([]verdict, len(urls))
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
	// What the network did: answers, hosts that could not be reached
	// (and those of them that failed hard), the first such failure, and
	// the URLs done.
	answered, done := 0, 0
	unreached, hard := map[string]bool{}, map[string]bool{}
	var firstUnreached error
	enough := min(len(hostsAll), workers)
	unreachable := func() error {
		return fmt.Errorf("%w: %d of %d hosts failed to resolve or connect and none answered (%v); no link was judged", ErrNetworkUnreachable, len(unreached), len(hostsAll), firstUnreached)
	}
	record := func(host string, o outcome) {
		mu.Lock()
		defer mu.Unlock()
		done++
		switch {
		case o.err != nil:
			cancel(o.err)
		case o.answered:
			answered++
		case o.netErr != nil:
			unreached[host] = true
			if _, h := networkFailure(o.netErr); h {
				hard[host] = true
			}
			if firstUnreached == nil {
				firstUnreached = o.netErr
			}
			if answered == 0 && len(hard) >= enough {
				cancel(unreachable())
			}
		}
		if ck.Progress != nil {
			ck.Progress(done, len(urls))
		}
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range jobs {
				if ctx.Err() != nil {
					continue
				}
				host := hostOf(urls[i])
				s := slot(host)
				s <- struct{}{}
				o := ck.one(ctx, urls[i])
				<-s
				verdicts[i] = o.verdict
				record(host, o)
			}
		})
	}
	for i := range urls {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		if failed, _ := networkFailure(err); failed && answered == 0 && !errors.Is(err, ErrNetworkUnreachable) {
			// A service that cannot be reached while no host answered.
			err = fmt.Errorf("%w: %w; no link was judged", ErrNetworkUnreachable, err)
		}
		return nil, err
	}
	if answered == 0 && len(unreached) > 0 {
		return nil, unreachable()
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

// hostOf is the host part of a URL ("" when it does not parse).
func hostOf(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Host
	}
	return ""
}

// outcome is what checking one URL gave: a verdict on the link, whether
// its host (or service) answered, the network failure that kept it from
// answering, or a service error that stops the check.
type outcome struct {
	verdict
	answered bool
	netErr   error
	err      error
}

// one checks one URL.
func (ck *Checker) one(ctx context.Context, raw string) outcome {
	u, err := url.Parse(raw)
	if err != nil || !corpus.IsWebURL(raw) {
		return outcome{verdict: verdict{sev: corpus.Error, message: fmt.Sprintf("%q is not an absolute http(s) URL", raw)}}
	}
	host := strings.ToLower(u.Hostname())
	if host == "arxiv.org" || strings.HasSuffix(host, ".arxiv.org") {
		if id, ok := corpus.ParseArxivID(raw); ok {
			_, err := ck.Service.Arxiv(ctx, id)
			switch {
			case errors.Is(err, intake.ErrNotFound):
				return outcome{verdict: verdict{sev: corpus.Error, message: fmt.Sprintf("dead link: arXiv has no paper %s", id)}, answered: true}
			case err != nil:
				return outcome{err: err}
			}
			return outcome{verdict: verdict{ok: true}, answered: true}
		}
	}
	if host == "doi.org" || host == "dx.doi.org" {
		if doi, ok := corpus.ParseDOI(raw); ok {
			_, err := ck.Service.Crossref(ctx, doi)
			switch {
			case err == nil:
				return outcome{verdict: verdict{ok: true}, answered: true}
			case !errors.Is(err, intake.ErrNotFound):
				return outcome{err: err}
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
// with the final URL. A redirect from https to http is not followed, nor
// is an address that is not public asked (intake.AddressPolicy). The
// outcome says whether any host answered, or the network failure that
// kept the link's own host from answering.
func (ck *Checker) fetch(ctx context.Context, raw string, follow bool) outcome {
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
	answered := false
	judge := func(sev diag.Severity, format string, args ...any) outcome {
		return outcome{verdict: verdict{sev: sev, message: fmt.Sprintf(format, args...)}, answered: answered}
	}
	for hop := range 10 {
		resp, err := ck.ask(ctx, cur, retries, backoff, maxWait)
		switch {
		case errors.Is(err, intake.ErrRefusedAddress):
			return judge(corpus.Error, "not a public address, not asked: %v", err)
		case err != nil && hop == 0:
			o := judge(corpus.Error, "unreachable: %v", err)
			if failed, _ := networkFailure(err); failed {
				o.netErr = err
			}
			return o
		case err != nil:
			return judge(corpus.Error, "unreachable: %v", err)
		}
		answered = true
		switch s := resp.StatusCode; {
		case s >= 200 && s < 300:
			if permanent != "" {
				return judge(corpus.Warning, "moved permanently (%s): use %s", permanent, cur)
			}
			return outcome{verdict: verdict{ok: true}, answered: true}
		case s >= 300 && s < 400 && resp.Header.Get("Location") != "":
			if !follow {
				return outcome{verdict: verdict{ok: true}, answered: true} // a resolver's redirect is its answer
			}
			from, err := url.Parse(cur)
			next := from
			if err == nil {
				next, err = from.Parse(resp.Header.Get("Location"))
			}
			if err != nil || (next.Scheme != "http" && next.Scheme != "https") {
				return judge(corpus.Error, "redirects to %q, which is not an http(s) URL", resp.Header.Get("Location"))
			}
			if from.Scheme == "https" && next.Scheme == "http" {
				return judge(corpus.Warning, "not verified: %s redirects from https to http (%s), which masrl does not follow", cur, next.Redacted())
			}
			if hop == 0 && (s == http.StatusMovedPermanently || s == http.StatusPermanentRedirect) {
				permanent = resp.Status
			}
			cur = next.String()
		case intake.Retryable(s):
			return judge(corpus.Warning, "not verified: the host still answered %s after %d retries", resp.Status, retries)
		case s == http.StatusUnauthorized || s == http.StatusForbidden:
			// Publishers behind bot protection refuse checkers the page
			// they show readers: not a dead link, not verified either.
			return judge(corpus.Warning, "not verified: the host refused the checker (%s)", resp.Status)
		default:
			return judge(corpus.Error, "dead link: %s", resp.Status)
		}
	}
	return judge(corpus.Error, "more than 10 redirects")
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
