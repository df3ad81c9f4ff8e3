package schema_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/internal/corpustest"
	"github.com/masrl/masrl/schema"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// compile compiles every schema of schema.FS by its $id, which must be
// the trace schema's address with the file's own name.
func compile(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	names, err := fs.Glob(schema.FS(), "*.schema.json")
	if err != nil || len(names) != 4 {
		t.Fatalf("schemas %v (%v), want trace, masrl, paper and partial", names, err)
	}
	ids := map[string]string{}
	for _, name := range names {
		b, _ := fs.ReadFile(schema.FS(), name)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		id, _ := doc.(map[string]any)["$id"].(string)
		if id != "https://masrl.dev/schema/"+name {
			t.Errorf("%s: $id %q, want it published beside the others under its own name", name, id)
		}
		if err := c.AddResource(id, doc); err != nil {
			t.Fatal(err)
		}
		ids[name] = id
	}
	out := map[string]*jsonschema.Schema{}
	for name, id := range ids {
		s, err := c.Compile(id)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = s
	}
	return out
}

// instanceLocation is where the first leaf error of a validation points.
func instanceLocation(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return ""
	}
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	return "/" + strings.Join(ve.InstanceLocation, "/")
}

// TestPaperSchema: every row of the survey's corpus, which passes the
// check, is valid against paper.schema.json, and a row the check refuses
// for one column fails there, at that column.
func TestPaperSchema(t *testing.T) {
	s := compile(t)["paper.schema.json"]
	row := checkRows(t, s, corpustest.Dir(t), []rowCase{
		{"reward_type", "Shared", "/reward_type"},
		{"key", "Bad Key", "/key"},
		{"arxiv_id", "arXiv:1234", "/arxiv_id"},
		{"year", "99", "/year"},
		{"url", "ftp://example.org", "/url"},
		{"title", "", "/title"},
		{"extra", "x", ""},
	})
	r := row()
	delete(r, "one_liner")
	if s.Validate(r) == nil {
		t.Error("a row without one_liner is valid")
	}
	r = row()
	r["notes"], r["affiliation"], r["arxiv_id"] = "", "", ""
	if err := s.Validate(r); err != nil {
		t.Errorf("the optional columns empty: %v", err)
	}
}

// TestConfigSchema: the README's masrl.yaml is valid against
// masrl.schema.json; an unknown key, a non-web URL and a key of the
// wrong kind are not.
func TestConfigSchema(t *testing.T) {
	s := compile(t)["masrl.schema.json"]
	b, err := os.ReadFile(filepath.Join("..", "corpus", "siteconfig", "testdata", "full.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	doc := func(src string) any {
		var v any
		if err := yaml.Unmarshal([]byte(src), &v); err != nil {
			t.Fatal(err)
		}
		j, _ := json.Marshal(v)
		out, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if err := s.Validate(doc(string(b))); err != nil {
		t.Errorf("full.yaml: %v", err)
	}
	for _, tc := range []struct{ src, at string }{
		{"titel: x\n", ""},
		{"repository:\n  url: ftp://example.org/x\n", "/repository/url"},
		{"repository:\n  brnch: main\n", ""},
		{"base_url: javascript:alert(1)\n", "/base_url"},
		{"title: [a]\n", "/title"},
		{"release: https://example.org/\n", "/release"},
	} {
		err := s.Validate(doc(tc.src))
		if err == nil {
			t.Errorf("%q: valid, want an error", tc.src)
		} else if tc.at != "" && instanceLocation(err) != tc.at {
			t.Errorf("%q: error at %s, want %s", tc.src, instanceLocation(err), tc.at)
		}
	}
}

// listRowSchema compiles the row schema masrl build publishes for the
// example list in dir, generated from its vocab.yaml.
func listRowSchema(t *testing.T, dir string) *jsonschema.Schema {
	t.Helper()
	v, err := corpus.ListVocabulary(dir)
	if err != nil || v == nil {
		t.Fatalf("the example list's vocabulary: %v", err)
	}
	id, err := schema.ID("paper.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	b, err := schema.Document(id, corpus.RowSchema(v))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(id, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestListRowSchema: the row schema masrl build publishes for a list of
// one's own (testdata/lists/gnnx) is generated from its vocab.yaml: every
// row of the list, which passes the check, is valid, a free-text column
// of the list's own is allowed, and a value outside the list's vocabulary
// or a missing required column fails at its member.
func TestListRowSchema(t *testing.T) {
	dir := filepath.Join("..", "testdata", "lists", "gnnx", "corpus")
	s := listRowSchema(t, dir)
	row := checkRows(t, s, dir, []rowCase{
		{"method_family", "Perturbation", "/method_family"},
		{"access", "NA", "/access"},
		{"key", "Bad Key", "/key"},
		{"url", "ftp://example.org", "/url"},
	})
	r := row()
	r["a_column_of_its_own"] = "free text"
	delete(r, "venue")
	if err := s.Validate(r); err != nil {
		t.Errorf("a free-text column, and venue left out: %v", err)
	}
	for _, col := range []string{"explanation_level", "year"} {
		r := row()
		delete(r, col)
		if s.Validate(r) == nil {
			t.Errorf("a row without %s is valid", col)
		}
	}
}

// TestListRowSchemaMultiple: a multi-valued field's column (testdata/
// lists/agents' topic) takes one or more of its values separated by ';',
// and refuses a value outside the vocabulary or an empty one.
func TestListRowSchemaMultiple(t *testing.T) {
	dir := filepath.Join("..", "testdata", "lists", "agents", "corpus")
	s := listRowSchema(t, dir)
	row := checkRows(t, s, dir, []rowCase{
		{"topic", "memory; memroy", "/topic"},
		{"topic", "memory;;web", "/topic"},
		{"topic", "", "/topic"},
	})
	r := row()
	r["topic"] = "web; memory"
	if err := s.Validate(r); err != nil {
		t.Errorf("two topics: %v", err)
	}
}

// rowCase is one cell changed in a valid row, and where the schema's
// error must point (any place when at is empty).
type rowCase struct{ col, value, at string }

// checkRows validates every row of dir's papers.csv against s, then the
// first row with each case's cell changed, which must fail at its
// member. It returns a function giving a fresh copy of the first row, as
// the schema sees it (column name to text), for further cases.
func checkRows(t *testing.T, s *jsonschema.Schema, dir string, cases []rowCase) func() map[string]any {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, corpus.PapersFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	records, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	row := func(rec []string) map[string]any {
		m := map[string]any{}
		for i, col := range records[0] {
			m[col] = rec[i]
		}
		return m
	}
	for i, rec := range records[1:] {
		if err := s.Validate(row(rec)); err != nil {
			t.Errorf("papers.csv:%d: %v", i+2, err)
		}
	}
	for _, tc := range cases {
		r := row(records[1])
		r[tc.col] = tc.value
		if err := s.Validate(r); err == nil {
			t.Errorf("%s = %q: valid, want an error", tc.col, tc.value)
		} else if tc.at != "" && instanceLocation(err) != tc.at {
			t.Errorf("%s = %q: error at %s, want %s", tc.col, tc.value, instanceLocation(err), tc.at)
		}
	}
	return func() map[string]any { return row(records[1]) }
}
