package corpus

import (
	"cmp"
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
				r.Description, r.Source, r.Expected, r.Actual, keysNote(r.Responsible))
		case Stale:
			d = ds.add(Error, r.Pos, r.ID, r.Actual, "%s (%s): %s; the paper says %s, the CSV gives %s%s",
				r.Description, r.Source, r.Reason, r.Expected, r.Actual, keysNote(r.Responsible))
		case Acknowledged:
			exp, act := differing(r)
			d = ds.add(Warning, r.Pos, r.ID, r.Actual, "%s (%s): acknowledged deviation: the paper says %s, the CSV gives %s: %s",
				r.Description, r.Source, exp, act, r.Reason)
		default:
			continue
		}
		d.Keys = r.Responsible
	}
	return ds
}

// differing renders a tags result as only the fields that differ, so a
// warning about one field of a six-field row stays readable; other kinds
// are returned whole.
func differing(r ClaimResult) (expected, actual string) {
	if r.Kind != KindTags {
		return r.Expected, r.Actual
	}
	exp, act := strings.Split(r.Expected, ", "), strings.Split(r.Actual, ", ")
	if len(exp) != len(act) {
		return r.Expected, r.Actual
	}
	var e, a []string
	for i := range exp {
		if exp[i] != act[i] {
			e, a = append(e, exp[i]), append(a, act[i])
		}
	}
	return strings.Join(e, ", "), strings.Join(a, ", ")
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
