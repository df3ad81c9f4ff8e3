package site

import (
	"cmp"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"reflect"
	"slices"
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
	Claims []*ClaimView
	// Parts are the claims grouped by the part of the survey that prints
	// them, in the paper's order, when the claims' mentions file lists
	// the survey's sections; nil otherwise (the claims in file order).
	Parts    []*ClaimPart
	Counts   []StatusCount
	Errata   []ErratumView // the acknowledged deviations, in survey order
	Paper    string        // the paper version the claims are about, "" when no pool names it
	Problems []*ClaimView  // fails and stale
}

// ErratumView is an acknowledged deviation on the claims page: where the
// survey and its CSV disagree, linked to its claim's row, with the part
// of the survey it stands in (Part, "" without sections).
type ErratumView struct {
	corpus.Erratum
	Anchor, Part, PartAnchor string
}

// claimsTableArgs are the claims page's claims-table arguments: the
// page's root, the claims, the table's caption and whether the list is
// the survey's.
type claimsTableArgs struct {
	Root    string
	Claims  []*ClaimView
	Caption string
	Survey  bool
}

// ClaimPart is a part of the survey (one of its headings) and the claims
// it prints, by line.
type ClaimPart struct {
	Title, Anchor string
	Line          int // where the part begins; 0 for the claims tied to no line
	Claims        []*ClaimView
}

// EntrySurvey is what the survey says of one entry, as its page,
// papers.json and the search index show it: its number in the
// References list and each table row, figure, card and section that
// names it, in the order of the paper.
type EntrySurvey struct {
	Reference     int           `json:"reference,omitempty"`
	ReferenceLine int           `json:"reference_line,omitempty"`
	Mentions      []MentionView `json:"mentions"`
}

// MentionView is one place of the survey that names an entry. Href leads
// from the site's root to the claims page: to the claim printed on the
// same line about the entry, else to the part of the survey it is in,
// else (a part that prints no claim) to the page.
type MentionView struct {
	In      string `json:"in"`
	Line    int    `json:"line"`
	Printed string `json:"printed"`
	Href    string `json:"-"`
}

// SearchText is what the search index holds of the survey's mentions: the
// reference number and the places, so that "Table 10" or "R3" finds the
// entries the survey names there.
func (s *EntrySurvey) SearchText() string {
	if s == nil {
		return ""
	}
	parts := make([]string, 0, len(s.Mentions)+1)
	if s.Reference > 0 {
		parts = append(parts, fmt.Sprintf("[%d]", s.Reference))
	}
	for _, m := range s.Mentions {
		parts = append(parts, m.In)
	}
	return strings.Join(parts, "; ")
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
	results := r.checked.ClaimResults()
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
	r.parts = r.claimParts()
	r.surveyOf = r.entrySurveys()
	return nil
}

// claimParts groups the claims by the part of the survey their line is
// in, when the claims' mentions file lists the survey's sections: the
// parts in the paper's order, each part's claims by line (file order
// within a line), the claims tied to no line last.
func (r *renderer) claimParts() []*ClaimPart {
	m := r.claimSet.Mentions
	if m == nil || len(m.Sections) == 0 {
		return nil
	}
	used := map[string]bool{}
	byLine := map[int]*ClaimPart{}
	var parts []*ClaimPart
	var loose *ClaimPart
	for _, cv := range r.claims {
		sec := m.SectionAt(cv.Line)
		if sec == nil {
			if loose == nil {
				loose = &ClaimPart{Title: "Not tied to a line of the survey", Anchor: uniqueAnchor(used, "part-", "none")}
			}
			loose.Claims = append(loose.Claims, cv)
			continue
		}
		p := byLine[sec.Line]
		if p == nil {
			p = &ClaimPart{Title: sec.Title, Line: sec.Line, Anchor: uniqueAnchor(used, "part-", sec.Title)}
			byLine[sec.Line] = p
			parts = append(parts, p)
		}
		p.Claims = append(p.Claims, cv)
	}
	slices.SortFunc(parts, func(a, b *ClaimPart) int { return cmp.Compare(a.Line, b.Line) })
	for _, p := range parts {
		slices.SortStableFunc(p.Claims, func(a, b *ClaimView) int { return cmp.Compare(a.Line, b.Line) })
	}
	if loose != nil {
		parts = append(parts, loose)
	}
	return parts
}

// partOf returns the part of the claims page a line of the survey is in.
func (r *renderer) partOf(line int) *ClaimPart {
	sec := r.claimSet.Mentions.SectionAt(line)
	if sec == nil {
		return nil
	}
	for _, p := range r.parts {
		if p.Line == sec.Line {
			return p
		}
	}
	return nil
}

// entrySurveys gathers what the survey says of each entry, for the
// survey's own list only: its reference number and its mentions, each
// linked to the claims page.
func (r *renderer) entrySurveys() map[string]*EntrySurvey {
	m := r.claimSet.Mentions
	if m == nil || !r.site.Survey {
		return nil
	}
	// The claims printed on a line, by line, to link a mention to the
	// claim about its entry there.
	onLine := map[int][]*ClaimView{}
	for _, cv := range r.claims {
		if cv.Line > 0 {
			onLine[cv.Line] = append(onLine[cv.Line], cv)
		}
	}
	out := map[string]*EntrySurvey{}
	for _, ev := range r.entries {
		ref := m.Reference(ev.Key)
		ms := m.Of(ev.Key)
		if ref == nil && len(ms) == 0 {
			continue
		}
		es := &EntrySurvey{Mentions: []MentionView{}}
		if ref != nil {
			es.Reference, es.ReferenceLine = ref.Number, ref.Line
		}
		for _, mn := range ms {
			mv := MentionView{In: mn.In, Line: mn.Line, Printed: mn.Printed}
			for _, cv := range onLine[mn.Line] {
				if _, ok := slices.BinarySearch(cv.Keys, ev.Key); ok {
					mv.Href = "claims/#" + cv.Anchor
					break
				}
			}
			if p := r.partOf(mn.Line); mv.Href == "" && p != nil {
				mv.Href = "claims/#" + p.Anchor
			}
			if mv.Href == "" { // a part of the survey that prints no claim
				mv.Href = "claims/"
			}
			es.Mentions = append(es.Mentions, mv)
		}
		out[ev.Key] = es
	}
	return out
}

// claimHref returns the page listing every entry a claim counts: the term
// page of an unscoped count or set claim's value, the cell page of a cell
// claim on one of the coverage tables; "" for other claims. A cell claim counts the
// survey's pool, so it links the pool's cell page when there is a pool.
func (r *renderer) claimHref(cl *corpus.Claim) string {
	var field, value string
	switch k := cl.Check.(type) {
	case *corpus.CountClaim:
		if len(k.Buckets) > 0 || len(k.Among) > 0 || k.Contains != "" {
			return "" // a scoped count is not the value's term page
		}
		field, value = k.Field, k.Value
	case *corpus.SetClaim:
		if len(k.Buckets) > 0 || len(k.Among) > 0 {
			return ""
		}
		field, value = k.Field, k.Value
	case *corpus.CellClaim:
		for _, tv := range r.coverageViews[len(r.coverageViews)-1].Tables {
			if tv.Rows.Name != k.Rows || tv.Cols.Name != k.Cols {
				continue
			}
			for _, line := range tv.Lines {
				for _, cell := range line.Cells {
					if cell.Row.Value == k.Row && cell.Col.Value == k.Col {
						return cell.Href
					}
				}
			}
		}
		return ""
	default:
		return ""
	}
	if fv := r.field(field); fv != nil {
		if i := fv.Index(value); i >= 0 {
			return fv.Terms[i].Href
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
	cp := &claimsPage{Page: r.newPage("claims/", "Claims audit", "claims"), Claims: r.claims, Parts: r.parts, Counts: r.claimCounts()}
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
		ev := ErratumView{Erratum: e, Anchor: anchors[e.ID]}
		if r.parts != nil {
			if p := r.partOf(e.Line); p != nil {
				ev.Part, ev.PartAnchor = p.Title, p.Anchor
			}
		}
		cp.Errata = append(cp.Errata, ev)
	}
	return r.render("claims", &cp.Page, cp)
}

// surveyInputs is what papers.json and the search index read besides
// the rows (entriesInputs): what the survey says of each entry.
func (r *renderer) surveyInputs(kw *keyWalker) {
	r.entriesInputs(kw)
	kw.walk(reflect.ValueOf(r.surveyOf))
}

// surveyContext is the hash of what the survey says of the entries,
// which each row's piece of papers.json and the search index reads
// besides its row: 0 without it, so that other lists keep their pieces.
func (r *renderer) surveyContext() uint64 {
	if r.surveyOf == nil || r.inc == nil {
		return 0
	}
	b, err := json.Marshal(r.surveyOf) // map keys sorted: deterministic
	if err != nil {
		return 0
	}
	return maphash.Bytes(r.inc.cache.seed, b)
}
