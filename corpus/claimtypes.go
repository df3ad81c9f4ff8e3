package corpus

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// This file holds the claim kinds about tag counts and one entry's tags
// (total, count, cell, set, tags): one type per kind, with what it reads
// and how it is verified. claimskinds.go holds the kinds about whole
// tables, claimsmeta.go those about the papers besides their tags.

// TotalClaim is a number of records: retained, excluded or audited.
type TotalClaim struct {
	Of     string // retained, excluded or audited
	Number int
}

// CountClaim is how many rows have Field=Value, or whose free-text Field
// contains Contains, within its scope.
type CountClaim struct {
	Field    string
	Value    string
	Contains string
	Scope
	Number int
}

// CellClaim is one cell of the cross-tab Rows × Cols.
type CellClaim struct {
	Rows, Cols string
	Row, Col   string
	Number     int
}

// SetClaim is exactly the keys that have Field=Value within its scope.
type SetClaim struct {
	Field, Value string
	Scope
	Keys []string // sorted
}

// TagsClaim is the values one entry has, in the paper's column order. An
// abbreviated row of a printed table names its Legend and the Bucket it
// is printed under: a legend's tags claims in file order are its table.
type TagsClaim struct {
	Key    string
	Tags   []Tag
	Legend string
	Bucket string
}

// Scope restricts a count or set claim to the rows a printed table
// (Legend) lists under Buckets, or to the keys Among (sorted); the zero
// Scope is the whole pool.
type Scope struct {
	Legend  string
	Buckets []string
	Among   []string
}

// scoped reports whether the scope restricts the rows.
func (s *Scope) scoped() bool { return len(s.Buckets) > 0 || len(s.Among) > 0 }

// Choice is one field of a oneof claim and the values its table allows.
type Choice struct {
	Field  string   `json:"field"`
	Values []string `json:"values"`
}

// Record is an exclusion-log record an excluded claim names: its
// record_id and the name the survey prints, which its screening_label
// must contain.
type Record struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Tag is one field value an entry is claimed to have.
type Tag struct {
	Field string `json:"field"`
	Value string `json:"value"`
}

// withKey returns "key" and fields, once each, in that order.
func withKey(fields ...string) []string {
	out := []string{"key"}
	for _, f := range fields {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

func (t *TotalClaim) Reads() []string {
	if t.Of == "retained" {
		return nil // how many rows, whatever they hold
	}
	return []string{ReadsExcluded}
}

func (t *TotalClaim) verify(x *claimContext, r *ClaimResult) string {
	n := 0
	switch t.Of {
	case "retained":
		n = len(x.c.Papers)
	case "excluded":
		n = len(x.c.Excluded)
	case "audited":
		n = len(x.c.Papers) + len(x.c.Excluded)
	}
	r.Expected, r.Actual = strconv.Itoa(t.Number), strconv.Itoa(n)
	return r.Actual
}

func (k *CountClaim) Reads() []string { return withKey(k.Field) }

// scanned reports whether a count claim is computed by matching rather
// than from the vocabulary's histogram: scoped, free-text or substring
// claims.
func (k *CountClaim) scanned(v *Vocabulary) bool {
	return k.scoped() || k.Contains != "" || v.Field(k.Field) == nil
}

func (k *CountClaim) verify(x *claimContext, r *ClaimResult) string {
	if !k.scanned(x.v) {
		return cellResult(r, k.Number, x.hist(k.Field).Cell(k.Value))
	}
	actual := x.matching(&k.Scope, k.Field, k.Value, k.Contains)
	r.Expected, r.Actual = strconv.Itoa(k.Number), strconv.Itoa(len(actual))
	r.Keys, r.Responsible = actual, actual
	if len(k.Among) > 0 { // the listed rows that lack the value
		r.Keys, r.Responsible = slices.Clone(k.Among), nil
		for _, key := range k.Among {
			if _, ok := slices.BinarySearch(actual, key); !ok {
				r.Responsible = append(r.Responsible, key)
			}
		}
	}
	return r.Actual
}

// cellResult compares a printed number with a histogram's or cross-tab's
// cell: the keys in the cell now are the ones involved.
func cellResult(r *ClaimResult, number int, cell *Cell) string {
	r.Expected, r.Actual = strconv.Itoa(number), strconv.Itoa(cell.Count)
	r.Keys = slices.Clone(cell.Keys)
	slices.Sort(r.Keys)
	r.Responsible = r.Keys
	return r.Actual
}

func (k *CellClaim) Reads() []string { return withKey(k.Rows, k.Cols) }

func (k *CellClaim) verify(x *claimContext, r *ClaimResult) string {
	return cellResult(r, k.Number, x.tab(k.Rows, k.Cols).Cell(k.Row, k.Col))
}

func (k *SetClaim) Reads() []string { return withKey(k.Field) }

func (k *SetClaim) verify(x *claimContext, r *ClaimResult) string {
	var actual []string
	if k.scoped() || x.v.Field(k.Field) == nil {
		actual = x.matching(&k.Scope, k.Field, k.Value, "")
	} else {
		actual = slices.Clone(x.hist(k.Field).Cell(k.Value).Keys)
		slices.Sort(actual)
	}
	setResult(r, k.Keys, actual)
	return r.Actual
}

func (k *TagsClaim) Reads() []string {
	fields := make([]string, len(k.Tags))
	for i, t := range k.Tags {
		fields[i] = t.Field
	}
	return withKey(fields...)
}

func (k *TagsClaim) verify(x *claimContext, r *ClaimResult) string {
	r.Keys = []string{k.Key}
	e := x.entry(k.Key)
	var exp, act, diff []string
	for _, t := range k.Tags {
		exp = append(exp, t.Field+"="+t.Value)
		if e == nil {
			continue
		}
		got := e.Value(t.Field)
		act = append(act, t.Field+"="+got)
		if got != t.Value {
			diff = append(diff, t.Field+"="+got)
		}
	}
	return settleRowClaim(r, k.Key, e != nil, exp, act, diff)
}

// settleRowClaim fills in the result of a claim about one row (tags,
// oneof, meta) from what it expected, found and found different: the row
// is responsible for a difference, and a key no row has is one. It
// returns the difference, "" when the claim holds.
func settleRowClaim(r *ClaimResult, key string, found bool, exp, act, diff []string) string {
	r.Expected, r.Actual = strings.Join(exp, ", "), strings.Join(act, ", ")
	if !found {
		r.Actual = "no row with key " + key
		diff = []string{r.Actual}
	}
	if len(diff) > 0 {
		r.Responsible = []string{key}
	}
	return strings.Join(diff, ", ")
}

// claimJSON is a claim as JSON: every kind's fields side by side, each
// left out when its kind has none, as Claim was serialised before its
// kinds became types, so that what reads the JSON reads it unchanged.
type claimJSON struct {
	ID          string           `json:"id"`
	Kind        string           `json:"kind"`
	Description string           `json:"description"`
	Source      string           `json:"source"`
	Of          string           `json:"of,omitempty"`
	Field       string           `json:"field,omitempty"`
	Value       string           `json:"value,omitempty"`
	Rows        string           `json:"rows,omitempty"`
	Cols        string           `json:"cols,omitempty"`
	Row         string           `json:"row,omitempty"`
	Col         string           `json:"col,omitempty"`
	Key         string           `json:"key,omitempty"`
	Line        int              `json:"line,omitempty"`
	Printed     string           `json:"printed,omitempty"`
	Legend      string           `json:"legend,omitempty"`
	Bucket      string           `json:"bucket,omitempty"`
	Buckets     []string         `json:"buckets,omitempty"`
	Among       []string         `json:"among,omitempty"`
	Contains    string           `json:"contains,omitempty"`
	Names       []string         `json:"names,omitempty"`
	Shown       []string         `json:"shown,omitempty"`
	From        string           `json:"from,omitempty"`
	To          string           `json:"to,omitempty"`
	AtLeast     float64          `json:"at_least,omitempty"`
	Choices     []Choice         `json:"choices,omitempty"`
	Records     []Record         `json:"records,omitempty"`
	Number      int              `json:"number,omitempty"`
	Keys        []string         `json:"keys,omitempty"`
	Tags        []Tag            `json:"tags,omitempty"`
	Ack         *Acknowledgement `json:"acknowledged,omitempty"`
	Pos         Pos              `json:"pos"`
}

// MarshalJSON writes the claim with its kind's fields beside the shared
// ones (claimJSON).
func (c Claim) MarshalJSON() ([]byte, error) {
	j := claimJSON{ID: c.ID, Kind: c.Kind, Description: c.Description, Source: c.Source,
		Line: c.Line, Printed: c.Printed, Ack: c.Ack, Pos: c.Pos}
	switch k := c.Check.(type) {
	case *TotalClaim:
		j.Of, j.Number = k.Of, k.Number
	case *CountClaim:
		j.Field, j.Value, j.Contains, j.Number = k.Field, k.Value, k.Contains, k.Number
		j.Legend, j.Buckets, j.Among = k.Legend, k.Buckets, k.Among
	case *CellClaim:
		j.Rows, j.Cols, j.Row, j.Col, j.Number = k.Rows, k.Cols, k.Row, k.Col, k.Number
	case *SetClaim:
		j.Field, j.Value, j.Keys = k.Field, k.Value, k.Keys
		j.Legend, j.Buckets, j.Among = k.Legend, k.Buckets, k.Among
	case *TagsClaim:
		j.Key, j.Tags, j.Legend, j.Bucket = k.Key, k.Tags, k.Legend, k.Bucket
	case *ColumnsClaim:
		j.Names, j.Shown, j.Number = k.Names, k.Shown, k.Number
	case *BucketClaim:
		j.Legend, j.Buckets, j.Field, j.Value, j.Number = k.Legend, k.Buckets, k.Field, k.Value, k.Number
	case *OrderClaim:
		j.Legend, j.Names = k.Legend, k.By
	case *ShareClaim:
		j.From, j.To, j.AtLeast = k.From, k.To, k.AtLeast
	case *OneOfClaim:
		j.Key, j.Choices = k.Key, k.Choices
	case *MetaClaim:
		j.Key, j.Tags = k.Key, k.Tags
	case *ExcludedClaim:
		j.Records = k.Records
	case *ReferencesClaim:
		j.Number = k.Number
	}
	return json.Marshal(j)
}
