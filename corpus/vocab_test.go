package corpus

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestListGroups: the list's order is vocab.yaml's list_order, then
// the categories it leaves out, in vocabulary order.
func TestListGroups(t *testing.T) {
	v, err := DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	if got := ListGroups(v); !slices.Equal(got, []string{"rl_method", "framework", "benchmark", "survey", "industry", "classical_marl"}) {
		t.Errorf("ListGroups = %v", got)
	}
	src := "fields:\n  - name: category\n    list_order: [b]\n    values: [{value: a}, {value: b}, {value: c}]\n"
	v, err = ParseVocabulary("vocab.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := ListGroups(v); !slices.Equal(got, []string{"b", "a", "c"}) {
		t.Errorf("ListGroups = %v, want [b a c]", got)
	}
	// A nested field: each value right after its parent, depth first,
	// wherever vocab.yaml or list_order writes it.
	tree := "fields:\n  - name: area\n    list_order: [z, a]\n    values: [{value: leaf, parent: mid}, {value: a}, {value: mid, parent: a}, {value: z}, {value: b, parent: a}, {value: zc, parent: z}]\n"
	v, err = ParseVocabulary("vocab.yaml", []byte(tree))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ListGroups(v), []string{"z", "zc", "a", "mid", "leaf", "b"}; !slices.Equal(got, want) {
		t.Errorf("ListGroups of a tree = %v, want %v", got, want)
	}
	for _, order := range []string{"[x]", "[a, a]"} {
		_, err := ParseVocabulary("vocab.yaml", []byte(strings.Replace(src, "[b]", order, 1)))
		if err == nil || !strings.Contains(err.Error(), "list_order") {
			t.Errorf("list_order %s: error %v, want one naming list_order", order, err)
		}
	}
}

// TestParseVocabularyErrors: every problem of a vocabulary file is
// reported at once, each at the line and column of the YAML that holds
// it, with the nearest allowed key or value where there is one.
func TestParseVocabularyErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"unknown keys", "fields:\n  - name: topic\n    lable: Topic\n    values:\n      - value: a\n        defintion: x\ncolums: [key]\n", []string{
			`v.yaml:3:5: error: unknown field key "lable"; allowed: name, label, file, source, definition, values, list_order, multiple; did you mean "label"?`,
			`v.yaml:6:9: error: unknown value key "defintion"; allowed: value, label, id, definition, parent; did you mean "definition"?`,
			`v.yaml:7:1: error: unknown key "colums"; allowed: columns, crosstabs, fields, links; did you mean "columns"?`,
		}},
		{"repeats and names", "fields:\n  - name: Topic\n    values: [{value: a}, {value: a}]\n  - name: year\n    values: [{value: b}]\n  - name: topic2\n    file: other.csv\n    values: []\n", []string{
			`v.yaml:2:11: error: field name "Topic": use lowercase letters, digits and _ (it becomes a column and a URL path)`,
			`v.yaml:3:34: error: field "Topic": value "a" repeated`,
			`v.yaml:4:11: error: field "year": year is a column masrl reads as text; a controlled field needs its own name`,
			`v.yaml:6:5: error: field "topic2" needs values`,
			`v.yaml:7:11: error: field "topic2": file "other.csv"; allowed: papers.csv, excluded.csv`,
		}},
		{"orders and tables", "crosstabs: [[topic, levle]]\ncolumns: [key, title, year]\nfields:\n  - name: topic\n    list_order: [b, elsewhere]\n    values: [{value: a}, {value: b}]\n  - name: level\n    values: [{value: low}]\n", []string{
			`v.yaml:1:21: error: crosstabs: "levle" is not a controlled field of papers.csv; did you mean "level"?`,
			`v.yaml:2:10: error: columns: "url" is missing (key, title, year, url and every controlled field of papers.csv are required)`,
			`v.yaml:2:10: error: columns: "topic" is missing (key, title, year, url and every controlled field of papers.csv are required)`,
			`v.yaml:2:10: error: columns: "level" is missing (key, title, year, url and every controlled field of papers.csv are required)`,
			`v.yaml:5:21: error: field "topic": list_order: "elsewhere" is not a value of the field or repeats`,
		}},
		{"wrong types", "fields:\n  - name: topic\n    values: 3\n", []string{
			`v.yaml:3: error: "3" is a number; want a list`,
		}},
		{"crosstab not a pair", "crosstabs:\n  - [topic, level, topic]\n  - topic\nfields:\n  - name: topic\n    values: [{value: a}]\n  - name: level\n    values: [{value: low}]\n", []string{
			`v.yaml:2:5: error: crosstabs: each entry is a pair [ROWS, COLS] of controlled fields of papers.csv`,
			`v.yaml:3:5: error: crosstabs: each entry is a pair [ROWS, COLS] of controlled fields of papers.csv`,
		}},
		{"syntax", "fields:\n  - name: [\n", []string{
			`v.yaml:2: error: did not find expected node content`,
		}},
		{"no fields", "crosstabs: []\n", []string{
			`v.yaml:1:1: error: no fields: declare at least one controlled field`,
		}},
		{"not a mapping", "- a\n", []string{
			`v.yaml:1:1: error: a vocabulary is a mapping with fields (and optionally columns, crosstabs)`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseVocabulary("v.yaml", []byte(tc.src))
			var ve *VocabularyError
			if !errors.As(err, &ve) {
				t.Fatalf("error %v, want a *VocabularyError", err)
			}
			var got []string
			for _, d := range ve.Diagnostics {
				got = append(got, d.String())
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tc.want))
			if !slices.Equal(got, want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if err.Error() != strings.Join(func() []string {
				var s []string
				for _, d := range ve.Diagnostics {
					s = append(s, d.String())
				}
				return s
			}(), "\n") {
				t.Errorf("Error() does not list every problem: %s", err)
			}
		})
	}
}

// FuzzParseVocabulary: a list's vocab.yaml is untrusted input. Parsing
// never panics; a vocabulary it accepts is usable (every field named,
// with values, none repeated), and every position it reports lies in the
// input.
func FuzzParseVocabulary(f *testing.F) {
	// The survey's vocab.yaml (25 KB) is left out: minimizing inputs that
	// large kept the fuzzer's workers from running at all.
	for _, p := range []string{"../testdata/lists/gnnx/corpus/vocab.yaml"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("fields:\n  - name: topic\n    values: [{value: a}]\ncrosstabs: [[topic, topic, topic]]\n"))
	f.Add([]byte("fields: [null, {name: a, values: [null]}]\ncolumns: [null]\n"))
	f.Add([]byte("&a [*a]"))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := ParseVocabulary("v.yaml", b)
		if err != nil {
			var ve *VocabularyError
			if !errors.As(err, &ve) || len(ve.Diagnostics) == 0 {
				t.Fatalf("error %v is not a *VocabularyError with findings", err)
			}
			// YAML breaks lines at LF, CR LF and a lone CR.
			lines := bytes.Count(b, []byte("\n")) + bytes.Count(b, []byte("\r")) - bytes.Count(b, []byte("\r\n")) + 1
			for _, d := range ve.Diagnostics {
				if d.Pos.File != "v.yaml" || d.Pos.Line > lines {
					t.Errorf("%s: position outside the input of %d lines", d, lines)
				}
			}
			return
		}
		if len(v.FieldsOf(PapersFile)) == 0 || v.ListField() == nil {
			t.Fatalf("accepted a vocabulary without a field of papers.csv")
		}
		seen := map[string]bool{}
		for _, fd := range v.Fields {
			if fd == nil || !fieldNamePattern.MatchString(fd.Name) || len(fd.Values) == 0 || seen[fd.Name] {
				t.Fatalf("accepted an unusable field %+v", fd)
			}
			seen[fd.Name] = true
			vals := map[string]bool{}
			for _, tm := range fd.Values {
				if tm == nil || tm.Value == "" || vals[tm.Value] {
					t.Fatalf("field %s: accepted an empty or repeated value", fd.Name)
				}
				vals[tm.Value] = true
			}
		}
		for _, p := range v.CrossTabs {
			if v.Field(p[0]) == nil || v.Field(p[1]) == nil {
				t.Fatalf("accepted a cross-tab %v of unknown fields", p)
			}
		}
	})
}
