package corpus

import (
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
	for _, order := range []string{"[x]", "[a, a]"} {
		_, err := ParseVocabulary("vocab.yaml", []byte(strings.Replace(src, "[b]", order, 1)))
		if err == nil || !strings.Contains(err.Error(), "list_order") {
			t.Errorf("list_order %s: error %v, want one naming list_order", order, err)
		}
	}
}
