package intake

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// names is a resolver that knows only its own names, so that no test
// resolves a name for real.
type names map[string][]string

func (n names) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	as, ok := n[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host (test resolver)", Name: host, IsNotFound: true}
	}
	var out []netip.Addr
	for _, a := range as {
		out = append(out, netip.MustParseAddr(a))
	}
	return out, nil
}

// counter is a loopback server that counts the requests it gets: the
// place a refused redirect must never reach.
func counter(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Content-Type", "application/atom+xml")
		w.Write([]byte(`<feed xmlns="http://www.w3.org/2005/Atom"></feed>`))
	}))
	t.Cleanup(s.Close)
	return s, &n
}

// TestRedirectToLoopbackRefused: the configured arXiv API (on loopback,
// as in tests) redirects; a redirect to another loopback service, or to a
// name that resolves to loopback, is refused by the dialer before any
// request reaches it. A redirect on the configured service itself is
// followed.
func TestRedirectToLoopbackRefused(t *testing.T) {
	other, hits := counter(t)
	port := other.URL[strings.LastIndexByte(other.URL, ':')+1:]
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/to-loopback":
			http.Redirect(w, r, other.URL+"/arxiv", http.StatusFound)
		case "/to-name":
			http.Redirect(w, r, "http://rebound.test:"+port+"/arxiv", http.StatusFound)
		case "/to-self":
			http.Redirect(w, r, "/arxiv?"+r.URL.RawQuery, http.StatusFound)
		default:
			w.Header().Set("Content-Type", "application/atom+xml")
			w.Write([]byte(`<feed xmlns="http://www.w3.org/2005/Atom"></feed>`))
		}
	}))
	defer api.Close()
	resolver := names{"rebound.test": {"127.0.0.1"}}
	for _, path := range []string{"/to-loopback", "/to-name"} {
		c := &Client{ArxivAPI: api.URL + path, Resolver: resolver}
		_, err := c.Arxiv(context.Background(), "2606.01234")
		if !errors.Is(err, ErrRefusedAddress) {
			t.Errorf("%s: %v, want %v", path, err, ErrRefusedAddress)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the other loopback server got %d requests, want 0", n)
	}
	c := &Client{ArxivAPI: api.URL + "/to-self", Resolver: resolver}
	if _, err := c.Arxiv(context.Background(), "2606.01234"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a redirect on the configured service: %v, want %v (an empty feed)", err, ErrNotFound)
	}
}

// TestRedirectDowngradeRefused: an https service redirecting to http is
// refused even when the http address is itself allowed.
func TestRedirectDowngradeRefused(t *testing.T) {
	plain, hits := counter(t)
	secure := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+"/arxiv", http.StatusMovedPermanently)
	}))
	defer secure.Close()
	// Both are configured services: only the scheme is wrong.
	c := &Client{ArxivAPI: secure.URL + "/arxiv", DOIAPI: plain.URL}
	c.HTTP = c.NewHTTP(10 * time.Second)
	c.HTTP.Transport.(*http.Transport).TLSClientConfig = secure.Client().Transport.(*http.Transport).TLSClientConfig
	_, err := c.Arxiv(context.Background(), "2606.01234")
	if !errors.Is(err, ErrInsecureRedirect) {
		t.Errorf("https to http: %v, want %v", err, ErrInsecureRedirect)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the http server got %d requests, want 0", n)
	}
}

// TestDialerRefuses holds the address check itself: names that resolve
// to link-local, private, shared or loopback addresses, and such
// addresses written out, are refused before any socket is made. The
// dialer under test cannot connect at all (its Control refuses), so a
// broken check still sends nothing anywhere.
func TestDialerRefuses(t *testing.T) {
	var attempts []string
	noConnect := &net.Dialer{Control: func(_, address string, _ syscall.RawConn) error {
		attempts = append(attempts, address)
		return errors.New("test dialer: no connection")
	}}
	p := &AddressPolicy{
		Local: []string{"127.0.0.1:8080", "localhost:9000"},
		Resolver: names{
			"metadata.test":   {"169.254.169.254"},
			"intranet.test":   {"10.1.2.3"},
			"router.test":     {"192.168.0.1"},
			"cgnat.test":      {"100.64.0.9"},
			"ula.test":        {"fd00::1"},
			"linklocal6.test": {"fe80::1"},
			"mapped.test":     {"::ffff:10.0.0.1"},
			"nat64.test":      {"64:ff9b::a00:1"},
			"loopback.test":   {"127.0.0.1"},
			"localhost":       {"127.0.0.1", "::1"},
			"public.test":     {"192.0.2.1", "203.0.113.7"},
			"mixed.test":      {"10.0.0.1", "198.51.100.1"},
		},
	}
	dial := p.dialContext(noConnect)
	for _, addr := range []string{
		"metadata.test:80", "intranet.test:443", "router.test:80", "cgnat.test:80", "ula.test:80",
		"linklocal6.test:80", "mapped.test:80", "nat64.test:80",
		"loopback.test:8080", // loopback, but not under the configured name
		"127.0.0.1:8081",     // loopback, not the configured port
		"169.254.169.254:80", "10.0.0.1:80", "[::1]:8080", "0.0.0.0:80", "[::]:80",
	} {
		attempts = nil
		_, err := dial(context.Background(), "tcp", addr)
		if !errors.Is(err, ErrRefusedAddress) || len(attempts) > 0 {
			t.Errorf("%s: %v (dialled %v), want %v and no dial", addr, err, attempts, ErrRefusedAddress)
		}
	}
	// Allowed: a configured loopback service, by its configured name and
	// port, and public addresses; the test dialer then refuses to connect.
	for addr, want := range map[string]string{
		"127.0.0.1:8080":  "127.0.0.1:8080",
		"localhost:9000":  "127.0.0.1:9000",
		"public.test:443": "192.0.2.1:443",
		"mixed.test:443":  "198.51.100.1:443", // the private address is skipped
	} {
		attempts = nil
		_, err := dial(context.Background(), "tcp", addr)
		if errors.Is(err, ErrRefusedAddress) && !strings.HasPrefix(addr, "mixed") || len(attempts) == 0 || attempts[0] != want {
			t.Errorf("%s: %v (dialled %v), want a dial to %s", addr, err, attempts, want)
		}
	}
}

// TestLoopbackHostPort: which configured API URLs make a loopback service
// allowed.
func TestLoopbackHostPort(t *testing.T) {
	for raw, want := range map[string]string{
		"http://127.0.0.1:8080/arxiv":  "127.0.0.1:8080",
		"http://localhost/x":           "localhost:80",
		"https://[::1]/x":              "[::1]:443",
		"https://export.arxiv.org/api": "",
		"http://10.0.0.1:80/":          "",
		"::not a url":                  "",
	} {
		got, _ := loopbackHostPort(raw)
		if got != want {
			t.Errorf("loopbackHostPort(%q) = %q, want %q", raw, got, want)
		}
	}
}

func ExampleNewHTTPClient() {
	// Loopback is refused unless the policy names the service.
	c := NewHTTPClient(time.Second, true, nil)
	_, err := c.Get("http://127.0.0.1:1/")
	fmt.Println(errors.Is(err, ErrRefusedAddress))
	// Output: true
}

// TestDefaultsHTTPS: every service masrl asks by default is asked over
// https.
func TestDefaultsHTTPS(t *testing.T) {
	for _, u := range []string{DefaultArxivAPI, DefaultDOIAPI, DefaultCrossrefAPI, DefaultOpenAlexAPI, DefaultS2API} {
		if !strings.HasPrefix(u, "https://") {
			t.Errorf("default service %s is not https", u)
		}
	}
}

// TestAttemptTimeout: the addresses of a name share the dial time, so one
// that never answers leaves time for the next.
func TestAttemptTimeout(t *testing.T) {
	bg := context.Background()
	for _, tt := range []struct {
		total time.Duration
		n     int
		want  time.Duration
	}{
		{30 * time.Second, 1, 30 * time.Second},
		{30 * time.Second, 3, 10 * time.Second},
		{30 * time.Second, 30, 2 * time.Second},
		{0, 2, 0},
	} {
		if got := attemptTimeout(bg, tt.total, tt.n); got != tt.want {
			t.Errorf("attemptTimeout(%v, %d) = %v, want %v", tt.total, tt.n, got, tt.want)
		}
	}
}
