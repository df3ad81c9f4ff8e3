package corpus

import (
	"cmp"
	"slices"
	"strings"
)

// ListField is the controlled field the paper list (README, site) groups
// entries by: the first field of papers.csv that gives a list_order (the
// survey's category), else the first field of papers.csv; nil when the
// list declares none, and the list is then one group.
func (v *Vocabulary) ListField() *Field {
	fields := v.FieldsOf(PapersFile)
	for _, f := range fields {
		if len(f.ListOrder) > 0 {
			return f
		}
	}
	if len(fields) > 0 {
		return fields[0]
	}
	return nil
}

// ListGroups returns the values of the list's field (ListField) in the
// paper list's order: the field's list_order, then any other value of
// the field in vocabulary order.
func ListGroups(v *Vocabulary) []string {
	f := v.ListField()
	if f == nil {
		return nil
	}
	var out []string
	out = append(out, f.ListOrder...)
	for _, t := range f.Values {
		if !slices.Contains(out, t.Value) {
			out = append(out, t.Value)
		}
	}
	return out
}

// ListKey is what the paper list orders an entry by: newest year first,
// then newest date (the optional date column: a month sorts before its
// year alone), then title ignoring case, then key. A caller that sorts many entries
// many times computes each key once (the lowercased title is the costly
// part) and compares keys.
type ListKey struct {
	year int
	// date is the row's date column (YYYY, YYYY-MM or YYYY-MM-DD),
	// which orders a year's entries newest first; "" without one.
	date  string
	title string
	key   string
}

// ListKeyOf returns e's position key in the paper list.
func ListKeyOf(e *Entry) ListKey {
	return ListKey{year: e.Year, date: e.Value(DateColumn), title: strings.ToLower(e.Title), key: e.Key}
}

// Compare orders k before l when k's entry comes first in the list.
func (k ListKey) Compare(l ListKey) int {
	return cmp.Or(cmp.Compare(l.year, k.year), cmp.Compare(l.date, k.date), cmp.Compare(k.title, l.title), cmp.Compare(k.key, l.key))
}

// CompareForList orders entries as the paper list shows them (ListKey).
func CompareForList(a, b *Entry) int {
	return ListKeyOf(a).Compare(ListKeyOf(b))
}
