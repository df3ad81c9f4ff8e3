package site

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/masrl/masrl/corpus"
)

// ClaimView is one of the survey's figures compared with the corpus.
type ClaimView struct {
	corpus.ClaimResult
	// Anchor is the claim's id on the claims page, derived from its ID.
	Anchor  string
	Entries []*EntryView // the entries the claim involves, sorted
	Unknown []string     // keys the claim names that the corpus lacks
}

// StatusCount is the number of claims with one status.
type StatusCount struct {
	Status corpus.ClaimStatus
	Count  int
}

type claimsPage struct {
	Page
	Claims       []*ClaimView
	Counts       []StatusCount
	Acknowledged []*ClaimView
	Problems     []*ClaimView // fails and stale
}

// claimStatuses is the order statuses are counted and explained in.
var claimStatuses = []corpus.ClaimStatus{corpus.Holds, corpus.Acknowledged, corpus.Fails, corpus.Stale}

// prepareClaims verifies the survey's claims against the corpus and keeps
// the results for the claims page and the entry pages.
func (r *renderer) prepareClaims() error {
	b, err := fs.ReadFile(r.data, "claims.yaml")
	if err != nil {
		return err
	}
	claims, err := corpus.ParseClaims(corpus.ClaimsFile, b, r.v)
	if err != nil {
		return err
	}
	results := corpus.VerifyClaims(r.c, r.v, claims)
	used := map[string]bool{}
	r.claimsOf = map[string][]*ClaimView{}
	for _, res := range results {
		cv := &ClaimView{ClaimResult: res, Anchor: uniqueAnchor(used, "claim-", res.ID)}
		for _, k := range res.Keys {
			if ev := r.byKey[k]; ev != nil {
				cv.Entries = append(cv.Entries, ev)
				r.claimsOf[k] = append(r.claimsOf[k], cv)
			} else {
				cv.Unknown = append(cv.Unknown, k)
			}
		}
		sortEntries(cv.Entries)
		r.claims = append(r.claims, cv)
	}
	return nil
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
	cp := &claimsPage{Page: r.newPage("claims/", "Claims audit", "claims"), Claims: r.claims, Counts: r.claimCounts()}
	cp.Description = "Every figure the survey prints about its corpus, recomputed from the CSV."
	for _, cv := range r.claims {
		switch cv.Status {
		case corpus.Acknowledged:
			cp.Acknowledged = append(cp.Acknowledged, cv)
		case corpus.Fails, corpus.Stale:
			cp.Problems = append(cp.Problems, cv)
		}
	}
	return r.render("claims", &cp.Page, cp)
}
