package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/masrl/masrl/internal/corpustest"

	"github.com/masrl/masrl/site/outdir"
)

// themeCorpus copies the real corpus' files into a new directory, with
// the extra files given (name -> contents), and returns it.
func themeCorpus(t *testing.T, extra map[string]string) string {
	t.Helper()
	src, dir := corpustest.Dir(t), t.TempDir()
	for _, f := range []string{"papers.csv", "excluded.csv", "papers.bib", "spotcheck.csv"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, s := range extra {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runMasrl runs masrl with args and returns its exit code and stderr.
func runMasrl(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr)
	return code, stderr.String()
}

// buildTree builds the corpus dir with the extra flags and returns the
// site's files by path.
func buildTree(t *testing.T, dir string, flags ...string) map[string]string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "public")
	args := append([]string{"build", "--corpus", dir, "--out", out, "--echarts="}, flags...)
	if code, stderr := runMasrl(t, args...); code != exitOK {
		t.Fatalf("masrl %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	return corpustest.ReadTree(t, out)
}

// changed lists the files that differ between two trees, sorted.
func changed(a, b map[string]string) []string {
	var out []string
	for p, s := range a {
		if b[p] != s {
			out = append(out, p)
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// TestTemplatesExportOverride is issue 35's "done when": templates export,
// then a build with --templates and one changed template differs from the
// plain build by that change alone, and the other exported files can be
// deleted (a subset overrides).
func TestTemplatesExportOverride(t *testing.T) {
	dir := themeCorpus(t, nil)
	theme := filepath.Join(t.TempDir(), "theme")
	if code, stderr := runMasrl(t, "templates", "export", theme); code != exitOK {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	for _, f := range []string{"layout.html", "papers.html", "assets/style.css", "assets/search.js", "README.txt"} {
		if _, err := os.Stat(filepath.Join(theme, f)); err != nil {
			t.Errorf("export: %v", err)
		}
	}
	plain := buildTree(t, dir)
	if d := changed(plain, buildTree(t, dir, "--templates", theme)); len(d) > 0 {
		t.Errorf("the exported templates build another site: %v", d)
	}

	// One changed template, every other one deleted.
	b, err := os.ReadFile(filepath.Join(theme, "papers.html"))
	if err != nil {
		t.Fatal(err)
	}
	mine := strings.Replace(string(b), "<h1>{{.Title}}</h1>", "<h1>{{.Title}}</h1>\n<p>Mine.</p>", 1)
	if mine == string(b) {
		t.Fatal("papers.html has no <h1>{{.Title}}</h1> to change")
	}
	if err := os.RemoveAll(theme); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(theme, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(theme, "papers.html"), []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	themed := buildTree(t, dir, "--templates", theme)
	d := changed(plain, themed)
	if len(d) == 0 {
		t.Fatal("the changed papers.html changed nothing")
	}
	for _, p := range d {
		if p == outdir.MarkName {
			continue // the output's mark sums the whole site, so it follows any change
		}
		if !strings.HasPrefix(p, "papers/index.html") && !strings.HasPrefix(p, "papers/page/") {
			t.Errorf("%s changed; only the papers list should", p)
			continue
		}
		if strings.Replace(themed[p], "\n<p>Mine.</p>", "", 1) != plain[p] {
			t.Errorf("%s changed beyond the one paragraph", p)
		}
	}
}

// TestTemplatesExportRefusesFiles: the export writes into a new or empty
// directory only, and leaves a non-empty one as it was.
func TestTemplatesExportRefusesFiles(t *testing.T) {
	theme := t.TempDir()
	mine := filepath.Join(theme, "papers.html")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stderr := runMasrl(t, "templates", "export", theme)
	if code != exitUsage || !strings.Contains(stderr, theme+": not empty (papers.html, ...); export into a new or empty directory") {
		t.Errorf("exit %d, %s", code, stderr)
	}
	if b, _ := os.ReadFile(mine); string(b) != "mine" {
		t.Errorf("papers.html overwritten: %q", b)
	}
	if ents, _ := os.ReadDir(theme); len(ents) != 1 {
		t.Errorf("export wrote into a non-empty directory: %d files", len(ents))
	}
}

// TestThemeAssetsAndNav: the list's assets folder is published as it is;
// its style sheet and logo appear on every page; the navigation follows
// nav: and has no Traces item where the list has no traces page.
func TestThemeAssetsAndNav(t *testing.T) {
	dir := themeCorpus(t, map[string]string{
		"assets/theme.css":    "body { color: #123; }\n",
		"assets/img/logo.svg": `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>`,
		"assets/icon.png":     "png",
		"masrl.yaml":          "extra_css: theme.css\nlogo: img/logo.svg\nfavicon: icon.png\n",
	})
	site := buildTree(t, dir)
	if site["assets/theme.css"] != "body { color: #123; }\n" || site["assets/img/logo.svg"] == "" {
		t.Errorf("assets not published as they are")
	}
	pages := 0
	for p, s := range site {
		if !strings.HasSuffix(p, ".html") {
			continue
		}
		pages++
		root := strings.Repeat("../", strings.Count(p, "/"))
		if p == "404.html" {
			root = "/"
		} else if root == "" {
			root = "./"
		}
		for _, want := range []string{
			`<link rel="stylesheet" href="` + root + `assets/theme.css">`,
			`<img class="site-logo" src="` + root + `assets/img/logo.svg" alt="" width="40" height="40">`,
			`<link rel="icon" href="` + root + `assets/icon.png" type="image/png">`,
		} {
			if !strings.Contains(s, want) {
				t.Errorf("%s: no %s", p, want)
			}
		}
		if strings.Contains(s, `traces/">Traces</a>`) {
			t.Errorf("%s: a Traces item, but the list has no traces page", p)
		}
	}
	if pages < 100 {
		t.Errorf("only %d pages", pages)
	}

	// nav: picks and orders the items; each page still marks its own.
	if err := os.WriteFile(filepath.Join(dir, "masrl.yaml"), []byte("nav: [papers, home]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	site = buildTree(t, dir)
	if s := site["papers/index.html"]; !strings.Contains(s, "<ul>\n<li><a href=\"../papers/\" aria-current=\"page\">Papers</a></li>\n<li><a href=\"../\">Home</a></li>\n</ul>") {
		t.Errorf("papers/index.html's navigation:\n%s", between(s, `<nav aria-label="Main">`, "</nav>"))
	}

	// A page the list does not have, and a file outside assets/.
	for yaml, msg := range map[string]string{
		"nav: [home, traces]\n":    "masrl.yaml: nav: the list has no traces page; its pages: home, papers, taxonomy, coverage, excluded",
		"extra_css: missing.css\n": "masrl.yaml: extra_css: assets/missing.css: want a file inside the assets folder",
		"logo: ../papers.csv\n":    `logo: "../papers.csv": want a relative path inside the folder`,
	} {
		if err := os.WriteFile(filepath.Join(dir, "masrl.yaml"), []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stderr := runMasrl(t, "build", "--corpus", dir, "--out", filepath.Join(t.TempDir(), "x"), "--echarts=")
		if code == exitOK || !strings.Contains(stderr, msg) {
			t.Errorf("%q: exit %d, %s; want %s", yaml, code, stderr, msg)
		}
	}
}

// TestThemeAssetsLinkOut: an assets folder, or a file in it, that a
// symbolic link leads out of the corpus is refused with its name and
// never published.
func TestThemeAssetsLinkOut(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.MkdirAll(secret, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(secret, "key.txt"), []byte("hunter2"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, link := range map[string]string{"assets": secret, "assets/key.txt": filepath.Join(secret, "key.txt")} {
		dir := themeCorpus(t, nil)
		if name != "assets" {
			os.Mkdir(filepath.Join(dir, "assets"), 0o755)
		}
		if err := os.Symlink(link, filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "public")
		code, stderr := runMasrl(t, "build", "--corpus", dir, "--out", out, "--echarts=")
		if code == exitOK || !strings.Contains(stderr, name+": a symbolic link to "+link+" that leads out of the corpus directory") {
			t.Errorf("%s: exit %d, %s", name, code, stderr)
		}
		if strings.Contains(stderr, "hunter2") {
			t.Errorf("%s: the secret shown", name)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: a site was written", name)
		}
	}
}

// between returns s from the first from to the next to, for messages.
func between(s, from, to string) string {
	i := strings.Index(s, from)
	if i < 0 {
		return ""
	}
	j := strings.Index(s[i:], to)
	if j < 0 {
		return s[i:]
	}
	return s[i : i+j+len(to)]
}

// TestConfigTemplates: templates: in masrl.yaml names a folder beside the
// file, read inside it; a path out of it, or a link out of it, is refused
// with its name, and a subset of templates overrides as with the flag.
func TestConfigTemplates(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "papers.html"), []byte(`{{define "content"}}stolen{{end}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := themeCorpus(t, map[string]string{
		"theme/papers.html": `{{define "content"}}<h1>{{.Title}}</h1><p>From masrl.yaml.</p>{{end}}`,
		"masrl.yaml":        "templates: theme\n",
	})
	if s := buildTree(t, dir)["papers/index.html"]; !strings.Contains(s, "<p>From masrl.yaml.</p>") {
		t.Errorf("templates: theme not applied:\n%s", between(s, "<main", "</main>"))
	}
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	for yaml, msg := range map[string]string{
		"templates: ../theme\n": `templates: "../theme": want a relative path inside the folder`,
		"templates: /etc\n":     `templates: "/etc": want a relative path inside the folder`,
		"templates: out\n":      "out: a symbolic link to " + outside + " that leads out of the corpus directory",
	} {
		if err := os.WriteFile(filepath.Join(dir, "masrl.yaml"), []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stderr := runMasrl(t, "build", "--corpus", dir, "--out", filepath.Join(t.TempDir(), "x"), "--echarts=")
		if code == exitOK || !strings.Contains(stderr, msg) {
			t.Errorf("%q: exit %d, %s; want %s", yaml, code, stderr, msg)
		}
	}
}
