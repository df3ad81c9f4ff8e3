package site

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/internal/corpustest"
)

// TestMultiValuedSite builds testdata/lists/agents, whose topic is
// multi-valued: reflexion (reflection; memory) is listed on both topic
// pages and in both cross-tab cells, the counts say so, and every link of
// the site resolves.
func TestMultiValuedSite(t *testing.T) {
	res := buildAgents(t, corpustest.List(t, "agents"), Options{})
	page := func(name string) string {
		t.Helper()
		b, ok := res.Files.Get(name)
		if !ok {
			t.Fatalf("no %s", name)
		}
		return string(b)
	}
	for _, name := range []string{
		"taxonomy/topic/reflection/index.html", "taxonomy/topic/memory/index.html",
		"coverage/topic-kind/reflection-method/index.html", "coverage/topic-kind/memory-method/index.html",
	} {
		if !strings.Contains(page(name), "papers/reflexion/") {
			t.Errorf("%s does not list reflexion", name)
		}
	}
	field := page("taxonomy/topic/index.html")
	if !strings.Contains(field, "counts once under each of its values") {
		t.Error("the topic page does not say an entry counts under each of its values")
	}
	if m := regexp.MustCompile(`(?s)Memory</a> <code>memory</code></th><td>(\d+)`).FindStringSubmatch(field); m == nil || m[1] != "3" {
		t.Errorf("memory's count: %v, want 3", m)
	}
	if !strings.Contains(page("coverage/index.html"), "counts once under each of its values") {
		t.Error("the coverage page does not say an entry counts under each of its values")
	}
	entry := page("papers/reflexion/index.html")
	for _, want := range []string{"taxonomy/topic/reflection/", "taxonomy/topic/memory/"} {
		if !strings.Contains(entry, want) {
			t.Errorf("reflexion's page does not link %s", want)
		}
	}
	checkLinks(t, res.Files, "/")
}

// TestLinkColumnsSite checks the link columns of testdata/lists/agents:
// labelled links on the entry page and the papers list, and in the
// search index.
func TestLinkColumnsSite(t *testing.T) {
	res := buildAgents(t, corpustest.List(t, "agents"), Options{})
	for name, want := range map[string]string{
		"papers/webarena/index.html": `<dt>Code</dt><dd><a href="https://github.com/web-arena-x/webarena">https://github.com/web-arena-x/webarena</a></dd>`,
		"papers/index.html":          `<p class="entry-links"><a href="https://github.com/web-arena-x/webarena">code</a> · <a href="https://webarena.dev/">project</a>`,
		"search-index.json":          `"links":{"code":"https://github.com/web-arena-x/webarena","project":"https://webarena.dev/"}`,
	} {
		b, ok := res.Files.Get(name)
		if !ok {
			t.Fatalf("no %s", name)
		}
		if !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %s", name, want)
		}
	}
}

// TestNestedSite checks the tree of testdata/lists/agents' topic: a
// grandparent's page lists its grandchildren's entries, each once, and
// the field's table names a child's ancestors.
func TestNestedSite(t *testing.T) {
	res := buildAgents(t, corpustest.List(t, "agents"), Options{})
	b, _ := res.Files.Get("taxonomy/topic/multi-agent/index.html")
	for _, k := range []string{"chatdev", "metagpt"} {
		if n := strings.Count(string(b), `href="../../../papers/`+k+`/"`); n != 1 {
			t.Errorf("multi-agent's page links %s %d times, want once", k, n)
		}
	}
	f, _ := res.Files.Get("taxonomy/topic/index.html")
	if want := `<span class="trail">Multi-agent › Role-playing › </span><a href="../../taxonomy/topic/software/">`; !strings.Contains(string(f), want) {
		t.Errorf("the topic page lacks %s", want)
	}
}

// TestFeedAddedToday checks the feed of testdata/lists/agents with one
// row added today: that row is the feed's first entry, though the paper
// is from 2023 and the others were added earlier; and the papers list
// orders a year's entries by month, newest first.
func TestFeedAddedToday(t *testing.T) {
	dir := corpustest.CopyList(t, "agents")
	p := filepath.Join(dir, corpus.PapersFile)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	today := time.Now().Format(time.DateOnly)
	s := strings.Replace(string(b), "2023-02,2024-06-01,", "2023-02,"+today+",", 1)
	if s == string(b) {
		t.Fatal("toolformer's row not found")
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	res := buildAgents(t, dir, Options{Config: siteconfig.Config{BaseURL: "https://example.org/"}})
	feed, _ := res.Files.Get("feed.xml")
	first := regexp.MustCompile(`(?s)<entry>.*?<title>([^<]*)</title>.*?<updated>([^<]*)</updated>`).FindStringSubmatch(string(feed))
	if first == nil || !strings.HasPrefix(first[1], "Toolformer") || first[2] != today+"T00:00:00Z" {
		t.Errorf("the feed's first entry: %q; want Toolformer, updated %s", first, today)
	}
	// The feed of a value: Toolformer is filed under tool-use.
	vf, ok := res.Files.Get("taxonomy/topic/tool-use/feed.xml")
	first = regexp.MustCompile(`(?s)<entry>.*?<title>([^<]*)</title>`).FindStringSubmatch(string(vf))
	if !ok || first == nil || !strings.HasPrefix(first[1], "Toolformer") {
		t.Errorf("tool-use's feed: first entry %q", first)
	}
	if tp, _ := res.Files.Get("taxonomy/topic/tool-use/index.html"); !strings.Contains(string(tp), `href="../../../taxonomy/topic/tool-use/feed.xml"`) {
		t.Error("tool-use's page does not link its feed")
	}
	b, _ = res.Files.Get("papers/index.html")
	papers := string(b)
	// Planning, 2023: tree-of-thoughts (2023-05) before hugginggpt
	// (2023-03), though the title comes later.
	if iT, iH := strings.Index(papers, `id="entry-tree-of-thoughts"`), strings.Index(papers, `id="entry-hugginggpt"`); iT < 0 || iH < 0 || iT > iH {
		t.Errorf("papers page order: tree-of-thoughts %d, hugginggpt %d; want newest month first", iT, iH)
	}
	// Each entry once, under its first topic.
	for _, k := range []string{"metagpt", "reflexion", "tree-of-thoughts"} {
		if n := strings.Count(papers, `id="entry-`+k+`"`); n != 1 {
			t.Errorf("the papers page lists %s %d times, want once", k, n)
		}
	}
}

// TestFeedAddedFromHistory checks a list without an added column in a git
// repository: the feed dates each row by the first commit that holds its
// key, so the row committed today leads the feed.
func TestFeedAddedFromHistory(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := corpustest.CopyList(t, "agents")
	p := filepath.Join(dir, corpus.PapersFile)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	// Without the added column; toolformer's row comes in a later commit.
	var all, before []string
	for line := range strings.SplitSeq(strings.TrimSuffix(string(b), "\n"), "\n") {
		line = regexp.MustCompile(`^([^,]*,[^,]*,[^,]*,[^,]*),[^,]*,`).ReplaceAllString(line, "$1,")
		all = append(all, line)
		if !strings.HasPrefix(line, "toolformer,") {
			before = append(before, line)
		}
	}
	git := func(date string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.org",
			"GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date, "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("", "init", "-q", "-b", "main")
	if err := os.WriteFile(p, []byte(strings.Join(before, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("2024-01-02T12:00:00Z", "add", "-A")
	git("2024-01-02T12:00:00Z", "commit", "-q", "-m", "list")
	if err := os.WriteFile(p, []byte(strings.Join(all, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	git(now.Format(time.RFC3339), "commit", "-q", "-am", "add toolformer")
	res := buildAgents(t, dir, Options{Config: siteconfig.Config{BaseURL: "https://example.org/"}})
	feed, _ := res.Files.Get("feed.xml")
	entries := regexp.MustCompile(`(?s)<entry>.*?<title>([^<]*)</title>.*?<updated>([^<]*)</updated>`).FindAllStringSubmatch(string(feed), 2)
	if len(entries) < 2 || !strings.HasPrefix(entries[0][1], "Toolformer") || entries[0][2] != now.Format(time.DateOnly)+"T00:00:00Z" || entries[1][2] != "2024-01-02T00:00:00Z" {
		t.Errorf("the feed's first entries: %q; want Toolformer today, then the rows of 2024-01-02", entries)
	}
}

// buildAgents builds the example list in dir (testdata/lists/agents or a
// copy of it) into memory.
func buildAgents(t *testing.T, dir string, opt Options) *Result {
	t.Helper()
	ck, err := corpus.Open(dir, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Build(ck, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
