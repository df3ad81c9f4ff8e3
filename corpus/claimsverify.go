package corpus

import (
	"fmt"
	"slices"
	"strings"
)

// VerifyClaims recomputes every claim from the corpus, restricted to the
// claims' Pool when they have one. Results follow the claims' order in the
// file.
func VerifyClaims(c *Corpus, v *Vocabulary, claims *Claims) []ClaimResult {
	if claims.Pool != nil {
		c = claims.Pool.Restrict(c)
	}
	out := make([]ClaimResult, 0, len(claims.Claims))
	x := &claimContext{c: c, v: v, claims: claims.Claims, mentions: claims.Mentions}
	for i := range claims.Claims {
		cl := &claims.Claims[i]
		r := ClaimResult{ID: cl.ID, Kind: cl.Kind, Description: cl.Description, Source: cl.Source,
			Line: cl.Line, Printed: cl.Printed, Pos: cl.Pos, Keys: []string{}}
		var deviation string // what differs, rendered like Acknowledgement.CSV
		if cl.Check != nil {
			deviation = cl.Check.verify(x, &r)
		}
		r.Status, r.Reason = judge(r.Expected == r.Actual, cl.Ack, deviation)
		if r.Status == Stale && len(r.Responsible) == 0 {
			// The CSV came to agree with the paper: the rows the claim
			// names are the ones whose change made the record stale.
			r.Responsible = r.Keys
		}
		out = append(out, r)
	}
	return out
}

// setResult compares the keys the paper names with the CSV's (both
// sorted): the keys of either, and those in only one of them.
func setResult(r *ClaimResult, paper, csv []string) {
	r.Expected, r.Actual = strings.Join(paper, ", "), strings.Join(csv, ", ")
	r.Keys, r.Responsible = symmetricDifference(paper, csv)
}

// symmetricDifference returns the keys of two sorted lists and those in
// only one of them, both sorted.
func symmetricDifference(a, b []string) (union, differ []string) {
	union = sortedUnion(a, b)
	for _, k := range union {
		_, inA := slices.BinarySearch(a, k)
		_, inB := slices.BinarySearch(b, k)
		if inA != inB {
			differ = append(differ, k)
		}
	}
	return union, differ
}

// judge turns agreement and the recorded acknowledgement into a status.
func judge(agree bool, ack *Acknowledgement, deviation string) (ClaimStatus, string) {
	switch {
	case agree && ack == nil:
		return Holds, ""
	case agree:
		return Stale, "acknowledged deviation no longer true: the CSV now agrees with the paper; remove the acknowledgement (" + ack.Reason + ")"
	case ack == nil:
		return Fails, ""
	case ack.CSV == deviation:
		return Acknowledged, ack.Reason
	}
	return Stale, fmt.Sprintf("acknowledged deviation no longer true: it records the CSV as %s, the CSV now has %s (%s)", ack.CSV, deviation, ack.Reason)
}

func sortedUnion(a, b []string) []string {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}
