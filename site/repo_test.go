package site

import (
	"net/url"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/siteconfig"
)

func TestRepoLinks(t *testing.T) {
	e := &corpus.Entry{Key: "magrpo", Line: 12}
	edit, report := repoLinks(siteconfig.Repository{URL: "https://github.com/o/list/"}, e, "https://example.org/papers/magrpo/")
	if want := "https://github.com/o/list/blob/main/corpus/papers.csv#L12"; edit != want {
		t.Errorf("edit = %s, want %s", edit, want)
	}
	u, err := url.Parse(report)
	if err != nil || u.Scheme != "https" || u.Host != "github.com" || u.Path != "/o/list/issues/new" {
		t.Fatalf("report = %s (%v)", report, err)
	}
	if strings.Contains(report, "+") {
		t.Errorf("report = %s: spaces should be %%20", report)
	}
	q := u.Query()
	if q.Get("title") != "Entry magrpo: " || !strings.Contains(q.Get("body"), "Entry: magrpo\nPage: https://example.org/papers/magrpo/\n") {
		t.Errorf("report query = %v", q)
	}

	// Branch and corpus path are escaped as path segments; the top of the
	// repository is ".".
	edit, _ = repoLinks(siteconfig.Repository{URL: "http://git.example.org/o/list", Branch: "release v1", Corpus: "."}, e, "")
	if want := "http://git.example.org/o/list/blob/release%20v1/papers.csv#L12"; edit != want {
		t.Errorf("edit = %s, want %s", edit, want)
	}

	// Only http(s) repositories become links.
	for _, bad := range []string{"", "javascript:alert(1)", "ftp://example.org/x", "//example.org/x", "github.com/o/list"} {
		if edit, report := repoLinks(siteconfig.Repository{URL: bad}, e, ""); edit != "" || report != "" {
			t.Errorf("repository %q: got %q, %q; want no links", bad, edit, report)
		}
	}
}

// TestRepositoryOnPages: with a repository, every entry page links to edit
// the entry and report a problem, and the contributing page links the
// repository; without one, none of them does.
func TestRepositoryOnPages(t *testing.T) {
	dir := corpusFromTxtar(t, "tiny.txtar")
	files := mustLoad(t, openCorpus(t, dir, nil), Options{Config: siteconfig.Config{Repository: siteconfig.Repository{URL: "https://github.com/o/list"}}})
	c, _ := load(t, dir)
	for _, e := range c.Papers {
		p := page(t, files, "papers/"+e.Key+"/index.html")
		if !strings.Contains(p, `<a href="https://github.com/o/list/blob/main/corpus/papers.csv#L`) || !strings.Contains(p, `>Report a problem</a>`) ||
			!strings.Contains(p, "https://github.com/o/list/issues/new?body=Entry%3A%20"+e.Key) {
			t.Errorf("papers/%s: no edit or report link", e.Key)
		}
	}
	if p := page(t, files, "contribute/index.html"); !strings.Contains(p, `This list is kept at <a href="https://github.com/o/list">`) {
		t.Error("the contributing page does not link the repository")
	}

	files = mustLoad(t, openCorpus(t, dir, nil), Options{})
	for _, name := range files.Names() {
		if b, _ := files.Get(name); strings.Contains(string(b), "Edit this entry") || strings.Contains(string(b), "This list is kept at") {
			t.Errorf("%s links a repository the build was not given", name)
		}
	}
}

// TestNoBaseURL: without a base URL nothing absolute is written: no
// canonical link, no feed or link to one, no sitemap, and robots.txt names
// none; with one, each is there under it.
func TestNoBaseURL(t *testing.T) {
	dir := corpusFromTxtar(t, "tiny.txtar")
	files := mustLoad(t, openCorpus(t, dir, nil), Options{})
	for _, name := range []string{"feed.xml", "sitemap.xml"} {
		if _, ok := files.Get(name); ok {
			t.Errorf("%s written without a base URL", name)
		}
	}
	if robots, _ := files.Get("robots.txt"); strings.Contains(string(robots), "Sitemap") {
		t.Errorf("robots.txt names a sitemap: %s", robots)
	}
	for _, name := range files.Names() {
		b, _ := files.Get(name)
		for _, bad := range []string{`rel="canonical"`, "feed.xml", "127.0.0.1", "localhost"} {
			if strings.HasSuffix(name, ".html") && strings.Contains(string(b), bad) {
				t.Errorf("%s has %s without a base URL", name, bad)
			}
		}
	}

	files = mustLoad(t, openCorpus(t, dir, nil), Options{Config: siteconfig.Config{BaseURL: "https://example.org/list/", Language: "en-GB", Title: "My list"}})
	home := page(t, files, "index.html")
	for _, want := range []string{`<html lang="en-GB">`, `<link rel="canonical" href="https://example.org/list/">`, `href="./feed.xml"`, "<title>My list</title>"} {
		if !strings.Contains(home, want) {
			t.Errorf("home page lacks %s", want)
		}
	}
	if robots, _ := files.Get("robots.txt"); !strings.Contains(string(robots), "Sitemap: https://example.org/list/sitemap.xml") {
		t.Errorf("robots.txt: %s", robots)
	}
	if _, ok := files.Get("feed.xml"); !ok {
		t.Error("no feed.xml with a base URL")
	}
}
