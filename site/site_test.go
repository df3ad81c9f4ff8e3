package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/masrl/masrl/internal/corpustest"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/schema"
	"github.com/masrl/masrl/site/outdir"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/masrl/masrl/internal/golden"
)

// today is fixed so that the check's date rules do not age the fixtures.
var today = time.Date(2026, 5, 5, 0, 0, 0, 0, time.UTC)

// corpusFromTxtar writes the files of a txtar archive into a fresh
// directory and returns it.
func corpusFromTxtar(t testing.TB, name string) string {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range a.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func load(t testing.TB, dir string) (*corpus.Corpus, *corpus.Vocabulary) {
	t.Helper()
	c, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	v, err := corpus.DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	return c, v
}

// openCorpus opens the corpus of dir with the data directory dfs (nil:
// the embedded one), checked as of today.
func openCorpus(t testing.TB, dir string, dfs fs.FS) *corpus.Checked {
	t.Helper()
	ck, err := corpus.OpenWith(dir, dfs, data.SurveyProfile, corpus.CheckOptions{Today: today})
	if err != nil {
		t.Fatal(err)
	}
	return ck
}

// reopenCorpus opens dir again after prev, as masrl serve does
// (corpus.Reopen).
func reopenCorpus(t testing.TB, prev *corpus.Checked, dir string) *corpus.Checked {
	t.Helper()
	ck, err := corpus.Reopen(prev, dir, nil, data.SurveyProfile, corpus.CheckOptions{Today: today})
	if err != nil {
		t.Fatal(err)
	}
	return ck
}

// unchecked is c, never checked, with the embedded data: for the tests
// that hold the renderer's own guards to rows the check refuses.
func unchecked(t testing.TB, c *corpus.Corpus) *corpus.Checked {
	t.Helper()
	d, err := corpus.LoadData(nil, data.SurveyProfile, "")
	if err != nil {
		t.Fatal(err)
	}
	return corpus.Unchecked(c, d)
}

// mustLoad builds the site of ck in memory.
func mustLoad(t testing.TB, ck *corpus.Checked, opt Options) *outdir.Files {
	t.Helper()
	opt.Out = ""
	res, err := Build(ck, opt)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return res.Files
}

func page(t testing.TB, fs *outdir.Files, name string) string {
	t.Helper()
	b, ok := fs.Get(name)
	if !ok {
		t.Fatalf("no file %s", name)
	}
	return string(b)
}

func TestTinySite(t *testing.T) {
	dir := corpusFromTxtar(t, "tiny.txtar")
	files := mustLoad(t, openCorpus(t, dir, data.Dir(filepath.Join(dir, "data"))), Options{Config: siteconfig.Config{BaseURL: "https://example.org/awesome/"}})
	c, v := load(t, dir)

	t.Run("every entry, field and value has a page", func(t *testing.T) {
		for _, e := range c.Papers {
			page(t, files, "papers/"+e.Key+"/index.html")
		}
		for _, f := range v.Fields {
			page(t, files, "taxonomy/"+f.Name+"/index.html")
			for i := range f.Values {
				page(t, files, "taxonomy/"+f.Name+"/"+valueSegments(f.Allowed())[i]+"/index.html")
			}
		}
		for _, name := range []string{
			"index.html", "papers/index.html", "taxonomy/index.html", "coverage/index.html",
			"orchestration/index.html", "orchestration/when-to-stop/index.html", "excluded/index.html", "claims/index.html",
			"about/index.html", "method/index.html", "contribute/index.html", "404.html",
			"feed.xml", "sitemap.xml", "robots.txt", "papers.csv", "excluded.csv", "papers.bib",
			"papers.json", "excluded.json", "stats.json", "assets/style.css",
			"coverage/reward_type-credit_granularity/shared-agent/index.html",
		} {
			page(t, files, name)
		}
	})

	t.Run("hostile text stays text", func(t *testing.T) {
		for _, name := range []string{"papers/beta/index.html", "papers/index.html", "index.html", "taxonomy/category/industry/index.html", "excluded/index.html"} {
			p := page(t, files, name)
			if strings.Contains(p, "<script>alert") || strings.Contains(p, "<b>bold</b>") {
				t.Errorf("%s: CSV markup rendered as HTML", name)
			}
		}
		p := page(t, files, "papers/beta/index.html")
		if !strings.Contains(p, "&lt;script&gt;alert(1)&lt;/script&gt; &amp; Friends") {
			t.Errorf("papers/beta: escaped title missing")
		}
		if !strings.Contains(page(t, files, "excluded/index.html"), "A &lt;b&gt;bold&lt;/b&gt; exclusion") {
			t.Errorf("excluded: escaped label missing")
		}
	})

	t.Run("multiple URLs are split", func(t *testing.T) {
		p := page(t, files, "papers/beta/index.html")
		for _, u := range []string{`href="https://example.org/beta"`, `href="https://github.com/example/beta"`} {
			if !strings.Contains(p, u) {
				t.Errorf("papers/beta: missing %s", u)
			}
		}
	})

	t.Run("paper list hooks for search", func(t *testing.T) {
		p := page(t, files, "papers/index.html")
		for _, want := range []string{`id="paper-list"`, `data-key="alpha"`, `data-reward_type="orchestration"`, `data-credit_granularity="NA"`, `data-category="benchmark"`} {
			if !strings.Contains(p, want) {
				t.Errorf("papers: missing %s", want)
			}
		}
		// Groups follow the fixed category order.
		if i, j := strings.Index(p, `id="cat-rl_method"`), strings.Index(p, `id="cat-benchmark"`); i < 0 || j < 0 || i > j {
			t.Errorf("papers: rl_method should come before benchmark")
		}
	})

	t.Run("entry page", func(t *testing.T) {
		p := page(t, files, "papers/alpha/index.html")
		for _, want := range []string{
			"Spot-check audit", "Would tag &lt;team&gt; level", `class="disagree"`, // audit with the disagreement marked
			`href="../../papers/delta/"`,                          // same reward × credit cell
			`href="../../taxonomy/reward_type/shared/"`,           // tags link to their term pages
			`data-download="bib-alpha" data-filename="alpha.bib"`, // bib download
			`href="../../papers.bib"`,
			`data-copy="bib-alpha"`, "@article{alpha2025",
			`href="https://arxiv.org/abs/2508.04652"`,
		} {
			if !strings.Contains(p, want) {
				t.Errorf("papers/alpha: missing %s", want)
			}
		}
		if p := page(t, files, "papers/delta/index.html"); !strings.Contains(p, "no BibTeX entry") {
			t.Errorf("papers/delta: should say it has no BibTeX")
		}
	})

	t.Run("gaps and NA", func(t *testing.T) {
		p := page(t, files, "taxonomy/reward_type/index.html")
		if !strings.Contains(p, `href="../../taxonomy/reward_type/na/"`) {
			t.Errorf("reward_type: NA should link to na/")
		}
		if n := strings.Count(p, `class="gap-mark"`); n != 7 {
			t.Errorf("reward_type: %d values marked as gaps, want 7 (10 values, 3 used)", n)
		}
		if p := page(t, files, "orchestration/when-to-stop/index.html"); !strings.Contains(p, "no entry of the pool trains this sub-decision") {
			t.Errorf("O5 page does not state the gap")
		}
	})

	t.Run("feed dates come from the data", func(t *testing.T) {
		p := page(t, files, "feed.xml")
		for _, want := range []string{"<updated>2025-12-09T00:00:00Z</updated>", "<updated>2025-03-01T00:00:00Z</updated>", "<updated>2023-01-01T00:00:00Z</updated>", "<id>https://example.org/awesome/papers/alpha/</id>"} {
			if !strings.Contains(p, want) {
				t.Errorf("feed: missing %s", want)
			}
		}
		if !strings.Contains(page(t, files, "sitemap.xml"), "<loc>https://example.org/awesome/papers/gamma/</loc>") {
			t.Errorf("sitemap: entry URL not absolute under the base URL")
		}
	})

	t.Run("claims", func(t *testing.T) {
		p := page(t, files, "claims/index.html")
		for _, want := range []string{
			`<li class="status-holds"><strong>2</strong> holds</li>`,
			`<li class="status-acknowledged"><strong>1</strong> acknowledged</li>`,
			`<li class="status-fails"><strong>1</strong> fails</li>`,
			"the fixture&#39;s table &lt;b&gt;says&lt;/b&gt; core", // the reason, escaped
			`<tr id="claim-count-shared" class="status-fails">`,
		} {
			if !strings.Contains(p, want) {
				t.Errorf("claims: missing %s", want)
			}
		}
		if p := page(t, files, "papers/gamma/index.html"); !strings.Contains(p, `href="../../claims/#claim-tags-gamma"`) {
			t.Error("papers/gamma does not link the claim naming it")
		}
		if p := page(t, files, "papers/alpha/index.html"); !strings.Contains(p, `href="../../claims/#claim-count-shared"`) || strings.Contains(p, "claim-set-industry") {
			t.Error("papers/alpha: wrong claims listed")
		}
	})

	t.Run("links", func(t *testing.T) {
		checkLinks(t, files, "/awesome/")
	})
}

// TestGolden compares selected outputs of the tiny corpus with the files
// under testdata/golden; -update rewrites them.
func TestGolden(t *testing.T) {
	dir := corpusFromTxtar(t, "tiny.txtar")
	// The fixture's own claims keep the golden pages independent of the
	// project's claims file, which grows with the survey.
	files := mustLoad(t, openCorpus(t, dir, data.Dir(filepath.Join(dir, "data"))), Options{Config: siteconfig.Config{BaseURL: "https://example.org/awesome/"}})
	outputs := map[string][]byte{}
	for _, name := range []string{
		"index.html", "papers/index.html", "papers/alpha/index.html", "papers/beta/index.html",
		"taxonomy/reward_type/index.html", "taxonomy/reward_type/na/index.html",
		"coverage/index.html", "orchestration/when-to-stop/index.html", "excluded/index.html",
		"claims/index.html", "papers/gamma/index.html", "traces/index.html", "feed.xml", "sitemap.xml", "stats.json",
	} {
		b, _ := files.Get(name)
		outputs[strings.ReplaceAll(name, "/", "__")] = b
	}
	names := make([]string, 0, len(outputs))
	for n := range outputs {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		golden.Check(t, filepath.Join("testdata", "golden", n), outputs[n])
	}
}

func TestDeterministic(t *testing.T) {
	dir := corpustest.Dir(t)
	out := t.TempDir()
	a, b := filepath.Join(out, "a"), filepath.Join(out, "b")
	for _, o := range []string{a, b} {
		if _, err := Build(openCorpus(t, dir, nil), Options{Out: o}); err != nil {
			t.Fatal(err)
		}
	}
	ta, tb := corpustest.ReadTree(t, a), corpustest.ReadTree(t, b)
	if len(ta) == 0 {
		t.Fatal("empty build")
	}
	if !equalTrees(ta, tb) {
		t.Error("two builds of the same corpus differ")
	}
}

func equalTrees(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestAtomic builds a good site twice (so that the next build reuses a
// buffer), then fails a build in two ways (a corpus with an invalid row, a
// broken template) and checks the old site is byte-for-byte what it was,
// nothing but the buffer is left beside it, and the next good build is
// whole.
func TestAtomic(t *testing.T) {
	good := corpusFromTxtar(t, "tiny.txtar")
	parent := t.TempDir()
	out := filepath.Join(parent, "public")
	for range 2 {
		if _, err := Build(openCorpus(t, good, nil), Options{Out: out}); err != nil {
			t.Fatal(err)
		}
	}
	before := corpustest.ReadTree(t, out)

	bad := corpusFromTxtar(t, "tiny.txtar")
	b, _ := os.ReadFile(filepath.Join(bad, "papers.csv"))
	b = bytes.Replace(b, []byte(",rl_method,yes,shared,agent,centralized,"), []byte(",rl_methd,yes,shared,agent,centralised,"), 1)
	b = append(b, []byte("Bad Key,Title,A,B,2025,,V,https://example.org,survey,yes,NA,NA,NA,NA,core,x,yes,\n")...)
	os.WriteFile(filepath.Join(bad, "papers.csv"), b, 0o644)

	_, err := Build(openCorpus(t, bad, nil), Options{Out: out})
	ds, ok := IsCheckError(err)
	if !ok {
		t.Fatalf("invalid corpus: got %v, want a check error", err)
	}
	if n := ds.Count(corpus.Error); n < 3 {
		t.Errorf("check error carries %d errors, want all of them (at least 3): %v", n, ds)
	}
	if !equalTrees(before, corpustest.ReadTree(t, out)) {
		t.Error("a failing build changed the previous site")
	}

	tdir := t.TempDir()
	os.WriteFile(filepath.Join(tdir, "entry.html"), []byte(`{{define "content"}}{{.NoSuchField}}{{end}}`), 0o644)
	_, err = Build(openCorpus(t, good, nil), Options{Templates: TemplateFS(tdir), Out: out})
	if err == nil || !strings.Contains(err.Error(), "NoSuchField") {
		t.Fatalf("bad template: got %v", err)
	}
	if !equalTrees(before, corpustest.ReadTree(t, out)) {
		t.Error("a failing template changed the previous site")
	}
	entries, _ := os.ReadDir(parent)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{".public.masrl-buffer", "public"}; !slices.Equal(names, want) {
		t.Errorf("beside the output: %v, want %v", names, want)
	}
	if _, err := Build(openCorpus(t, good, nil), Options{Out: out}); err != nil {
		t.Fatal(err)
	}
	if !equalTrees(before, corpustest.ReadTree(t, out)) {
		t.Error("the build after the failures differs from the one before")
	}
}

func TestTemplateOverride(t *testing.T) {
	dir := corpusFromTxtar(t, "tiny.txtar")
	tdir := t.TempDir()
	os.WriteFile(filepath.Join(tdir, "404.html"), []byte(`{{define "content"}}<p>custom missing page</p>{{end}}`), 0o644)
	files := mustLoad(t, openCorpus(t, dir, nil), Options{Templates: TemplateFS(tdir)})
	if !strings.Contains(page(t, files, "404.html"), "custom missing page") {
		t.Error("template from the directory was not used")
	}
	if !strings.Contains(page(t, files, "papers/index.html"), `id="paper-list"`) {
		t.Error("embedded templates should fill in the rest")
	}
}

// TestUnsafeInput renders corpora that never passed corpus.Check: keys that
// would escape the output directory are refused, and URLs that are not web
// URLs are shown as text.
func TestUnsafeInput(t *testing.T) {
	header := strings.Join(corpus.PaperColumns(), ",") + "\n"
	for _, key := range []string{"../evil", "a/b", "..", "UPPER", "x.y", ""} {
		c, err := corpus.ParsePapers("papers.csv", []byte(header+key+",T,A,,2025,,V,https://example.org,survey,yes,NA,NA,NA,NA,core,x,yes,\n"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := render(unchecked(t, c), Options{}, outdir.Memory()); err == nil {
			t.Errorf("key %q: rendered, want refusal", key)
		}
	}
	row := "k,T,A,,2025,,V,javascript:alert(1) ; ftp://x.org/a ; https://ok.example/p,survey,yes,NA,NA,NA,NA,core,x,yes,\n"
	c, err := corpus.ParsePapers("papers.csv", []byte(header+row))
	if err != nil {
		t.Fatal(err)
	}
	c.Dir = t.TempDir()
	res, err := Build(unchecked(t, c), Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := page(t, res.Files, "papers/k/index.html")
	if strings.Contains(p, `href="javascript`) || strings.Contains(p, `href="ftp:`) {
		t.Error("a non-web URL became a link")
	}
	if !strings.Contains(p, `<span class="not-a-link">javascript:alert(1)</span>`) || !strings.Contains(p, `href="https://ok.example/p"`) {
		t.Error("URLs not shown as expected")
	}
}

func TestValueSegments(t *testing.T) {
	tests := []struct {
		in, want []string
	}{
		{[]string{"shared", "NA"}, []string{"shared", "na"}},
		{[]string{"Na", "NA"}, []string{"v-4e61", "v-4e41"}},
		{[]string{"..", "a/b", ".", "v-1", "ok_value"}, []string{"v-2e2e", "v-612f62", "v-2e", "v-762d31", "ok_value"}},
		{[]string{"x y", "é"}, []string{"v-782079", "v-c3a9"}},
	}
	for _, tt := range tests {
		got := valueSegments(tt.in)
		if !slices.Equal(got, tt.want) {
			t.Errorf("valueSegments(%q) = %q, want %q", tt.in, got, tt.want)
		}
		for _, s := range got {
			if outdir.CheckPath("taxonomy/f/"+s+"/index.html") != nil {
				t.Errorf("segment %q escapes", s)
			}
		}
	}
}

func TestHeadingIDs(t *testing.T) {
	md := newMarkdown()
	out, err := renderMarkdown(md, []byte("# Über uns\n\n## Tagging\n\n## Tagging\n\n## 日本語\n\n## !!!\n\n<script>x</script>\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`id="über-uns"`, `id="tagging"`, `id="tagging-2"`, `id="日本語"`, `id="section"`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("missing %s in %s", want, out)
		}
	}
	if strings.Contains(string(out), "<script>") {
		t.Error("raw HTML passed through the markdown renderer")
	}
}

func TestRealCorpus(t *testing.T) {
	dir := corpustest.Dir(t)
	files := mustLoad(t, openCorpus(t, dir, nil), Options{Config: siteconfig.Config{BaseURL: "https://example.org/awesome-llm-mas-rl/"}})
	c, v := load(t, dir)
	if len(c.Papers) != 84 {
		t.Errorf("real corpus has %d entries, want 84", len(c.Papers))
	}
	for _, e := range c.Papers {
		page(t, files, "papers/"+e.Key+"/index.html")
	}
	pages := 0
	for _, f := range v.Fields {
		page(t, files, "taxonomy/"+f.Name+"/index.html")
		for _, s := range valueSegments(f.Allowed()) {
			page(t, files, "taxonomy/"+f.Name+"/"+s+"/index.html")
			pages++
		}
	}
	if pages < 50 {
		t.Errorf("only %d value pages", pages)
	}
	checkLinks(t, files, "/awesome-llm-mas-rl/")
	checkReach(t, files, c, 3)

	// The claims audit lists every claim, and entries link to the claims
	// that name them (the link checker has resolved the anchors).
	claims, err := corpus.LoadClaims(v)
	if err != nil {
		t.Fatal(err)
	}
	results := corpus.VerifyClaims(c, v, claims)
	cp := page(t, files, "claims/index.html")
	if n := strings.Count(cp, `<tr id="claim-`); n != len(results) || n == 0 {
		t.Errorf("claims page has %d claim rows, want %d", n, len(results))
	}
	for _, res := range results {
		// html/template escapes more than HTMLEscapeString ("+" too):
		// compare the text the page shows.
		if res.Status == corpus.Acknowledged && !strings.Contains(html.UnescapeString(cp), res.Reason) {
			t.Errorf("claims page lacks the reason of acknowledged claim %s", res.ID)
		}
	}
	// The errata section lists every acknowledged deviation once, with
	// its line, linked to its claim's row.
	_, errata, ok := strings.Cut(cp, `<h2 id="errata">Where the survey and its CSV disagree</h2>`)
	if !ok {
		t.Fatal("claims page has no errata section")
	}
	errata, _, _ = strings.Cut(errata, "</section>")
	want := corpus.Errata(results)
	if n := strings.Count(errata, "<tr><td>"); n != len(want) || n < 30 {
		t.Errorf("errata section has %d rows, want %d (at least 30 on the real corpus)", n, len(want))
	}
	for _, e := range want {
		// Each row names its line and the part of the survey it is in.
		if !strings.Contains(errata, fmt.Sprintf(`<tr><td>%d<br><a class="part" href="#part-`, e.Line)) || !strings.Contains(errata, `(<a href="#claim-`) {
			t.Errorf("errata section lacks %s at line %d", e.ID, e.Line)
		}
	}
	if p := page(t, files, "papers/halo/index.html"); !strings.Contains(p, `href="../../claims/#claim-table16-halo"`) {
		t.Error("papers/halo does not link its Table 16 claim")
	}
}

var (
	attrPattern = regexp.MustCompile(`<(a|link|script|img|iframe|source|video|audio)\b([^>]*)>`)
	hrefPattern = regexp.MustCompile(`\b(href|src)="([^"]*)"`)
	relPattern  = regexp.MustCompile(`\brel="([^"]*)"`)
	idPattern   = regexp.MustCompile(`\bid="([^"]*)"`)
)

// pageLinks returns the internal link targets of an HTML page as file
// names, with their fragments; external asset references are errors.
func pageLinks(name, body, basePath string) (targets [][2]string, errs []string) {
	for _, m := range attrPattern.FindAllStringSubmatch(body, -1) {
		tag, attrs := m[1], m[2]
		rel := ""
		if r := relPattern.FindStringSubmatch(attrs); r != nil {
			rel = r[1]
		}
		for _, h := range hrefPattern.FindAllStringSubmatch(attrs, -1) {
			ref := strings.ReplaceAll(h[2], "&amp;", "&")
			external := strings.Contains(ref, "://") || strings.HasPrefix(ref, "//")
			if external {
				asset := h[1] == "src" || (tag == "link" && rel != "canonical" && rel != "alternate")
				if asset {
					errs = append(errs, fmt.Sprintf("%s: external asset %s", name, ref))
				}
				continue
			}
			if strings.HasPrefix(ref, "mailto:") {
				continue
			}
			ref, frag, _ := strings.Cut(ref, "#")
			ref, _, _ = strings.Cut(ref, "?") // a query only sets the page's state
			var target string
			switch {
			case ref == "":
				target = name
			case strings.HasPrefix(ref, "/"):
				rest, ok := strings.CutPrefix(ref, basePath)
				if !ok {
					errs = append(errs, fmt.Sprintf("%s: rooted link %s outside the base path %s", name, ref, basePath))
					continue
				}
				target = rest
			default:
				target = path.Join(path.Dir(name), ref)
				if strings.HasSuffix(ref, "/") {
					target += "/"
				}
			}
			if target == "." || target == "./" || target == "" || strings.HasSuffix(target, "/") {
				target = strings.TrimPrefix(strings.TrimSuffix(target, "./")+"index.html", "/")
				if target == ".index.html" {
					target = "index.html"
				}
			}
			if strings.HasPrefix(target, "../") {
				errs = append(errs, fmt.Sprintf("%s: link %s leaves the site", name, h[2]))
				continue
			}
			targets = append(targets, [2]string{target, frag})
		}
	}
	return targets, errs
}

// checkLinks is the site's link checker: every internal href and src of
// every page resolves to a built file (and its fragment to an id there),
// and no page loads anything from another host.
func checkLinks(t *testing.T, files *outdir.Files, basePath string) {
	t.Helper()
	ids := map[string]map[string]bool{}
	idsOf := func(name string) map[string]bool {
		if m, ok := ids[name]; ok {
			return m
		}
		m := map[string]bool{}
		b, _ := files.Get(name)
		for _, id := range idPattern.FindAllStringSubmatch(string(b), -1) {
			m[id[1]] = true
		}
		ids[name] = m
		return m
	}
	checked := 0
	for _, name := range files.Names() {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		b, _ := files.Get(name)
		targets, errs := pageLinks(name, string(b), basePath)
		for _, e := range errs {
			t.Error(e)
		}
		for _, tg := range targets {
			checked++
			if _, ok := files.Get(tg[0]); !ok {
				t.Errorf("%s: broken link to %s", name, tg[0])
				continue
			}
			if tg[1] != "" && strings.HasSuffix(tg[0], ".html") && !idsOf(tg[0])[tg[1]] {
				t.Errorf("%s: link to %s#%s: no such id", name, tg[0], tg[1])
			}
		}
	}
	if checked < 10 {
		t.Errorf("link checker followed only %d links", checked)
	}
}

// checkReach walks links breadth-first from index.html and checks every
// entry page is at most maxClicks clicks from it.
func checkReach(t *testing.T, files *outdir.Files, c *corpus.Corpus, maxClicks int) {
	t.Helper()
	depth := map[string]int{"index.html": 0}
	queue := []string{"index.html"}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if depth[cur] >= maxClicks || !strings.HasSuffix(cur, ".html") {
			continue
		}
		b, _ := files.Get(cur)
		targets, _ := pageLinks(cur, string(b), "/")
		for _, tg := range targets {
			if _, seen := depth[tg[0]]; !seen {
				depth[tg[0]] = depth[cur] + 1
				queue = append(queue, tg[0])
			}
		}
	}
	for _, e := range c.Papers {
		d, ok := depth["papers/"+e.Key+"/index.html"]
		if !ok {
			t.Errorf("papers/%s/ is not reachable from the home page in %d clicks", e.Key, maxClicks)
		} else if d > maxClicks {
			t.Errorf("papers/%s/ is %d clicks away", e.Key, d)
		}
	}
}

func TestLinkCheckerCatchesProblems(t *testing.T) {
	fs := outdir.Memory()
	fs.Add("index.html", []byte(`<a href="papers/">x</a><a href="missing/">y</a><script src="https://cdn.example/x.js"></script><link rel="stylesheet" href="https://fonts.example/f.css"><a href="#nope">z</a>`))
	fs.Add("papers/index.html", []byte(`<h1 id="top">p</h1><a href="../index.html#top">back</a>`))
	_, errs := pageLinks("index.html", page(t, fs, "index.html"), "/")
	if len(errs) != 2 {
		t.Errorf("external assets: got %v, want 2 errors", errs)
	}
	targets, _ := pageLinks("index.html", page(t, fs, "index.html"), "/")
	var missing int
	for _, tg := range targets {
		if _, ok := fs.Get(tg[0]); !ok {
			missing++
		}
	}
	if missing != 1 {
		t.Errorf("got %d broken links, want 1 (missing/)", missing)
	}
}

// TestChartsHook checks the layout loads the chart scripts only for pages
// that say they draw charts.
func TestChartsHook(t *testing.T) {
	dir := corpusFromTxtar(t, "tiny.txtar")
	files := outdir.Memory()
	r, err := render(openCorpus(t, dir, nil), Options{}, files)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(page(t, files, "index.html"), "echarts") {
		t.Error("a page without charts loads echarts")
	}
	p := r.newPage("coverage/", "Coverage", "coverage")
	p.Charts = true
	r.frame("coverage", &p)
	var buf bytes.Buffer
	if err := r.tmpl["coverage"].ExecuteTemplate(&buf, "layout", &coveragePage{Page: p, View: r.coverageViews[0]}); err != nil {
		t.Fatal(err)
	}
	if want := `<script src="../assets/charts.js" defer></script>`; !strings.Contains(buf.String(), want) {
		t.Errorf("missing %s", want)
	}
	if strings.Contains(buf.String(), `src="../assets/echarts.min.js"`) {
		t.Error("the layout loads echarts.min.js itself: charts.js loads it when a chart comes near")
	}
}

// TestNoBib builds a corpus without papers.bib (a warning, not an error):
// no page may link a bib file that was not written.
func TestNoBib(t *testing.T) {
	dir := corpusFromTxtar(t, "tiny.txtar")
	os.Remove(filepath.Join(dir, "papers.bib"))
	res, err := Build(openCorpus(t, dir, nil), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) == 0 {
		t.Error("a missing papers.bib should be a warning")
	}
	if _, ok := res.Files.Get("papers.bib"); ok {
		t.Error("papers.bib published without a source")
	}
	checkLinks(t, res.Files, "/")
}

// TestDataOverride lays a directory over the embedded data: an edited prose
// page shows, and an edited vocabulary changes what the check accepts.
func TestDataOverride(t *testing.T) {
	dir := corpusFromTxtar(t, "tiny.txtar")
	ddir := t.TempDir()
	os.MkdirAll(filepath.Join(ddir, "pages"), 0o755)
	os.WriteFile(filepath.Join(ddir, "pages", "about.md"), []byte("# About this fork\n\nEdited *locally*.\n"), 0o644)
	files := mustLoad(t, openCorpus(t, dir, data.Dir(ddir)), Options{})
	if p := page(t, files, "about/index.html"); !strings.Contains(p, "<h1 id=\"about-this-fork\">About this fork</h1>") || !strings.Contains(p, "<em>locally</em>") {
		t.Error("about page does not come from the data directory")
	}
	if p := page(t, files, "method/index.html"); !strings.Contains(p, "Method") {
		t.Error("pages the directory lacks should come from the embedded data")
	}

	vocab, err := fs.ReadFile(data.Dir(ddir), "vocab.yaml")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(ddir, "vocab.yaml"), bytes.Replace(vocab, []byte("- value: shared\n"), []byte("- value: team-shared\n"), 1), 0o644)
	// The survey's claims name shared too: a fork that renames a value
	// rewrites its claims.
	os.WriteFile(filepath.Join(ddir, "claims.yaml"), []byte("claims: []\n"), 0o644)
	_, err = Build(openCorpus(t, dir, data.Dir(ddir)), Options{})
	if ds, ok := IsCheckError(err); !ok || !strings.Contains(ds[0].Detail(), `"shared"`) {
		t.Errorf("edited vocabulary: got %v, want the check to reject shared", err)
	}
}

func TestBuildRefusesDangerousOut(t *testing.T) {
	dir := corpusFromTxtar(t, "tiny.txtar")
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "notes.txt"), []byte("keep me"), 0o644)
	for _, out := range []string{dir, filepath.Dir(dir), other, "/", "."} {
		if _, err := Build(openCorpus(t, dir, nil), Options{Out: out}); err == nil || !strings.Contains(err.Error(), "refusing") {
			t.Errorf("Build into %s: %v, want a refusal", out, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(other, "notes.txt")); string(b) != "keep me" {
		t.Error("a refused build touched the directory")
	}
	if _, err := os.Stat(filepath.Join(dir, "papers.csv")); err != nil {
		t.Error("the corpus was touched")
	}
	fresh := filepath.Join(t.TempDir(), "a", "public")
	for range 2 { // a new directory, then the previous build
		if _, err := Build(openCorpus(t, dir, nil), Options{Out: fresh}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestScaleBounds builds generated corpora of 100 and 300 entries, whose
// reward × credit cells hold a quarter of the entries each, and checks
// that nothing on a page that exists once per entry grows with the corpus:
// the cell neighbours, the claims' key lists, the claims page's entry
// lists and the feed are capped, and the entry pages' total size grows
// linearly.
func TestScaleBounds(t *testing.T) {
	entryPagesSize := func(files *outdir.Files) int {
		n := 0
		for _, name := range files.Names() {
			if strings.HasPrefix(name, "papers/") && strings.Count(name, "/") == 2 && strings.HasSuffix(name, "/index.html") {
				b, _ := files.Get(name)
				n += len(b)
			}
		}
		return n
	}
	// The generated corpora are not the survey's: the project's claims
	// count them whole, without the survey's pool.
	noPool := claimsWithoutPool(t)
	small := mustLoad(t, openCorpus(t, generatedCorpus(t, 100), noPool), Options{})
	files := mustLoad(t, openCorpus(t, generatedCorpus(t, 300), noPool), Options{Config: siteconfig.Config{BaseURL: "https://example.org/"}})

	p := page(t, files, "papers/alpha-0/index.html")
	_, cell, ok := strings.Cut(p, `<h2 id="cell-h">`)
	if !ok {
		t.Fatal("papers/alpha-0: no cell section")
	}
	cell, _, _ = strings.Cut(cell, "</section>")
	if n := strings.Count(cell, `<li><a href="../../papers/`); n != sameCellLimit {
		t.Errorf("papers/alpha-0 lists %d cell neighbours, want %d", n, sameCellLimit)
	}
	if !strings.Contains(cell, `more: <a href="../../coverage/reward_type-credit_granularity/shared-agent/">all 150 entries in this cell</a>`) {
		t.Errorf("papers/alpha-0 does not link the whole cell:\n%s", cell)
	}
	// beta rows are verified=partial, a set claim of the project's claims
	// file: its 75 keys are cut on the entry page.
	if p := page(t, files, "papers/beta-1/index.html"); !strings.Contains(p, "(75 in all)") {
		t.Error("papers/beta-1: the set claim's key list is not cut")
	}

	claims := page(t, files, "claims/index.html")
	for _, list := range strings.Split(claims, `<ul class="claim-entries">`)[1:] {
		list, _, _ = strings.Cut(list, "</ul>")
		if n := strings.Count(list, "<li"); n > claimEntryLimit+1 {
			t.Errorf("a claim lists %d entries, want at most %d and a link", n, claimEntryLimit+1)
		}
	}
	if !strings.Contains(claims, `<li class="more"><a href="../taxonomy/verified/partial/">and 55 more</a></li>`) {
		t.Error("claims: the verified=partial set claim does not link its term page for the rest")
	}

	if n := strings.Count(page(t, files, "feed.xml"), "<entry>"); n != feedLimit {
		t.Errorf("feed has %d entries, want %d", n, feedLimit)
	}

	if a, b := entryPagesSize(small), entryPagesSize(files); float64(b) > 3.3*float64(a) {
		t.Errorf("entry pages: %d bytes at 100 entries, %d at 300: more than linear", a, b)
	}
}

// TestWriteJSONArray checks that papers.json, written one entry at a time,
// is byte for byte what json.MarshalIndent writes.
func TestWriteJSONArray(t *testing.T) {
	c, _ := load(t, corpusFromTxtar(t, "tiny.txtar"))
	for _, papers := range [][]*corpus.Entry{c.Papers, c.Papers[:1], {}} {
		want, err := json.MarshalIndent(papers, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, '\n')
		var got bytes.Buffer
		err = writeJSONArray(&got, len(papers), func(i int) ([]byte, error) { return json.MarshalIndent(&papers[i], "  ", "  ") })
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%d entries: got\n%s\nwant\n%s", len(papers), got.Bytes(), want)
		}
	}
}

// claimsWithoutPool is the embedded data directory with a claims file that
// names no pool, so its claims count every entry of a corpus.
func claimsWithoutPool(t *testing.T) fs.FS {
	t.Helper()
	b, err := fs.ReadFile(data.FS, "claims.yaml")
	if err != nil {
		t.Fatal(err)
	}
	top := fstest.MapFS{"claims.yaml": {Data: []byte(strings.Replace(string(b), "\npool: ", "\n# pool: ", 1))}}
	return data.Overlay(top, data.FS)
}

// TestSchemasPublished: the site carries every schema of schema/ under
// schema/, byte for byte, at the path its $id names.
func TestSchemasPublished(t *testing.T) {
	files := mustLoad(t, openCorpus(t, corpusFromTxtar(t, "tiny.txtar"), nil), Options{})
	names, err := fs.Glob(schema.FS(), "*.json")
	if err != nil || len(names) < 3 {
		t.Fatalf("schemas %v, %v", names, err)
	}
	for _, name := range names {
		want, _ := fs.ReadFile(schema.FS(), name)
		got, ok := files.Get("schema/" + name)
		if !ok || !bytes.Equal(got, want) {
			t.Errorf("schema/%s: published %v, not the embedded schema", name, ok)
		}
		if !bytes.Contains(want, []byte(`"$id": "https://masrl.dev/schema/`+name+`"`)) {
			t.Errorf("%s: its $id is not its published path", name)
		}
	}
}

// TestExclusionJSONIsMarshalIndent holds excluded.json, whose rows
// exclusionJSON writes itself, to what json.MarshalIndent writes of the
// exclusion log: the same bytes for the real corpus's log, for rows with
// each character json.Marshal escapes, and for an empty log.
func TestExclusionJSONIsMarshalIndent(t *testing.T) {
	ck := openCorpus(t, corpustest.Dir(t), nil)
	rows := slices.Clone(ck.Corpus.Excluded)
	if len(rows) == 0 {
		t.Fatal("the real corpus has no exclusion log")
	}
	for i, c := range []string{"<", ">", "&", `"`, `\`, "\n", "\x00", "\x7f", "é", "\u2028", "\xff"} {
		x := rows[0]
		x.RecordID, x.ExclusionReason, x.URL, x.Line = "r"+c, "a"+c+"b", "https://x/?"+c, -i
		rows = append(rows, x)
	}
	for _, xs := range [][]corpus.Exclusion{rows, {}} {
		want, err := json.MarshalIndent(xs, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, '\n')
		var got bytes.Buffer
		if err := writeJSONArray(&got, len(xs), func(i int) ([]byte, error) { return exclusionJSON(&xs[i]), nil }); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("excluded.json of %d rows\n%s\nwant (json.MarshalIndent)\n%s", len(xs), got.Bytes(), want)
		}
	}
}

// TestPaperJSONIsMarshalIndent holds paperJSON, which writes the
// indented row itself, to what json.MarshalIndent writes for the row:
// the same bytes for every entry of the real corpus and for values with
// the characters json.Marshal escapes (<, >, &, U+2028, quotes, control
// characters, invalid UTF-8) in a free-text field and in a URL, for no
// URLs and an empty list of them; and, with the survey's mentions, to
// Entry.MarshalJSON's row with the survey's JSON added, indented.
func TestPaperJSONIsMarshalIndent(t *testing.T) {
	ck := openCorpus(t, corpustest.Dir(t), nil)
	r := &renderer{}
	papers := ck.Corpus.Papers
	tricky := *papers[0]
	tricky.Title = "a <b> & \"c\"\u2028\u2029 \x01 \\ é \b\f\x7f \xff\xfe"
	tricky.Notes = "</script><!-- \t"
	tricky.URLs = append([]string{"https://example.org/?a=1&b=<2>"}, tricky.URLs...)
	noURLs, emptyURLs := *papers[1], *papers[1]
	noURLs.URLs, emptyURLs.URLs = nil, []string{}
	// One character each, so that every escape is met on its own.
	one := []corpus.Entry{tricky, noURLs, emptyURLs}
	for _, c := range []string{"<", ">", "&", `"`, `\`, "\n", "\x00", "\x1f", "\x7f", "é", "\u2028", "\xff"} {
		e := *papers[0]
		e.Title = "a" + c + "b"
		one = append(one, e)
	}
	all := slices.Clone(papers)
	for i := range one {
		all = append(all, &one[i])
	}
	for _, e := range all {
		want, err := json.MarshalIndent(e, "  ", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.paperJSON(e)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: paperJSON\n%s\nwant (json.MarshalIndent)\n%s", e.Key, got, want)
		}
	}
	r.surveyOf = map[string]*EntrySurvey{
		papers[0].Key: {Reference: 3, ReferenceLine: 12, Mentions: []MentionView{{In: "intro <a>", Line: 4, Printed: "[3]"}, {In: "s2", Line: 9}}},
		papers[1].Key: {Mentions: []MentionView{}},
	}
	for _, e := range papers[:2] {
		row, err := e.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		sv, err := json.Marshal(r.surveyOf[e.Key])
		if err != nil {
			t.Fatal(err)
		}
		row = append(append(append(row[:len(row)-1], `,"survey":`...), sv...), '}')
		var want bytes.Buffer
		if err := json.Indent(&want, row, "  ", "  "); err != nil {
			t.Fatal(err)
		}
		got, err := r.paperJSON(e)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%s: paperJSON with the survey\n%s\nwant\n%s", e.Key, got, want.Bytes())
		}
	}
}
