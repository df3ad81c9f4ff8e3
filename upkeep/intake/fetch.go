package intake

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Cache keeps service answers on disk with their ETag, so that a second
// refresh or link check asks "has it changed?" (If-None-Match) and the
// service answers 304 without a body. Answers without an ETag are not
// kept: masrl cannot tell whether they are still current.
type Cache struct {
	Dir string
}

// cached is one stored answer.
type cached struct {
	URL  string `json:"url"`
	ETag string `json:"etag"`
	Body []byte `json:"body"`
}

// path names the file of one request: the hash of the URL and the Accept
// header, so no URL text becomes a path.
func (c *Cache) path(rawURL, accept string) string {
	h := sha256.Sum256([]byte(accept + "\n" + rawURL))
	return filepath.Join(c.Dir, hex.EncodeToString(h[:])+".json")
}

func (c *Cache) load(rawURL, accept string) *cached {
	if c == nil {
		return nil
	}
	b, err := os.ReadFile(c.path(rawURL, accept))
	if err != nil {
		return nil
	}
	var e cached
	if json.Unmarshal(b, &e) != nil || e.URL != rawURL || e.ETag == "" {
		return nil // a damaged or colliding file is ignored, then replaced
	}
	return &e
}

// forget removes the stored answer of one request, if any.
func (c *Cache) forget(rawURL, accept string) {
	if c != nil {
		os.Remove(c.path(rawURL, accept))
	}
}

func (c *Cache) store(rawURL, accept, etag string, body []byte) error {
	if c == nil || etag == "" {
		return nil
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return err
	}
	b, err := json.Marshal(cached{URL: rawURL, ETag: etag, Body: body})
	if err != nil {
		return err
	}
	p := c.path(rawURL, accept)
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}

// Polite intervals between two requests to the same host of a public
// service, from their documentation: arXiv asks for one request every
// three seconds; Crossref's public pool allows about five a second;
// OpenAlex ten; Semantic Scholar one a second without a key. Other hosts (a test server, a mirror) get none unless the
// Client says so.
var defaultIntervals = map[string]time.Duration{
	"export.arxiv.org":        3 * time.Second,
	"api.crossref.org":        200 * time.Millisecond,
	"api.openalex.org":        100 * time.Millisecond,
	"api.semanticscholar.org": time.Second,
}

// DefaultInterval returns the polite interval for host (0 when masrl
// knows none).
func DefaultInterval(host string) time.Duration { return defaultIntervals[host] }

// Limiter spaces the requests to each host. The zero value is ready.
type Limiter struct {
	mu   sync.Mutex
	next map[string]time.Time
}

// wait blocks until a request to host may start, every interval apart.
func (l *Limiter) wait(ctx context.Context, host string, interval time.Duration) error {
	if l == nil || interval <= 0 {
		return nil
	}
	l.mu.Lock()
	if l.next == nil {
		l.next = map[string]time.Time{}
	}
	now := time.Now()
	at := l.next[host]
	if at.Before(now) {
		at = now
	}
	l.next[host] = at.Add(interval)
	l.mu.Unlock()
	return sleep(ctx, time.Until(at))
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// RetryAfter reads a Retry-After header: seconds or an HTTP date. ok is
// false when the header is absent or unreadable.
func RetryAfter(h string, now time.Time) (time.Duration, bool) {
	if h == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(h); err == nil && s >= 0 {
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(h); err == nil {
		if d := t.Sub(now); d > 0 {
			return d, true
		}
		return 0, true
	}
	return 0, false
}

// Retryable reports whether a status asks the client to come back later:
// 429 Too Many Requests and 503 Service Unavailable.
func Retryable(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable
}

// ErrRateLimited is returned when a service still refuses after the
// retries, or asks to wait longer than the client's MaxWait.
var ErrRateLimited = errors.New("rate-limited")

// ErrBadAnswer is returned when a service answers 200 with something that
// is not its answer: another content type (an HTML error or maintenance
// page), a body of another shape, or one over the size limit. It is a
// service failure, never "no such paper".
var ErrBadAnswer = errors.New("not an answer of the service")

// maxBody is the largest answer masrl reads (8 MiB): the largest record
// or page the services send is a few hundred KiB.
const maxBody = 8 << 20

// mediaKind is what a service answers: the Accept header masrl sends and
// the content types it takes back.
type mediaKind struct {
	accept string
	types  []string
}

var (
	atomAnswer = mediaKind{"application/atom+xml", []string{"application/atom+xml", "application/xml", "text/xml"}}
	jsonAnswer = mediaKind{"application/json", []string{"application/json"}}
	cslAnswer  = mediaKind{"application/vnd.citationstyles.csl+json", []string{"application/vnd.citationstyles.csl+json", "application/json"}}
)

// accepts reports whether a Content-Type header is one of the kind's.
func (k mediaKind) accepts(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && slices.Contains(k.types, mt)
}

// readLimited reads a body of at most limit bytes; a longer one is
// ErrBadAnswer saying so, rather than a truncated body that would fail to
// parse as "unexpected EOF".
func readLimited(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("the answer exceeded the %d MiB limit: %w", limit>>20, ErrBadAnswer)
	}
	return b, nil
}

// get fetches url for the named service and hands the body of a 200
// answer (or the cached body on a 304) to read, which parses it. The
// answer must have one of the kind's content types, and read must take
// it (or find no such paper in it) before it is cached, so the cache
// never keeps a page that is not the service's answer. A 404 is
// ErrNotFound; 429 and 503 are retried, after Retry-After when the
// service sends one and with doubling back-off otherwise; anything else
// is an error naming the service and the status, so the user can tell a
// bad id from an outage.
func (c *Client) get(ctx context.Context, service, rawURL string, kind mediaKind, read func([]byte) error) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return fmt.Errorf("%s: %w", service, err)
	}
	interval, ok := c.Intervals[u.Host]
	if !ok {
		interval = DefaultInterval(u.Host)
	}
	retries, maxWait, backoff := c.Retries, c.MaxWait, c.Backoff
	if retries == 0 {
		retries = 3
	}
	if maxWait == 0 {
		maxWait = time.Minute
	}
	if backoff == 0 {
		backoff = time.Second
	}
	accept := kind.accept
	old := c.Cache.load(rawURL, accept)
	for attempt := 0; ; attempt++ {
		if err := c.Limiter.wait(ctx, u.Host, interval); err != nil {
			return err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Accept", accept)
		req.Header.Set("User-Agent", "masrl (https://github.com/masrl/masrl)")
		if old != nil {
			req.Header.Set("If-None-Match", old.ETag)
		}
		resp, err := c.http().Do(req)
		if errors.Is(err, ErrRefusedAddress) || errors.Is(err, ErrInsecureRedirect) {
			return fmt.Errorf("%s: %s leads where masrl does not connect: %w", service, rawURL, err)
		}
		if err != nil {
			return fmt.Errorf("%s: cannot reach %s: %w", service, rawURL, err)
		}
		body, err := readLimited(resp.Body, maxBody)
		resp.Body.Close()
		if err != nil {
			return fmt.Errorf("%s: reading %s: %w", service, rawURL, err)
		}
		switch {
		case resp.StatusCode == http.StatusNotModified && old != nil:
			err := read(old.Body)
			if !errors.Is(err, ErrBadAnswer) {
				return err
			}
			// A page kept before answers were checked: forget it and
			// ask again without If-None-Match.
			c.Cache.forget(rawURL, accept)
			old = nil
			attempt--
		case resp.StatusCode == http.StatusOK:
			if ct := resp.Header.Get("Content-Type"); !kind.accepts(ct) {
				return fmt.Errorf("%s: %s answered 200 with Content-Type %q, want %s: %w", service, rawURL, ct, strings.Join(kind.types, " or "), ErrBadAnswer)
			}
			if err := read(body); err != nil {
				return err // not its answer, or no such paper: nothing to cache
			}
			if err := c.Cache.store(rawURL, accept, resp.Header.Get("ETag"), body); err != nil {
				return fmt.Errorf("caching %s: %w", rawURL, err)
			}
			return nil
		case resp.StatusCode == http.StatusNotFound:
			return fmt.Errorf("%s: %s: %w", service, rawURL, ErrNotFound)
		case Retryable(resp.StatusCode):
			wait, given := RetryAfter(resp.Header.Get("Retry-After"), time.Now())
			if !given {
				wait = backoff << attempt
			}
			if attempt >= retries || wait > maxWait {
				return fmt.Errorf("%s: %s answered %s %d times (Retry-After %q): %w", service, rawURL, resp.Status, attempt+1, resp.Header.Get("Retry-After"), ErrRateLimited)
			}
			if err := sleep(ctx, wait); err != nil {
				return fmt.Errorf("%s: waiting to retry %s: %w", service, rawURL, err)
			}
		default:
			return fmt.Errorf("%s: %s answered %s", service, rawURL, resp.Status)
		}
	}
}
