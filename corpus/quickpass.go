package corpus

import (
	"reflect"
	"slices"
	"time"
)

// PassesAfter reports, without waiting for ck's check, that its verdict
// (Verdict, with the claims when withClaims) passes, when it can tell so
// from prev's: ck reopened from prev (Reopen) whose check passed, with
// the same data, papers.bib, excluded.csv and spot-checks, the same
// number of rows with the same keys, tags and lines, on the same day,
// and no claims to verify; and the rows that changed raise no error of
// their own (the rules of one row) nor of the one rule that compares
// them with other files' records and errs (an excluded record also
// retained). The other rules that compare rows then give what they gave
// prev: the duplicate keys read the keys; the titles and BibTeX give
// warnings only. False means "not known", never "fails": masrl serve
// then waits for the check (Verdict) before it shows a page, as before.
// TestPassesAfterMatchesVerdict holds a true to the verdict's.
func (ck *Checked) PassesAfter(prev *Checked, withClaims bool) bool {
	if prev == nil || ck.Data != prev.Data || ck.opt != prev.opt || (withClaims && ck.Claims != nil) {
		return false
	}
	// prev's check: done by the time of the next edit (masrl serve's
	// build waited for it), and started here if no one asked for it.
	if prev.Diagnostics().Err() != nil || prev.memo == nil {
		return false
	}
	today := ck.opt.Today
	if today.IsZero() {
		today = time.Now()
	}
	c, p := ck.Corpus, prev.Corpus
	if prev.memo.today != today.Format(time.DateOnly) || c.Dir != p.Dir || c.papers != p.papers ||
		len(c.Papers) != len(p.Papers) || !c.SameBib(p) || len(c.bibDiags) != len(p.bibDiags) ||
		c.HasExcluded != p.HasExcluded || c.HasSpotcheck != p.HasSpotcheck ||
		!reflect.DeepEqual(c.Excluded, p.Excluded) || !reflect.DeepEqual(c.Audits, p.Audits) ||
		c.loadDiags.Err() != nil {
		return false
	}
	audited := make(map[string]bool, len(c.Audits))
	for _, a := range c.Audits {
		audited[a.Key] = true
	}
	controlled := ck.Vocabulary.FieldsOf(PapersFile)
	var changed []*Entry
	lo, hi := c.ChangedRows(p)
	for i := lo; i < hi; i++ {
		e, o := c.Papers[i], p.Papers[i]
		if e.SameRow(o) {
			continue
		}
		if len(changed) == 64 || e.Key != o.Key || e.Line != o.Line || audited[e.Key] {
			return false
		}
		for _, f := range controlled {
			if !slices.Equal(e.Values(f), o.Values(f)) {
				return false
			}
		}
		changed = append(changed, e)
	}
	// The changed rows checked alone, as the full check checks each row.
	var ds Diagnostics
	only := &Corpus{Papers: changed, Excluded: c.Excluded, papers: c.papers}
	rc := &checker{c: only, v: ck.Vocabulary, opt: CheckOptions{Today: today}, ds: &ds}
	cols, required, fields, values, tags := rc.rowColumns(c.papers)
	for i := range changed {
		rc.rowValues(changed[i], cols, required, fields, values, tags)
		rc.rowRest(changed[i], today.Year()+1)
	}
	for j := range c.Excluded {
		rc.alsoRetained(j)
	}
	return ds.Err() == nil
}
