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
func (p *claimParser) scope(line int, r *rawClaim) (Scope, bool) {
	var sc Scope
	if len(r.Buckets) == 0 && len(r.Among) == 0 {
		return sc, true
	}
	switch {
	case r.Kind != KindCount && r.Kind != KindSet && r.Kind != KindBucket:
		p.errorf(line, "claim %s: only count, set and bucket claims take buckets or among", r.ID)
		return sc, false
	case len(r.Buckets) > 0 && len(r.Among) > 0:
		p.errorf(line, "claim %s: buckets and among are two scopes; give one", r.ID)
		return sc, false
	case len(r.Buckets) > 0:
		if !p.checkLegend(line, r.ID, r.Legend) {
			return sc, false
		}
		sc.Legend, sc.Buckets = r.Legend, slices.Clone(r.Buckets)
	default:
		sc.Among = slices.Clone(r.Among)
		slices.Sort(sc.Among)
		if n := len(sc.Among); len(slices.Compact(sc.Among)) != n {
			p.errorf(line, "claim %s: among repeats a key", r.ID)
			return sc, false
		}
	}
	return sc, true
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
func (p *claimParser) tableClaim(n *yaml.Node, r *rawClaim, sc Scope) ClaimCheck {
	switch r.Kind {
	case KindColumns:
		c := &ColumnsClaim{}
		if r.Expect.Kind == yaml.SequenceNode {
			if err := r.Expect.Decode(&c.Names); err != nil || len(c.Names) == 0 {
				p.errorf(r.Expect.Line, "claim %s: expect must list the columns in order, or count the columns a table leaves out (with shown)", r.ID)
				return nil
			}
			return c
		}
		if len(r.Shown) == 0 {
			p.errorf(n.Line, "claim %s: a count of columns needs shown: the columns the printed table shows", r.ID)
			return nil
		}
		for _, col := range r.Shown {
			if !slices.Contains(paperColumns(), col) {
				p.errorf(n.Line, "claim %s: shown: %q is not a column of papers.csv", r.ID, col)
				return nil
			}
		}
		c.Shown, c.Number = r.Shown, p.number(r.ID, &r.Expect)
		return c
	case KindBucket:
		if len(sc.Buckets) == 0 {
			p.errorf(n.Line, "claim %s: a bucket claim needs a legend and the buckets it counts", r.ID)
			return nil
		}
		if r.Field != "" && !p.checkValue(n.Line, r.ID, r.Field, r.Value) {
			return nil
		}
		return &BucketClaim{Legend: sc.Legend, Buckets: sc.Buckets, Field: r.Field, Value: r.Value,
			Number: p.number(r.ID, &r.Expect)}
	case KindOrder:
		if !p.checkLegend(n.Line, r.ID, r.Legend) {
			return nil
		}
		c := &OrderClaim{Legend: r.Legend}
		if err := r.Expect.Decode(&c.By); err != nil || len(c.By) == 0 {
			p.errorf(r.Expect.Line, "claim %s: expect must list the columns the rows are sorted by, e.g. [year, key]", r.ID)
			return nil
		}
		for _, col := range c.By {
			if !slices.Contains(paperColumns(), col) {
				p.errorf(r.Expect.Line, "claim %s: %q is not a column of papers.csv", r.ID, col)
				return nil
			}
		}
		return c
	case KindShare:
		from, err1 := time.Parse("2006-01", r.From)
		to, err2 := time.Parse("2006-01", r.To)
		if err1 != nil || err2 != nil || to.Before(from) {
			p.errorf(n.Line, "claim %s: from and to must be months YYYY-MM, from not after to", r.ID)
			return nil
		}
		if r.AtLeast <= 0 || r.AtLeast > 1 {
			p.errorf(n.Line, "claim %s: at_least must be the share the printed words mean, in (0, 1]", r.ID)
			return nil
		}
		return &ShareClaim{From: r.From, To: r.To, AtLeast: r.AtLeast}
	case KindOneOf:
		if r.Key == "" || r.Expect.Kind != yaml.MappingNode || len(r.Expect.Content) == 0 {
			p.errorf(n.Line, "claim %s: a oneof claim needs a key and expect mapping each field to its allowed values", r.ID)
			return nil
		}
		c := &OneOfClaim{Key: r.Key}
		for i := 0; i+1 < len(r.Expect.Content); i += 2 {
			f := r.Expect.Content[i].Value
			var vals []string
			if err := r.Expect.Content[i+1].Decode(&vals); err != nil || len(vals) == 0 {
				p.errorf(r.Expect.Content[i].Line, "claim %s: %s must list its allowed values", r.ID, f)
				return nil
			}
			for _, v := range vals {
				if !p.checkValue(r.Expect.Content[i].Line, r.ID, f, v) {
					return nil
				}
			}
			c.Choices = append(c.Choices, Choice{Field: f, Values: vals})
		}
		return c
	}
	return nil
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

// claimContext is what verifying a claim needs: the pool's rows by key,
// the claims (a printed table's rows are its tags claims), the vocabulary
// and the histograms and cross-tabs already counted.
type claimContext struct {
	c        *Corpus
	v        *Vocabulary
	claims   []Claim
	mentions *Mentions // the claims' mentions file, for a references claim
	byKey    map[string]*Entry
	hists    map[string]*Histogram
	tabs     map[[2]string]*CrossTab
}

// hist returns a field's histogram, counted once for every claim on it.
func (x *claimContext) hist(field string) *Histogram {
	if h, ok := x.hists[field]; ok {
		return h
	}
	if x.hists == nil {
		x.hists = map[string]*Histogram{}
	}
	x.hists[field] = x.c.Histogram(x.v, field)
	return x.hists[field]
}

// tab returns a cross-tab, counted once for every cell claim on it.
func (x *claimContext) tab(rows, cols string) *CrossTab {
	k := [2]string{rows, cols}
	if x.tabs[k] == nil {
		if x.tabs == nil {
			x.tabs = map[[2]string]*CrossTab{}
		}
		x.tabs[k] = x.c.CrossTab(x.v, rows, cols)
	}
	return x.tabs[k]
}

func (x *claimContext) entry(key string) *Entry {
	if x.byKey == nil { // one index instead of a scan per claim
		x.byKey = make(map[string]*Entry, len(x.c.Papers))
		for i := range x.c.Papers {
			if _, dup := x.byKey[x.c.Papers[i].Key]; !dup {
				x.byKey[x.c.Papers[i].Key] = x.c.Papers[i]
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
		if t, ok := x.claims[i].Check.(*TagsClaim); ok && t.Legend == legend {
			out = append(out, printedRow{t.Key, t.Bucket})
		}
	}
	return out
}

// scopeKeys returns the keys a scope restricts a count or set claim to,
// nil for the whole pool.
func (x *claimContext) scopeKeys(s *Scope) map[string]bool {
	if !s.scoped() {
		return nil
	}
	in := map[string]bool{}
	for _, k := range s.Among {
		in[k] = true
	}
	for _, row := range x.printedRows(s.Legend) {
		if slices.Contains(s.Buckets, row.bucket) {
			in[row.key] = true
		}
	}
	return in
}

// matching returns the sorted keys of the pool's rows in a scope whose
// field has value (or, when contains is set, contains it).
func (x *claimContext) matching(s *Scope, field, value, contains string) []string {
	scope := x.scopeKeys(s)
	var out []string
	for i := range x.c.Papers {
		e := x.c.Papers[i]
		if scope != nil && !scope[e.Key] {
			continue
		}
		v := e.Value(field)
		if contains != "" && strings.Contains(v, contains) || contains == "" && v == value {
			out = append(out, e.Key)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// ColumnsClaim is the CSV's header (Names, in order), or how many of its
// columns a printed table that shows Shown leaves out (Number).
type ColumnsClaim struct {
	Names  []string
	Shown  []string
	Number int
}

// BucketClaim is how many rows a printed table (Legend) lists under
// Buckets; with Field and Value, the bucket is that value of the CSV.
type BucketClaim struct {
	Legend       string
	Buckets      []string
	Field, Value string
	Number       int
}

// OrderClaim is that a printed table's (Legend) rows follow the CSV's
// columns By (year, then key) within each bucket.
type OrderClaim struct {
	Legend string
	By     []string
}

// ShareClaim is that at least AtLeast of the pool is dated From to To
// (months YYYY-MM, inclusive).
type ShareClaim struct {
	From, To string
	AtLeast  float64
}

// OneOfClaim is that a representative entry carries one of the values
// its table allows, per field in order.
type OneOfClaim struct {
	Key     string
	Choices []Choice
}

func (k *ColumnsClaim) Reads() []string { return []string{ReadsHeader} }

func (k *BucketClaim) Reads() []string {
	if k.Field == "" {
		return []string{"key"}
	}
	return withKey(k.Field)
}

func (k *OrderClaim) Reads() []string { return withKey(k.By...) }

func (k *ShareClaim) Reads() []string { return []string{"arxiv_id", "year"} }

func (k *OneOfClaim) Reads() []string {
	fields := make([]string, len(k.Choices))
	for i, ch := range k.Choices {
		fields[i] = ch.Field
	}
	return withKey(fields...)
}

func (k *ColumnsClaim) verify(x *claimContext, r *ClaimResult) string {
	var header []string
	if x.c.papers != nil {
		header = x.c.papers.header
	}
	if k.Names != nil {
		r.Expected, r.Actual = strings.Join(k.Names, ", "), strings.Join(header, ", ")
		return r.Actual
	}
	var omitted []string
	for _, h := range header {
		if !slices.Contains(k.Shown, h) {
			omitted = append(omitted, h)
		}
	}
	r.Expected = strconv.Itoa(k.Number)
	r.Actual = fmt.Sprintf("%d (%s)", len(omitted), strings.Join(omitted, ", "))
	if len(omitted) == k.Number {
		r.Actual = r.Expected // agreement shows as the bare count
	}
	return strconv.Itoa(len(omitted))
}

func (k *BucketClaim) verify(x *claimContext, r *ClaimResult) string {
	var printed []string
	for _, row := range x.printedRows(k.Legend) {
		if slices.Contains(k.Buckets, row.bucket) && x.entry(row.key) != nil {
			printed = append(printed, row.key)
		}
	}
	slices.Sort(printed)
	r.Keys = printed
	r.Expected, r.Actual = strconv.Itoa(k.Number), strconv.Itoa(len(printed))
	if k.Field != "" {
		// The bucket is one value of the CSV: its rows are the
		// bucket's, no more and no fewer.
		tagged := x.matching(&Scope{}, k.Field, k.Value, "")
		r.Keys, r.Responsible = symmetricDifference(printed, tagged)
		if len(r.Responsible) > 0 {
			r.Actual += fmt.Sprintf(" (%s=%s has %d: differs in %s)", k.Field, k.Value, len(tagged), strings.Join(r.Responsible, ", "))
		}
	}
	return r.Actual
}

func (k *OrderClaim) verify(x *claimContext, r *ClaimResult) string {
	var out []string
	rows := x.printedRows(k.Legend)
	var prev *Entry
	for i, row := range rows {
		e := x.entry(row.key)
		if i > 0 && rows[i-1].bucket != row.bucket {
			prev = nil
		}
		if e == nil { // a missing row fails its own tags claim
			continue
		}
		if prev != nil && x.compareBy(prev, e, k.By) > 0 {
			out = append(out, fmt.Sprintf("%s: %s (%s) after %s (%s)", row.bucket,
				e.Key, x.sortKey(e, k.By), prev.Key, x.sortKey(prev, k.By)))
			r.Responsible = append(r.Responsible, e.Key)
		}
		prev = e
	}
	r.Expected = "sorted within bucket by " + strings.Join(k.By, ", then ")
	r.Actual = r.Expected
	if len(out) > 0 {
		r.Actual = strings.Join(out, "; ")
	}
	slices.Sort(r.Responsible)
	r.Responsible = slices.Compact(r.Responsible)
	r.Keys = slices.Clone(r.Responsible)
	return r.Actual
}

func (k *ShareClaim) verify(x *claimContext, r *ClaimResult) string {
	from, _ := time.Parse("2006-01", k.From)
	to, _ := time.Parse("2006-01", k.To)
	in := 0
	for i := range x.c.Papers {
		if dated(x.c.Papers[i], from, to) {
			in++
		}
	}
	total := len(x.c.Papers)
	r.Expected = fmt.Sprintf("at least %g%% of the pool dated %s to %s", k.AtLeast*100, k.From, k.To)
	deviation := fmt.Sprintf("%d of %d", in, total)
	r.Actual = fmt.Sprintf("%s (%d%%)", deviation, (in*200+total)/max(2*total, 1)) // rounded
	if total > 0 && float64(in) >= k.AtLeast*float64(total) {
		r.Actual = r.Expected
	}
	return deviation
}

func (k *OneOfClaim) verify(x *claimContext, r *ClaimResult) string {
	r.Keys = []string{k.Key}
	e := x.entry(k.Key)
	var exp, act, diff []string
	for _, ch := range k.Choices {
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
	d := settleRowClaim(r, k.Key, e != nil, exp, act, diff)
	if d == "" {
		r.Actual = r.Expected // agreement: the row is one of the allowed
	}
	return d
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
