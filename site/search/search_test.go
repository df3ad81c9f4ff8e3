package search

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/masrl/masrl/internal/corpustest"

	"github.com/masrl/masrl/corpus"
)

func load(t *testing.T) (*corpus.Corpus, *corpus.Vocabulary) {
	t.Helper()
	c, err := corpus.Load(corpustest.Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	v, err := corpus.DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	return c, v
}

func TestIndexFromCorpus(t *testing.T) {
	c, v := load(t)
	url := func(k string) string { return "papers/" + k + "/" }
	ix := Build(c, v, url)
	a, err := ix.JSON()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Build(c, v, url).JSON()
	if !bytes.Equal(a, b) {
		t.Fatal("two builds of the index differ")
	}
	if len(ix.Entries) != len(c.Papers) {
		t.Fatalf("%d entries, want %d", len(ix.Entries), len(c.Papers))
	}
	var back Index
	if err := json.Unmarshal(a, &back); err != nil {
		t.Fatal(err)
	}
	fields := v.FieldsOf(corpus.PapersFile)
	if len(back.Fields) != len(fields) {
		t.Fatalf("%d facets, want %d", len(back.Fields), len(fields))
	}
	for i, f := range fields {
		if len(back.Fields[i].Values) != len(f.Values) {
			t.Errorf("facet %s has %d values, want the whole vocabulary (%d)", f.Name, len(back.Fields[i].Values), len(f.Values))
		}
		// The facet's OR over all its values is every entry, and each
		// value leaves exactly the histogram's cell.
		h := c.Histogram(v, f.Name)
		for _, cell := range h.Cells {
			got := back.Match("", map[string][]string{f.Name: {cell.Value}})
			if !slices.Equal(got, cell.Keys) {
				t.Errorf("%s=%s leaves %v, want %v", f.Name, cell.Value, got, cell.Keys)
			}
		}
	}
	etAl := 0
	for _, e := range back.Entries {
		if len(e.Tags) != len(fields) || e.URL != url(e.Key) || e.Title == "" || e.Authors == "" {
			t.Errorf("entry %s incomplete: %+v", e.Key, e)
		}
		// BibTeX's "and others" names nobody: "et al.", never an author
		// called "others".
		if strings.Contains(e.Authors, "others") {
			t.Errorf("entry %s lists an author named others: %q", e.Key, e.Authors)
		}
		if strings.HasSuffix(e.Authors, " et al.") {
			etAl++
		}
	}
	if etAl == 0 {
		t.Error(`no entry's authors end "et al.", though the corpus's papers.bib has "and others"`)
	}
}

func TestMatch(t *testing.T) {
	ix := &Index{Entries: []Entry{
		{Key: "a", Title: "Multi-Agent PPO", Notes: "credit", Tags: map[string]string{"x": "1", "y": "p"}},
		{Key: "b", Title: "Debate", Authors: "Du, Yilun", Tags: map[string]string{"x": "2", "y": "p"}},
		{Key: "c", Title: "Other", OneLiner: "multi-agent debate", Tags: map[string]string{"x": "1", "y": "q"},
			Survey: "[43]; Table 10, R3; Figure 12"},
	}}
	for _, tc := range []struct {
		q      string
		facets map[string][]string
		want   []string
	}{
		{"", nil, []string{"a", "b", "c"}},
		{"MULTI-agent", nil, []string{"a", "c"}},
		{"multi debate", nil, []string{"c"}},
		{"du", nil, []string{"b"}},
		{"", map[string][]string{"x": {"1"}}, []string{"a", "c"}},
		{"", map[string][]string{"x": {"1", "2"}, "y": {"p"}}, []string{"a", "b"}},
		{"debate", map[string][]string{"x": {"1"}}, []string{"c"}},
		{"nothing", nil, []string{}},
		// Terms do not match across two fields.
		{"ppo\ncredit", nil, []string{"a"}},
		{"ppocredit", nil, []string{}},
		// Where the survey names an entry is searchable.
		{"table 10 r3", nil, []string{"c"}},
		{"Figure 12", nil, []string{"c"}},
		{"[43]", nil, []string{"c"}},
	} {
		if got := ix.Match(tc.q, tc.facets); !slices.Equal(got, tc.want) {
			t.Errorf("Match(%q, %v) = %v, want %v", tc.q, tc.facets, got, tc.want)
		}
	}
}

// TestJSONIsMarshal holds JSON, assembled from its entries' pieces, to
// what json.Marshal and json.HTMLEscape make of the whole index.
func TestJSONIsMarshal(t *testing.T) {
	for _, ix := range []*Index{
		{},
		{Entries: []Entry{}},
		{Fields: []Field{{Name: "f", Label: "<F & G>", Values: []Value{{Value: "v", Label: "V\u2028"}}}},
			Entries: []Entry{
				{Key: "a", Title: "</script>", Notes: "a & b\u2029", Year: 2024, Tags: map[string]string{"f": "v", "e": "<"}},
				{Key: "b", Tags: map[string]string{}},
			}},
	} {
		raw, err := json.Marshal(ix)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		json.HTMLEscape(&want, raw)
		want.WriteByte('\n')
		got, err := ix.JSON()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("got\n%s\nwant\n%s", got, want.Bytes())
		}
	}
}

func TestJSONEscapesHTML(t *testing.T) {
	ix := &Index{Entries: []Entry{{Key: "k", Title: "</script><script>alert(1)</script>", Tags: map[string]string{}}}}
	b, err := ix.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "<") || strings.Contains(string(b), ">") {
		t.Fatalf("unescaped markup in %s", b)
	}
}

// TestBib checks the export's BibTeX map: one entry per retained entry
// with BibTeX, each the corpus' exact source, and HTML-safe bytes.
func TestBib(t *testing.T) {
	c, _ := load(t)
	b, err := Bib(c)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.ContainsAny(b, "<>&") {
		t.Error("the BibTeX map is not HTML-safe")
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := range c.Papers {
		e := c.Papers[i]
		bib := c.BibFor(e)
		got, ok := m[e.Key]
		switch {
		case bib == nil && ok:
			t.Errorf("%s has no BibTeX but the map gives %q", e.Key, got)
		case bib != nil && got != strings.TrimSpace(bib.Raw):
			t.Errorf("%s: map gives %q, want the source %q", e.Key, got, bib.Raw)
		case bib != nil:
			n++
		}
	}
	if n == 0 || len(m) != n {
		t.Errorf("%d map entries for %d entries with BibTeX", len(m), n)
	}
}

// TestEntryJSONIsMarshal holds Entry.JSON, which writes an entry's
// fields itself, to json.Marshal's bytes, HTML-escaped: for every entry
// of the real corpus's index, and for entries with each character
// json.Marshal escapes on its own in a text field, a tag and a link,
// nil and empty maps, and the optional fields set and unset.
func TestEntryJSONIsMarshal(t *testing.T) {
	c, v := load(t)
	entries := Build(c, v, func(key string) string { return "papers/" + key + "/" }).Entries
	for _, ch := range []string{"<", ">", "&", `"`, `\`, "\n", "\x00", "\x1f", "\x7f", "é", "\u2028", "\u2029", "\xff", "\xe2\x80"} {
		entries = append(entries,
			Entry{Key: "k" + ch, Title: "a" + ch + "b", Year: -3, Tags: map[string]string{"b": ch, "a" + ch: "x", "A": ""}},
			Entry{Notes: ch, Links: map[string]string{"arxiv": "https://x/?" + ch, "code": ""}, Survey: "[1]" + ch})
	}
	entries = append(entries, Entry{}, Entry{Tags: map[string]string{}, Links: map[string]string{}})
	for _, e := range entries {
		checkEntryJSON(t, e)
	}
}

// checkEntryJSON fails t unless e.JSON is json.Marshal's bytes of e,
// HTML-escaped.
func checkEntryJSON(t *testing.T, e Entry) {
	t.Helper()
	raw, err := json.Marshal(&e)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	json.HTMLEscape(&want, raw)
	got, err := e.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("%q: JSON\n%s\nwant (json.Marshal)\n%s", e.Key, got, want.Bytes())
	}
}

// FuzzEntryJSON holds Entry.JSON to json.Marshal's HTML-escaped bytes on
// any strings, where TestEntryJSONIsMarshal tries the escapes one by one.
func FuzzEntryJSON(f *testing.F) {
	for _, s := range []string{"", "plain", "<a>&", "\u2028\x00\xff", `"\`} {
		f.Add(s, s, 2025)
	}
	f.Fuzz(func(t *testing.T, s, k string, year int) {
		checkEntryJSON(t, Entry{Key: s, Title: k + s, Notes: s, Year: year, Tags: map[string]string{k: s, s: k}, Links: map[string]string{"code": s}, Survey: k})
	})
}
