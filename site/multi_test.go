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
	if !strings.Contains(field, "counts once under each of them") {
		t.Error("the topic page does not say an entry counts under each of its values")
	}
	if m := regexp.MustCompile(`(?s)Memory</a> <code>memory</code></th><td>(\d+)`).FindStringSubmatch(field); m == nil || m[1] != "3" {
		t.Errorf("memory's count: %v, want 3", m)
	}
	if !strings.Contains(page("coverage/index.html"), "counts once under each of them") {
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
