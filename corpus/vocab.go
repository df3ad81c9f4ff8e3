package corpus

import (
	"bytes"
	"io/fs"
	"regexp"
	"slices"
	"strings"

	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/internal/suggest"
	"go.yaml.in/yaml/v3"
)

// Vocabulary is the set of controlled fields with their allowed values, in
// the survey's order. One Vocabulary drives validation, counting order and
// every taxonomy page, so values no entry uses are still listed.
//
// A list declares its own in a vocab.yaml beside its papers.csv (see the
// package documentation); without one, the data directory's applies.
type Vocabulary struct {
	// Columns, when given, is the exact header of papers.csv, in order
	// (the survey's 18 columns). Without it the header may hold its
	// columns in any order: key, title, year, url and every controlled
	// field of papers.csv are required, and any other column is free text.
	Columns []string `yaml:"columns,omitempty" json:"columns,omitempty"`
	// CrossTabs are the pairs of controlled fields of papers.csv that the
	// statistics and the site's coverage page cross-tabulate by default,
	// rows first.
	CrossTabs [][2]string `yaml:"crosstabs,omitempty" json:"crosstabs,omitempty"`
	Fields    []*Field    `yaml:"fields" json:"fields"`
	// Links are the columns of papers.csv that hold one web link each,
	// such as code and project: the README, the site and the search show
	// them as labelled links, and masrl links checks them.
	Links []*LinkColumn `yaml:"links,omitempty" json:"links,omitempty"`
	// File is the file the vocabulary was read from, for positions.
	File string `yaml:"-" json:"-"`
}

// Field is one controlled column.
type Field struct {
	Name  string `yaml:"name" json:"name"`
	Label string `yaml:"label" json:"label"`
	// File is the CSV the field belongs to: papers.csv (the default) or
	// excluded.csv.
	File       string  `yaml:"file" json:"file"`
	Source     string  `yaml:"source" json:"source"`
	Definition string  `yaml:"definition" json:"definition"`
	Values     []*Term `yaml:"values" json:"values"`
	// ListOrder is the order the paper list groups entries by this
	// field's values (category's); values it does not name follow in
	// vocabulary order.
	ListOrder []string `yaml:"list_order,omitempty" json:"list_order,omitempty"`
	// Multiple lets a row hold several values of the field, separated by
	// ';' in its cell: a paper an awesome list files under two headings
	// keeps both. The survey's fields hold one value each.
	Multiple bool `yaml:"multiple,omitempty" json:"multiple,omitempty"`
}

// ValueSeparator separates the values of a multi-valued field's cell.
const ValueSeparator = ";"

// Split returns the values a cell of the field holds, in cell order: the
// cell itself for a single-valued field, its ';'-separated pieces, trimmed,
// for a multi-valued one (an empty cell holds none). It is the one
// definition of a cell's values that check, counts, the site, the README
// and the search index share.
func (f *Field) Split(cell string) []string {
	if !f.Multiple {
		return []string{cell}
	}
	if strings.TrimSpace(cell) == "" {
		return nil
	}
	parts := strings.Split(cell, ValueSeparator)
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return parts
}

// Canonical returns a cell of a multi-valued field in canonical form:
// its values in vocabulary order, values outside the vocabulary after
// them in cell order, separated by "; ". Empty and repeated values stay
// (check reports them; fmt does not guess); a single-valued field's cell
// is returned as it is.
func (f *Field) Canonical(cell string) string {
	if !f.Multiple || strings.TrimSpace(cell) == "" {
		return cell
	}
	vals := f.Split(cell)
	slices.SortStableFunc(vals, func(a, b string) int {
		i, j := f.Index(a), f.Index(b)
		switch {
		case i < 0 && j < 0:
			return 0
		case i < 0:
			return 1
		case j < 0:
			return -1
		}
		return i - j
	})
	return f.Join(vals)
}

// Join writes values as a cell of the field: ';'-separated for a
// multi-valued field (the canonical "a; b"), the one value otherwise.
func (f *Field) Join(values []string) string {
	return strings.Join(values, ValueSeparator+" ")
}

// LinkColumn is a column of papers.csv holding one http(s) link per row
// (or none), shown as a link labelled Label.
type LinkColumn struct {
	Name  string `yaml:"name" json:"name"`
	Label string `yaml:"label" json:"label"`
}

// LinkColumn returns the link column called name, or nil.
func (v *Vocabulary) LinkColumn(name string) *LinkColumn {
	for _, l := range v.Links {
		if l.Name == name {
			return l
		}
	}
	return nil
}

// Term is one allowed value of a controlled field.
type Term struct {
	Value      string `yaml:"value" json:"value"`
	Label      string `yaml:"label" json:"label"`
	ID         string `yaml:"id,omitempty" json:"id,omitempty"` // the survey's ID, e.g. R7
	Definition string `yaml:"definition" json:"definition"`
	// Parent, when set, is another value of the same field that this one
	// refines: a field's values form a tree of any depth, and a row
	// tagged with a value counts under each of its ancestors once.
	Parent string `yaml:"parent,omitempty" json:"parent,omitempty"`
}

// Nested reports whether a value of the field names a parent.
func (f *Field) Nested() bool {
	return slices.ContainsFunc(f.Values, func(t *Term) bool { return t.Parent != "" })
}

// Ancestors returns the parents of value, nearest first; nothing for a
// root or an unknown value. ParseVocabulary refuses cycles, so the walk
// ends; it stops at a repeat all the same.
func (f *Field) Ancestors(value string) []string {
	var out []string
	for t := f.Term(value); t != nil && t.Parent != ""; t = f.Term(t.Parent) {
		if t.Parent == value || slices.Contains(out, t.Parent) {
			break
		}
		out = append(out, t.Parent)
	}
	return out
}

// CountedUnder returns the values a row whose cell of the field is cell
// counts under: its values (Split) and, in a nested field, their
// ancestors, each once.
func (f *Field) CountedUnder(cell string) []string {
	vals := f.Split(cell)
	if f.Nested() {
		return f.Rolled(vals)
	}
	return vals
}

// countsMany reports whether a row may count under several values of
// the field: a multi-valued or a nested one.
func (f *Field) countsMany() bool { return f.Multiple || f.Nested() }

// Depth is the number of ancestors of value: 0 for a root.
func (f *Field) Depth(value string) int { return len(f.Ancestors(value)) }

// Rolled returns vals with each one's ancestors after it, every value
// once: the values a row counts under in a nested field.
func (f *Field) Rolled(vals []string) []string {
	var out []string
	for _, v := range vals {
		for _, a := range append([]string{v}, f.Ancestors(v)...) {
			if !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

// VocabFile is the name of a vocabulary, in a data directory or beside a
// list's papers.csv.
const VocabFile = "vocab.yaml"

// DefaultVocabulary parses the vocabulary embedded from data/vocab.yaml.
func DefaultVocabulary() (*Vocabulary, error) {
	return LoadVocabulary(data.FS)
}

// LoadVocabulary parses vocab.yaml of a data directory (data.Dir).
func LoadVocabulary(fsys fs.FS) (*Vocabulary, error) {
	b, err := fs.ReadFile(fsys, VocabFile)
	if err != nil {
		return nil, err
	}
	return ParseVocabulary("data/"+VocabFile, b)
}

// VocabularyError lists every problem of a vocabulary file, each at its
// file:line:col; its message holds them all, one per line.
type VocabularyError struct {
	Diagnostics Diagnostics
}

func (e *VocabularyError) Error() string {
	lines := make([]string, len(e.Diagnostics))
	for i, d := range e.Diagnostics {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// Keys a vocabulary file may use, by level.
var (
	vocabKeys = []string{"columns", "crosstabs", "fields", "links"}
	linkKeys  = []string{"name", "label"}
	fieldKeys = []string{"name", "label", "file", "source", "definition", "values", "list_order", "multiple"}
	termKeys  = []string{"value", "label", "id", "definition", "parent"}
)

// requiredColumns are the columns of papers.csv masrl itself needs.
var requiredColumns = [...]string{"key", "title", "year", "url"}

// fieldNamePattern is what a controlled field's name must look like: it
// becomes a CSV column, a URL path segment (taxonomy/NAME/), an HTML data
// attribute and a JSON key.
var fieldNamePattern = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// ParseVocabulary decodes a vocabulary file and checks that it is usable,
// reporting every problem at once with its position (a *VocabularyError):
// unknown keys (with the nearest known one), values of the wrong type,
// fields without a name or values, repeated fields or values, names that
// cannot be columns, list orders and columns that name what is not there.
// A list's vocab.yaml is untrusted input: nothing in it can panic.
func ParseVocabulary(name string, b []byte) (*Vocabulary, error) {
	vp := &vocabParser{file: name, src: b, lines: yamlLines(b)}
	var root yaml.Node
	if err := yaml.Unmarshal(b, &root); err != nil {
		vp.yamlError(err)
		return nil, vp.err()
	}
	var v Vocabulary
	v.File = name
	if len(root.Content) == 0 {
		vp.add(&root, "empty: a vocabulary needs fields")
		return nil, vp.err()
	}
	doc := root.Content[0]
	if doc.Kind != yaml.MappingNode {
		vp.add(doc, "a vocabulary is a mapping with fields (and optionally columns, crosstabs)")
		return nil, vp.err()
	}
	vp.keys(doc, vocabKeys, "")
	// yaml reports a pair of the wrong length without a line.
	if xt := vp.value(doc, "crosstabs"); xt != nil && xt.Kind == yaml.SequenceNode {
		bad := false
		for _, pair := range xt.Content {
			if pair.Kind != yaml.SequenceNode || len(pair.Content) != 2 {
				vp.add(pair, "crosstabs: each entry is a pair [ROWS, COLS] of controlled fields of %s", PapersFile)
				bad = true
			}
		}
		if bad {
			return nil, vp.err()
		}
	}
	if err := doc.Decode(&v); err != nil {
		vp.yamlError(err)
		return nil, vp.err()
	}
	v.File = name
	fieldsNode := vp.value(doc, "fields")
	if fieldsNode == nil || len(v.Fields) == 0 {
		vp.add(doc, "no fields: declare at least one controlled field")
	}
	if len(v.Fields) > 0 && !slices.ContainsFunc(v.Fields, func(f *Field) bool { return f != nil && (f.File == "" || f.File == PapersFile) }) {
		vp.add(fieldsNode, "no field of %s: the list is grouped by one", PapersFile)
	}
	seen := map[string]bool{}
	for i, f := range v.Fields {
		fn := vp.item(fieldsNode, i)
		if f == nil {
			vp.add(fn, "an empty field; give it a name and values")
			v.Fields[i] = &Field{}
			continue
		}
		vp.keys(fn, fieldKeys, "field ")
		if f.File == "" {
			f.File = PapersFile
		}
		switch {
		case f.Name == "":
			vp.add(fn, "a field needs a name")
		case !fieldNamePattern.MatchString(f.Name):
			vp.add(vp.value(fn, "name"), "field name %q: use lowercase letters, digits and _ (it becomes a column and a URL path)", f.Name)
		case seen[f.Name]:
			vp.add(vp.value(fn, "name"), "field %q defined twice", f.Name)
		case f.File == PapersFile && (slices.Contains(requiredColumns[:], f.Name) || slices.Contains(freeColumns[:], f.Name)):
			vp.add(vp.value(fn, "name"), "field %q: %s is a column masrl reads as text; a controlled field needs its own name", f.Name, f.Name)
		}
		seen[f.Name] = true
		if f.File != PapersFile && f.File != ExcludedFile {
			vp.add(vp.value(fn, "file"), "field %q: file %q; allowed: %s, %s", f.Name, f.File, PapersFile, ExcludedFile)
		}
		if f.Multiple && f.File != PapersFile {
			vp.add(vp.value(fn, "multiple"), "field %q: multiple: only a field of %s may hold several values", f.Name, PapersFile)
		}
		if len(f.Values) == 0 {
			vp.add(fn, "field %q needs values", f.Name)
		}
		valuesNode := vp.value(fn, "values")
		vals := map[string]bool{}
		for j, t := range f.Values {
			tn := vp.item(valuesNode, j)
			if t == nil {
				vp.add(tn, "field %q: an empty value", f.Name)
				f.Values[j] = &Term{}
				continue
			}
			vp.keys(tn, termKeys, "value ")
			switch {
			case t.Value == "":
				vp.add(tn, "field %q: a value needs value:", f.Name)
			case vals[t.Value]:
				vp.add(vp.value(tn, "value"), "field %q: value %q repeated", f.Name, t.Value)
			case strings.TrimSpace(t.Value) != t.Value || strings.ContainsAny(t.Value, ";\n"):
				vp.add(vp.value(tn, "value"), "field %q: value %q has white space at an end, a ';' or a line break", f.Name, t.Value)
			}
			vals[t.Value] = true
		}
		for j, t := range f.Values {
			if t == nil || t.Parent == "" {
				continue
			}
			tn := vp.item(valuesNode, j)
			if !vals[t.Parent] {
				d := vp.add(vp.value(tn, "parent"), "field %q: value %q: parent %q is not a value of the field", f.Name, t.Value, t.Parent)
				d.Nearest = suggest.Nearest(t.Parent, f.Allowed())
				continue
			}
			// A cycle: following parents from t comes back to t.
			seenUp := map[string]bool{t.Value: true}
			for p := f.Term(t.Parent); p != nil; p = f.Term(p.Parent) {
				if seenUp[p.Value] {
					if p.Value == t.Value {
						vp.add(vp.value(tn, "parent"), "field %q: value %q: its parents lead back to it (a cycle); the values of a field form a tree", f.Name, t.Value)
					}
					break
				}
				seenUp[p.Value] = true
				if p.Parent == "" {
					break
				}
			}
		}
		listed := map[string]bool{}
		lo := vp.value(fn, "list_order")
		for j, val := range f.ListOrder {
			if !vals[val] || listed[val] {
				d := vp.add(vp.item(lo, j), "field %q: list_order: %q is not a value of the field or repeats", f.Name, val)
				if !vals[val] {
					d.Nearest = suggest.Nearest(val, f.Allowed())
				}
			}
			listed[val] = true
		}
	}
	linksNode := vp.value(doc, "links")
	for j, l := range v.Links {
		ln := vp.item(linksNode, j)
		if l == nil {
			vp.add(ln, "links: an empty link column; give it a name and a label")
			v.Links[j] = &LinkColumn{}
			continue
		}
		vp.keys(ln, linkKeys, "link ")
		switch {
		case !fieldNamePattern.MatchString(l.Name):
			vp.add(ln, "link column %q: use lowercase letters, digits and _ (it is a column of %s)", l.Name, PapersFile)
		case seen[l.Name] || IsEntryColumn(l.Name):
			vp.add(vp.value(ln, "name"), "link column %q: the name of a controlled field, another link column or a column masrl reads; give it its own", l.Name)
		case l.Label == "":
			vp.add(ln, "link column %q needs a label, the link's text (code, project, ...)", l.Name)
		}
		seen[l.Name] = true
	}
	cols := vp.value(doc, "columns")
	if v.Columns != nil {
		have := map[string]bool{}
		for j, c := range v.Columns {
			if have[c] || c == "" {
				vp.add(vp.item(cols, j), "columns: %q is empty or repeated", c)
			}
			have[c] = true
		}
		var want []string
		want = append(want, requiredColumns[:]...)
		for _, f := range v.FieldsOf(PapersFile) {
			want = append(want, f.Name)
		}
		for _, w := range want {
			if !have[w] {
				vp.add(cols, "columns: %q is missing (key, title, year, url and every controlled field of %s are required)", w, PapersFile)
			}
		}
	}
	xt := vp.value(doc, "crosstabs")
	for j, p := range v.CrossTabs {
		for k, name := range p {
			if f := v.Field(name); f == nil || f.File != PapersFile {
				d := vp.add(vp.item(vp.item(xt, j), k), "crosstabs: %q is not a controlled field of %s", name, PapersFile)
				var names []string
				for _, f := range v.FieldsOf(PapersFile) {
					names = append(names, f.Name)
				}
				d.Nearest = suggest.Nearest(name, names)
			}
		}
		if p[0] == p[1] {
			vp.add(vp.item(xt, j), "crosstabs: %s against itself", p[0])
		}
	}
	if err := vp.err(); err != nil {
		return nil, err
	}
	return &v, nil
}

// vocabParser gathers the problems of one vocabulary file with their
// positions in its YAML nodes.
type vocabParser struct {
	file  string
	src   []byte
	lines int // in the input, so that no position lies past its end
	diags Diagnostics
}

// yamlLines counts the lines of b as YAML breaks them: at LF, CR LF and a
// lone CR.
func yamlLines(b []byte) int {
	return bytes.Count(b, []byte("\n")) + bytes.Count(b, []byte("\r")) - bytes.Count(b, []byte("\r\n")) + 1
}

// add reports a problem at node n (the start of the file when n is nil).
func (vp *vocabParser) add(n *yaml.Node, format string, args ...any) *Diagnostic {
	p := Pos{File: vp.file, Line: 1, Col: 1}
	if n != nil && n.Line > 0 {
		p.Line, p.Col = n.Line, n.Column
	}
	if p.Line > vp.lines { // an empty document's node sits after the end
		p.Line, p.Col = vp.lines, 1
	}
	return vp.diags.add(Error, p, "", "", format, args...)
}

// yamlError reports a syntax or type error of the YAML decoder, each of
// its problems at the line it names (yamlProblems).
func (vp *vocabParser) yamlError(err error) {
	for _, d := range yamlProblems(vp.file, vp.src, err, 0) {
		d.Pos.Line = min(d.Pos.Line, vp.lines)
		vp.diags = append(vp.diags, d)
	}
}

// keys reports every key of the mapping n that is not one of known, with
// the nearest known key.
func (vp *vocabParser) keys(n *yaml.Node, known []string, what string) {
	if n == nil || n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if !slices.Contains(known, k.Value) {
			d := vp.add(k, "unknown %skey %q; allowed: %s", what, k.Value, strings.Join(known, ", "))
			d.Nearest = suggest.Nearest(k.Value, known)
		}
	}
}

// value returns the value node of key in the mapping n, or nil.
func (vp *vocabParser) value(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// item returns element i of the sequence n, or n itself when it is no
// sequence that long (the position is then the sequence's).
func (vp *vocabParser) item(n *yaml.Node, i int) *yaml.Node {
	if n != nil && n.Kind == yaml.SequenceNode && i < len(n.Content) {
		return n.Content[i]
	}
	return n
}

func (vp *vocabParser) err() error {
	if len(vp.diags) == 0 {
		return nil
	}
	vp.diags.Sort()
	return &VocabularyError{Diagnostics: vp.diags}
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
