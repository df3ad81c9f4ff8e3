package site

import (
	"fmt"
	"strings"

	"github.com/masrl/masrl/corpus"
)

// ClaimView is one of the survey's figures compared with the corpus.
type ClaimView struct {
	corpus.ClaimResult
	// Anchor is the claim's id on the claims page, derived from its ID.
	Anchor string
	// Count is the number of the corpus' entries the claim involves.
	Count   int
	Unknown []string // keys the claim names that the corpus lacks
	// Shown are the first claimEntryLimit of those entries, in the
	// site's order, as the claims page links them: their keys, not the
	// entries, whose other fields the page does not show (and whose edits
	// then leave its key alone, incremental.go). More counts the others,
	// and AllHref is the page that lists them all (the value's term page
	// or the cross-tab's cell page), "" when there is none.
	Shown   []claimEntry
	More    int
	AllHref string
	// ExpectedShort and ActualShort are Expected and Actual with a key
	// list cut to claimEntryLimit keys: an entry page shows them, and a
	// set claim over a common value names thousands of keys, each of
	// whose pages would otherwise carry them all.
	ExpectedShort, ActualShort string
}

// claimEntry is an entry a claim involves, as the claims page links it.
type claimEntry struct{ Key, Href string }

// claimEntryLimit bounds the keys a claim lists outside its own row of the
// claims page. A count claim involves every entry with its value, a fixed
// share of the corpus: listing them all made the claims page grow with the
// corpus times the number of claims.
const claimEntryLimit = 20

// StatusCount is the number of claims with one status.
type StatusCount struct {
	Status corpus.ClaimStatus
	Count  int
}

type claimsPage struct {
	Page
	Claims   []*ClaimView
	Counts   []StatusCount
	Errata   []ErratumView // the acknowledged deviations, in survey order
	Paper    string        // the paper version the claims are about, "" when no pool names it
	Problems []*ClaimView  // fails and stale
}

// ErratumView is an acknowledged deviation on the claims page: where the
// survey and its CSV disagree, linked to its claim's row.
type ErratumView struct {
	corpus.Erratum
	Anchor string
}

// claimStatuses is the order statuses are counted and explained in.
var claimStatuses = []corpus.ClaimStatus{corpus.Holds, corpus.Acknowledged, corpus.Fails, corpus.Stale}

// prepareClaims verifies the survey's claims against the corpus and keeps
// the results for the claims page and the entry pages.
func (r *renderer) prepareClaims() error {
	claims := r.claimSet
	if claims == nil { // a list without claims: no page, no gate
		return nil
	}
	results := corpus.VerifyClaims(r.c, r.v, claims)
	used := map[string]bool{}
	r.claimsOf = map[string][]*ClaimView{}
	for i, res := range results {
		cv := &ClaimView{ClaimResult: res, Anchor: uniqueAnchor(used, "claim-", res.ID)}
		var entries []*EntryView
		for _, k := range res.Keys {
			if ev := r.byKey[k]; ev != nil {
				entries = append(entries, ev)
			} else {
				cv.Unknown = append(cv.Unknown, k)
			}
		}
		sortEntries(entries)
		cv.Count = len(entries)
		for _, ev := range entries[:min(len(entries), claimEntryLimit)] {
			cv.Shown = append(cv.Shown, claimEntry{ev.Key, ev.Href})
		}
		cv.More = len(entries) - len(cv.Shown)
		if i < len(claims.Claims) && claims.Claims[i].ID == res.ID {
			cv.AllHref = r.claimHref(&claims.Claims[i])
		}
		cv.ExpectedShort, cv.ActualShort = res.Expected, res.Actual
		switch res.Kind {
		case corpus.KindSet:
			cv.ExpectedShort = abbreviateList(res.Expected, ", ", claimEntryLimit)
			cv.ActualShort = abbreviateList(res.Actual, ", ", claimEntryLimit)
		}
		for _, ev := range entries {
			r.claimsOf[ev.Key] = append(r.claimsOf[ev.Key], cv.forEntry(ev.Key))
		}
		r.claims = append(r.claims, cv)
	}
	return nil
}

// claimHref returns the page listing every entry a claim counts: the term
// page of an unscoped count or set claim's value, the cell page of a cell
// claim on one of the coverage tables; "" for other claims. A cell claim counts the
// survey's pool, so it links the pool's cell page when there is a pool.
func (r *renderer) claimHref(cl *corpus.Claim) string {
	switch cl.Kind {
	case corpus.KindCount, corpus.KindSet:
		if len(cl.Buckets) > 0 || len(cl.Among) > 0 || cl.Contains != "" {
			return "" // a scoped count is not the value's term page
		}
		if fv := r.field(cl.Field); fv != nil {
			if i := fv.Index(cl.Value); i >= 0 {
				return fv.Terms[i].Href
			}
		}
	case corpus.KindCell:
		for _, tv := range r.coverageViews[len(r.coverageViews)-1].Tables {
			if tv.Rows.Name != cl.Rows || tv.Cols.Name != cl.Cols {
				continue
			}
			for _, line := range tv.Lines {
				for _, cell := range line.Cells {
					if cell.Row.Value == cl.Row && cell.Col.Value == cl.Col {
						return cell.Href
					}
				}
			}
		}
	}
	return ""
}

// forEntry returns the claim as an entry's page shows it: an order claim
// lists every row out of order, of which the page quotes its own.
func (cv *ClaimView) forEntry(key string) *ClaimView {
	if cv.Kind != corpus.KindOrder || cv.Status == corpus.Holds {
		return cv
	}
	var own []string
	for item := range strings.SplitSeq(cv.Actual, "; ") {
		if strings.Contains(item, ": "+key+" (") {
			own = append(own, item)
		}
	}
	if len(own) == 0 {
		return cv
	}
	c := *cv
	c.ActualShort = strings.Join(own, "; ") + fmt.Sprintf("; … (%d in all)", strings.Count(cv.Actual, "; ")+1)
	return &c
}

// abbreviateList cuts a sep-separated list after limit items and says how
// many there are in all.
func abbreviateList(s, sep string, limit int) string {
	parts := strings.Split(s, sep)
	if len(parts) <= limit {
		return s
	}
	return strings.Join(parts[:limit], sep) + fmt.Sprintf("%s… (%d in all)", sep, len(parts))
}

// uniqueAnchor turns an ID into an HTML id of letters, digits, '-' and
// '_', numbered when two IDs map to the same anchor.
func uniqueAnchor(used map[string]bool, prefix, id string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, c := range id {
		if c < 0x80 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b.WriteRune(c)
		} else {
			b.WriteByte('-')
		}
	}
	base := b.String()
	a := base
	for n := 2; used[a]; n++ {
		a = fmt.Sprintf("%s-%d", base, n)
	}
	used[a] = true
	return a
}

// claimCounts counts the claims by status, in claimStatuses order.
func (r *renderer) claimCounts() []StatusCount {
	var out []StatusCount
	for _, st := range claimStatuses {
		n := 0
		for _, cv := range r.claims {
			if cv.Status == st {
				n++
			}
		}
		out = append(out, StatusCount{Status: st, Count: n})
	}
	return out
}

func (r *renderer) claimsAudit() error {
	if r.claimSet == nil {
		return nil
	}
	cp := &claimsPage{Page: r.newPage("claims/", "Claims audit", "claims"), Claims: r.claims, Counts: r.claimCounts()}
	cp.Description = "Every figure the survey prints about its corpus, recomputed from the CSV."
	if !r.site.Survey {
		cp.Description = "Every claim of claims.yaml about the list, recomputed from the CSV."
	}
	if p := r.claimSet.Pool; p != nil {
		cp.Paper = p.Paper
	}
	results := make([]corpus.ClaimResult, len(r.claims))
	anchors := map[string]string{}
	for i, cv := range r.claims {
		results[i] = cv.ClaimResult
		anchors[cv.ID] = cv.Anchor
		if cv.Status == corpus.Fails || cv.Status == corpus.Stale {
			cp.Problems = append(cp.Problems, cv)
		}
	}
	for _, e := range corpus.Errata(results) {
		cp.Errata = append(cp.Errata, ErratumView{Erratum: e, Anchor: anchors[e.ID]})
	}
	return r.render("claims", &cp.Page, cp)
}
