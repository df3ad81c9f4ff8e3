package intake

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/masrl/masrl/corpus"
	"go.yaml.in/yaml/v3"
)

// IssueFormFile is where GitHub looks for the suggestion form.
const IssueFormFile = ".github/ISSUE_TEMPLATE/suggest-a-paper.yml"

// ListIssueForm is the issue form (IssueForm) of the list whose corpus
// is in dir: the fields of its own vocab.yaml, else those of the data
// directory dataFS (corpus.VocabularyFor), so that a list's form follows
// its own fields.
func ListIssueForm(dir string, dataFS fs.FS) ([]byte, error) {
	v, err := corpus.VocabularyFor(dir, dataFS)
	if err != nil {
		return nil, err
	}
	return IssueForm(v)
}

// UpdateIssueForm writes form to file (atomically, corpus.WriteFiles)
// or, with check, writes nothing and says whether file is stale: not
// the form, as masrl issue-form --check reports it. A file that cannot
// be read is the error, also with check: the form is where GitHub reads
// it, so a missing one is not up to date.
func UpdateIssueForm(file string, form []byte, check bool) (stale bool, err error) {
	if check {
		old, err := os.ReadFile(file)
		if err != nil {
			return false, err
		}
		return !bytes.Equal(old, form), nil
	}
	return false, corpus.WriteFiles(filepath.Dir(file), map[string][]byte{filepath.Base(file): form})
}

// SuggestionLabel is the label the form puts on every suggestion.
const SuggestionLabel = "paper-suggestion"

// formField is one question of the suggestion form. The same list writes
// the form (IssueForm) and reads a submitted issue (ParseIssue), so the
// two cannot drift apart: a submitted issue's body is "### LABEL" followed
// by the answer, for each question in order.
type formField struct {
	id, label, description, placeholder string
	kind                                string // input, textarea, dropdown or checkboxes
	required                            bool
	options                             []string // dropdown, checkboxes
	// field is the controlled field a dropdown or checkboxes answer.
	field *corpus.Field
}

// formFields are the form's questions: the paper's id, one dropdown per
// controlled field of papers.csv (its values in vocabulary order), the
// one-liner, an optional key and notes.
func formFields(v *corpus.Vocabulary) []formField {
	out := []formField{{
		id: "id", kind: "input", required: true, label: "arXiv id, arXiv URL or DOI",
		description: "The paper to add: 2606.01234, https://arxiv.org/abs/2606.01234 or a DOI such as 10.1145/3605764.3623985. Its title, authors, year and venue are fetched from arXiv or doi.org.",
		placeholder: "2606.01234",
	}}
	for _, f := range v.FieldsOf(corpus.PapersFile) {
		var desc strings.Builder
		desc.WriteString(oneLine(f.Definition))
		for _, t := range f.Values {
			fmt.Fprintf(&desc, "\n- `%s`: %s", t.Value, oneLine(t.Definition))
		}
		kind := "dropdown"
		if f.Multiple {
			// One box per value: a paper may sit under several.
			kind = "checkboxes"
			desc.WriteString("\n\nTick every value that applies, at least one.")
		}
		out = append(out, formField{
			id: f.Name, kind: kind, required: true, field: f,
			label: f.Label + " (" + f.Name + ")", description: desc.String(), options: f.Allowed(),
		})
	}
	return append(out,
		formField{id: "one_liner", kind: "input", required: true, label: "One-liner",
			description: "One sentence on the paper's contribution, shown in the list and on the site.",
			placeholder: "Learns a message router for coding agents with PPO"},
		formField{id: "key", kind: "input", label: "Key (optional)",
			description: "A lowercase slug for the entry (letters, digits, hyphens). Left empty, it is derived from the title or the first author.",
			placeholder: "orchestrarl"},
		formField{id: "notes", kind: "textarea", label: "Notes (optional)",
			description: "Anything the maintainers should know: why it belongs in the list, the version read, a venue the metadata lacks."},
	)
}

// IssueForm writes the GitHub issue form for suggesting a paper, generated
// from the vocabulary so that its dropdowns offer exactly the controlled
// values. The committed file is compared with it by a test.
func IssueForm(v *corpus.Vocabulary) ([]byte, error) {
	type attrs struct {
		Label       string `yaml:"label,omitempty"`
		Description string `yaml:"description,omitempty"`
		Placeholder string `yaml:"placeholder,omitempty"`
		Options     any    `yaml:"options,omitempty"` // []string, or []checkbox for checkboxes
		Value       string `yaml:"value,omitempty"`
	}
	type validations struct {
		Required bool `yaml:"required"`
	}
	type item struct {
		Type        string       `yaml:"type"`
		ID          string       `yaml:"id,omitempty"`
		Attributes  attrs        `yaml:"attributes"`
		Validations *validations `yaml:"validations,omitempty"`
	}
	form := struct {
		Name        string   `yaml:"name"`
		Description string   `yaml:"description"`
		Title       string   `yaml:"title"`
		Labels      []string `yaml:"labels"`
		Body        []item   `yaml:"body"`
	}{
		Name:        "Suggest a paper",
		Description: "Propose a paper for the list. A maintainer reviews the tags and labels the issue; a workflow then opens a pull request made with masrl add.",
		Title:       "Add paper: ",
		Labels:      []string{SuggestionLabel},
	}
	// The survey's vocabulary is data/vocab.yaml; a list's own is the
	// vocab.yaml beside its papers.csv.
	source, origin := "the survey's taxonomy (`data/vocab.yaml`)", "data/"+corpus.VocabFile
	if v.File != "" && v.File != "data/"+corpus.VocabFile {
		source = "the list's vocabulary (`" + corpus.VocabFile + "`)"
		origin = "the list's " + corpus.VocabFile
	}
	form.Body = append(form.Body, item{Type: "markdown", Attributes: attrs{Value: "Thank you for suggesting a paper. Pick each tag with its definition below; the definitions are those of " + source + ". A maintainer may adjust them before accepting."}})
	for _, f := range formFields(v) {
		it := item{Type: f.kind, ID: f.id, Attributes: attrs{Label: f.label, Description: f.description, Placeholder: f.placeholder}}
		if f.options != nil {
			it.Attributes.Options = f.options
		}
		if f.kind == "checkboxes" {
			// A checkbox's options are objects, and GitHub knows no
			// validations for the group: ParseIssue asks for one box.
			boxes := make([]checkbox, len(f.options))
			for i, o := range f.options {
				boxes[i] = checkbox{Label: o}
			}
			it.Attributes.Options = boxes
			form.Body = append(form.Body, it)
			continue
		}
		if f.required {
			it.Validations = &validations{Required: true}
		}
		form.Body = append(form.Body, it)
	}
	var b bytes.Buffer
	b.WriteString("# Generated by `masrl issue-form` from " + origin + "; do not edit.\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(form); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// checkbox is one option of an issue form's checkboxes.
type checkbox struct {
	Label string `yaml:"label"`
}

// checkedBoxes returns the labels GitHub wrote as ticked ("- [X] LABEL")
// in the answer of a checkboxes question.
func checkedBoxes(answer string) []string {
	var out []string
	for line := range strings.SplitSeq(answer, "\n") {
		line = strings.TrimSpace(line)
		for _, mark := range []string{"- [X] ", "- [x] "} {
			if v, ok := strings.CutPrefix(line, mark); ok {
				out = append(out, strings.TrimSpace(v))
			}
		}
	}
	return out
}

// Suggestion is a submitted suggestion form, read from the issue's body.
type Suggestion struct {
	ID       string
	Tags     map[string]string // controlled field → value
	OneLiner string
	Key      string
	Notes    string
}

// ParseIssue reads the body of an issue made with the suggestion form:
// "### LABEL", a blank line, the answer, for each question; GitHub writes
// "_No response_" for an empty optional answer. Every problem is reported:
// a missing required answer, a dropdown answer outside its options.
func ParseIssue(v *corpus.Vocabulary, body string) (*Suggestion, error) {
	body = strings.ReplaceAll(body, "\r\n", "\n")
	answers := map[string]string{}
	var label string
	var text []string
	flush := func() {
		if label != "" {
			answers[label] = strings.TrimSpace(strings.Join(text, "\n"))
		}
	}
	for line := range strings.SplitSeq(body, "\n") {
		if h, ok := strings.CutPrefix(line, "### "); ok {
			flush()
			label, text = strings.TrimSpace(h), nil
			continue
		}
		text = append(text, line)
	}
	flush()
	s := &Suggestion{Tags: map[string]string{}}
	var errs []string
	for _, f := range formFields(v) {
		a, ok := answers[f.label]
		if a == "_No response_" || (a == "None" && f.kind == "dropdown") {
			a = ""
		}
		if f.kind == "checkboxes" {
			ticked := checkedBoxes(a)
			if len(ticked) == 0 {
				a = ""
			}
			var bad []string
			for _, t := range ticked {
				if !slices.Contains(f.options, t) {
					bad = append(bad, t)
				}
			}
			if len(bad) > 0 {
				errs = append(errs, fmt.Sprintf("%q: %q is not one of %s", f.label, strings.Join(bad, ", "), strings.Join(f.options, ", ")))
				continue
			}
			if a != "" {
				s.Tags[f.id] = f.field.Canonical(f.field.Join(ticked))
				continue
			}
		}
		if a == "" {
			if f.required {
				if !ok {
					errs = append(errs, fmt.Sprintf("no %q section", f.label))
				} else {
					errs = append(errs, fmt.Sprintf("%q has no answer", f.label))
				}
			}
			continue
		}
		switch {
		case f.kind == "dropdown":
			if !slices.Contains(f.options, a) {
				errs = append(errs, fmt.Sprintf("%q: %q is not one of %s", f.label, a, strings.Join(f.options, ", ")))
				continue
			}
			s.Tags[f.id] = a
		case f.id == "id":
			s.ID = oneLine(a)
		case f.id == "one_liner":
			s.OneLiner = oneLine(a)
		case f.id == "key":
			s.Key = oneLine(a)
		case f.id == "notes":
			s.Notes = oneLine(a)
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("the issue is not a complete suggestion form:\n  %s", strings.Join(errs, "\n  "))
	}
	return s, nil
}
