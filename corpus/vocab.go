package corpus

import (
	"bytes"
	"fmt"
	"io/fs"
	"slices"

	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/internal/suggest"
	"go.yaml.in/yaml/v3"
)

// Vocabulary is the set of controlled fields with their allowed values, in
// the survey's order. One Vocabulary drives validation, counting order and
// every taxonomy page, so values no entry uses are still listed.
type Vocabulary struct {
	Fields []*Field `yaml:"fields" json:"fields"`
}

// Field is one controlled column.
type Field struct {
	Name       string  `yaml:"name" json:"name"`
	Label      string  `yaml:"label" json:"label"`
	File       string  `yaml:"file" json:"file"` // papers.csv or excluded.csv
	Source     string  `yaml:"source" json:"source"`
	Definition string  `yaml:"definition" json:"definition"`
	Values     []*Term `yaml:"values" json:"values"`
	// ListOrder is the order the paper list groups entries by this
	// field's values (category's); values it does not name follow in
	// vocabulary order.
	ListOrder []string `yaml:"list_order,omitempty" json:"list_order,omitempty"`
}

// Term is one allowed value of a controlled field.
type Term struct {
	Value      string `yaml:"value" json:"value"`
	Label      string `yaml:"label" json:"label"`
	ID         string `yaml:"id,omitempty" json:"id,omitempty"` // the survey's ID, e.g. R7
	Definition string `yaml:"definition" json:"definition"`
}

// DefaultVocabulary parses the vocabulary embedded from data/vocab.yaml.
func DefaultVocabulary() (*Vocabulary, error) {
	return LoadVocabulary(data.FS)
}

// LoadVocabulary parses vocab.yaml of a data directory (data.Dir).
func LoadVocabulary(fsys fs.FS) (*Vocabulary, error) {
	b, err := fs.ReadFile(fsys, "vocab.yaml")
	if err != nil {
		return nil, err
	}
	return ParseVocabulary("data/vocab.yaml", b)
}

// ParseVocabulary decodes a vocabulary file and checks that it is usable:
// every field has a name and at least one value, and no value repeats.
func ParseVocabulary(name string, b []byte) (*Vocabulary, error) {
	var v Vocabulary
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	seen := map[string]bool{}
	for _, f := range v.Fields {
		if f.Name == "" || len(f.Values) == 0 {
			return nil, fmt.Errorf("%s: field %q needs a name and values", name, f.Name)
		}
		if seen[f.Name] {
			return nil, fmt.Errorf("%s: field %q defined twice", name, f.Name)
		}
		seen[f.Name] = true
		vals := map[string]bool{}
		for _, t := range f.Values {
			if t.Value == "" || vals[t.Value] {
				return nil, fmt.Errorf("%s: field %q: empty or repeated value %q", name, f.Name, t.Value)
			}
			vals[t.Value] = true
		}
		listed := map[string]bool{}
		for _, val := range f.ListOrder {
			if !vals[val] || listed[val] {
				return nil, fmt.Errorf("%s: field %q: list_order: %q is not a value of the field or repeats", name, f.Name, val)
			}
			listed[val] = true
		}
	}
	return &v, nil
}

// Field returns the controlled field with the given column name, or nil.
func (v *Vocabulary) Field(name string) *Field {
	for _, f := range v.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// FieldsOf returns the controlled fields of one CSV file, in vocabulary order.
func (v *Vocabulary) FieldsOf(file string) []*Field {
	var out []*Field
	for _, f := range v.Fields {
		if f.File == file {
			out = append(out, f)
		}
	}
	return out
}

// Term returns the term for value, or nil when value is not allowed.
// The match is case-sensitive: a tag is an identifier, not prose.
func (f *Field) Term(value string) *Term {
	for _, t := range f.Values {
		if t.Value == value {
			return t
		}
	}
	return nil
}

// Index returns the position of value in the vocabulary order, or -1.
func (f *Field) Index(value string) int {
	return slices.IndexFunc(f.Values, func(t *Term) bool { return t.Value == value })
}

// Allowed lists the allowed values in vocabulary order.
func (f *Field) Allowed() []string {
	out := make([]string, len(f.Values))
	for i, t := range f.Values {
		out[i] = t.Value
	}
	return out
}

// Nearest returns the allowed value closest to a near miss: the same value
// in another case, or one within two edits. It returns "" when nothing is
// close enough to be a plausible typo.
func (f *Field) Nearest(value string) string {
	return suggest.Nearest(value, f.Allowed())
}
