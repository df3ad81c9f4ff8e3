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

// TestReleasePages: two releases of a list give a page each, the second
// listing what masrl diff finds between them, an index, feed items and
// the home page's "version N, changes since N-1" with the upkeep dates.
func TestReleasePages(t *testing.T) {
	header := strings.Join(corpus.PaperColumns(), ",") + "\n"
	row := func(key, title, venue string) string {
		return key + "," + title + ",A,,2025,," + venue + ",https://ok.example/" + key + ",survey,yes,NA,NA,NA,NA,core,x,yes,\n"
	}
	dir := t.TempDir()
	write := func(s string) {
		if err := os.WriteFile(filepath.Join(dir, "papers.csv"), []byte(header+s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(row("kept", "Kept Paper", "arXiv") + row("gone", "Gone Paper", "V"))
	if _, err := release.Snapshot(dir, "v1", "2026-06-01"); err != nil {
		t.Fatal(err)
	}
	write(row("kept", "Kept Paper", "NeurIPS") + row("fresh", "Fresh <Paper>", "V"))
	if _, err := release.Snapshot(dir, "v2", "2026-07-01"); err != nil {
		t.Fatal(err)
	}
	if err := release.RecordUpkeep(dir, func(u *release.Upkeep) { u.Refreshed = "2026-07-02" }); err != nil {
		t.Fatal(err)
	}
	c, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	history, err := release.ReadHistory(dir)
	if err != nil {
		t.Fatal(err)
	}
	// The site reads the releases from Options.History only, never from
	// the corpus directory: with the folder gone the pages are the same.
	if err := os.Rename(filepath.Join(dir, release.Dir), filepath.Join(t.TempDir(), "moved")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, release.UpkeepFile)); err != nil {
		t.Fatal(err)
	}
	files := mustLoad(t, unchecked(t, c), Options{Config: siteconfig.Config{BaseURL: "https://example.org/l/"}, History: history})
	v2 := page(t, files, "releases/v2/index.html")
	for _, want := range []string{
		"<h1>Version v2: changes since v1</h1>",
		"1 added, 1 removed, 1 changed since v1.",
		`<a href="../../papers/fresh/"><bdi>Fresh &lt;Paper&gt;</bdi></a> (<code>fresh</code>)`,
		`<bdi>Gone Paper</bdi> (<code>gone</code>)`,
		`<tr><th scope="row"><code>venue</code></th><td>arXiv</td><td>NeurIPS</td></tr>`,
		`<a href="../../releases/v1/">version v1</a>`,
		// The added and removed lists, written by one block, in this order.
		"<section aria-labelledby=\"added\">\n<h2 id=\"added\">Added</h2>\n<ul>\n<li><a href=\"../../papers/fresh/\"><bdi>Fresh &lt;Paper&gt;</bdi></a> (<code>fresh</code>)</li>\n</ul>\n</section>\n" +
			"<section aria-labelledby=\"removed\">\n<h2 id=\"removed\">Removed</h2>\n<ul>\n<li><bdi>Gone Paper</bdi> (<code>gone</code>)</li>\n</ul>\n</section>\n<section aria-labelledby=\"changed\">",
	} {
		if !strings.Contains(v2, want) {
			t.Errorf("releases/v2 lacks %s:\n%s", want, v2)
		}
	}
	if strings.Contains(v2, `href="../../papers/gone/"`) {
		t.Error("a removed entry links to a page the site does not have")
	}
	if v1 := page(t, files, "releases/v1/index.html"); !strings.Contains(v1, "The first release.") {
		t.Errorf("releases/v1:\n%s", v1)
	}
	idx := page(t, files, "releases/index.html")
	if i, j := strings.Index(idx, "Version v2"), strings.Index(idx, "Version v1"); i < 0 || j < i {
		t.Errorf("release index not newest first:\n%s", idx)
	}
	home := page(t, files, "index.html")
	for _, want := range []string{
		`<a href="releases/v2/">Version v2 (2026-07-01), changes since v1</a>; <a href="releases/">all releases</a>`,
		"last refreshed on 2026-07-02",
	} {
		if !strings.Contains(home, want) {
			t.Errorf("home page lacks %s", want)
		}
	}
	if strings.Contains(home, "Links last checked") {
		t.Error("home page shows a link check that upkeep.yaml does not record")
	}
	feed := page(t, files, "feed.xml")
	for _, want := range []string{
		"<id>https://example.org/l/releases/v2/</id>", "<updated>2026-07-01T00:00:00Z</updated>",
		"<summary>1 added, 1 removed, 1 changed since v1.</summary>", "<id>https://example.org/l/releases/v1/</id>",
	} {
		if !strings.Contains(feed, want) {
			t.Errorf("feed lacks %s", want)
		}
	}
	if !strings.Contains(page(t, files, "sitemap.xml"), "releases/v2/") {
		t.Error("release page not in the sitemap")
	}

}
