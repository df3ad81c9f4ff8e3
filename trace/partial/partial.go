// Package partial is the mergeable summary of a set of orchestration
// traces, a partial: what masrl trace stats --partial writes where the
// traces are, and masrl trace merge combines, in any grouping and order,
// into the report trace stats gives over all the traces at once. The batch report of trace stats is itself
// computed from one partial, so the two cannot drift apart.
//
// Per group (topology) and measure a partial keeps exact parts, the count,
// minimum, maximum and sum, which merge exactly, and the distribution for
// the percentiles: the exact multiset of values while the measure has at
// most ExactValues distinct values, else a DDSketch (DataDog's
// sketches-go, logarithmic mapping) whose bins merge by adding integer
// counts. Whether a measure is exact is therefore a function of the
// traces alone (their distinct values), never of how they were split or
// merged, and a merged partial equals the partial of all traces.
//
// It is a package of its own, apart from trace, so that the WebAssembly
// validator (cmd/masrl-wasm), which imports trace, does not carry the
// sketch library and the protocol buffers it registers.
package partial

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"

	"github.com/DataDog/sketches-go/ddsketch"
	"github.com/DataDog/sketches-go/ddsketch/mapping"
	"github.com/DataDog/sketches-go/ddsketch/store"
	"github.com/masrl/masrl/trace"
)

const (
	// Kind is the "kind" member of every partial.
	Kind = "masrl-trace-partial"
	// Version is the version of the partial format this masrl
	// writes and the only one it reads.
	Version = 1
	// RelativeAccuracy is the sketch's relative accuracy α: a percentile
	// read from a sketch, q̂, is within α of the nearest-rank percentile q
	// of the same values, |q̂ − q| ≤ α·|q|. One percent keeps a sketch of
	// values from 1 to 10⁹ within about 1,050 bins.
	RelativeAccuracy = 0.01
	// ExactValues is how many distinct values a measure may have and still
	// be kept exactly: counts of events, spawns or agents in a run
	// usually have fewer, and their percentiles then stay exact.
	ExactValues = 256
	// sumPrec is the precision of the exact sums: a float64 spans 2,098
	// bits (2^-1074 to 2^1023), and the rest leaves room for the carries
	// of 2^100 additions, so no sum is ever rounded.
	sumPrec = 2200
	// sketchName and sketchMapping name the sketch in the partial's
	// "sketch" member, so that a reader can tell it apart from any other.
	sketchName    = "ddsketch"
	sketchMapping = "logarithmic"
	// maxExactValues bounds the exact_values a partial may ask for.
	maxExactValues = 1 << 16
	// minAccuracy and maxAccuracy bound the relative accuracy a partial
	// may ask for. Below 10⁻⁴ the sketch's bin indexes of large values
	// approach the int32 range the library keeps them in (and below about
	// 10⁻¹⁶ its mapping cannot be built at all); above 0.5 a bin spans a
	// factor of 3 and the percentiles say little.
	minAccuracy = 1e-4
	maxAccuracy = 0.5
)

// Params are the parameters every partial of a merge must share.
type Params struct {
	RelativeAccuracy float64
	ExactValues      int
}

// DefaultParams are the parameters masrl trace stats writes.
func DefaultParams() Params {
	return Params{RelativeAccuracy: RelativeAccuracy, ExactValues: ExactValues}
}

// Partial is a mergeable summary of traces; see the comment at the top of
// this file. The zero value is not usable: use New.
type Partial struct {
	params  Params
	mapping *mapping.LogarithmicMapping
	// invalid counts traces with errors, which are left out of the
	// measures.
	invalid int
	groups  map[string]*partialGroup // by topology; trace.NoTopology for none
	// scratch converts a value for an exact sum without allocating.
	scratch big.Float
}

// partialGroup is the summary of the traces of one topology.
type partialGroup struct {
	traces   int
	measures []*accumulator // in summaryMeasures order
}

// accumulator summarises one measure over a group's traces. While values
// is non-nil the values are kept exactly and sketch is nil; once they have
// more than ExactValues distinct values, the sketch holds them instead.
type accumulator struct {
	n        int64
	min, max float64
	sum      *big.Float
	values   map[float64]int64
	sketch   *ddsketch.DDSketch
}

// New returns an empty partial with the default parameters.
func New() *Partial {
	p, _ := NewWith(DefaultParams()) // the defaults are valid
	return p
}

// NewWith returns an empty partial with the given parameters.
func NewWith(sp Params) (*Partial, error) {
	if !(sp.RelativeAccuracy >= minAccuracy && sp.RelativeAccuracy <= maxAccuracy) {
		return nil, fmt.Errorf("relative accuracy %v: want a number from %v to %v", sp.RelativeAccuracy, minAccuracy, maxAccuracy)
	}
	if sp.ExactValues < 0 || sp.ExactValues > maxExactValues {
		return nil, fmt.Errorf("exact values %d: want 0 to %d", sp.ExactValues, maxExactValues)
	}
	m, err := mapping.NewLogarithmicMapping(sp.RelativeAccuracy)
	if err != nil || m == nil {
		return nil, fmt.Errorf("relative accuracy %v: %v", sp.RelativeAccuracy, err)
	}
	return &Partial{params: sp, mapping: m, groups: map[string]*partialGroup{}}, nil
}

// Params returns the partial's sketch parameters.
func (p *Partial) Params() Params { return p.params }

// Traces returns the number of valid traces summarised.
func (p *Partial) Traces() int {
	n := 0
	for _, g := range p.groups {
		n += g.traces
	}
	return n
}

// Invalid returns the number of traces with errors, left out of the
// measures.
func (p *Partial) Invalid() int { return p.invalid }

// AddInvalid counts a trace with errors, which is left out of the
// measures (its figures may be incomplete).
func (p *Partial) AddInvalid() { p.invalid++ }

func (p *Partial) newAccumulator() *accumulator {
	return &accumulator{sum: new(big.Float).SetPrec(sumPrec), values: map[float64]int64{}}
}

func (p *Partial) group(topo string) *partialGroup {
	g := p.groups[topo]
	if g == nil {
		g = &partialGroup{measures: make([]*accumulator, len(trace.SummaryMeasures()))}
		for i := range g.measures {
			g.measures[i] = p.newAccumulator()
		}
		p.groups[topo] = g
	}
	return g
}

// Add adds one valid trace's report. A measure the trace does not define
// (a nil Derived member), or whose value is not finite, is left out of
// that measure's n.
func (p *Partial) Add(r *trace.Report) {
	topo := r.Topology
	if topo == "" {
		topo = trace.NoTopology
	}
	g := p.group(topo)
	g.traces++
	for i, m := range trace.SummaryMeasures() {
		if v, ok := m.Value(r); ok && !math.IsInf(v, 0) && !math.IsNaN(v) {
			p.add(g.measures[i], v)
		}
	}
}

func (p *Partial) add(a *accumulator, v float64) {
	v += 0 // -0 is 0: one key, one bin
	if a.n == 0 || v < a.min {
		a.min = v
	}
	if a.n == 0 || v > a.max {
		a.max = v
	}
	a.n++
	a.sum.Add(a.sum, p.scratch.SetFloat64(v))
	if a.values != nil {
		a.values[v]++
		if len(a.values) > p.params.ExactValues {
			p.toSketch(a)
		}
		return
	}
	p.sketchAdd(a.sketch, v, 1)
}

// newSketch returns an empty sketch. The sparse store keeps only the bins
// in use, whatever the range of the values.
func (p *Partial) newSketch() *ddsketch.DDSketch {
	return ddsketch.NewDDSketch(p.mapping, store.NewSparseStore(), store.NewSparseStore())
}

// sketchAdd adds count values v. A value beyond the sketch's range (about
// 1.7e308) is added at the end of the range: min, max and sum stay exact.
func (p *Partial) sketchAdd(s *ddsketch.DDSketch, v float64, count int64) {
	lim := p.mapping.MaxIndexableValue()
	v = max(-lim, min(lim, v))
	_ = s.AddWithCount(v, float64(count)) // v is finite and within range, count positive
}

// toSketch moves a's exact values into a sketch. Counts are integers, so
// the bins are the same whatever order the map gives the values in.
func (p *Partial) toSketch(a *accumulator) {
	a.sketch = p.newSketch()
	for v, c := range a.values {
		p.sketchAdd(a.sketch, v, c)
	}
	a.values = nil
}

// Merge adds q's traces to p. Both must have the same sketch parameters.
// Merging is exact on counts, minima, maxima, sums and sketch bins, so
// any grouping and order of merges gives the same partial.
func (p *Partial) Merge(q *Partial) error {
	if p.params != q.params {
		return fmt.Errorf("sketch parameters differ: relative accuracy %v and %d exact values, against %v and %d",
			p.params.RelativeAccuracy, p.params.ExactValues, q.params.RelativeAccuracy, q.params.ExactValues)
	}
	p.invalid += q.invalid
	for topo, qg := range q.groups {
		g := p.group(topo)
		g.traces += qg.traces
		for i, qa := range qg.measures {
			p.mergeAccumulator(g.measures[i], qa)
		}
	}
	return nil
}

func (p *Partial) mergeAccumulator(a, b *accumulator) {
	if b.n == 0 {
		return
	}
	if a.n == 0 || b.min < a.min {
		a.min = b.min
	}
	if a.n == 0 || b.max > a.max {
		a.max = b.max
	}
	a.n += b.n
	a.sum.Add(a.sum, b.sum)
	switch {
	case a.values != nil && b.values != nil:
		for v, c := range b.values {
			a.values[v] += c
		}
		if len(a.values) > p.params.ExactValues {
			p.toSketch(a)
		}
	case b.values != nil:
		for v, c := range b.values {
			p.sketchAdd(a.sketch, v, c)
		}
	default:
		if a.values != nil {
			p.toSketch(a)
		}
		_ = a.sketch.MergeWith(b.sketch) // one mapping: the params are equal
	}
}

// clone returns a deep copy of a, so that the overall group can be built
// without changing the groups it is built from.
func (p *Partial) clone(a *accumulator) *accumulator {
	c := &accumulator{n: a.n, min: a.min, max: a.max, sum: new(big.Float).SetPrec(sumPrec).Set(a.sum)}
	if a.values != nil {
		c.values = make(map[float64]int64, len(a.values))
		maps.Copy(c.values, a.values)
	} else {
		c.sketch = a.sketch.Copy()
	}
	return c
}

// overall returns the group of all traces: the merge of every topology's.
func (p *Partial) overall() *partialGroup {
	all := &partialGroup{measures: make([]*accumulator, len(trace.SummaryMeasures()))}
	for i := range all.measures {
		all.measures[i] = p.newAccumulator()
	}
	for _, topo := range p.topologies() {
		g := p.groups[topo]
		all.traces += g.traces
		for i, a := range g.measures {
			p.mergeAccumulator(all.measures[i], p.clone(a))
		}
	}
	return all
}

// topologies returns the partial's groups in the schema's order of
// topologies, then trace.NoTopology, then any other name in lexical order.
func (p *Partial) topologies() []string {
	order := append(trace.Topologies(), trace.NoTopology)
	rank := func(t string) int {
		if i := slices.Index(order, t); i >= 0 {
			return i
		}
		return len(order)
	}
	names := make([]string, 0, len(p.groups))
	for t := range p.groups {
		names = append(names, t)
	}
	slices.SortFunc(names, func(a, b string) int {
		if c := cmp.Compare(rank(a), rank(b)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return names
}

// Summary returns the report of the partial's traces: the distribution of
// every measure over all of them and by topology.
func (p *Partial) Summary() trace.Summary {
	out := trace.Summary{ByTopology: []trace.Distribution{}, RelativeAccuracy: p.params.RelativeAccuracy}
	all := p.overall()
	out.Traces = all.traces
	out.Overall = p.distribution("", all)
	for _, t := range p.topologies() {
		out.ByTopology = append(out.ByTopology, p.distribution(t, p.groups[t]))
	}
	return out
}

func (p *Partial) distribution(topo string, g *partialGroup) trace.Distribution {
	d := trace.Distribution{Topology: topo, Traces: g.traces, Measures: []trace.Spread{}}
	for i, m := range trace.SummaryMeasures() {
		a := g.measures[i]
		s := trace.Spread{Name: m.Name, N: int(a.n)}
		if a.n > 0 {
			s.Min, s.Max = a.min, a.max
			s.Sum, _ = a.sum.Float64()
			s.Median, s.P90 = p.percentile(a, 50), p.percentile(a, 90)
			s.Approximate = a.values == nil
		}
		d.Measures = append(d.Measures, s)
	}
	return d
}

// rank returns the nearest rank of the pct-th percentile of n values: the
// 1-based position k = ⌈pct/100·n⌉ (at least 1) of the smallest value
// with at least pct percent of the values at or below it.
func rank(pct float64, n int64) int64 {
	return max(int64(math.Ceil(pct/100*float64(n))), 1)
}

// percentile returns the nearest-rank pct-th percentile of a's values:
// exact while a keeps its values, else the value of the sketch bin that
// holds the k-th smallest value, within the relative accuracy of it and
// clamped to the exact minimum and maximum (which only brings it closer).
func (p *Partial) percentile(a *accumulator, pct float64) float64 {
	k := rank(pct, a.n)
	if a.values != nil {
		vs := make([]float64, 0, len(a.values))
		for v := range a.values {
			vs = append(vs, v)
		}
		slices.Sort(vs)
		seen := int64(0)
		for _, v := range vs {
			if seen += a.values[v]; seen >= k {
				return v
			}
		}
		return a.max
	}
	r := float64(k - 1) // 0-based
	neg, zero := a.sketch.GetNegativeValueStore(), a.sketch.GetZeroCount()
	negN := neg.TotalCount()
	var v float64
	switch {
	case r < negN:
		// Negative values are stored by magnitude: the r-th smallest value
		// is the (negN-1-r)-th smallest magnitude.
		v = -p.mapping.Value(neg.KeyAtRank(negN - 1 - r))
	case r < negN+zero:
		v = 0
	default:
		v = p.mapping.Value(a.sketch.GetPositiveValueStore().KeyAtRank(r - negN - zero))
	}
	return max(a.min, min(a.max, v))
}
