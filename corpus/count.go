package corpus

import (
	"cmp"
	"slices"
	"strings"
)

// Cell is one count: a value (or a pair of values) and the keys of the rows
// in it, so that every number can be traced to its entries.
type Cell struct {
	Value string   `json:"value"`
	Count int      `json:"count"`
	Keys  []string `json:"keys"`
}

// addKey counts a row in the cell; an empty key (a count-only report) is
// counted but not kept.
func (c *Cell) addKey(k string) {
	c.Count++
	if k != "" {
		c.Keys = append(c.Keys, k)
	}
}

// merge adds the count and keys of u, counted after c's.
func (c *Cell) merge(u *Cell) {
	c.Count += u.Count
	c.Keys = append(c.Keys, u.Keys...)
}

// Histogram counts one controlled field over its whole vocabulary.
type Histogram struct {
	Field string `json:"field"`
	// Cells follow the vocabulary order and include values no row uses
	// (count 0): the gaps are findings.
	Cells []Cell `json:"cells"`
	// Other holds values outside the vocabulary, sorted; empty for a corpus
	// that passes Check.
	Other []Cell `json:"other,omitempty"`
	Total int    `json:"total"`
	// Multiple says the field is multi-valued or nested: an entry counts
	// once under each of its values and their parents, so the cells may
	// add up to more than Total.
	Multiple bool `json:"multiple,omitempty"`

	index map[string]int // value -> position in Cells, while counting
	// split, for a multi-valued field, turns a cell into its values
	// (Field.Split); nil for a single-valued one.
	split func(string) []string
}

// Histogram counts field over the rows of its file (papers.csv or
// excluded.csv). It returns nil for a field the vocabulary does not define.
func (c *Corpus) Histogram(v *Vocabulary, field string) *Histogram {
	f := v.Field(field)
	if f == nil {
		return nil
	}
	h := newHistogram(f)
	c.eachRow(f.File, func(key string, value func(string) string) { h.add(key, value(field)) })
	h.finish()
	return h
}

// newHistogram returns an empty histogram over f's whole vocabulary, to be
// filled row by row with add.
func newHistogram(f *Field) *Histogram {
	h := &Histogram{Field: f.Name, Cells: make([]Cell, len(f.Values)), index: valueIndex(f)}
	if f.countsMany() {
		h.split, h.Multiple = f.CountedUnder, true
	}
	for i, t := range f.Values {
		h.Cells[i] = Cell{Value: t.Value, Keys: []string{}}
	}
	return h
}

// add counts one row whose cell of the field is value. A row of a
// multi-valued field counts once under each of its values (and once in
// Total), so the cells may add up to more than Total.
func (h *Histogram) add(key, value string) {
	if h.split != nil {
		h.Total++
		vals := h.split(value)
		for k, val := range vals {
			if slices.Contains(vals[:k], val) {
				continue
			}
			if i, ok := h.index[val]; ok {
				h.Cells[i].addKey(key)
			} else {
				h.Other = addOther(h.Other, val, key)
			}
		}
		return
	}
	i, ok := h.index[value]
	if !ok {
		i = -1
	}
	h.addAt(key, i, value)
}

// addAt counts value, whose index in the vocabulary is i (-1 outside it).
func (h *Histogram) addAt(key string, i int, value string) {
	h.Total++
	if i >= 0 {
		h.Cells[i].addKey(key)
		return
	}
	h.Other = addOther(h.Other, value, key)
}

// emptyCopy returns a histogram of the same field with nothing counted.
func (h *Histogram) emptyCopy() *Histogram {
	out := &Histogram{Field: h.Field, Cells: make([]Cell, len(h.Cells)), index: h.index, split: h.split, Multiple: h.Multiple}
	for i, c := range h.Cells {
		out.Cells[i] = Cell{Value: c.Value, Keys: []string{}}
	}
	return out
}

// merge adds the counts of u, which counted rows after h's.
func (h *Histogram) merge(u *Histogram) {
	h.Total += u.Total
	for i := range u.Cells {
		h.Cells[i].merge(&u.Cells[i])
	}
	for _, c := range u.Other {
		if i := slices.IndexFunc(h.Other, func(o Cell) bool { return o.Value == c.Value }); i >= 0 {
			h.Other[i].merge(&c)
		} else {
			h.Other = append(h.Other, c)
		}
	}
}

func (h *Histogram) finish() {
	slices.SortFunc(h.Other, func(a, b Cell) int { return cmp.Compare(a.Value, b.Value) })
}

// ByCount returns the cells ordered by count, largest first; equal counts
// keep vocabulary order.
func (h *Histogram) ByCount() []Cell {
	out := slices.Clone(h.Cells)
	slices.SortStableFunc(out, func(a, b Cell) int { return cmp.Compare(b.Count, a.Count) })
	return out
}

// MultipleNote is what a table or chart of a multi-valued field says
// under it, so that no reader adds its cells up to the number of entries.
const MultipleNote = "An entry counts once under each of its values and their parents, so the counts add up to more than the entries."

// Cell returns the cell of a value, or nil.
func (h *Histogram) Cell(value string) *Cell {
	for i := range h.Cells {
		if h.Cells[i].Value == value {
			return &h.Cells[i]
		}
	}
	return nil
}

// CrossTab counts two controlled fields of papers.csv against each other.
type CrossTab struct {
	Rows      string   `json:"rows"`
	Cols      string   `json:"cols"`
	RowValues []string `json:"row_values"`
	ColValues []string `json:"col_values"`
	// Cells[i][j] holds the rows with RowValues[i] and ColValues[j].
	Cells     [][]Cell `json:"cells"`
	RowTotals []int    `json:"row_totals"`
	ColTotals []int    `json:"col_totals"`
	Total     int      `json:"total"`
	// Outside counts rows whose value of either field is not in the
	// vocabulary; they appear in no cell.
	Outside []string `json:"outside,omitempty"`
	// Multiple says a field is multi-valued: an entry counts once in each
	// pair of its values, so cells may add up to more than the totals.
	Multiple bool `json:"multiple,omitempty"`

	rowIndex, colIndex map[string]int // value -> position, while counting
	// rowSplit and colSplit split the cells of a multi-valued field
	// (Field.Split); nil for a single-valued one.
	rowSplit, colSplit func(string) []string
}

// CrossTab tabulates rows × cols over their whole vocabularies. It returns
// nil when either field is unknown or they belong to different files.
func (c *Corpus) CrossTab(v *Vocabulary, rows, cols string) *CrossTab {
	x := newCrossTab(v, rows, cols)
	if x == nil {
		return nil
	}
	c.eachRow(v.Field(rows).File, func(key string, value func(string) string) { x.add(key, value(rows), value(cols)) })
	return x
}

// newCrossTab returns an empty cross-tab, to be filled row by row with add,
// or nil when the fields are not two controlled fields of one file.
func newCrossTab(v *Vocabulary, rows, cols string) *CrossTab {
	rf, cf := v.Field(rows), v.Field(cols)
	if rf == nil || cf == nil || rf.File != cf.File {
		return nil
	}
	x := &CrossTab{
		Rows: rows, Cols: cols, RowValues: rf.Allowed(), ColValues: cf.Allowed(),
		Cells:     make([][]Cell, len(rf.Values)),
		RowTotals: make([]int, len(rf.Values)),
		ColTotals: make([]int, len(cf.Values)),
		rowIndex:  valueIndex(rf),
		colIndex:  valueIndex(cf),
	}
	if rf.countsMany() {
		x.rowSplit, x.Multiple = rf.CountedUnder, true
	}
	if cf.countsMany() {
		x.colSplit, x.Multiple = cf.CountedUnder, true
	}
	for i := range x.Cells {
		x.Cells[i] = make([]Cell, len(cf.Values))
		for j := range x.Cells[i] {
			x.Cells[i][j] = Cell{Value: x.RowValues[i] + "/" + x.ColValues[j], Keys: []string{}}
		}
	}
	return x
}

// add counts one row by its cells of the two fields. A row with several
// values counts once in each pair of its values, once in the total of
// each of its values and once in Total, so the cells of a multi-valued
// field may add up to more than their totals.
func (x *CrossTab) add(key, row, col string) {
	if x.rowSplit != nil || x.colSplit != nil {
		x.addMulti(key, row, col)
		return
	}
	i, iok := x.rowIndex[row]
	j, jok := x.colIndex[col]
	if !iok || !jok {
		i = -1
	}
	x.addAt(key, i, j)
}

// addMulti is add for a pair with a multi-valued field.
func (x *CrossTab) addMulti(key, row, col string) {
	rs, cs := []string{row}, []string{col}
	if x.rowSplit != nil {
		rs = x.rowSplit(row)
	}
	if x.colSplit != nil {
		cs = x.colSplit(col)
	}
	is, ok1 := indexesOf(x.rowIndex, rs)
	js, ok2 := indexesOf(x.colIndex, cs)
	if !ok1 || !ok2 {
		if key != "" {
			x.Outside = append(x.Outside, key)
		}
		return
	}
	for _, i := range is {
		x.RowTotals[i]++
		for _, j := range js {
			x.Cells[i][j].addKey(key)
		}
	}
	for _, j := range js {
		x.ColTotals[j]++
	}
	x.Total++
}

// indexesOf returns the distinct positions of vals in index, in cell
// order; ok is false when a value is outside it or there is none.
func indexesOf(index map[string]int, vals []string) (out []int, ok bool) {
	for _, v := range vals {
		i, in := index[v]
		if !in {
			return nil, false
		}
		if !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	return out, len(out) > 0
}

// addAt counts a row whose values are at i and j of the vocabularies (-1
// when outside).
func (x *CrossTab) addAt(key string, i, j int) {
	if i < 0 || j < 0 {
		if key != "" {
			x.Outside = append(x.Outside, key)
		}
		return
	}
	x.Cells[i][j].addKey(key)
	x.RowTotals[i]++
	x.ColTotals[j]++
	x.Total++
}

// emptyCopy returns a cross-tab of the same fields with nothing counted.
func (x *CrossTab) emptyCopy() *CrossTab {
	out := &CrossTab{Rows: x.Rows, Cols: x.Cols, RowValues: x.RowValues, ColValues: x.ColValues,
		Cells:     make([][]Cell, len(x.Cells)),
		RowTotals: make([]int, len(x.RowTotals)),
		ColTotals: make([]int, len(x.ColTotals)),
		rowIndex:  x.rowIndex, colIndex: x.colIndex, rowSplit: x.rowSplit, colSplit: x.colSplit, Multiple: x.Multiple}
	for i, row := range x.Cells {
		out.Cells[i] = make([]Cell, len(row))
		for j, c := range row {
			out.Cells[i][j] = Cell{Value: c.Value, Keys: []string{}}
		}
	}
	return out
}

// merge adds the counts of u, which counted rows after x's.
func (x *CrossTab) merge(u *CrossTab) {
	for i := range u.Cells {
		for j := range u.Cells[i] {
			x.Cells[i][j].merge(&u.Cells[i][j])
		}
	}
	for i, n := range u.RowTotals {
		x.RowTotals[i] += n
	}
	for j, n := range u.ColTotals {
		x.ColTotals[j] += n
	}
	x.Total += u.Total
	x.Outside = append(x.Outside, u.Outside...)
}

// Cell returns the cell for a pair of values, or nil.
func (x *CrossTab) Cell(row, col string) *Cell {
	i, j := slices.Index(x.RowValues, row), slices.Index(x.ColValues, col)
	if i < 0 || j < 0 {
		return nil
	}
	return &x.Cells[i][j]
}

// CountColumn counts any column of excluded.csv or papers.csv by value,
// largest count first, then by value; for uncontrolled columns such as
// excluded.csv's source and query_family.
func (c *Corpus) CountColumn(file, column string) []Cell {
	var cells []Cell
	c.eachRow(file, func(key string, value func(string) string) {
		cells = addOther(cells, value(column), key)
	})
	slices.SortStableFunc(cells, func(a, b Cell) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Value, b.Value))
	})
	return cells
}

// Funnel is the screening flow: every audited candidate record is either
// retained or excluded at one stage.
type Funnel struct {
	Candidates int        `json:"candidates"`
	Retained   int        `json:"retained"`
	Excluded   int        `json:"excluded"`
	ByStage    *Histogram `json:"by_stage"`
}

// Funnel computes the screening flow.
func (c *Corpus) Funnel(v *Vocabulary) Funnel {
	return Funnel{
		Candidates: len(c.Papers) + len(c.Excluded),
		Retained:   len(c.Papers),
		Excluded:   len(c.Excluded),
		ByStage:    c.Histogram(v, "stage"),
	}
}

// eachRow calls fn for every row of file with the row's key (record_id for
// excluded.csv) and an accessor for its columns.
func (c *Corpus) eachRow(file string, fn func(key string, value func(string) string)) {
	switch file {
	case PapersFile:
		for i := range c.Papers {
			fn(c.Papers[i].Key, c.Papers[i].Value)
		}
	case ExcludedFile:
		for i := range c.Excluded {
			fn(c.Excluded[i].RecordID, c.Excluded[i].Value)
		}
	}
}

// valueIndex maps each value of a field to its position, so counting a
// large corpus does not scan the vocabulary once per row.
func valueIndex(f *Field) map[string]int {
	m := make(map[string]int, len(f.Values))
	for i, t := range f.Values {
		m[t.Value] = i
	}
	return m
}

// addOther adds key to the cell of value in a small unsorted list.
func addOther(cells []Cell, value, key string) []Cell {
	for i := range cells {
		if cells[i].Value == value {
			cells[i].addKey(key)
			return cells
		}
	}
	// The value is copied: it may point into a streamed row's text.
	c := Cell{Value: strings.Clone(value), Keys: []string{}}
	c.addKey(key)
	return append(cells, c)
}
