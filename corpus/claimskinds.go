package corpus

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// This file holds the claim kinds about the survey's tables and pool as a
// whole (columns, bucket, order, share, oneof) and the scopes of count and
// set claims: parsing and verification side by side, so that a kind is
// read in one place.

// scope reads buckets and among: a count or set claim restricted to the
// rows printed under some buckets of a table, or to listed keys; a bucket
// claim's buckets are what it counts.
func (p *claimParser) scope(line int, r *rawClaim, c *Claim) bool {
	if len(r.Buckets) == 0 && len(r.Among) == 0 {
		return true
	}
	switch {
	case r.Kind != KindCount && r.Kind != KindSet && r.Kind != KindBucket:
		p.errorf(line, "claim %s: only count, set and bucket claims take buckets or among", r.ID)
		return false
	case len(r.Buckets) > 0 && len(r.Among) > 0:
		p.errorf(line, "claim %s: buckets and among are two scopes; give one", r.ID)
		return false
	case len(r.Buckets) > 0:
		if !p.checkLegend(line, r.ID, r.Legend) {
			return false
		}
		c.Legend, c.Buckets = r.Legend, slices.Clone(r.Buckets)
	default:
		c.Among = slices.Clone(r.Among)
		slices.Sort(c.Among)
		if n := len(c.Among); len(slices.Compact(c.Among)) != n {
			p.errorf(line, "claim %s: among repeats a key", r.ID)
			return false
		}
	}
	return true
}

func (p *claimParser) checkLegend(line int, id, name string) bool {
	if _, ok := p.legend[name]; !ok {
		names := make([]string, 0, len(p.legend))
		for n := range p.legend {
			names = append(names, n)
		}
		slices.Sort(names)
		p.errorf(line, "claim %s: legend %q is not a legend of the file (%s)", id, name, strings.Join(names, ", "))
		return false
	}
	return true
}

// tableClaim reads the kinds that describe a printed table or the pool as
// a whole.
func (p *claimParser) tableClaim(n *yaml.Node, r *rawClaim, c *Claim) bool {
	switch r.Kind {
	case KindColumns:
		if r.Expect.Kind == yaml.SequenceNode {
			if err := r.Expect.Decode(&c.Names); err != nil || len(c.Names) == 0 {
				p.errorf(r.Expect.Line, "claim %s: expect must list the columns in order, or count the columns a table leaves out (with shown)", r.ID)
				return false
			}
			return true
		}
		if len(r.Shown) == 0 {
			p.errorf(n.Line, "claim %s: a count of columns needs shown: the columns the printed table shows", r.ID)
			return false
		}
		for _, col := range r.Shown {
			if !slices.Contains(paperColumns(), col) {
				p.errorf(n.Line, "claim %s: shown: %q is not a column of papers.csv", r.ID, col)
				return false
			}
		}
		c.Shown, c.Number = r.Shown, p.number(r.ID, &r.Expect)
	case KindBucket:
		if len(c.Buckets) == 0 {
			p.errorf(n.Line, "claim %s: a bucket claim needs a legend and the buckets it counts", r.ID)
			return false
		}
		if r.Field != "" && !p.checkValue(n.Line, r.ID, r.Field, r.Value) {
			return false
		}
		c.Field, c.Value, c.Number = r.Field, r.Value, p.number(r.ID, &r.Expect)
	case KindOrder:
		if !p.checkLegend(n.Line, r.ID, r.Legend) {
			return false
		}
		if err := r.Expect.Decode(&c.Names); err != nil || len(c.Names) == 0 {
			p.errorf(r.Expect.Line, "claim %s: expect must list the columns the rows are sorted by, e.g. [year, key]", r.ID)
			return false
		}
		for _, col := range c.Names {
			if !slices.Contains(paperColumns(), col) {
				p.errorf(r.Expect.Line, "claim %s: %q is not a column of papers.csv", r.ID, col)
				return false
			}
		}
		c.Legend = r.Legend
	case KindShare:
		from, err1 := time.Parse("2006-01", r.From)
		to, err2 := time.Parse("2006-01", r.To)
		if err1 != nil || err2 != nil || to.Before(from) {
			p.errorf(n.Line, "claim %s: from and to must be months YYYY-MM, from not after to", r.ID)
			return false
		}
		if r.AtLeast <= 0 || r.AtLeast > 1 {
			p.errorf(n.Line, "claim %s: at_least must be the share the printed words mean, in (0, 1]", r.ID)
			return false
		}
		c.From, c.To, c.AtLeast = r.From, r.To, r.AtLeast
	case KindOneOf:
		if r.Key == "" || r.Expect.Kind != yaml.MappingNode || len(r.Expect.Content) == 0 {
			p.errorf(n.Line, "claim %s: a oneof claim needs a key and expect mapping each field to its allowed values", r.ID)
			return false
		}
		c.Key = r.Key
		for i := 0; i+1 < len(r.Expect.Content); i += 2 {
			f := r.Expect.Content[i].Value
			var vals []string
			if err := r.Expect.Content[i+1].Decode(&vals); err != nil || len(vals) == 0 {
				p.errorf(r.Expect.Content[i].Line, "claim %s: %s must list its allowed values", r.ID, f)
				return false
			}
			for _, v := range vals {
				if !p.checkValue(r.Expect.Content[i].Line, r.ID, f, v) {
					return false
				}
			}
			c.Choices = append(c.Choices, Choice{Field: f, Values: vals})
		}
	}
	return true
}

// fieldValues renders an acknowledgement's field → value mapping in the
// claim's field order, as verification renders the deviation.
func (p *claimParser) fieldValues(id string, n yaml.Node, choices []Choice) (string, bool) {
	if n.Kind != yaml.MappingNode {
		p.errorf(n.Line, "claim %s: csv must map each differing field to the CSV's value", id)
		return "", false
	}
	m := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		m[n.Content[i].Value] = n.Content[i+1].Value
	}
	var parts []string
	for _, ch := range choices {
		if v, ok := m[ch.Field]; ok {
			parts = append(parts, ch.Field+"="+v)
			delete(m, ch.Field)
		}
	}
	if len(m) > 0 {
		p.errorf(n.Line, "claim %s: csv names fields the claim does not", id)
		return "", false
	}
	return strings.Join(parts, ", "), true
}

// claimContext is what verifying the whole-table kinds needs: the pool's
// rows by key, the claims (a printed table's rows are its tags claims)
// and the CSV's header.
type claimContext struct {
	c        *Corpus
	claims   []Claim
	mentions *Mentions // the claims' mentions file, for a references claim
	byKey    map[string]*Entry
}

func (x *claimContext) entry(key string) *Entry {
	if x.byKey == nil { // one index instead of a scan per claim
		x.byKey = make(map[string]*Entry, len(x.c.Papers))
		for i := range x.c.Papers {
			if _, dup := x.byKey[x.c.Papers[i].Key]; !dup {
				x.byKey[x.c.Papers[i].Key] = &x.c.Papers[i]
			}
		}
	}
	return x.byKey[key]
}

// printedRow is one row of a printed table: its key and bucket.
type printedRow struct{ key, bucket string }

// printedRows returns a legend's table as the claims file transcribes it:
// its tags claims in file order.
func (x *claimContext) printedRows(legend string) []printedRow {
	var out []printedRow
	for i := range x.claims {
		if cl := &x.claims[i]; cl.Kind == KindTags && cl.Legend == legend {
			out = append(out, printedRow{cl.Key, cl.Bucket})
		}
	}
	return out
}

// scopeKeys returns the keys a count or set claim is restricted to, nil
// for a claim over the whole pool.
func (x *claimContext) scopeKeys(cl *Claim) map[string]bool {
	if len(cl.Buckets) == 0 && len(cl.Among) == 0 {
		return nil
	}
	in := map[string]bool{}
	for _, k := range cl.Among {
		in[k] = true
	}
	for _, row := range x.printedRows(cl.Legend) {
		if slices.Contains(cl.Buckets, row.bucket) {
			in[row.key] = true
		}
	}
	return in
}

// matching returns the sorted keys of the pool's rows in a count or set
// claim's scope whose field has its value (or contains its text).
func (x *claimContext) matching(cl *Claim) []string {
	scope := x.scopeKeys(cl)
	var out []string
	for i := range x.c.Papers {
		e := &x.c.Papers[i]
		if scope != nil && !scope[e.Key] {
			continue
		}
		v := e.Value(cl.Field)
		if cl.Contains != "" && strings.Contains(v, cl.Contains) || cl.Contains == "" && v == cl.Value {
			out = append(out, e.Key)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// scanned reports whether a count or set claim is computed by matching
// rather than from the vocabulary's histogram: scoped, free-text or
// substring claims.
func scanned(cl *Claim, v *Vocabulary) bool {
	return len(cl.Buckets) > 0 || len(cl.Among) > 0 || cl.Contains != "" || v.Field(cl.Field) == nil
}

// verifyWhole verifies the kinds of this file into r and returns the
// deviation, rendered like Acknowledgement.CSV.
func (x *claimContext) verifyWhole(cl *Claim, r *ClaimResult) string {
	switch cl.Kind {
	case KindColumns:
		var header []string
		if x.c.papers != nil {
			header = x.c.papers.header
		}
		if cl.Names != nil {
			r.Expected, r.Actual = strings.Join(cl.Names, ", "), strings.Join(header, ", ")
			return r.Actual
		}
		var omitted []string
		for _, h := range header {
			if !slices.Contains(cl.Shown, h) {
				omitted = append(omitted, h)
			}
		}
		r.Expected = strconv.Itoa(cl.Number)
		r.Actual = fmt.Sprintf("%d (%s)", len(omitted), strings.Join(omitted, ", "))
		if len(omitted) == cl.Number {
			r.Actual = r.Expected // agreement shows as the bare count
		}
		return strconv.Itoa(len(omitted))
	case KindBucket:
		var printed []string
		for _, row := range x.printedRows(cl.Legend) {
			if slices.Contains(cl.Buckets, row.bucket) && x.entry(row.key) != nil {
				printed = append(printed, row.key)
			}
		}
		slices.Sort(printed)
		r.Keys = printed
		r.Expected, r.Actual = strconv.Itoa(cl.Number), strconv.Itoa(len(printed))
		if cl.Field != "" {
			// The bucket is one value of the CSV: its rows are the
			// bucket's, no more and no fewer.
			tagged := x.matching(&Claim{Field: cl.Field, Value: cl.Value})
			r.Keys, r.Responsible = symmetricDifference(printed, tagged)
			if len(r.Responsible) > 0 {
				r.Actual += fmt.Sprintf(" (%s=%s has %d: differs in %s)", cl.Field, cl.Value, len(tagged), strings.Join(r.Responsible, ", "))
			}
		}
		return r.Actual
	case KindOrder:
		var out []string
		rows := x.printedRows(cl.Legend)
		var prev *Entry
		for i, row := range rows {
			e := x.entry(row.key)
			if i > 0 && rows[i-1].bucket != row.bucket {
				prev = nil
			}
			if e == nil { // a missing row fails its own tags claim
				continue
			}
			if prev != nil && x.compareBy(prev, e, cl.Names) > 0 {
				out = append(out, fmt.Sprintf("%s: %s (%s) after %s (%s)", row.bucket,
					e.Key, x.sortKey(e, cl.Names), prev.Key, x.sortKey(prev, cl.Names)))
				r.Responsible = append(r.Responsible, e.Key)
			}
			prev = e
		}
		r.Expected = "sorted within bucket by " + strings.Join(cl.Names, ", then ")
		r.Actual = r.Expected
		if len(out) > 0 {
			r.Actual = strings.Join(out, "; ")
		}
		slices.Sort(r.Responsible)
		r.Responsible = slices.Compact(r.Responsible)
		r.Keys = slices.Clone(r.Responsible)
		return r.Actual
	case KindShare:
		from, _ := time.Parse("2006-01", cl.From)
		to, _ := time.Parse("2006-01", cl.To)
		in := 0
		for i := range x.c.Papers {
			if dated(&x.c.Papers[i], from, to) {
				in++
			}
		}
		total := len(x.c.Papers)
		r.Expected = fmt.Sprintf("at least %g%% of the pool dated %s to %s", cl.AtLeast*100, cl.From, cl.To)
		deviation := fmt.Sprintf("%d of %d", in, total)
		r.Actual = fmt.Sprintf("%s (%d%%)", deviation, (in*200+total)/max(2*total, 1)) // rounded
		if total > 0 && float64(in) >= cl.AtLeast*float64(total) {
			r.Actual = r.Expected
		}
		return deviation
	case KindOneOf:
		r.Keys = []string{cl.Key}
		e := x.entry(cl.Key)
		var exp, act, diff []string
		for _, ch := range cl.Choices {
			exp = append(exp, ch.Field+" in "+strings.Join(ch.Values, " or "))
			if e == nil {
				continue
			}
			got := e.Value(ch.Field)
			act = append(act, ch.Field+"="+got)
			if !slices.Contains(ch.Values, got) {
				diff = append(diff, ch.Field+"="+got)
			}
		}
		r.Expected, r.Actual = strings.Join(exp, ", "), strings.Join(act, ", ")
		if e == nil {
			r.Actual = "no row with key " + cl.Key
			diff = []string{r.Actual}
		}
		if len(diff) > 0 {
			r.Responsible = []string{cl.Key}
		} else {
			r.Actual = r.Expected // agreement: the row is one of the allowed
		}
		return strings.Join(diff, ", ")
	}
	return ""
}

// compareBy orders two rows by columns, numerically where both values are
// numbers (year), else as text (key).
func (x *claimContext) compareBy(a, b *Entry, cols []string) int {
	for _, col := range cols {
		va, vb := a.Value(col), b.Value(col)
		na, errA := strconv.Atoi(va)
		nb, errB := strconv.Atoi(vb)
		c := cmp.Compare(va, vb)
		if errA == nil && errB == nil {
			c = cmp.Compare(na, nb)
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

func (x *claimContext) sortKey(e *Entry, cols []string) string {
	var parts []string
	for _, col := range cols {
		if col != "key" {
			parts = append(parts, e.Value(col))
		}
	}
	return strings.Join(parts, ", ")
}

// dated reports whether an entry falls inside a window: by its arXiv
// submission month (as the survey's Figure 2 plots entries) when it has an
// arXiv id, otherwise by its year, which counts when it overlaps the
// window.
func dated(e *Entry, from, to time.Time) bool {
	// A new-style arXiv id (2508.04652) begins with the year and month
	// of submission.
	if id := e.ArxivID; len(id) >= 9 && id[4] == '.' {
		if yymm, err := strconv.Atoi(id[:4]); err == nil && yymm >= 0 && yymm%100 >= 1 && yymm%100 <= 12 {
			t := time.Date(2000+yymm/100, time.Month(yymm%100), 1, 0, 0, 0, 0, time.UTC)
			return !t.Before(from) && !t.After(to)
		}
	}
	return e.Year != 0 && e.Year >= from.Year() && e.Year <= to.Year()
}
