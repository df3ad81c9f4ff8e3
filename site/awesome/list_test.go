package awesome

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/internal/awesomelint"
	"github.com/masrl/masrl/internal/corpustest"

	"github.com/masrl/masrl/corpus"

	"github.com/masrl/masrl/internal/golden"
)

func fixture(t *testing.T) (*corpus.Corpus, *corpus.Vocabulary) {
	t.Helper()
	c, err := corpus.LoadPapersFile(filepath.Join("testdata", "corpus", "papers.csv"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := corpus.DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	return c, v
}

// testPool holds alpha, gamma and delta: beta and epsilon are new.
var testPool = &corpus.Pool{Paper: "arXiv:0000.00000v1", Retained: []string{"alpha", "delta", "gamma"}}

var testMeta = Meta{
	Title: "Awesome Test List", Description: "A list for tests.", Intro: "Five papers.",
	Contributing: "See [the guidelines](CONTRIBUTING.md).", Licence: "CC0-1.0.",
}

// TestGolden compares the README block and the standalone list of the
// fixture with testdata/golden; -update rewrites them.
func TestGolden(t *testing.T) {
	c, v := fixture(t)
	for name, got := range map[string][]byte{
		"list.md":       List(c, v, nil),
		"list-pool.md":  List(c, v, testPool),
		"standalone.md": Standalone(c, v, testMeta, testPool),
	} {
		golden.Check(t, filepath.Join("testdata", "golden", name), got)
	}
}

// TestItems checks the item form on the fixture's hostile rows, reading
// the output as GitHub would.
func TestItems(t *testing.T) {
	c, v := fixture(t)
	out := string(Standalone(c, v, testMeta, testPool))
	for _, want := range []string{
		"- [Alpha: Orchestrating Agents with RL](https://arxiv.org/abs/2508.04652) - A method with \\*stars\\*, \\[brackets\\] and \\<angle\\> text.\n",
		// the first web URL; markup in the title stays text
		"- [\\<script\\>alert(1)\\</script\\> \\& Friends](https://example.org/beta) - - starts like a list; \"quoted\". New since the survey.\n",
		// no one-liner: venue and year; a lower-case description is capitalised
		"- [epsilon: lower-case title and no one-liner](http://example.org/eps) - Workshop, 2026. New since the survey.\n",
		"- [Gamma Benchmark for Teams](https://arxiv.org/abs/2301.00001) - Benchmark of team tasks.\n",
		"## Contents\n\n- [RL method](#rl-method)\n- [Benchmark](#benchmark)\n- [Survey](#survey)\n- [Industry](#industry)\n\n## RL method",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("standalone list lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "## Framework") || strings.Contains(out, "## Classical MARL") {
		t.Error("empty categories get a section in the standalone list")
	}
	if got := string(List(c, v, testPool)); !strings.Contains(got, "3 papers in the survey + 2 added since") || strings.Count(got, NewMark) != 3 {
		t.Errorf("README block with a pool: want the counts, the mark explained once and on two items:\n%s", got)
	}
	if !strings.Contains(string(List(c, v, nil)), "### Framework\n\nNo entries yet.\n") {
		t.Error("the README block drops an empty category")
	}
	// Newest first, then by title.
	if i, j := strings.Index(out, "[Delta"), strings.Index(out, "[Alpha"); i < 0 || j < 0 || j > i {
		t.Errorf("Alpha (2025) should come before Delta (2025) by title")
	}
	if strings.Index(out, "[Gamma") > 0 && strings.Index(out, "[Gamma") < strings.Index(out, "## Benchmark") {
		t.Error("Gamma outside its section")
	}
	for _, tags := range [][]string{renderedTags(t, out)} {
		for _, tag := range tags {
			if strings.HasPrefix(tag, "<script") || strings.HasPrefix(tag, "<angle") {
				t.Errorf("CSV text became markup: %s", tag)
			}
		}
	}
}

// TestAwesomeLint runs awesome-lint (internal/awesomelint) on the
// standalone list of the real corpus and of a list of one's own: zero
// errors.
func TestAwesomeLint(t *testing.T) {
	c, err := corpus.Load(corpustest.Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	_, v := fixture(t)
	pool, err := corpus.LoadPool()
	if err != nil {
		t.Fatal(err)
	}
	// What masrl readme --standalone prints, with one paper marked as
	// added since the survey.
	c.Papers[0].Key = "added-since"
	list := Standalone(c, v, SurveyMeta(c, pool), pool)
	if !strings.Contains(string(list), NewMark) {
		t.Fatal("no item marked new")
	}
	t.Run("survey", func(t *testing.T) { awesomelint.Check(t, list) })
	// A list of one's own (testdata/lists/gnnx): its own fields group it,
	// its masrl.yaml names it, and one entry has no one-liner.
	own := filepath.Join("..", "..", "testdata", "lists", "gnnx", "corpus")
	oc, err := corpus.Load(own)
	if err != nil {
		t.Fatal(err)
	}
	ov, err := corpus.ListVocabulary(own)
	if err != nil || ov == nil {
		t.Fatalf("the example list's vocabulary: %v", err)
	}
	ownList := Standalone(oc, ov, ListMeta("Awesome GNN Explainability", "Methods that explain the predictions of graph neural networks."), nil)
	t.Run("own list", func(t *testing.T) { awesomelint.Check(t, ownList) })
}

// TestMultiValuedList checks the list of testdata/lists/agents, whose
// topic is multi-valued: every paper is listed once, under its first
// topic, its item names its other topics, a heading lists the papers
// filed under it besides, and awesome-lint finds nothing.
func TestMultiValuedList(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "lists", "agents", "corpus")
	c, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	v, err := corpus.ListVocabulary(dir)
	if err != nil || v == nil {
		t.Fatalf("the agents list's vocabulary: %v", err)
	}
	list := string(Standalone(c, v, ListMeta("Awesome LLM Agents", "Papers on agents built on large language models."), nil))
	for _, e := range c.Papers {
		if n := strings.Count(list, "["+e.Title+"](http"); n != 1 {
			t.Errorf("%s listed %d times, want once", e.Key, n)
		}
	}
	for _, want := range []string{
		"Stores verbal feedback on failed attempts in an episodic memory. Also under Memory. [code](https://github.com/noahshinn/reflexion).\n",
		"Self-hosted web sites on which agents carry out tasks. [code](https://github.com/web-arena-x/webarena), [project](https://webarena.dev/).\n",
		"*Reflexion: Language Agents with Verbal Reinforcement Learning* (under Reflection)",
	} {
		if !strings.Contains(list, want) {
			t.Errorf("the list lacks %q:\n%s", want, list)
		}
	}
	awesomelint.Check(t, []byte(list))
}
