package intake

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/internal/corpustest"
	"go.yaml.in/yaml/v3"
)

func vocab(t *testing.T) *corpus.Vocabulary {
	t.Helper()
	v, err := corpus.DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestIssueFormCommitted fails when the committed form is not what
// masrl issue-form generates from data/vocab.yaml.
func TestIssueFormCommitted(t *testing.T) {
	want, err := IssueForm(vocab(t))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", IssueFormFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale: run go run ./cmd/masrl issue-form %s", IssueFormFile, IssueFormFile)
	}
}

// TestIssueFormOffersEveryValue reads the committed form as GitHub would
// and finds one required dropdown per controlled field of papers.csv whose
// options are exactly the vocabulary's values, in order.
func TestIssueFormOffersEveryValue(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", IssueFormFile))
	if err != nil {
		t.Fatal(err)
	}
	var form struct {
		Name   string   `yaml:"name"`
		Labels []string `yaml:"labels"`
		Body   []struct {
			Type       string `yaml:"type"`
			ID         string `yaml:"id"`
			Attributes struct {
				Label   string   `yaml:"label"`
				Options []string `yaml:"options"`
			} `yaml:"attributes"`
			Validations struct {
				Required bool `yaml:"required"`
			} `yaml:"validations"`
		} `yaml:"body"`
	}
	if err := yaml.Unmarshal(b, &form); err != nil {
		t.Fatal(err)
	}
	if form.Name == "" || !slices.Contains(form.Labels, SuggestionLabel) {
		t.Errorf("form name %q labels %v, want a name and %s", form.Name, form.Labels, SuggestionLabel)
	}
	fields := vocab(t).FieldsOf(corpus.PapersFile)
	if len(fields) != 8 {
		t.Fatalf("%d controlled fields in papers.csv, want 8", len(fields))
	}
	for _, f := range fields {
		found := false
		for _, it := range form.Body {
			if it.ID != f.Name {
				continue
			}
			found = true
			if it.Type != "dropdown" || !it.Validations.Required || !slices.Equal(it.Attributes.Options, f.Allowed()) {
				t.Errorf("%s: %s required=%v options %v, want a required dropdown of %v", f.Name, it.Type, it.Validations.Required, it.Attributes.Options, f.Allowed())
			}
		}
		if !found {
			t.Errorf("no question for %s", f.Name)
		}
	}
}

// issueBody writes a body the way GitHub does for a submitted form.
func issueBody(answers map[string]string, v *corpus.Vocabulary) string {
	var b strings.Builder
	for _, f := range formFields(v) {
		a, ok := answers[f.id]
		if !ok {
			a = "_No response_"
		}
		b.WriteString("### " + f.label + "\r\n\r\n" + a + "\r\n\r\n")
	}
	return b.String()
}

func TestParseIssue(t *testing.T) {
	v := vocab(t)
	answers := map[string]string{
		"id": "https://arxiv.org/abs/2606.01234", "category": "rl_method", "is_rl": "yes", "reward_type": "shared",
		"credit_granularity": "message", "orchestration_form": "centralized", "scenario": "coding",
		"is_core": "supporting", "verified": "partial", "one_liner": "Learns a router\n with PPO",
	}
	s, err := ParseIssue(v, issueBody(answers, v))
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != answers["id"] || s.OneLiner != "Learns a router with PPO" || s.Key != "" || s.Notes != "" || len(s.Tags) != 8 || s.Tags["credit_granularity"] != "message" {
		t.Errorf("got %+v", s)
	}

	answers["scenario"] = "cooking"
	delete(answers, "one_liner")
	_, err = ParseIssue(v, issueBody(answers, v))
	if err == nil || !strings.Contains(err.Error(), `"cooking" is not one of coding, web`) || !strings.Contains(err.Error(), `"One-liner" has no answer`) {
		t.Errorf("error %v, want the bad scenario and the missing one-liner", err)
	}
	if _, err := ParseIssue(v, "I found this great paper: 2606.01234"); err == nil || !strings.Contains(err.Error(), `no "arXiv id, arXiv URL or DOI" section`) {
		t.Errorf("free text: %v, want missing sections", err)
	}
}

// FuzzParseIssue: any body is read without panic, and a body that
// parses yields only vocabulary values.
func FuzzParseIssue(f *testing.F) {
	v, err := corpus.DefaultVocabulary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(issueBody(map[string]string{"id": "2606.01234", "category": "survey"}, v))
	f.Add("### arXiv id, arXiv URL or DOI\n\n### Category (category)\n")
	f.Fuzz(func(t *testing.T, body string) {
		s, err := ParseIssue(v, body)
		if err != nil {
			return
		}
		for name, val := range s.Tags {
			if fl := v.Field(name); fl == nil || fl.Term(val) == nil {
				t.Fatalf("tag %s=%q outside the vocabulary", name, val)
			}
		}
	})
}

// TestIssueFormCheckboxes checks a multi-valued field (testdata/lists/
// agents' topic): the form offers a box per value, and a submitted issue's
// ticked boxes become the field's values in canonical order; an issue
// with none ticked lacks the answer.
func TestIssueFormCheckboxes(t *testing.T) {
	v, err := corpus.ListVocabulary(filepath.Join("..", "..", "testdata", "lists", "agents", "corpus"))
	if err != nil || v == nil {
		t.Fatalf("vocabulary: %v", err)
	}
	form, err := IssueForm(v)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(form), "  - type: checkboxes\n    id: topic\n") || !strings.Contains(string(form), "        - label: memory\n") {
		t.Errorf("no checkboxes for topic:\n%s", form)
	}
	body := "### arXiv id, arXiv URL or DOI\n\n2303.11366\n\n### Topic (topic)\n\n- [X] memory\n- [ ] planning\n- [X] reflection\n\n### Kind (kind)\n\nmethod\n\n### One-liner\n\nStores feedback.\n"
	s, err := ParseIssue(v, body)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Tags["topic"]; got != "reflection; memory" {
		t.Errorf("topic = %q, want %q", got, "reflection; memory")
	}
	if _, err := ParseIssue(v, strings.ReplaceAll(body, "[X]", "[ ]")); err == nil || !strings.Contains(err.Error(), `"Topic (topic)" has no answer`) {
		t.Errorf("no box ticked: %v", err)
	}
}

// TestRequestFromIssue: a request takes from the issue what it was not
// given, keeps what it was (its key and its tag, which comes first), and
// an issue that does not parse is an error naming its file.
func TestRequestFromIssue(t *testing.T) {
	v := vocab(t)
	answers := map[string]string{
		"id": "2606.01234", "category": "rl_method", "is_rl": "yes", "reward_type": "shared",
		"credit_granularity": "message", "orchestration_form": "centralized", "scenario": "coding",
		"is_core": "supporting", "verified": "partial", "one_liner": "Learns a router", "key": "fromissue",
	}
	r := Request{Key: "given", Tags: []string{"scenario=web"}}
	if err := r.FromIssue(v, "issue.md", []byte(issueBody(answers, v))); err != nil {
		t.Fatal(err)
	}
	if r.ID != "2606.01234" || r.Key != "given" || r.OneLiner != "Learns a router" || len(r.Tags) != 8 || r.Tags[0] != "scenario=web" || slices.Contains(r.Tags, "scenario=coding") {
		t.Errorf("request %+v: want the issue's id and one-liner, the given key, the given scenario first and alone", r)
	}
	if err := (&Request{}).FromIssue(v, "issue.md", []byte("no form")); err == nil || !strings.HasPrefix(err.Error(), "issue.md: ") {
		t.Errorf("a body without the form: %v, want an error naming issue.md", err)
	}
}

// TestRequestFromIssueFile: the issue saved in a file is read with the
// vocabulary of the list's corpus; a file that is not there is the error.
func TestRequestFromIssueFile(t *testing.T) {
	v := vocab(t)
	answers := map[string]string{
		"id": "2606.01234", "category": "rl_method", "is_rl": "yes", "reward_type": "shared",
		"credit_granularity": "message", "orchestration_form": "centralized", "scenario": "coding",
		"is_core": "supporting", "verified": "partial", "one_liner": "Learns a router",
	}
	file := filepath.Join(t.TempDir(), "issue.md")
	if err := os.WriteFile(file, []byte(issueBody(answers, v)), 0o644); err != nil {
		t.Fatal(err)
	}
	var r Request
	if err := r.FromIssueFile(file, t.TempDir(), nil); err != nil {
		t.Fatal(err)
	}
	if r.ID != "2606.01234" || r.OneLiner != "Learns a router" || len(r.Tags) != 8 {
		t.Errorf("request %+v: want the issue's id, one-liner and eight tags", r)
	}
	if err := (&Request{}).FromIssueFile(filepath.Join(t.TempDir(), "none.md"), t.TempDir(), nil); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
}

// TestUpdateIssueForm: the form is written, then found up to date;
// another content is stale; --check of a missing file is an error.
func TestUpdateIssueForm(t *testing.T) {
	file := filepath.Join(t.TempDir(), "form.yml")
	if _, err := UpdateIssueForm(file, []byte("form\n"), true); err == nil {
		t.Error("--check of a missing form: no error")
	}
	if stale, err := UpdateIssueForm(file, []byte("form\n"), false); err != nil || stale {
		t.Fatalf("write: %v, %v", stale, err)
	}
	if stale, err := UpdateIssueForm(file, []byte("form\n"), true); err != nil || stale {
		t.Errorf("check of the written form: stale %v, %v", stale, err)
	}
	if stale, err := UpdateIssueForm(file, []byte("other\n"), true); err != nil || !stale {
		t.Errorf("check of another form: stale %v, %v; want stale", stale, err)
	}
}

// TestListIssueForm: a list's form asks for the fields of its own
// vocab.yaml; a directory without one gets the form of the data's.
func TestListIssueForm(t *testing.T) {
	for _, dir := range []string{corpustest.List(t, "agents"), t.TempDir()} {
		v, err := corpus.VocabularyFor(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := IssueForm(v)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := ListIssueForm(dir, nil); err != nil || !bytes.Equal(got, want) {
			t.Errorf("ListIssueForm(%s): %v; not the form of its vocabulary", dir, err)
		}
	}
}
