package site

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
)

// TestMultiValuedSite builds testdata/lists/agents, whose topic is
// multi-valued: reflexion (reflection; memory) is listed on both topic
// pages and in both cross-tab cells, the counts say so, and every link of
// the site resolves.
func TestMultiValuedSite(t *testing.T) {
	dir := filepath.Join("..", "testdata", "lists", "agents", "corpus")
	ck, err := corpus.Open(dir, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Build(ck, Options{})
	if err != nil {
		t.Fatal(err)
	}
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
	dir := filepath.Join("..", "testdata", "lists", "agents", "corpus")
	ck, err := corpus.Open(dir, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Build(ck, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"papers/webarena/index.html": `<dt>Code</dt><dd><a href="https://github.com/web-arena-x/webarena">https://github.com/web-arena-x/webarena</a></dd>`,
		"papers/index.html":          `<p class="item-links"><a href="https://github.com/web-arena-x/webarena">code</a> · <a href="https://webarena.dev/">project</a></p>`,
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
	dir := filepath.Join("..", "testdata", "lists", "agents", "corpus")
	ck, err := corpus.Open(dir, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Build(ck, Options{})
	if err != nil {
		t.Fatal(err)
	}
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
