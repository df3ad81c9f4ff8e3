package intake

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// ErrRefusedAddress is returned when a connection would go to an address
// masrl does not ask: loopback, link-local, private, shared (carrier NAT),
// multicast or unspecified. A service's answer, or a redirect, must not
// make masrl reach into the machine or network it runs on (a cloud's
// metadata address, a router, a local admin page).
var ErrRefusedAddress = errors.New("refused: not a public address (loopback, link-local, private or reserved)")

// ErrInsecureRedirect is returned when a redirect goes from https to http:
// the answer would no longer be the one the https address promised.
var ErrInsecureRedirect = errors.New("refused: a redirect from https to http")

// Resolver looks up a host's addresses; *net.Resolver is one, and tests
// give a map so that no name is ever resolved for real.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// AddressPolicy decides where masrl's HTTP connections may go: public
// addresses only, checked after the name is resolved and on the very
// address dialled, so that a name that resolves to a private address
// (DNS rebinding included) is refused as the address itself would be.
// It is the one place this rule lives: every request masrl sends goes
// through the dialer NewHTTPClient builds from it.
type AddressPolicy struct {
	// Local are the loopback services the user named ("127.0.0.1:8080",
	// "localhost:9000", as host:port of a configured API URL): those,
	// and only those, may be reached on loopback (tests, a local mirror).
	Local []string
	// Resolver resolves names (net.DefaultResolver when nil).
	Resolver Resolver
}

// sharedPrefixes are the ranges netip's predicates do not name that are
// no public address either: carrier-grade NAT, "this network", the IETF
// protocol assignments, benchmarking, and NAT64 (which embeds any IPv4
// address, a private one included).
var sharedPrefixes = []netip.Prefix{
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("64:ff9b:1::/48"),
}

// public reports whether ip is an address on the public internet.
func public(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || !ip.IsGlobalUnicast() || ip.IsPrivate() || ip.IsLoopback() || ip.IsLinkLocalUnicast() {
		return false
	}
	for _, p := range sharedPrefixes {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}

// isLoopbackHost reports whether host (a URL's host, without port) names
// this machine: "localhost" or a loopback address.
func isLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil && ip.Unmap().IsLoopback()
}

// permit checks one resolved address for the dial address name:port.
func (p *AddressPolicy) permit(name, port string, ip netip.Addr) error {
	if public(ip) {
		return nil
	}
	if ip.Unmap().IsLoopback() {
		for _, l := range p.Local {
			if strings.EqualFold(l, net.JoinHostPort(name, port)) {
				return nil
			}
		}
	}
	if name == ip.String() {
		return fmt.Errorf("%s: %w", net.JoinHostPort(name, port), ErrRefusedAddress)
	}
	return fmt.Errorf("%s resolves to %s: %w", net.JoinHostPort(name, port), ip, ErrRefusedAddress)
}

// dialContext resolves addr with the policy's resolver, drops the
// addresses the policy refuses, and dials the first one that answers.
// The dialer's Control checks the address once more just before the
// connection is made.
func (p *AddressPolicy) dialContext(d *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		var ips []netip.Addr
		if ip, err := netip.ParseAddr(host); err == nil {
			ips = []netip.Addr{ip}
		} else {
			r := p.Resolver
			if r == nil {
				r = net.DefaultResolver
			}
			lookup := "ip"
			switch network {
			case "tcp4":
				lookup = "ip4"
			case "tcp6":
				lookup = "ip6"
			}
			if ips, err = r.LookupNetIP(ctx, lookup, host); err != nil {
				return nil, err
			}
		}
		var errs []error
		var allowed []netip.Addr
		for _, ip := range ips {
			if err := p.permit(host, port, ip); err != nil {
				errs = append(errs, err)
				continue
			}
			allowed = append(allowed, ip)
		}
		for i, ip := range allowed {
			dd := *d
			dd.Control = func(network, address string, rc syscall.RawConn) error {
				// The address the socket is about to connect to.
				ap, err := netip.ParseAddrPort(address)
				if err != nil {
					return fmt.Errorf("%s: %w", address, ErrRefusedAddress)
				}
				if err := p.permit(host, port, ap.Addr()); err != nil {
					return err
				}
				if d.Control != nil {
					return d.Control(network, address, rc)
				}
				return nil
			}
			// Each address gets its share of the time left, as the net
			// package's own serial dial does, so that one that never
			// answers does not use it all.
			dd.Timeout = attemptTimeout(ctx, d.Timeout, len(allowed)-i)
			conn, err := dd.DialContext(ctx, network, net.JoinHostPort(ip.String(), port))
			if err == nil {
				return conn, nil
			}
			errs = append(errs, err)
		}
		if len(errs) == 0 {
			return nil, &net.DNSError{Err: "no address", Name: host, IsNotFound: true}
		}
		return nil, errors.Join(errs...)
	}
}

// attemptTimeout is the time one of n remaining addresses may take: the
// time left (the context's deadline, else total) shared among them, but
// never under two seconds.
func attemptTimeout(ctx context.Context, total time.Duration, n int) time.Duration {
	left := total
	if dl, ok := ctx.Deadline(); ok {
		if d := time.Until(dl); left <= 0 || d < left {
			left = d
		}
	}
	if left <= 0 || n <= 1 {
		return left
	}
	return max(left/time.Duration(n), 2*time.Second)
}

// maxRedirects is how many redirects a request follows, as net/http's
// default client does.
const maxRedirects = 10

// checkRedirect refuses an https to http redirect and more than
// maxRedirects; the address of the target is the dialer's to check.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return fmt.Errorf("stopped after %d redirects", maxRedirects)
	}
	if prev := via[len(via)-1]; prev.URL.Scheme == "https" && req.URL.Scheme != "https" {
		return fmt.Errorf("%s redirects to %s: %w", prev.URL.Redacted(), req.URL.Redacted(), ErrInsecureRedirect)
	}
	return nil
}

// NewHTTPClient returns the HTTP client masrl asks services and links
// with: each request within timeout (none when 0), connections only where
// the policy allows (a nil policy allows public addresses only), no proxy
// from the environment (the policy could not see where a proxy connects),
// and, when follow is set, at most 10 redirects, never from https to
// http. Without follow, a redirect is returned as the answer for the
// caller to judge (masrl links reports permanent ones).
func NewHTTPClient(timeout time.Duration, follow bool, p *AddressPolicy) *http.Client {
	if p == nil {
		p = &AddressPolicy{}
	}
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	t := &http.Transport{
		Proxy:                 nil,
		DialContext:           p.dialContext(d),
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	c := &http.Client{Transport: t, Timeout: timeout, CheckRedirect: checkRedirect}
	if !follow {
		c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	}
	return c
}

// addressPolicy allows the loopback services among the client's
// configured APIs, and nothing else that is not public.
func (c *Client) addressPolicy() *AddressPolicy {
	p := &AddressPolicy{Resolver: c.Resolver}
	for _, api := range []string{c.ArxivAPI, c.DOIAPI, c.CrossrefAPI, c.OpenAlexAPI, c.S2API} {
		if l, ok := loopbackHostPort(api); ok {
			p.Local = append(p.Local, l)
		}
	}
	return p
}

// loopbackHostPort returns the host:port of a URL on loopback, with the
// scheme's port when the URL gives none.
func loopbackHostPort(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || !isLoopbackHost(u.Hostname()) {
		return "", false
	}
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return net.JoinHostPort(u.Hostname(), port), true
}

// NewHTTP returns the HTTP client for the client's services: that of
// NewHTTPClient, following redirects, with the loopback services among
// the configured APIs allowed. Set it as HTTP once per run so that
// connections are reused.
func (c *Client) NewHTTP(timeout time.Duration) *http.Client {
	return NewHTTPClient(timeout, true, c.addressPolicy())
}
