package synth

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/masrl/masrl/internal/corpustest"

	"github.com/masrl/masrl/corpus"
)

func realCorpus(t *testing.T) *corpus.Corpus {
	t.Helper()
	c, err := corpus.Load(corpustest.Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func generate(t *testing.T, m *Model, opt CorpusOptions) (string, *corpus.Corpus) {
	t.Helper()
	dir := t.TempDir()
	if err := WriteCorpus(dir, m, opt); err != nil {
		t.Fatal(err)
	}
	c, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, c
}

// TestCorpusPassesCheck: a synthetic corpus has exactly the requested
// rows, and Check finds nothing in it, not even a warning.
func TestCorpusPassesCheck(t *testing.T) {
	m, err := Learn(realCorpus(t))
	if err != nil {
		t.Fatal(err)
	}
	v, err := corpus.DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range []CorpusOptions{
		{Entries: 1, Exclusions: 0, Seed: 1},
		{Entries: 3000, Exclusions: MaxExclusions, Seed: 7},
	} {
		_, c := generate(t, m, opt)
		if len(c.Papers) != opt.Entries || len(c.Excluded) != opt.Exclusions || len(c.Bib) != opt.Entries {
			t.Errorf("%+v: got %d entries, %d exclusions, %d BibTeX entries", opt, len(c.Papers), len(c.Excluded), len(c.Bib))
		}
		ds := corpus.Check(c, v, corpus.CheckOptions{Today: time.Date(2026, 5, 5, 0, 0, 0, 0, time.UTC)})
		for _, d := range ds {
			t.Errorf("%+v: %s", opt, d)
		}
		for i := range c.Papers {
			if b := c.BibFor(c.Papers[i]); b == nil {
				t.Fatalf("%+v: %s has no BibTeX entry", opt, c.Papers[i].Key)
			}
		}
	}
}

// TestCorpusDeterministic: the same seed gives the same bytes, another seed
// other bytes.
func TestCorpusDeterministic(t *testing.T) {
	m, err := Learn(realCorpus(t))
	if err != nil {
		t.Fatal(err)
	}
	opt := CorpusOptions{Entries: 500, Exclusions: 50, Seed: 3}
	a, _ := generate(t, m, opt)
	b, _ := generate(t, m, opt)
	opt.Seed = 4
	c, _ := generate(t, m, opt)
	for _, f := range []string{corpus.PapersFile, corpus.ExcludedFile, corpus.BibFile} {
		fa, _ := os.ReadFile(filepath.Join(a, f))
		fb, _ := os.ReadFile(filepath.Join(b, f))
		fc, _ := os.ReadFile(filepath.Join(c, f))
		if !bytes.Equal(fa, fb) {
			t.Errorf("%s differs between two runs with the same seed", f)
		}
		if f == corpus.PapersFile && bytes.Equal(fa, fc) {
			t.Errorf("%s is the same with seeds 3 and 4", f)
		}
	}
}

// TestCorpusFollowsRealTags: every synthetic row carries a combination of
// the eight controlled tags that a real row has, and with enough rows every
// real combination shows up.
func TestCorpusFollowsRealTags(t *testing.T) {
	real := realCorpus(t)
	m, err := Learn(real)
	if err != nil {
		t.Fatal(err)
	}
	fields := []string{"category", "is_rl", "reward_type", "credit_granularity",
		"orchestration_form", "scenario", "is_core", "verified"}
	tuple := func(e *corpus.Entry) string {
		var b bytes.Buffer
		for _, f := range fields {
			b.WriteString(e.Value(f) + "|")
		}
		return b.String()
	}
	want := map[string]bool{}
	for i := range real.Papers {
		want[tuple(real.Papers[i])] = true
	}
	_, c := generate(t, m, CorpusOptions{Entries: 5000, Seed: 1})
	got := map[string]bool{}
	for i := range c.Papers {
		tp := tuple(c.Papers[i])
		if !want[tp] {
			t.Fatalf("row %s has tags %s, which no real row has", c.Papers[i].Key, tp)
		}
		got[tp] = true
	}
	if len(got) != len(want) {
		t.Errorf("5000 rows use %d of the %d real tag combinations", len(got), len(want))
	}
}

func TestCorpusRejectsBadSizes(t *testing.T) {
	m, err := Learn(realCorpus(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range []CorpusOptions{{Entries: 0}, {Entries: 1, Exclusions: MaxExclusions + 1}, {Entries: 1, Exclusions: -1}} {
		if err := WriteCorpus(t.TempDir(), m, opt); err == nil {
			t.Errorf("%+v: no error", opt)
		}
	}
}

func TestCode(t *testing.T) {
	seen := map[string]bool{}
	for n := range 20000 {
		c := code(n)
		if len(c) < 3 || seen[c] {
			t.Fatalf("code(%d) = %q: short or repeated", n, c)
		}
		seen[c] = true
	}
}

func TestEditTitle(t *testing.T) {
	in := []byte("key,title,year\na,\"One, two\",2025\nb,Three,2024\n")
	got, err := EditTitle(in, "b", `New "title"`)
	if err != nil {
		t.Fatal(err)
	}
	if want := "key,title,year\na,\"One, two\",2025\nb,\"New \"\"title\"\"\",2024\n"; string(got) != want {
		t.Errorf("EditTitle = %q, want %q", got, want)
	}
	if _, err := EditTitle(in, "c", "x"); err == nil {
		t.Error("EditTitle of a missing key: no error")
	}
	if _, err := EditTitle([]byte("key,name\na,b\n"), "a", "x"); err == nil {
		t.Error("EditTitle without a title column: no error")
	}
}
