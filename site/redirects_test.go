package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/release"
	"github.com/masrl/masrl/corpus/siteconfig"
)

// TestRenamedKeysRedirect: an entry whose key changed since a history
// snapshot keeps a page at its old address that forwards to the new one;
// a removed entry and an unchanged key leave nothing; redirects are not in
// the sitemap.
func TestRenamedKeysRedirect(t *testing.T) {
	header := strings.Join(corpus.PaperColumns(), ",") + "\n"
	now := header +
		"teams,Teams That Learn,A,,2025,2605.00001,V,https://arxiv.org/abs/2605.00001,survey,yes,NA,NA,NA,NA,core,x,yes,\n" +
		"same,Same Key,A,,2025,,V,https://ok.example/s,survey,yes,NA,NA,NA,NA,core,x,yes,\n" +
		"retitled,Debate at Scale,A,,2025,,V,https://ok.example/d,survey,yes,NA,NA,NA,NA,core,x,yes,\n"
	old := header +
		"tlearn,Teams That Learn (v1),A,,2025,2605.00001,V,https://arxiv.org/abs/2605.00001,survey,yes,NA,NA,NA,NA,core,x,yes,\n" +
		"same,Same Key,A,,2025,,V,https://ok.example/s,survey,yes,NA,NA,NA,NA,core,x,yes,\n" +
		"debate,debate at  scale,A,,2025,,V,https://ok.example/d,survey,yes,NA,NA,NA,NA,core,x,yes,\n" +
		"gone,Removed Paper,A,,2025,,V,https://ok.example/g,survey,yes,NA,NA,NA,NA,core,x,yes,\n"
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "history"), 0o755)
	os.WriteFile(filepath.Join(dir, "papers.csv"), []byte(now), 0o644)
	os.WriteFile(filepath.Join(dir, "history", "papers-2026-01-01.csv"), []byte(old), 0o644)
	c, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	snaps, err := release.ReadSnapshots(dir)
	if err != nil {
		t.Fatal(err)
	}
	history := &release.History{Snapshots: snaps}
	files := mustLoad(t, unchecked(t, c), Options{Config: siteconfig.Config{BaseURL: "https://example.org/l/"}, History: history})
	p := page(t, files, "papers/tlearn/index.html")
	for _, want := range []string{
		`<meta http-equiv="refresh" content="0; url=../teams/">`,
		`<link rel="canonical" href="https://example.org/l/papers/teams/">`,
		`<meta name="robots" content="noindex">`,
		`<a href="../teams/">Teams That Learn</a>`,
	} {
		if !strings.Contains(p, want) {
			t.Errorf("redirect page lacks %s:\n%s", want, p)
		}
	}
	if p := page(t, files, "papers/debate/index.html"); !strings.Contains(p, "url=../retitled/") {
		t.Errorf("renamed by title: %s", p)
	}
	for _, name := range []string{"papers/gone/index.html"} {
		if _, ok := files.Get(name); ok {
			t.Errorf("%s written for a removed entry", name)
		}
	}
	if strings.Contains(page(t, files, "sitemap.xml"), "tlearn") {
		t.Error("a redirect is in the sitemap")
	}
}
