package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/site"
	"github.com/masrl/masrl/trace"

	"github.com/masrl/masrl/internal/corpustest"
)

// installedMasrl returns the command built as go install would
// (builtMasrl).
func installedMasrl(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the masrl binary; skipped with -short")
	}
	return builtMasrl(t)
}

// emptyListDir makes a directory outside the repository holding only a
// copy of the corpus in corpus/ (the default of --corpus) and, when cfg is
// not empty, corpus/masrl.yaml.
func emptyListDir(t *testing.T, cfg string) string {
	t.Helper()
	dir := t.TempDir()
	c := filepath.Join(dir, "corpus")
	if err := os.CopyFS(c, os.DirFS(corpustest.Dir(t))); err != nil {
		t.Fatal(err)
	}
	if cfg != "" {
		if err := os.WriteFile(filepath.Join(c, "masrl.yaml"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runIn runs the binary in dir and returns its stdout and stderr.
func runIn(t *testing.T, dir, bin string, args ...string) (string, string, error) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.String(), errb.String(), err
}

// chartsFlags are the flags the build needs for its chart library while
// the library is not embedded in masrl (site.DefaultECharts is then the
// file npm ci fills, which an empty directory lacks). Once the default is
// the embedded library, this returns nothing and the test requires the
// charts asset.
func chartsFlags() []string {
	if strings.HasPrefix(site.DefaultECharts, "node_modules/") {
		return []string{"--echarts="}
	}
	return nil
}

// TestInstalledBuildsWholeSite: from a directory that holds nothing but the
// corpus, an installed masrl builds the complete site, with the base URL,
// the repository and the survey's profile of corpus/masrl.yaml (the
// embedded claims and orchestration sub-decisions), and no address of a
// local server anywhere.
func TestInstalledBuildsWholeSite(t *testing.T) {
	bin := installedMasrl(t)
	const base = "https://lists.example.org/rl-mas/"
	dir := emptyListDir(t, "title: A list of its own\nbase_url: "+base+"\nrepository:\n  url: https://github.com/someone/list\nprofile: survey\n")
	stdout, stderr, err := runIn(t, dir, bin, append([]string{"build", "--out", "public"}, chartsFlags()...)...)
	if err != nil {
		t.Fatalf("masrl build: %v\n%s", err, stderr)
	}
	if !strings.Contains(stdout, "public: ") || strings.Contains(stderr, "note: no base URL") {
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}
	pub := filepath.Join(dir, "public")

	c, err := corpus.Load(corpustest.Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"index.html", "papers/index.html", "taxonomy/index.html", "orchestration/index.html",
		"coverage/index.html", "excluded/index.html", "claims/index.html", "traces/index.html", "404.html",
		"assets/style.css", "feed.xml", "sitemap.xml", "robots.txt", "papers.csv", "papers.json", "stats.json",
		"downloads/trace.schema.json", "downloads/example-trace.json",
	}
	if len(chartsFlags()) == 0 {
		want = append(want, "assets/echarts.min.js")
	}
	for _, e := range c.Papers {
		want = append(want, "papers/"+e.Key+"/index.html")
	}
	for _, name := range want {
		if _, err := os.Stat(filepath.Join(pub, name)); err != nil {
			t.Errorf("the site lacks %s", name)
		}
	}
	ex, err := os.ReadFile(filepath.Join(pub, "downloads", "example-trace.json"))
	if err != nil || !bytes.Equal(ex, trace.ExampleJSON()) {
		t.Errorf("downloads/example-trace.json is not the embedded example (%v)", err)
	}
	home, _ := os.ReadFile(filepath.Join(pub, "index.html"))
	if !bytes.Contains(home, []byte("A list of its own")) {
		t.Error("the home page does not carry masrl.yaml's title")
	}
	checkAbsoluteURLs(t, pub, base)
}

// absURL finds the absolute URLs the site writes: canonical links, Open
// Graph and other meta URLs, sitemap locations, feed ids and links, and
// robots.txt's Sitemap line.
var absURL = regexp.MustCompile(`<link rel="canonical" href="([^"]*)"|<meta property="og:[a-z:]*" content="(https?://[^"]*)"|<loc>([^<]*)</loc>|<id>([^<]*)</id>|<link href="([^"]*)"|Sitemap: (\S+)`)

// checkAbsoluteURLs checks that every absolute URL of the site starts with
// base and that no file names a local address; with base "" there must be
// no canonical link, no sitemap and no feed at all.
func checkAbsoluteURLs(t *testing.T, pub, base string) {
	t.Helper()
	local := regexp.MustCompile(`127\.0\.0\.1|localhost|\[::1\]`)
	n := 0
	err := filepath.WalkDir(pub, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ext := filepath.Ext(p)
		if ext != ".html" && ext != ".xml" && ext != ".txt" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(pub, p)
		if m := local.Find(b); m != nil {
			t.Errorf("%s names a local address: %s", rel, m)
		}
		for _, m := range absURL.FindAllSubmatch(b, -1) {
			var u string
			for _, g := range m[1:] {
				if len(g) > 0 {
					u = string(g)
				}
			}
			if rel == "feed.xml" && strings.HasPrefix(string(m[0]), "<id>") && !strings.HasPrefix(u, "http") {
				continue
			}
			n++
			if base == "" || !strings.HasPrefix(u, base) {
				t.Errorf("%s: absolute URL %q not under the base URL %q", rel, u, base)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if base != "" && n == 0 {
		t.Error("found no absolute URL at all: the pattern no longer matches what the site writes")
	}
}

// TestInstalledWithoutBaseURL: without a base URL the build succeeds, says
// what it left out and why, and writes no canonical link, sitemap, feed or
// local address.
func TestInstalledWithoutBaseURL(t *testing.T) {
	bin := installedMasrl(t)
	dir := emptyListDir(t, "")
	_, stderr, err := runIn(t, dir, bin, append([]string{"build", "--out", "public"}, chartsFlags()...)...)
	if err != nil {
		t.Fatalf("masrl build: %v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "no base URL (base_url in masrl.yaml, or --base-url)") {
		t.Errorf("stderr does not say what is left out and how to give a base URL:\n%s", stderr)
	}
	pub := filepath.Join(dir, "public")
	for _, name := range []string{"sitemap.xml", "feed.xml"} {
		if _, err := os.Stat(filepath.Join(pub, name)); err == nil {
			t.Errorf("%s written without a base URL", name)
		}
	}
	if _, err := os.Stat(filepath.Join(pub, "index.html")); err != nil {
		t.Fatal("no index.html")
	}
	for _, name := range []string{"index.html", "papers/index.html", "traces/index.html"} {
		b, _ := os.ReadFile(filepath.Join(pub, name))
		if bytes.Contains(b, []byte("feed.xml")) {
			t.Errorf("%s links feed.xml, which a build without a base URL does not write", name)
		}
	}
	checkAbsoluteURLs(t, pub, "")
}

// TestInstalledErrors: a directory without a corpus, and a masrl.yaml with
// a typo, fail with messages that say where and what is right.
func TestInstalledErrors(t *testing.T) {
	bin := installedMasrl(t)
	_, stderr, err := runIn(t, t.TempDir(), bin, "build")
	if err == nil || !strings.Contains(stderr, "no papers.csv in corpus: point --corpus at the corpus directory") {
		t.Errorf("empty directory: %v, %s", err, stderr)
	}
	dir := emptyListDir(t, "title: x\nbase_ulr: https://example.org/\n")
	_, stderr, err = runIn(t, dir, bin, append([]string{"build"}, chartsFlags()...)...)
	if err == nil || !strings.Contains(stderr, filepath.Join("corpus", "masrl.yaml")+":2:1: unknown key base_ulr; did you mean base_url?") {
		t.Errorf("typo in masrl.yaml: %v, %s", err, stderr)
	}
}

// TestInstalledInit: from an empty directory, an installed masrl makes a
// new list with init, and the list checks, builds, keeps its README list
// and prints its standalone list, all with the binary alone (nothing read
// from this repository).
func TestInstalledInit(t *testing.T) {
	bin := installedMasrl(t)
	dir := t.TempDir()
	if _, stderr, err := runIn(t, dir, bin, "init", "my-list"); err != nil {
		t.Fatalf("masrl init: %v\n%s", err, stderr)
	}
	list := filepath.Join(dir, "my-list")
	for _, args := range [][]string{
		{"check"},
		{"readme", "README.md", "--check"},
		append([]string{"build", "--out", "public"}, chartsFlags()...),
		{"readme", "--standalone"},
	} {
		stdout, stderr, err := runIn(t, list, bin, args...)
		if err != nil {
			t.Fatalf("masrl %s: %v\n%s%s", strings.Join(args, " "), err, stdout, stderr)
		}
		if args[0] == "readme" && len(args) == 2 && !strings.HasPrefix(stdout, "# Awesome My List [") {
			t.Errorf("standalone list starts %.60q", stdout)
		}
	}
	home, err := os.ReadFile(filepath.Join(list, "public", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(home, []byte("Awesome My List")) || bytes.Contains(home, []byte("2605.02801")) {
		t.Error("the new list's home page does not carry its own title, or names the survey")
	}
}
