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
// the field in vocabulary order. In a nested field every value comes
// right after its parent's subtree opens, depth first, siblings in that
// order: the README and the papers page nest their headings by it (a
// value's heading level is its Depth), so a child written before its
// parent in vocab.yaml still lands under it.
func ListGroups(v *Vocabulary) []string {
	f := v.ListField()
	if f == nil {
		return nil
	}
	var order []string
	order = append(order, f.ListOrder...)
	for _, t := range f.Values {
		if !slices.Contains(order, t.Value) {
			order = append(order, t.Value)
		}
	}
	if !f.Nested() {
		return order
	}
	children := map[string][]string{}
	var roots []string
	for _, val := range order {
		if t := f.Term(val); t != nil && t.Parent != "" && f.Term(t.Parent) != nil {
			children[t.Parent] = append(children[t.Parent], val)
		} else {
			roots = append(roots, val)
		}
	}
	out := make([]string, 0, len(order))
	seen := map[string]bool{}
	var walk func(val string)
	walk = func(val string) {
		if seen[val] {
			return
		}
		seen[val] = true
		out = append(out, val)
		for _, c := range children[val] {
			walk(c)
		}
	}
	for _, val := range roots {
		walk(val)
	}
	// The values of a cycle, which check refuses, have no root: they
	// are kept all the same, in the list's order.
	for _, val := range order {
		walk(val)
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
