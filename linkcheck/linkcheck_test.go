package linkcheck

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/intake"
	"github.com/masrl/masrl/intake/intaketest"
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
		HTTP:    NewHTTPClient(5 * time.Second),
		Service: &intake.Client{ArxivAPI: rec.ArxivAPI, CrossrefAPI: rec.CrossrefAPI},
		PerHost: 2, Workers: 8,
	}
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
	ck := &Checker{HTTP: NewHTTPClient(time.Second), Service: &intake.Client{ArxivAPI: intaketest.Unreachable()}}
	if _, err := ck.Check(context.Background(), only); err == nil || !strings.Contains(err.Error(), "arXiv API") {
		t.Errorf("arXiv API down: %v", err)
	}
}

func ExampleNewHTTPClient() {
	fmt.Println(NewHTTPClient(time.Second).Timeout)
	// Output: 1s
}
