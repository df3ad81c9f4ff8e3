package corpus

import (
	"cmp"
	"slices"
	"strconv"
)

// Diff is what changed between two versions of a corpus, as a reviewer of a
// pull request needs it: the rows, every count that moves with the keys
// that moved it, and the paper's claims that start or stop holding.
type Diff struct {
	Old     string        `json:"old"`
	New     string        `json:"new"`
	Added   []EntryRef    `json:"added"`
	Removed []EntryRef    `json:"removed"`
	Changed []EntryChange `json:"changed"`
	Moves   []CellMove    `json:"moves"`
	Claims  []ClaimChange `json:"claims"`
	// HasClaims says whether the list has claims to compare: a list
	// without any is not told that none of them change.
	HasClaims bool `json:"-"`
}

// EntryRef names an entry.
type EntryRef struct {
	Key   string `json:"key"`
	Title string `json:"title"`
}

// EntryChange is an entry present in both versions with different fields.
type EntryChange struct {
	Key    string        `json:"key"`
	Title  string        `json:"title"`
	Fields []FieldChange `json:"fields"`
}

// FieldChange is one column's old and new text.
type FieldChange struct {
	Field string `json:"field"`
	Old   string `json:"old"`
	New   string `json:"new"`
}

// CellMove is a count that differs between the versions. Table is a field
// name, "ROWS×COLS" for a cross-tab cell, or "totals"; Entered and Left are
// the keys that came into and went out of the cell.
type CellMove struct {
	Table   string   `json:"table"`
	Row     string   `json:"row"`
	Col     string   `json:"col,omitempty"`
	Old     int      `json:"old"`
	New     int      `json:"new"`
	Entered []string `json:"entered"`
	Left    []string `json:"left"`
}

// ClaimChange is a claim whose outcome differs between the versions.
type ClaimChange struct {
	ID          string      `json:"id"`
	Description string      `json:"description"`
	Source      string      `json:"source"`
	Expected    string      `json:"expected"`
	OldActual   string      `json:"old_actual"`
	NewActual   string      `json:"new_actual"`
	OldStatus   ClaimStatus `json:"old_status"`
	NewStatus   ClaimStatus `json:"new_status"`
}

// Empty reports whether nothing changed.
func (d *Diff) Empty() bool {
	return len(d.Added)+len(d.Removed)+len(d.Changed)+len(d.Moves)+len(d.Claims) == 0
}

// DiffCorpora compares two corpora. Entries match by key; counts cover the
// histograms and cross-tabs of ComputeStats; claims may be nil to skip them.
func DiffCorpora(older, newer *Corpus, v *Vocabulary, claims *Claims) Diff {
	d := Diff{Old: older.Dir, New: newer.Dir, Added: []EntryRef{}, Removed: []EntryRef{},
		Changed: []EntryChange{}, Moves: []CellMove{}, Claims: []ClaimChange{}, HasClaims: claims != nil}
	oldByKey := map[string]*Entry{}
	for i := range older.Papers {
		oldByKey[older.Papers[i].Key] = older.Papers[i]
	}
	newKeys := map[string]bool{}
	for i := range newer.Papers {
		e := newer.Papers[i]
		newKeys[e.Key] = true
		o := oldByKey[e.Key]
		if o == nil {
			d.Added = append(d.Added, EntryRef{Key: e.Key, Title: e.Title})
			continue
		}
		var fc []FieldChange
		for _, col := range changeColumns(o, e) {
			if a, b := o.Value(col), e.Value(col); a != b {
				fc = append(fc, FieldChange{Field: col, Old: a, New: b})
			}
		}
		if len(fc) > 0 {
			d.Changed = append(d.Changed, EntryChange{Key: e.Key, Title: e.Title, Fields: fc})
		}
	}
	for i := range older.Papers {
		if e := older.Papers[i]; !newKeys[e.Key] {
			d.Removed = append(d.Removed, EntryRef{Key: e.Key, Title: e.Title})
		}
	}
	slices.SortFunc(d.Added, func(a, b EntryRef) int { return cmp.Compare(a.Key, b.Key) })
	slices.SortFunc(d.Removed, func(a, b EntryRef) int { return cmp.Compare(a.Key, b.Key) })
	slices.SortFunc(d.Changed, func(a, b EntryChange) int { return cmp.Compare(a.Key, b.Key) })

	d.Moves = diffCells(countCells(ComputeStats(older, v)), countCells(ComputeStats(newer, v)))

	if claims != nil {
		or, nr := VerifyClaims(older, v, claims), VerifyClaims(newer, v, claims)
		for i := range nr { // same claims, same order
			if or[i].Status != nr[i].Status {
				d.Claims = append(d.Claims, ClaimChange{ID: nr[i].ID, Description: nr[i].Description,
					Source: nr[i].Source, Expected: nr[i].Expected, OldActual: or[i].Actual,
					NewActual: nr[i].Actual, OldStatus: or[i].Status, NewStatus: nr[i].Status})
			}
		}
	}
	return d
}

// countCells lists every count of a report in report order, keyed by
// table, row and column.
func countCells(s Stats) []CellMove {
	var out []CellMove
	add := func(table, row, col string, c Cell) {
		out = append(out, CellMove{Table: table, Row: row, Col: col, New: c.Count, Entered: c.Keys})
	}
	if s.Screened {
		add("totals", "retained", "", Cell{Count: s.Retained})
		add("totals", "excluded", "", Cell{Count: s.Excluded})
		add("totals", "audited", "", Cell{Count: s.Audited})
	} else {
		// A list without an exclusion log counts entries, as its
		// stats.json does.
		add("totals", "entries", "", Cell{Count: s.Retained})
	}
	for _, h := range s.Histograms {
		for _, c := range append(slices.Clone(h.Cells), h.Other...) {
			add(h.Field, c.Value, "", c)
		}
	}
	for _, x := range s.CrossTabs {
		for i, r := range x.RowValues {
			for j, c := range x.ColValues {
				add(x.Rows+"×"+x.Cols, r, c, x.Cells[i][j])
			}
		}
	}
	if h := s.Exclusions.ByStage; h != nil {
		for _, c := range append(slices.Clone(h.Cells), h.Other...) {
			add("stage", c.Value, "", c)
		}
	}
	return out
}

// diffCells pairs the cells of two reports and keeps those whose count or
// keys differ, in the new report's order followed by cells only the old
// one has.
func diffCells(older, newer []CellMove) []CellMove {
	id := func(m CellMove) string { return m.Table + "\x00" + m.Row + "\x00" + m.Col }
	oldIdx := map[string]int{}
	for i, m := range older {
		oldIdx[id(m)] = i
	}
	seen := map[string]bool{}
	var out []CellMove
	emit := func(o, n CellMove) {
		m := CellMove{Table: n.Table, Row: n.Row, Col: n.Col, Old: o.New, New: n.New,
			Entered: minus(n.Entered, o.Entered), Left: minus(o.Entered, n.Entered)}
		if m.Old != m.New || len(m.Entered) > 0 || len(m.Left) > 0 {
			out = append(out, m)
		}
	}
	for _, n := range newer {
		seen[id(n)] = true
		o := CellMove{}
		if i, ok := oldIdx[id(n)]; ok {
			o = older[i]
		}
		emit(o, n)
	}
	for _, o := range older {
		if !seen[id(o)] {
			emit(o, CellMove{Table: o.Table, Row: o.Row, Col: o.Col})
		}
	}
	if out == nil {
		return []CellMove{}
	}
	return out
}

// minus returns the keys of a not in b, sorted.
func minus(a, b []string) []string {
	in := make(map[string]bool, len(b))
	for _, k := range b {
		in[k] = true
	}
	out := []string{}
	for _, k := range a {
		if !in[k] {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// String renders a move's label: "credit_granularity agent" or
// "reward_type×credit_granularity shared/agent".
func (m CellMove) String() string {
	s := m.Table + " " + m.Row
	if m.Col != "" {
		s += "/" + m.Col
	}
	return s + ": " + strconv.Itoa(m.Old) + " → " + strconv.Itoa(m.New)
}

// changeColumns are the columns a change of an entry is compared on: the
// new row's, then those only the old row had, without the key (the rows
// are matched by it) and without repeats. For the survey's list, its 18
// columns in order.
func changeColumns(o, e *Entry) []string {
	var out []string
	for _, col := range append(e.Columns(), o.Columns()...) {
		if col != "key" && !slices.Contains(out, col) {
			out = append(out, col)
		}
	}
	return out
}
