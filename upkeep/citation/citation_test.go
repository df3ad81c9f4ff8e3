package citation

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

func schema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "cff-1.2.0.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const id = "https://citation-file-format.github.io/1.2.0/schema.json"
	if err := c.AddResource(id, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// validate reads CITATION.cff as YAML and validates it as JSON, as the
// CFF tools do (dates are strings: the schema says so).
func validate(s *jsonschema.Schema, cff []byte) error {
	var v any
	if err := yaml.Unmarshal(cff, &v); err != nil {
		return err
	}
	j, err := json.Marshal(v)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
	if err != nil {
		return err
	}
	return s.Validate(inst)
}

func input() *Input {
	return &Input{
		Title: "Awesome RL for LLM Multi-Agent Systems", Description: "The paper pool of the survey.",
		Config: &siteconfig.Config{
			BaseURL:    "https://example.org/list/",
			Repository: siteconfig.Repository{URL: "https://github.com/me/list"},
			Citation:   siteconfig.Citation{Authors: "Zhang, Chenchen; Example Lab", License: "CC-BY-4.0", DOI: "10.5281/zenodo.1003150"},
		},
		Papers: 84, Exclusions: 32, Hash: "sha256:" + strings.Repeat("ab", 32), Version: "v3", Date: "2026-11-25",
	}
}

func TestCFFValidates(t *testing.T) {
	s := schema(t)
	in := input()
	b, err := CFF(in)
	if err != nil {
		t.Fatal(err)
	}
	if err := validate(s, b); err != nil {
		t.Errorf("CITATION.cff fails the CFF 1.2.0 schema: %v\n%s", err, b)
	}
	for _, want := range []string{"cff-version: 1.2.0\n", "  - family-names: Zhang\n    given-names: Chenchen\n", "  - name: Example Lab\n",
		"version: v3\n", "date-released: \"2026-11-25\"\n", "doi: 10.5281/zenodo.1003150\n", "value: sha256:abab"} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("CITATION.cff lacks %q:\n%s", want, b)
		}
	}
	// A minimal configuration (authors only) validates too.
	min := &Input{Title: "T", Config: &siteconfig.Config{Citation: siteconfig.Citation{Authors: "Doe, Jane"}}, Papers: 1}
	b, err = CFF(min)
	if err != nil {
		t.Fatal(err)
	}
	if err := validate(s, b); err != nil {
		t.Errorf("minimal CITATION.cff: %v\n%s", err, b)
	}
}

// TestSchemaRejects: the schema test can fail: a license outside SPDX, a
// resolver URL for the DOI and a missing author are refused.
func TestSchemaRejects(t *testing.T) {
	s := schema(t)
	for name, edit := range map[string]func(*Input){
		"license": func(in *Input) { in.Config.Citation.License = "Not-A-License" },
		"doi":     func(in *Input) { in.Config.Citation.DOI = "https://doi.org/10.5281/zenodo.1" },
		"date":    func(in *Input) { in.Date = "25/11/2026" },
	} {
		in := input()
		edit(in)
		b, err := CFF(in)
		if err != nil {
			t.Fatal(err)
		}
		if err := validate(s, b); err == nil {
			t.Errorf("%s: an invalid CITATION.cff passed the schema:\n%s", name, b)
		}
	}
	in := input()
	in.Config.Citation.Authors = ""
	if _, err := CFF(in); err != ErrNoAuthors {
		t.Errorf("no authors: %v", err)
	}
}

func TestZenodo(t *testing.T) {
	b, err := Zenodo(input())
	if err != nil {
		t.Fatal(err)
	}
	var z map[string]any
	if err := json.Unmarshal(b, &z); err != nil {
		t.Fatal(err)
	}
	creators, _ := z["creators"].([]any)
	if z["upload_type"] != "dataset" || z["license"] != "cc-by-4.0" || len(creators) != 2 ||
		creators[0].(map[string]any)["name"] != "Zhang, Chenchen" || z["version"] != "v3" ||
		!strings.Contains(z["description"].(string), "84 papers") {
		t.Errorf(".zenodo.json: %s", b)
	}
}
