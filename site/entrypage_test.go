package site

import (
	"slices"
	"strconv"
	"testing"
)

// TestCellNeighbours holds an entry page's cell neighbours to the
// entries around it: two before and three after, shifted where the cell
// ends, never the entry itself, and the whole cell when it is small.
func TestCellNeighbours(t *testing.T) {
	cell := func(n int) []*EntryView {
		es := make([]*EntryView, n)
		for i := range es {
			es[i] = &EntryView{index: i}
		}
		return es
	}
	for _, tc := range []struct {
		n, at int
		want  []int
	}{
		{1, 0, []int{}},
		{4, 2, []int{0, 1, 3}},
		{6, 5, []int{0, 1, 2, 3, 4}},
		{20, 0, []int{1, 2, 3, 4, 5}},
		{20, 1, []int{0, 2, 3, 4, 5}},
		{20, 2, []int{0, 1, 3, 4, 5}},
		{20, 3, []int{1, 2, 4, 5, 6}},
		{20, 10, []int{8, 9, 11, 12, 13}},
		{20, 17, []int{14, 15, 16, 18, 19}},
		{20, 19, []int{14, 15, 16, 17, 18}},
	} {
		t.Run(strconv.Itoa(tc.n)+"/"+strconv.Itoa(tc.at), func(t *testing.T) {
			got := []int{}
			for _, e := range cellNeighbours(cell(tc.n), tc.at) {
				got = append(got, e.index)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("neighbours of %d in a cell of %d: %v, want %v", tc.at, tc.n, got, tc.want)
			}
		})
	}
}
