package corpus

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// ClaimDiagnostics turns claim results into check findings: a failing or
// stale claim is an error, an acknowledged deviation a warning, each at the
// claim's line in the claims file.
func ClaimDiagnostics(results []ClaimResult) Diagnostics {
	var ds Diagnostics
	for _, r := range results {
		var d *Diagnostic
		switch r.Status {
		case Fails:
			d = ds.add(Error, r.Pos, r.ID, r.Actual, "%s (%s): the paper says %s, the CSV gives %s%s",
				r.Description, cite(r), r.Expected, r.Actual, keysNote(r.Responsible))
		case Stale:
			d = ds.add(Error, r.Pos, r.ID, r.Actual, "%s (%s): %s; the paper says %s, the CSV gives %s%s",
				r.Description, cite(r), r.Reason, r.Expected, r.Actual, keysNote(r.Responsible))
		case Acknowledged:
			exp, act := differing(r)
			d = ds.add(Warning, r.Pos, r.ID, r.Actual, "%s (%s): acknowledged deviation: the paper says %s, the CSV gives %s: %s",
				r.Description, cite(r), exp, act, r.Reason)
		default:
			continue
		}
		d.Keys = r.Responsible
	}
	return ds
}

// Erratum is an acknowledged deviation read as an erratum of the survey:
// what it prints and on which line of survey.txt, what its CSV (the
// survey's source of truth) has instead, and why they differ.
type Erratum struct {
	ID          string `json:"id"`
	Description string `json:"description"`
	Source      string `json:"source"`
	Line        int    `json:"line,omitempty"`
	// Printed is the survey's text; Paper the values it states that the
	// CSV does not have, CSV the CSV's values instead.
	Printed string   `json:"printed"`
	Paper   string   `json:"paper"`
	CSV     string   `json:"csv"`
	Reason  string   `json:"reason"`
	Keys    []string `json:"keys,omitempty"` // the rows it is about
}

// Errata lists the acknowledged deviations among results, in survey
// order (by line, claims without one last, then in file order), so that
// the survey's authors can read them as an errata list.
func Errata(results []ClaimResult) []Erratum {
	var out []Erratum
	for _, r := range results {
		if r.Status != Acknowledged {
			continue
		}
		exp, act := differing(r)
		e := Erratum{ID: r.ID, Description: r.Description, Source: r.Source, Line: r.Line,
			Printed: r.Printed, Paper: exp, CSV: act, Reason: r.Reason, Keys: r.Responsible}
		if e.Printed == "" {
			e.Printed = exp
		}
		out = append(out, e)
	}
	slices.SortStableFunc(out, func(a, b Erratum) int {
		return cmp.Compare(cmp.Or(a.Line, math.MaxInt), cmp.Or(b.Line, math.MaxInt))
	})
	return out
}

// differing renders a tags or oneof result as only the fields that differ, so a
// warning about one field of a six-field row stays readable; other kinds
// are returned whole.
func differing(r ClaimResult) (expected, actual string) {
	if r.Kind != KindTags && r.Kind != KindOneOf && r.Kind != KindMeta {
		return r.Expected, r.Actual
	}
	exp, act := strings.Split(r.Expected, ", "), strings.Split(r.Actual, ", ")
	if len(exp) != len(act) {
		return r.Expected, r.Actual
	}
	var e, a []string
	for i := range exp {
		differs := exp[i] != act[i]
		if r.Kind == KindOneOf { // "f in x or y" against "f=v"
			f, allowed, _ := strings.Cut(exp[i], " in ")
			v, _ := strings.CutPrefix(act[i], f+"=")
			differs = !slices.Contains(strings.Split(allowed, " or "), v)
		}
		if differs {
			e, a = append(e, exp[i]), append(a, act[i])
		}
	}
	return strings.Join(e, ", "), strings.Join(a, ", ")
}

// cite names where the survey prints a claim: its source and, when the
// claim names one, its line of survey.txt.
func cite(r ClaimResult) string {
	if r.Line > 0 {
		return fmt.Sprintf("%s; survey.txt line %d", r.Source, r.Line)
	}
	return r.Source
}

func keysNote(keys []string) string {
	if len(keys) == 0 {
		return ""
	}
	return "; entries: " + strings.Join(keys, ", ")
}

// ClaimCounts tallies results by status.
func ClaimCounts(results []ClaimResult) map[ClaimStatus]int {
	m := map[ClaimStatus]int{}
	for _, r := range results {
		m[r.Status]++
	}
	return m
}

// ClaimsOf returns the results that involve an entry, for its page.
func ClaimsOf(results []ClaimResult, key string) []ClaimResult {
	var out []ClaimResult
	for _, r := range results {
		if _, ok := slices.BinarySearch(r.Keys, key); ok {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b ClaimResult) int { return cmp.Compare(a.Pos.Line, b.Pos.Line) })
	return out
}
