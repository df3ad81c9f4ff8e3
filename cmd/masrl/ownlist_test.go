package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// gnnxList is the example list of testdata/lists/gnnx: explainers of
// graph neural networks, with three controlled fields of its own declared
// in its vocab.yaml, columns in another order than the survey's, a
// free-text column (datasets) and no exclusion log. It has no profile, so
// nothing of the survey's applies to it.
var gnnxList = filepath.Join("..", "..", "testdata", "lists", "gnnx", "corpus")

// mainContent is the <main> element of a page: what the list's own
// declaration decides, without the navigation and head the survey's
// profile shapes.
func mainContent(t *testing.T, page []byte) []byte {
	t.Helper()
	i, j := bytes.Index(page, []byte("<main")), bytes.Index(page, []byte("</main>"))
	if i < 0 || j < i {
		t.Fatalf("no <main> element in %.200s", page)
	}
	return append(page[i:j+len("</main>")], '\n')
}

// TestDeclaredColumnsList takes a list with its own controlled fields through check,
// stats, build and readme --standalone: every command follows the list's
// vocab.yaml, and the outputs are pinned by golden files.
func TestDeclaredColumnsList(t *testing.T) {
	out, errOut, code := runCmd(t, "check", "--corpus", gnnxList)
	if code != exitOK {
		t.Fatalf("check: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "8 entries: 0 errors, 0 warnings") {
		t.Errorf("check: %s", out)
	}

	out, errOut, code = runCmd(t, "stats", "--corpus", gnnxList, "--crosstab", "access,method_family")
	if code != exitOK {
		t.Fatalf("stats: exit %d: %s", code, errOut)
	}
	checkGolden(t, "list-gnnx-stats.md", []byte(out))

	out, errOut, code = runCmd(t, "readme", "--standalone", "--corpus", gnnxList)
	if code != exitOK {
		t.Fatalf("readme --standalone: exit %d: %s", code, errOut)
	}
	checkGolden(t, "list-gnnx-readme.md", []byte(out))

	pub := t.TempDir()
	_, errOut, code = runCmd(t, "build", "--corpus", gnnxList, "--out", pub)
	if code != exitOK {
		t.Fatalf("build: exit %d: %s", code, errOut)
	}
	for _, p := range []struct{ file, golden string }{
		{"papers/index.html", "list-gnnx-papers.html"},
		{"papers/gradcam-graphs/index.html", "list-gnnx-entry.html"},
		{"taxonomy/method_family/index.html", "list-gnnx-field.html"},
		{"taxonomy/method_family/perturbation/index.html", "list-gnnx-term.html"},
		{"coverage/index.html", "list-gnnx-coverage.html"},
	} {
		b, err := os.ReadFile(filepath.Join(pub, p.file))
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, p.golden, mainContent(t, b))
	}
	for _, p := range []struct{ file, golden string }{
		{"search-index.json", "list-gnnx-search-index.json"},
		{"schema/paper.schema.json", "list-gnnx-paper.schema.json"},
		{"papers.json", "list-gnnx-papers.json"},
	} {
		b, err := os.ReadFile(filepath.Join(pub, p.file))
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, p.golden, b)
	}
	// One page per field and value, whatever the goldens hold.
	for _, dir := range []string{"method_family/prototype", "explanation_level/model", "access/black_box", "access/white_box"} {
		if _, err := os.Stat(filepath.Join(pub, "taxonomy", dir, "index.html")); err != nil {
			t.Errorf("no page for %s: %v", dir, err)
		}
	}
	// Without an exclusion log there is no exclusion page, and no page
	// links to one.
	if _, err := os.Stat(filepath.Join(pub, "excluded", "index.html")); err == nil {
		t.Error("an exclusion page for a list without excluded.csv")
	}
	checkLocalLinks(t, pub)
}

var localHref = regexp.MustCompile(`href="([^"#?]*)[^"]*"`)

// checkLocalLinks fails on a relative link of an HTML page of the site in
// dir that leads to no file.
func checkLocalLinks(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".html") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range localHref.FindAllSubmatch(b, -1) {
			link := string(m[1])
			if link == "" || strings.Contains(link, ":") || strings.HasPrefix(link, "/") {
				continue
			}
			target := filepath.Join(filepath.Dir(path), filepath.FromSlash(link))
			if strings.HasSuffix(link, "/") {
				target = filepath.Join(target, "index.html")
			}
			if _, err := os.Stat(target); err != nil {
				rel, _ := filepath.Rel(dir, path)
				t.Errorf("%s links %s, which is not in the site", rel, link)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestOwnListClaimsNothingUnasked: a list of one's own without the survey
// profile claims no licence and has no traces page unless its masrl.yaml
// asks, and its pages speak of entries, not of retained entries or an
// exclusion log it does not have. Every file of the site is read,
// stats.json (whose keys count entries) and the schemas included.
func TestOwnListClaimsNothingUnasked(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "corpus")
	if err := os.CopyFS(dir, os.DirFS(gnnxList)); err != nil {
		t.Fatal(err)
	}
	pub := buildOwn(t, dir)
	words := regexp.MustCompile(`(?i)CC0|retained|exclusion|screening|audit|Data: `)
	err := filepath.WalkDir(pub, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(pub, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if m := words.Find(b); m != nil {
			t.Errorf("%s says %q, which the list never said", rel, m)
		}
		if strings.HasSuffix(rel, ".html") && strings.Contains(string(b), `traces/"`) {
			t.Errorf("%s links a traces page the list did not ask for", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{"traces/index.html", "excluded.json", "excluded.csv", "schema/trace.schema.json", "schema/partial.schema.json"} {
		if _, err := os.Stat(filepath.Join(pub, gone)); err == nil {
			t.Errorf("the site has %s, which the list did not ask for", gone)
		}
	}

	// Asked for: the licence in every page's footer, the traces page in the
	// navigation and on the home page.
	cfg, err := os.ReadFile(filepath.Join(dir, "masrl.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "masrl.yaml"), append(cfg, "license: CC-BY-4.0\ntraces: true\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	pub = buildOwn(t, dir)
	for _, page := range []string{"index.html", "papers/index.html", "taxonomy/index.html", "traces/index.html"} {
		b, err := os.ReadFile(filepath.Join(pub, page))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "Data: CC-BY-4.0.") {
			t.Errorf("%s: the footer does not name the list's licence", page)
		}
		if !regexp.MustCompile(`traces/"( aria-current="page")?>Traces</a>`).Match(b) {
			t.Errorf("%s: the navigation has no Traces item", page)
		}
	}
	for _, s := range []string{"schema/trace.schema.json", "schema/partial.schema.json"} {
		if _, err := os.Stat(filepath.Join(pub, s)); err != nil {
			t.Errorf("traces: true publishes no %s: %v", s, err)
		}
	}
	home, _ := os.ReadFile(filepath.Join(pub, "index.html"))
	if !strings.Contains(string(home), `<h2 id="traces-h">`) {
		t.Error("home page: no traces section with traces: true")
	}
}

// TestOwnListHomeIntro: a list's home page says what its masrl.yaml's
// description says and shows its intro.md, rendered from Markdown with
// raw HTML left out, so a pull request's intro cannot inject markup.
func TestOwnListHomeIntro(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "corpus")
	if err := os.CopyFS(dir, os.DirFS(gnnxList)); err != nil {
		t.Fatal(err)
	}
	intro := "## Why this list\n\nExplainers of **graph** networks, <script>alert(1)</script> kept [up to date](https://example.org/).\n"
	if err := os.WriteFile(filepath.Join(dir, "intro.md"), []byte(intro), 0o644); err != nil {
		t.Fatal(err)
	}
	home, err := os.ReadFile(filepath.Join(buildOwn(t, dir), "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<p class="lede">Methods that explain the predictions of graph neural networks, an example list for masrl&#39;s tests. Each paper is tagged`,
		`<h2 id="intro-why-this-list">Why this list</h2>`,
		`Explainers of <strong>graph</strong> networks`,
		`<a href="https://example.org/">up to date</a>`,
	} {
		if !strings.Contains(string(home), want) {
			t.Errorf("home page lacks %s", want)
		}
	}
	if strings.Contains(string(home), "<script>alert") {
		t.Error("intro.md's raw HTML reached the home page")
	}
}

// TestOwnListDiffCountsEntries: masrl diff of a list without an exclusion
// log (which masrl add prints after adding a row) counts its entries, and
// says nothing of retained or audited records.
func TestOwnListDiffCountsEntries(t *testing.T) {
	old := filepath.Join(t.TempDir(), "corpus")
	if err := os.CopyFS(old, os.DirFS(gnnxList)); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(old, "papers.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	if err := os.WriteFile(filepath.Join(old, "papers.csv"), []byte(strings.Join(lines[:len(lines)-1], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCmd(t, "diff", old, gnnxList)
	if code != exitOK {
		t.Fatalf("diff: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "| totals | entries | 7 → 8 |") {
		t.Errorf("the diff does not count entries:\n%s", out)
	}
	if m := regexp.MustCompile(`(?i)retained|audited|exclu|claim`).FindString(out); m != "" {
		t.Errorf("the diff says %q, which the list never said:\n%s", m, out)
	}
}
