package corpus

import (
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
	r.Expected, r.Actual = strings.Join(exp, ", "), strings.Join(act, ", ")
	if e == nil {
		r.Actual = "no row with key " + k.Key
		diff = []string{r.Actual}
	}
	if len(diff) > 0 {
		r.Responsible = []string{k.Key}
	}
	return strings.Join(diff, ", ")
}
