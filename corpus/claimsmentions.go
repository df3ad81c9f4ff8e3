package corpus

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Mentions are the survey's own words about the papers of its pool: the
// number each has in its References list, and the table rows, figures,
// Appendix A cards and sections that name it, each at its line of
// survey.txt. They are data transcribed from the paper (the claims
// file's mentions file, survey-mentions.yaml), never read from the paper
// at build time: a list of one's own has no paper, and the site shows
// them only for the survey.
type Mentions struct {
	// Sections are the survey's headings in order, each at the line its
	// part begins: the claims page groups the claims by them.
	Sections   []Section
	References []Reference
	// ByKey holds each key's mentions in the order of the paper.
	ByKey map[string][]Mention
	File  string
}

// Reference is one numbered item of the survey's References list and
// the retained row it cites.
type Reference struct {
	Number  int    `json:"n"`
	Key     string `json:"key"`
	Line    int    `json:"line"`
	Printed string `json:"printed"`
	Pos     Pos    `json:"-"`
}

// Mention is one place of the survey that names a paper: In says where
// ("Table 10, R5", "Figure 12", "Appendix A.2 card", "Section 6.3"),
// Line is its line of survey.txt and Printed the words printed there.
type Mention struct {
	In      string `json:"in"`
	Line    int    `json:"line"`
	Printed string `json:"printed"`
	Pos     Pos    `json:"-"`
}

// Section is one heading of the survey and the line it is printed on.
type Section struct {
	Line  int    `json:"line"`
	Title string `json:"title"`
	Pos   Pos    `json:"-"`
}

// SectionAt returns the section a line of survey.txt falls in: the last
// heading at or before it; nil before the first, or without sections.
func (m *Mentions) SectionAt(line int) *Section {
	if m == nil || line <= 0 {
		return nil
	}
	i, _ := slices.BinarySearchFunc(m.Sections, line+1, func(s Section, l int) int { return s.Line - l })
	if i == 0 {
		return nil
	}
	return &m.Sections[i-1]
}

// Reference returns the reference of a key, nil when the survey's
// References list has none for it.
func (m *Mentions) Reference(key string) *Reference {
	if m == nil {
		return nil
	}
	for i := range m.References {
		if m.References[i].Key == key {
			return &m.References[i]
		}
	}
	return nil
}

// Of returns a key's mentions in the order of the paper.
func (m *Mentions) Of(key string) []Mention {
	if m == nil {
		return nil
	}
	return m.ByKey[key]
}

// ParseMentions decodes a mentions file: every reference numbered in
// order from 1 with a key of its own, every mention of a key that has a
// reference, each with a line and its printed words. All problems are
// reported, each at its line.
func ParseMentions(name string, b []byte) (*Mentions, error) {
	var doc struct {
		Sections   []yaml.Node `yaml:"sections"`
		References []yaml.Node `yaml:"references"`
		Mentions   yaml.Node   `yaml:"mentions"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var errs Diagnostics
	errorf := func(line int, format string, args ...any) {
		errs.add(Error, Pos{File: name, Line: line}, "", "", format, args...)
	}
	m := &Mentions{ByKey: map[string][]Mention{}, File: name}
	for i := range doc.Sections {
		n := &doc.Sections[i]
		var sec Section
		if err := n.Decode(&sec); err != nil || sec.Line <= 0 || sec.Title == "" {
			errorf(n.Line, "a section needs its title and the line of survey.txt it is printed on")
			continue
		}
		if k := len(m.Sections); k > 0 && m.Sections[k-1].Line >= sec.Line {
			errorf(n.Line, "section %q (line %d) does not follow %q (line %d): the sections are in the order of the paper", sec.Title, sec.Line, m.Sections[k-1].Title, m.Sections[k-1].Line)
			continue
		}
		sec.Pos = Pos{File: name, Line: n.Line}
		m.Sections = append(m.Sections, sec)
	}
	seen := map[string]int{}
	for i := range doc.References {
		n := &doc.References[i]
		var r struct {
			N       int    `yaml:"n"`
			Key     string `yaml:"key"`
			Line    int    `yaml:"line"`
			Printed string `yaml:"printed"`
		}
		if err := n.Decode(&r); err != nil {
			errorf(n.Line, "%v", err)
			continue
		}
		switch {
		case r.N != i+1:
			errorf(n.Line, "reference %d follows [%d]: the references are numbered in order from 1, so this one is [%d]", r.N, i, i+1)
		case r.Key == "" || r.Line <= 0 || r.Printed == "":
			errorf(n.Line, "reference [%d] needs a key, its line of survey.txt and its printed words", r.N)
		case seen[r.Key] > 0:
			errorf(n.Line, "reference [%d] cites %s, which reference [%d] cites already", r.N, r.Key, seen[r.Key])
		default:
			seen[r.Key] = r.N
			m.References = append(m.References, Reference{Number: r.N, Key: r.Key, Line: r.Line, Printed: r.Printed, Pos: Pos{File: name, Line: n.Line}})
		}
	}
	if !doc.Mentions.IsZero() && doc.Mentions.Kind != yaml.MappingNode {
		errorf(doc.Mentions.Line, "mentions must map each key to its mentions")
	}
	for i := 0; i+1 < len(doc.Mentions.Content); i += 2 {
		kn, vn := doc.Mentions.Content[i], doc.Mentions.Content[i+1]
		if seen[kn.Value] == 0 {
			errorf(kn.Line, "mentions of %s, which no reference cites: give it a reference first", kn.Value)
			continue
		}
		if _, dup := m.ByKey[kn.Value]; dup {
			errorf(kn.Line, "mentions of %s are listed twice", kn.Value)
			continue
		}
		var list []Mention
		for _, mn := range vn.Content {
			var raw struct {
				In      string `yaml:"in"`
				Line    int    `yaml:"line"`
				Printed string `yaml:"printed"`
			}
			if err := mn.Decode(&raw); err != nil {
				errorf(mn.Line, "%v", err)
				continue
			}
			if raw.In == "" || raw.Line <= 0 || raw.Printed == "" {
				errorf(mn.Line, "a mention of %s needs in (the table, figure, card or section), its line of survey.txt and its printed words", kn.Value)
				continue
			}
			list = append(list, Mention{In: raw.In, Line: raw.Line, Printed: raw.Printed, Pos: Pos{File: name, Line: mn.Line}})
		}
		if !slices.IsSortedFunc(list, func(a, b Mention) int { return a.Line - b.Line }) {
			errorf(kn.Line, "mentions of %s are not in the order of the paper (by line)", kn.Value)
		}
		m.ByKey[kn.Value] = list
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs.Err()
	}
	return m, nil
}

// referenceProblems is how many problems a references result names.
const referenceProblems = 5

// verifyReferences holds the references to the pool's keys: each
// retained row has exactly one, and each reference cites a retained row.
// A reference that cites no row names its position in the mentions file.
func (x *claimContext) verifyReferences(number int, r *ClaimResult) string {
	m := x.mentions
	var problems []string
	cited := map[string]bool{}
	if m == nil {
		problems = append(problems, "no mentions file: the claims file names none (mentions: FILE)")
	} else {
		for _, ref := range m.References {
			cited[ref.Key] = true
			if x.entry(ref.Key) == nil {
				problems = append(problems, fmt.Sprintf("reference [%d] (%s) cites %s, which is no retained row", ref.Number, ref.Pos, ref.Key))
				r.Responsible = append(r.Responsible, ref.Key)
			}
		}
	}
	for i := range x.c.Papers {
		if k := x.c.Papers[i].Key; !cited[k] {
			problems = append(problems, "retained row "+k+" has no reference")
			r.Responsible = append(r.Responsible, k)
		}
	}
	n := 0
	if m != nil {
		n = len(m.References)
	}
	r.Expected = fmt.Sprintf("%d references, one for each retained row", number)
	r.Actual = r.Expected
	if len(problems) > 0 || n != number || len(x.c.Papers) != number {
		r.Actual = fmt.Sprintf("%d references for %d retained rows", n, len(x.c.Papers))
		if len(problems) > referenceProblems {
			// Every row of a list the references do not cite is a
			// problem: the result, which each entry page quotes, names
			// the first few.
			problems = append(problems[:referenceProblems], fmt.Sprintf("… (%d in all)", len(problems)))
		}
		if len(problems) > 0 {
			r.Actual += ": " + strings.Join(problems, "; ")
		}
	}
	slices.Sort(r.Responsible)
	r.Responsible = slices.Compact(r.Responsible)
	r.Keys = slices.Clone(r.Responsible)
	return r.Actual
}
