package corpus

import (
	"fmt"
	"slices"
	"strconv"
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
	hists := map[string]*Histogram{}
	hist := func(f string) *Histogram {
		if h, ok := hists[f]; ok {
			return h
		}
		hists[f] = c.Histogram(v, f)
		return hists[f]
	}
	tabs := map[[2]string]*CrossTab{}
	x := &claimContext{c: c, claims: claims.Claims, mentions: claims.Mentions}
	for i := range claims.Claims {
		cl := &claims.Claims[i]
		r := ClaimResult{ID: cl.ID, Kind: cl.Kind, Description: cl.Description, Source: cl.Source,
			Line: cl.Line, Printed: cl.Printed, Pos: cl.Pos, Keys: []string{}}
		var deviation string // what differs, rendered like Acknowledgement.CSV
		switch cl.Kind {
		case KindColumns, KindBucket, KindOrder, KindShare, KindOneOf:
			deviation = x.verifyWhole(cl, &r)
		case KindMeta, KindExcluded, KindReferences:
			deviation = x.verifyPaper(cl, &r)
		case KindTotal:
			n := 0
			switch cl.Of {
			case "retained":
				n = len(c.Papers)
			case "excluded":
				n = len(c.Excluded)
			case "audited":
				n = len(c.Papers) + len(c.Excluded)
			}
			r.Expected, r.Actual = strconv.Itoa(cl.Number), strconv.Itoa(n)
			deviation = r.Actual
		case KindCount, KindCell:
			if cl.Kind == KindCount && scanned(cl, v) {
				deviation = verifyScanned(x, cl, &r)
				break
			}
			var cell *Cell
			if cl.Kind == KindCount {
				cell = hist(cl.Field).Cell(cl.Value)
			} else {
				k := [2]string{cl.Rows, cl.Cols}
				if tabs[k] == nil {
					tabs[k] = c.CrossTab(v, cl.Rows, cl.Cols)
				}
				cell = tabs[k].Cell(cl.Row, cl.Col)
			}
			r.Expected, r.Actual = strconv.Itoa(cl.Number), strconv.Itoa(cell.Count)
			r.Keys = slices.Clone(cell.Keys)
			slices.Sort(r.Keys)
			r.Responsible = r.Keys
			deviation = r.Actual
		case KindSet:
			if scanned(cl, v) {
				deviation = verifyScanned(x, cl, &r)
				break
			}
			h := hist(cl.Field)
			actual := slices.Clone(h.Cell(cl.Value).Keys)
			slices.Sort(actual)
			setResult(&r, cl.Keys, actual)
			deviation = r.Actual
		case KindTags:
			r.Keys = []string{cl.Key}
			e := x.entry(cl.Key)
			var exp, act, diff []string
			for _, t := range cl.Tags {
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
				r.Actual = "no row with key " + cl.Key
				diff = []string{r.Actual}
			}
			if len(diff) > 0 {
				r.Responsible = []string{cl.Key}
			}
			deviation = strings.Join(diff, ", ")
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

// verifyScanned verifies a count or set claim by matching rows: scoped to
// printed buckets or listed keys, or on a free-text column.
func verifyScanned(x *claimContext, cl *Claim, r *ClaimResult) string {
	actual := x.matching(cl)
	if cl.Kind == KindCount {
		r.Expected, r.Actual = strconv.Itoa(cl.Number), strconv.Itoa(len(actual))
		r.Keys, r.Responsible = actual, actual
		if len(cl.Among) > 0 { // the listed rows that lack the value
			r.Keys, r.Responsible = slices.Clone(cl.Among), nil
			for _, k := range cl.Among {
				if _, ok := slices.BinarySearch(actual, k); !ok {
					r.Responsible = append(r.Responsible, k)
				}
			}
		}
		return r.Actual
	}
	setResult(r, cl.Keys, actual)
	return r.Actual
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
