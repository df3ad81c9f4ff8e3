package linkcheck

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/upkeep/intake"
	"github.com/masrl/masrl/upkeep/intake/intaketest"
)

// site is a host with one link of each kind.
type site struct {
	mu      sync.Mutex
	limited int // requests to /busy so far
	active  int // requests in progress
	most    int // the most at once
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.active++
	s.most = max(s.most, s.active)
	s.mu.Unlock()
	defer func() { s.mu.Lock(); s.active--; s.mu.Unlock() }()
	time.Sleep(time.Millisecond) // lets concurrent requests overlap
	switch r.URL.Path {
	case "/ok", "/new-home":
		w.WriteHeader(http.StatusOK)
	case "/gone":
		http.NotFound(w, r)
	case "/members-only":
		http.Error(w, "bots go away", http.StatusForbidden)
	case "/old-home":
		http.Redirect(w, r, "/new-home", http.StatusMovedPermanently)
	case "/temporary":
		http.Redirect(w, r, "/ok", http.StatusFound)
	case "/nohead":
		if r.Method == http.MethodHead {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.WriteHeader(http.StatusOK)
	case "/busy":
		s.mu.Lock()
		s.limited++
		n := s.limited
		s.mu.Unlock()
		if n <= 2 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.WriteHeader(http.StatusOK)
	default:
		w.WriteHeader(http.StatusOK)
	}
}

// fixture writes a corpus whose links point at the test host.
func fixture(t *testing.T, base string) string {
	dir := t.TempDir()
	papers := `key,title,first_author,affiliation,year,arxiv_id,venue,url,category,is_rl,reward_type,credit_granularity,orchestration_form,scenario,is_core,one_liner,verified,notes
alpha,Alpha: a method,"Doe, Jane",Lab,2025,2501.00001,arXiv,https://arxiv.org/abs/2501.00001 ; BASE/gone,rl_method,yes,shared,agent,centralized,coding,core,first,yes,
beta,Beta,"Roe, Rick",Lab,2025,2501.00002,arXiv,"https://arxiv.org/pdf/2501.00002v1 ; BASE/old-home",rl_method,yes,shared,agent,centralized,coding,core,second,yes,
gamma,Gamma,"Moe, Gus",Lab,2024,,Proc,https://doi.org/10.5555/retracted.2024.9 ; BASE/busy ; BASE/temporary ; BASE/nohead,rl_method,yes,shared,agent,centralized,coding,core,third,yes,
omega,Omega,"Oe, O",Lab,2024,2606.99999,arXiv,https://arxiv.org/abs/2606.99999,rl_method,yes,shared,agent,centralized,coding,core,fourth,yes,
`
	excluded := `record_id,source,query_family,screening_label,identifier,url,date_screened,stage,exclusion_reason
E001,web,x,Some page,web,BASE/gone,2026-04-26,abstract_screen,off topic
E002,web,x,Other page,web,BASE/members-only,2026-04-26,abstract_screen,off topic
`
	bib := `@article{alpha2025,
  title   = {Alpha: a method},
  author  = {Doe, Jane},
  year    = {2025},
  url     = {BASE/old-home},
}
`
	for name, text := range map[string]string{"papers.csv": papers, "excluded.csv": excluded, "papers.bib": bib} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.ReplaceAll(text, "BASE", base)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestCheck(t *testing.T) {
	var host site
	srv := httptest.NewServer(&host)
	defer srv.Close()
	rec := intaketest.New(filepath.Join("..", "intake", "testdata"))
	defer rec.Close()
	dir := fixture(t, srv.URL)
	c, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	links, err := Collect(c)
	if err != nil {
		t.Fatal(err)
	}
	ck := &Checker{
		HTTP:    NewHTTPClient(5*time.Second, &intake.AddressPolicy{Local: []string{strings.TrimPrefix(srv.URL, "http://")}}),
		Service: &intake.Client{ArxivAPI: rec.ArxivAPI, CrossrefAPI: rec.CrossrefAPI},
		PerHost: 2, Workers: 8,
	}
	var progress []string
	ck.Progress = func(done, total int) { progress = append(progress, fmt.Sprintf("%d/%d", done, total)) }
	res, err := ck.Check(context.Background(), links)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range res.Findings {
		got = append(got, strings.ReplaceAll(strings.ReplaceAll(d.String(), dir+string(filepath.Separator), ""), srv.URL, "BASE"))
	}
	want := []string{
		"excluded.csv:2:26: error: url: dead link: 404 Not Found",
		"excluded.csv:3:27: warning: url: not verified: the host refused the checker (403 Forbidden)",
		"papers.bib:5:14: warning: url: moved permanently (301 Moved Permanently): use BASE/new-home",
		"papers.csv:2:96: error: url: dead link: 404 Not Found",
		"papers.csv:3:87: warning: url: moved permanently (301 Moved Permanently): use BASE/new-home",
		"papers.csv:5:47: error: url: dead link: arXiv has no paper 2606.99999",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The positions point at the URLs themselves.
	for _, d := range res.Findings {
		b, _ := os.ReadFile(d.Pos.File)
		line := strings.Split(string(b), "\n")[d.Pos.Line-1]
		if !strings.HasPrefix(line[d.Pos.Col-1:], d.Value) {
			t.Errorf("%s does not point at %s: %q", d.Pos, d.Value, line[d.Pos.Col-1:])
		}
	}
	if host.limited != 3 {
		t.Errorf("the rate-limited link was asked %d times, want 3 (two 429s, then 200)", host.limited)
	}
	if host.most > 2 {
		t.Errorf("%d requests at once to one host, want at most 2", host.most)
	}
	// arXiv links went to the API, not to arxiv.org.
	if n := rec.Requests("arxiv"); n != 3 {
		t.Errorf("%d arXiv API requests, want 3", n)
	}
	if res.URLs != 10 {
		t.Errorf("%d distinct URLs, want 10", res.URLs)
	}
	if len(progress) != 10 || progress[0] != "1/10" || progress[9] != "10/10" {
		t.Errorf("progress %v, want 1/10 … 10/10", progress)
	}
}

// TestServiceDown: a failing arXiv API is an error, not a dead link.
func TestServiceDown(t *testing.T) {
	dir := fixture(t, "http://127.0.0.1:1")
	c, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	links, _ := Collect(c)
	var only []Link
	for _, l := range links {
		if strings.Contains(l.URL, "arxiv.org") {
			only = append(only, l)
		}
	}
	ck := &Checker{HTTP: NewHTTPClient(time.Second, nil), Service: &intake.Client{ArxivAPI: intaketest.Unreachable()}}
	if _, err := ck.Check(context.Background(), only); err == nil || !strings.Contains(err.Error(), "arXiv API") {
		t.Errorf("arXiv API down: %v", err)
	}
}

// down is a resolver on a machine without network: every look-up fails
// the way a name server that cannot be reached fails.
type down struct{}

func (down) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	return nil, &net.DNSError{Err: "server misbehaving", Name: host, IsTemporary: true}
}

// TestNetworkUnreachable: when no host resolves, the check stops with
// ErrNetworkUnreachable (masrl links exits 2) instead of calling every
// link dead, and without asking every link.
func TestNetworkUnreachable(t *testing.T) {
	var links []Link
	for i := range 40 {
		links = append(links, Link{URL: fmt.Sprintf("https://host%d.test/paper", i%20), Pos: corpus.Pos{File: "papers.csv", Line: i + 2, Col: 1}})
	}
	var calls int
	ck := &Checker{HTTP: NewHTTPClient(time.Second, &intake.AddressPolicy{Resolver: down{}}), Service: &intake.Client{}, Workers: 4,
		Progress: func(done, total int) { calls++ }}
	res, err := ck.Check(context.Background(), links)
	if !errors.Is(err, ErrNetworkUnreachable) || res != nil {
		t.Fatalf("no host resolves: %v, %+v; want %v", err, res, ErrNetworkUnreachable)
	}
	if !strings.Contains(err.Error(), "server misbehaving") || !strings.Contains(err.Error(), "no link was judged") {
		t.Errorf("the verdict does not say why: %v", err)
	}
	if calls >= 20 {
		t.Errorf("%d of 20 URLs asked, want the check to stop after the first hosts failed", calls)
	}

	// Names the name server says do not exist and connections refused
	// are a dead link's answer on a working network; when every host
	// fails so, the network is what fails.
	refused := strings.TrimPrefix(intaketest.Unreachable(), "http://")
	links = []Link{{URL: "http://" + refused + "/x"}, {URL: "https://nonesuch.test/y"}}
	policy := &intake.AddressPolicy{Local: []string{refused}, Resolver: nxdomain{}}
	ck = &Checker{HTTP: NewHTTPClient(time.Second, policy), Service: &intake.Client{}}
	if res, err = ck.Check(context.Background(), links); !errors.Is(err, ErrNetworkUnreachable) {
		t.Errorf("every host unknown or refusing: %v, %+v; want %v", err, res, ErrNetworkUnreachable)
	}
	// With one host answering, they are dead links.
	live := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer live.Close()
	policy.Local = append(policy.Local, strings.TrimPrefix(live.URL, "http://"))
	links = append(links, Link{URL: live.URL + "/ok"})
	res, err = ck.Check(context.Background(), links)
	if err != nil || len(res.Findings) != 2 {
		t.Errorf("unknown and refusing hosts beside a live one: %v, %+v; want two dead links", err, res)
	}
}

// nxdomain answers every name: it does not exist.
type nxdomain struct{}

func (nxdomain) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// TestServiceErrorStops: the first service failure stops the check; the
// other arXiv links are not asked (each would wait arXiv's interval).
func TestServiceErrorStops(t *testing.T) {
	var n atomic.Int32
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><body>maintenance</body></html>"))
	}))
	defer api.Close()
	var links []Link
	for _, id := range []string{"2501.00001", "2501.00002", "2501.00003"} {
		links = append(links, Link{URL: "https://arxiv.org/abs/" + id})
	}
	ck := &Checker{HTTP: NewHTTPClient(time.Second, nil), Service: &intake.Client{ArxivAPI: api.URL}, Workers: 1}
	_, err := ck.Check(context.Background(), links)
	if !errors.Is(err, intake.ErrBadAnswer) {
		t.Errorf("arXiv answering HTML: %v, want %v", err, intake.ErrBadAnswer)
	}
	if n.Load() != 1 {
		t.Errorf("%d arXiv API requests, want 1", n.Load())
	}
}

// TestRedirectsNotFollowed: a link whose host redirects to another
// loopback service is not followed there (the address policy), and an
// https link redirecting to http is a warning, not followed.
func TestRedirectsNotFollowed(t *testing.T) {
	var hits atomic.Int32
	other := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer other.Close()
	var secureURL string
	secure := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/to-other":
			http.Redirect(w, r, other.URL+"/", http.StatusFound)
		case "/to-http":
			http.Redirect(w, r, "http"+strings.TrimPrefix(secureURL, "https")+"/ok", http.StatusFound)
		}
	}))
	defer secure.Close()
	secureURL = secure.URL
	client := NewHTTPClient(time.Second, &intake.AddressPolicy{Local: []string{strings.TrimPrefix(secure.URL, "https://")}})
	client.Transport.(*http.Transport).TLSClientConfig = secure.Client().Transport.(*http.Transport).TLSClientConfig
	ck := &Checker{HTTP: client, Service: &intake.Client{}}
	res, err := ck.Check(context.Background(), []Link{{URL: secure.URL + "/to-other"}, {URL: secure.URL + "/to-http"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range res.Findings {
		got = append(got, d.Severity.String()+": "+d.Message)
	}
	if len(got) != 2 || !strings.Contains(got[0], "error: not a public address, not asked") || !strings.Contains(got[1], "warning: not verified: "+secure.URL+"/to-http redirects from https to http") {
		t.Errorf("findings %q", got)
	}
	if hits.Load() != 0 {
		t.Errorf("the other loopback service got %d requests, want 0", hits.Load())
	}
}

func ExampleNewHTTPClient() {
	fmt.Println(NewHTTPClient(time.Second, nil).Timeout)
	// Output: 1s
}
