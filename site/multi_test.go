package site

import (
	"context"
	"fmt"
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
	added := func(keyColumn int) (map[string]string, error) {
		return corpus.AddedFromHistory(context.Background(), dir, keyColumn)
	}
	res := buildAgents(t, dir, Options{Config: siteconfig.Config{BaseURL: "https://example.org/"}, AddedDates: added})
	feed, _ := res.Files.Get("feed.xml")
	entries := regexp.MustCompile(`(?s)<entry>.*?<title>([^<]*)</title>.*?<updated>([^<]*)</updated>`).FindAllStringSubmatch(string(feed), 2)
	if len(entries) < 2 || !strings.HasPrefix(entries[0][1], "Toolformer") || entries[0][2] != now.Format(time.DateOnly)+"T00:00:00Z" || entries[1][2] != "2024-01-02T00:00:00Z" {
		t.Errorf("the feed's first entries: %q; want Toolformer today, then the rows of 2024-01-02", entries)
	}
}

// headingTag is an HTML heading: its level, its id (a group's
// "cat-VALUE-h"; "" for an entry's title) and its text.
var headingTag = regexp.MustCompile(`<h([1-6])(?: id="cat-([^"]+)-h"| class="entry-title")?>`)

// checkHeadingOrder fails when a heading of page's <main> is more than
// one level below the one before it (axe's heading-order rule), when a
// group's heading is not at level 2 plus its depth in field, or when an
// entry's title is not one level below its group's heading. It returns
// the level of each group's heading by value.
func checkHeadingOrder(t *testing.T, name, page string, field *corpus.Field) map[string]int {
	t.Helper()
	main := page[strings.Index(page, "<main"):strings.Index(page, "</main>")]
	prev, group := 1, 0
	levels := map[string]int{}
	for _, m := range headingTag.FindAllStringSubmatch(main, -1) {
		level := int(m[1][0] - '0')
		if level > prev+1 {
			t.Errorf("%s: %s after an h%d skips a level", name, m[0], prev)
		}
		prev = level
		switch {
		case m[2] != "":
			group = level
			levels[m[2]] = level
			if want := 2 + field.Depth(m[2]); level != want {
				t.Errorf("%s: %s at level %d, want %d (its depth in the tree plus 2)", name, m[2], level, want)
			}
		case strings.Contains(m[0], "entry-title") && level != group+1:
			t.Errorf("%s: an entry title at h%d under an h%d", name, level, group)
		}
	}
	return levels
}

// TestNestedPapersHeadings: the papers page of testdata/lists/agents,
// whose topics nest three deep (multi-agent > role-play > software),
// nests its headings as the README does, h2 to h4 with the entries' titles
// one level below, skipping no level, and its table of contents nests the
// same way. A page of a paginated list that starts inside a child value
// repeats its ancestors' headings, so it skips no level either.
func TestNestedPapersHeadings(t *testing.T) {
	dir := corpustest.CopyList(t, "agents")
	v, err := corpus.ListVocabulary(dir)
	if err != nil {
		t.Fatal(err)
	}
	field := v.Field("topic")
	res := buildAgents(t, dir, Options{})
	b, _ := res.Files.Get("papers/index.html")
	levels := checkHeadingOrder(t, "papers/index.html", string(b), field)
	for value, want := range map[string]int{"planning": 2, "reasoning": 3, "multi-agent": 2, "role-play": 3, "software": 4, "web": 3} {
		if levels[value] != want {
			t.Errorf("%s's heading: h%d, want h%d", value, levels[value], want)
		}
	}
	if !strings.Contains(string(b), `<h5 class="entry-title"><a href="../papers/chatdev/">`) {
		t.Error("chatdev's title, under Software development's h4, is not an h5")
	}
	toc := `<li><a href="#cat-multi-agent">Multi-agent</a> (0)
<ul>
<li><a href="#cat-role-play">Role-playing</a> (2)
<ul>
<li><a href="#cat-software">Software development</a> (1)</li>
</ul></li>
</ul></li>`
	if !strings.Contains(string(b), toc) {
		t.Errorf("the table of contents does not nest software under role-play under multi-agent")
	}

	// 60 more entries under reasoning (a child of planning): page 2
	// starts inside reasoning, whose parent lists nothing on it.
	f, err := os.OpenFile(filepath.Join(dir, "papers.csv"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 60 {
		fmt.Fprintf(f, "r%02d,Reasoning paper %02d,2021,2021-01,2024-06-01,https://example.org/r%02d,,reasoning,method,,,\"Doe, Jane\",arXiv,A reasoning paper.\n", i, i, i)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	res = buildAgents(t, dir, Options{})
	for _, name := range []string{"papers/index.html", "papers/page/2/index.html"} {
		b, ok := res.Files.Get(name)
		if !ok {
			t.Fatalf("no %s", name)
		}
		levels := checkHeadingOrder(t, name, string(b), field)
		if levels["reasoning"] != 3 || levels["planning"] != 2 {
			t.Errorf("%s: planning h%d, reasoning h%d; want h2 and h3", name, levels["planning"], levels["reasoning"])
		}
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
