package corpus

import (
	"cmp"
	"slices"
	"strings"
)

// ListCategories returns the category values in the paper list's order:
// the field's list_order (data/vocab.yaml), then any other category of the
// vocabulary in its order.
func ListCategories(v *Vocabulary) []string {
	f := v.Field("category")
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
// then title ignoring case, then key. A caller that sorts many entries
// many times computes each key once (the lowercased title is the costly
// part) and compares keys.
type ListKey struct {
	year  int
	title string
	key   string
}

// ListKeyOf returns e's position key in the paper list.
func ListKeyOf(e *Entry) ListKey {
	return ListKey{year: e.Year, title: strings.ToLower(e.Title), key: e.Key}
}

// Compare orders k before l when k's entry comes first in the list.
func (k ListKey) Compare(l ListKey) int {
	return cmp.Or(cmp.Compare(l.year, k.year), cmp.Compare(k.title, l.title), cmp.Compare(k.key, l.key))
}

// CompareForList orders entries as the paper list shows them (ListKey).
func CompareForList(a, b *Entry) int {
	return ListKeyOf(a).Compare(ListKeyOf(b))
}
