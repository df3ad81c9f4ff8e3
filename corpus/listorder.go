package corpus

import (
	"cmp"
	"slices"
	"strings"
)

// listCategoryOrder is the order of the paper list's groups: methods
// first, then what they build on and are measured with, classical work
// last.
var listCategoryOrder = [...]string{"rl_method", "framework", "benchmark", "survey", "industry", "classical_marl"}

// ListCategories returns the category values in the paper list's order:
// listCategoryOrder, then any other category of the vocabulary in its
// order.
func ListCategories(v *Vocabulary) []string {
	f := v.Field("category")
	if f == nil {
		return nil
	}
	var out []string
	for _, c := range listCategoryOrder {
		if f.Index(c) >= 0 {
			out = append(out, c)
		}
	}
	for _, t := range f.Values {
		if !slices.Contains(out, t.Value) {
			out = append(out, t.Value)
		}
	}
	return out
}

// CompareForList orders entries as the paper list shows them: newest year
// first, then by title ignoring case, then by key.
func CompareForList(a, b *Entry) int {
	return cmp.Or(cmp.Compare(b.Year, a.Year), cmp.Compare(strings.ToLower(a.Title), strings.ToLower(b.Title)), cmp.Compare(a.Key, b.Key))
}
