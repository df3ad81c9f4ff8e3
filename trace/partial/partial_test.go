package partial

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/masrl/masrl/schema"
	"github.com/masrl/masrl/trace"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// randomReport returns the report of a made-up valid trace. Its measures
// mix small integer ranges (few distinct values: kept exactly), wide ones
// and floats over many orders of magnitude (many distinct values: kept in
// a sketch), zeros, a few negative values and undefined Derived members.
func randomReport(rng *rand.Rand, wide bool) *trace.Report {
	topos := append(trace.Topologies(), "")
	r := &trace.Report{Topology: topos[rng.IntN(len(topos))]}
	small := func(n int) int { return rng.IntN(n) }
	big := func() int {
		if wide {
			return rng.IntN(1_000_000)
		}
		return rng.IntN(40)
	}
	logUniform := func(lo, hi float64) float64 {
		return math.Exp(math.Log(lo) + rng.Float64()*(math.Log(hi)-math.Log(lo)))
	}
	opt := func(v float64) *float64 {
		if rng.IntN(3) == 0 {
			return nil
		}
		return &v
	}
	r.Spawns, r.Despawns, r.SubAgents = small(6), small(3), small(8)
	r.Events, r.Edges, r.Messages, r.ToolCalls, r.Agents = big(), big(), small(200), small(50), small(12)
	r.Costs.WallClockS = logUniform(1e-3, 1e5)
	if rng.IntN(10) == 0 {
		r.Costs.WallClockS = -r.Costs.WallClockS // no trace has this, but a partial must hold it
	}
	r.Costs.Tokens = math.Round(logUniform(1, 1e7))
	if rng.IntN(8) == 0 {
		r.Costs.Tokens = 0
	}
	r.Safety = trace.Safety{UntrustedToolResults: small(4), UntrustedMessages: small(3), SafetyEvents: small(2), HumanInterventions: small(2), SafetyFlowEdges: small(5)}
	r.Graph = trace.Graph{CriticalPath: big(), MaxWidth: small(30), SpawnDepth: small(5), StructuralParallelism: logUniform(1, 50)}
	r.Derived = trace.Derived{
		UsefulAgentUtilization: opt(rng.Float64()),
		ExactDuplicateMessages: opt(float64(small(10)) / 10),
		UntrustedReach:         opt(logUniform(1e-6, 1e3)),
	}
	return r
}

// roundTrip writes p and reads it back, so that every partial of the
// property test also passes through the format.
func roundTrip(t *testing.T, p *Partial) *Partial {
	t.Helper()
	b, err := p.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	q, err := Read(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("reading a written partial: %v", err)
	}
	return q
}

// TestPartialMergeProperty is the property of issue 36 item 1: for random
// trace sets split at random into shards, merging the shards' partials in
// a random grouping and order gives the report of all traces at once.
// Exact parts (trace counts, n, min, max, sum) equal those of the values
// themselves; a percentile q̂ equals the nearest-rank percentile q where
// the report says it is exact, and otherwise satisfies
//
//	|q̂ − q| ≤ α·|q|·(1 + 1e-9)
//
// with α = RelativeAccuracy (the 1e-9 allows for the rounding of the
// sketch's logarithm at a bin's edge). Beyond the property, the
// merged partial is byte-identical to the partial of all traces.
func TestPartialMergeProperty(t *testing.T) {
	for seed := range uint64(60) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 36))
			n := rng.IntN(1500)
			if seed%5 == 0 {
				n = rng.IntN(4)
			}
			wide := seed%2 == 0
			reports := make([]*trace.Report, n)
			for i := range reports {
				reports[i] = randomReport(rng, wide)
			}
			invalid := rng.IntN(5)
			whole := New()
			for _, r := range reports {
				whole.Add(r)
			}
			for range invalid {
				whole.AddInvalid()
			}

			shards := make([]*Partial, 1+rng.IntN(12))
			for i := range shards {
				shards[i] = New()
			}
			for _, r := range reports {
				shards[rng.IntN(len(shards))].Add(r)
			}
			for range invalid {
				shards[rng.IntN(len(shards))].AddInvalid()
			}
			for i := range shards {
				shards[i] = roundTrip(t, shards[i])
			}
			// Merge two random partials at a time until one is left: any
			// grouping, any order, sometimes through the format again.
			for len(shards) > 1 {
				i, j := rng.IntN(len(shards)), rng.IntN(len(shards)-1)
				if j >= i {
					j++
				}
				if err := shards[i].Merge(shards[j]); err != nil {
					t.Fatal(err)
				}
				if rng.IntN(3) == 0 {
					shards[i] = roundTrip(t, shards[i])
				}
				shards = slices.Delete(shards, j, j+1)
			}
			merged := shards[0]

			got, want := mustJSON(t, merged), mustJSON(t, whole)
			if got != want {
				t.Errorf("merged partial differs from the partial of all traces:\n got %.300s\nwant %.300s", got, want)
			}
			sum := merged.Summary()
			if !reflect.DeepEqual(sum, whole.Summary()) {
				t.Errorf("merged report differs from the report of all traces")
			}
			if merged.Invalid() != invalid || sum.Traces != n {
				t.Errorf("traces %d, invalid %d; want %d and %d", sum.Traces, merged.Invalid(), n, invalid)
			}
			checkAgainstValues(t, "all", sum.Overall, reports, sum.RelativeAccuracy)
			for _, d := range sum.ByTopology {
				var in []*trace.Report
				for _, r := range reports {
					if r.Topology == d.Topology || r.Topology == "" && d.Topology == trace.NoTopology {
						in = append(in, r)
					}
				}
				checkAgainstValues(t, d.Topology, d, in, sum.RelativeAccuracy)
			}
		})
	}
}

func mustJSON(t *testing.T, p *Partial) string {
	t.Helper()
	b, err := p.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkAgainstValues holds one group's distribution to the values of its
// reports, computed here without the partial.
func checkAgainstValues(t *testing.T, group string, d trace.Distribution, reports []*trace.Report, alpha float64) {
	t.Helper()
	if d.Traces != len(reports) {
		t.Errorf("%s: %d traces, want %d", group, d.Traces, len(reports))
	}
	approximated := 0
	for i, m := range trace.SummaryMeasures() {
		var vs []float64
		exact := new(big.Rat)
		for _, r := range reports {
			if v, ok := m.Value(r); ok {
				vs = append(vs, v)
				exact.Add(exact, new(big.Rat).SetFloat64(v))
			}
		}
		s := d.Measures[i]
		if s.Name != m.Name || s.N != len(vs) {
			t.Errorf("%s %s: n %d, want %d", group, m.Name, s.N, len(vs))
			continue
		}
		if len(vs) == 0 {
			continue
		}
		slices.Sort(vs)
		wantSum, _ := exact.Float64()
		if s.Min != vs[0] || s.Max != vs[len(vs)-1] || s.Sum != wantSum {
			t.Errorf("%s %s: min %v max %v sum %v, want %v %v %v", group, m.Name, s.Min, s.Max, s.Sum, vs[0], vs[len(vs)-1], wantSum)
		}
		distinct := len(slices.Compact(slices.Clone(vs)))
		if s.Approximate != (distinct > ExactValues) {
			t.Errorf("%s %s: approximate %v with %d distinct values (exact up to %d)", group, m.Name, s.Approximate, distinct, ExactValues)
		}
		for _, q := range []struct {
			pct float64
			got float64
		}{{50, s.Median}, {90, s.P90}} {
			want := nearestRank(vs, q.pct)
			switch {
			case !s.Approximate && q.got != want:
				t.Errorf("%s %s: p%v %v, want exactly %v", group, m.Name, q.pct, q.got, want)
			case math.Abs(q.got-want) > alpha*math.Abs(want)*(1+1e-9):
				t.Errorf("%s %s: p%v %v, more than %v from %v", group, m.Name, q.pct, q.got, alpha, want)
			}
		}
		if s.Approximate {
			approximated++
		}
	}
	_ = approximated
}

// TestPartialSketchIsUsed makes sure the property test reaches the
// sketch: a wide set of traces has measures beyond ExactValues distinct
// values, and the report says so.
func TestPartialSketchIsUsed(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	p := New()
	for range 1000 {
		p.Add(randomReport(rng, true))
	}
	approx, exact := 0, 0
	for _, s := range p.Summary().Overall.Measures {
		if s.Approximate {
			approx++
		} else {
			exact++
		}
	}
	if approx == 0 || exact == 0 {
		t.Errorf("%d approximate and %d exact measures: want both kinds", approx, exact)
	}
}

// TestPartialDeterministic: the same traces give byte-identical partials
// whatever order they are added in.
func TestPartialDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var reports []*trace.Report
	for range 700 {
		reports = append(reports, randomReport(rng, true))
	}
	a, b := New(), New()
	for _, r := range reports {
		a.Add(r)
	}
	for _, i := range rng.Perm(len(reports)) {
		b.Add(reports[i])
	}
	if mustJSON(t, a) != mustJSON(t, b) {
		t.Error("the same traces in another order give another partial")
	}
}

// TestPartialMergeRefusesOtherParams: sketches of another accuracy, or
// another exact-values limit, do not merge.
func TestPartialMergeRefusesOtherParams(t *testing.T) {
	other, err := NewWith(Params{RelativeAccuracy: 0.02, ExactValues: ExactValues})
	if err != nil {
		t.Fatal(err)
	}
	if err := New().Merge(other); err == nil || !strings.Contains(err.Error(), "relative accuracy 0.01") {
		t.Errorf("merge of 1%% and 2%% sketches: %v", err)
	}
	for _, a := range []float64{0, 1e-17, 1e-5, 0.6, 1} {
		if _, err := NewWith(Params{RelativeAccuracy: a}); err == nil {
			t.Errorf("relative accuracy %v accepted", a)
		}
	}
}

// validPartial returns a small written partial with an exact measure and
// a sketched one, decoded as a generic JSON value to be broken.
func validPartial(t *testing.T) map[string]any {
	t.Helper()
	p := New()
	rng := rand.New(rand.NewPCG(3, 3))
	for range 300 {
		r := randomReport(rng, true)
		r.Topology = "debate"
		p.Add(r)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(mustJSON(t, p)), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestReadPartialRefuses holds the reader to refusing, at the right JSON
// Pointer, each thing a writer would never write.
func TestReadPartialRefuses(t *testing.T) {
	measure := func(doc map[string]any, i int) map[string]any {
		return doc["topologies"].([]any)[0].(map[string]any)["measures"].([]any)[i].(map[string]any)
	}
	bins := func(doc map[string]any) map[string]any {
		for i := range trace.SummaryMeasures() {
			if b, ok := measure(doc, i)["bins"].(map[string]any); ok {
				return b
			}
		}
		t.Fatal("no sketched measure")
		return nil
	}
	for _, c := range []struct {
		name, pointer, msg string
		edit               func(doc map[string]any)
		// schema is set when partial.schema.json refuses it too; the
		// rest (sums, orders, totals) only the reader can check.
		schema bool
	}{
		{"wrong kind", "/kind", `want "masrl-trace-partial"`, func(d map[string]any) { d["kind"] = "masrl-trace" }, true},
		{"unknown version", "/version", "version 2 is unknown", func(d map[string]any) { d["version"] = 2 }, true},
		{"negative invalid", "/invalid", "want a count", func(d map[string]any) { d["invalid"] = -1 }, true},
		{"negative n", "/topologies/0/measures/3/n", "want a count", func(d map[string]any) { measure(d, 3)["n"] = -4 }, true},
		{"fractional count", "/topologies/0/measures/0/values/0/1", "whole count", func(d map[string]any) {
			measure(d, 0)["values"].([]any)[0].([]any)[1] = 0.5
		}, true},
		{"negative bin count", "/topologies/0/measures/3/bins/positive/0/1", "whole count", func(d map[string]any) {
			bins(d)["positive"].([]any)[0].([]any)[1] = -1
		}, true},
		{"bins out of order", "/topologies/0/measures/3/bins/positive/1/0", "ascending", func(d map[string]any) {
			ps := bins(d)["positive"].([]any)
			ps[0], ps[1] = ps[1], ps[0]
		}, false},
		{"other mapping", "/sketch/mapping", `want "logarithmic"`, func(d map[string]any) { d["sketch"].(map[string]any)["mapping"] = "cubic" }, true},
		{"accuracy out of range", "/sketch/relative_accuracy", "want a number from 0.0001 to 0.5", func(d map[string]any) { d["sketch"].(map[string]any)["relative_accuracy"] = 1e-17 }, true},
		{"unknown member", "/extra", "unknown member", func(d map[string]any) { d["extra"] = true }, true},
		{"traces do not add up", "/traces", "the topologies hold 300", func(d map[string]any) { d["traces"] = 301 }, false},
		{"unknown topology", "/topologies/0/topology", "not a topology", func(d map[string]any) { d["topologies"].([]any)[0].(map[string]any)["topology"] = "star" }, true},
		{"measure renamed", "/topologies/0/measures/1/name", `want "despawns"`, func(d map[string]any) { measure(d, 1)["name"] = "respawns" }, true},
		{"sum disagrees", "/topologies/0/measures/0/sum", "the values sum to", func(d map[string]any) { measure(d, 0)["sum"] = "1e9" }, false},
		{"sum not a number", "/topologies/0/measures/0/sum", "exact sum", func(d map[string]any) { measure(d, 0)["sum"] = "Inf" }, true},
		{"n above traces", "/topologies/0/measures/0/n", "more than the group's 300 traces", func(d map[string]any) { measure(d, 0)["n"] = 301 }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := validPartial(t)
			c.edit(doc)
			b, _ := json.Marshal(doc)
			if c.schema {
				v, _ := jsonschema.UnmarshalJSON(bytes.NewReader(b))
				if partialSchema(t).Validate(v) == nil {
					t.Errorf("partial.schema.json accepts it")
				}
			}
			_, err := Read(bytes.NewReader(b))
			pe, ok := err.(*Error)
			if !ok {
				t.Fatalf("error %v (%T), want a *Error", err, err)
			}
			if pe.Pointer != c.pointer || !strings.Contains(pe.Msg, c.msg) {
				t.Errorf("got %v\nwant %s: ...%s...", err, c.pointer, c.msg)
			}
		})
	}
	// The unbroken document reads.
	b, _ := json.Marshal(validPartial(t))
	if _, err := Read(bytes.NewReader(b)); err != nil {
		t.Fatalf("valid partial: %v", err)
	}
}

// partialSchema compiles schema/partial.schema.json.
func partialSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema.Partial()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	const id = "https://masrl.dev/schema/partial.schema.json"
	if err := c.AddResource(id, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestPartialSchema: every partial the writer gives, exact or sketched,
// empty or with invalid traces only, is valid against the published
// schema (and the refusals of TestReadPartialRefuses that a schema can
// state are the schema's too).
func TestPartialSchema(t *testing.T) {
	s := partialSchema(t)
	rng := rand.New(rand.NewPCG(11, 11))
	for _, n := range []int{0, 1, 5, 600} {
		for _, wide := range []bool{false, true} {
			p := New()
			for range n {
				p.Add(randomReport(rng, wide))
			}
			p.AddInvalid()
			v, err := jsonschema.UnmarshalJSON(strings.NewReader(mustJSON(t, p)))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(v); err != nil {
				t.Errorf("%d traces (wide %v): %v", n, wide, err)
			}
		}
	}
}

// TestReadPartialSyntax: malformed JSON and duplicate members are refused
// with their line and column.
func TestReadPartialSyntax(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"{\n\"kind\": \"a\", \"kind\": \"b\"}", "2:14: /kind: malformed JSON: duplicate"},
		{`{"kind":`, "1:9: "},
		{`{"version": "1"}`, "1:13: /version: a JSON string: want a whole number"},
	} {
		_, err := Read(strings.NewReader(c.in))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v, want %s...", c.in, err, c.want)
		}
	}
}

// FuzzReadPartial: the reader never panics, and what it accepts it
// writes in a canonical form that reads back to the same bytes.
func FuzzReadPartial(f *testing.F) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, c := range []struct{ n, exact int }{{0, ExactValues}, {1, ExactValues}, {3, ExactValues}, {4, 0}} {
		// exact_values 0 keeps every measure in bins: a sketched seed
		// small enough for the fuzzer to mutate quickly.
		p, _ := NewWith(Params{RelativeAccuracy: RelativeAccuracy, ExactValues: c.exact})
		for range c.n {
			p.Add(randomReport(rng, true))
		}
		b, _ := p.MarshalJSON()
		f.Add(b)
	}
	f.Add([]byte(`{"kind":"masrl-trace-partial","version":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Read(bytes.NewReader(data))
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %v (%T), want a *Error", err, err)
			}
			return
		}
		_ = p.Summary()
		b, err := p.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		q, err := Read(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("re-reading the canonical form: %v\n%s", err, b)
		}
		if c := mustJSON(t, q); c != string(b) {
			t.Fatalf("canonical form is not a fixed point:\n%s\n%s", b, c)
		}
		if err := q.Merge(p); err != nil {
			t.Fatal(err)
		}
	})
}

// BenchmarkPartialMerge measures merging one shard's partial (1,000
// traces, most measures sketched) into a running total, as trace merge
// does for each file, and reading it from its JSON.
func BenchmarkPartialMerge(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 9))
	shards := make([]*Partial, 16)
	var docs [][]byte
	for i := range shards {
		shards[i] = New()
		for range 1000 {
			shards[i].Add(randomReport(rng, true))
		}
		d, _ := shards[i].MarshalJSON()
		docs = append(docs, d)
	}
	b.Run("merge", func(b *testing.B) {
		total := New()
		for i := 0; b.Loop(); i++ {
			if err := total.Merge(shards[i%len(shards)]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("read+merge", func(b *testing.B) {
		total := New()
		b.SetBytes(int64(len(docs[0])))
		for i := 0; b.Loop(); i++ {
			p, err := Read(bytes.NewReader(docs[i%len(docs)]))
			if err != nil {
				b.Fatal(err)
			}
			if err := total.Merge(p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("add", func(b *testing.B) {
		p := New()
		rs := make([]*trace.Report, 1000)
		for i := range rs {
			rs[i] = randomReport(rng, true)
		}
		for i := 0; b.Loop(); i++ {
			p.Add(rs[i%len(rs)])
		}
	})
}

// nearestRank returns the p-th percentile of sorted vs by the nearest-rank
// method: the smallest value with at least p% of the values at or below
// it. It is the oracle the partials' percentiles are held to.
func nearestRank(vs []float64, p float64) float64 {
	k := int(math.Ceil(p / 100 * float64(len(vs))))
	return vs[max(k, 1)-1]
}

func TestNearestRank(t *testing.T) {
	vs := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, c := range []struct{ p, want float64 }{{50, 5}, {90, 9}, {100, 10}, {1, 1}, {0, 1}} {
		if got := nearestRank(vs, c.p); got != c.want {
			t.Errorf("p%v = %v, want %v", c.p, got, c.want)
		}
	}
	if got := nearestRank([]float64{7}, 90); got != 7 {
		t.Errorf("one value: p90 = %v", got)
	}
}

// TestSummary: the batch report of a few traces, exact, by topology in
// the schema's order, an undefined measure left out of n.
func TestSummary(t *testing.T) {
	s := New()
	u := 0.5
	for i, topo := range []string{"debate", "", "debate", "centralized"} {
		r := &trace.Report{Topology: topo, Events: 10 * (i + 1)}
		if i == 0 {
			r.Derived.UntrustedReach = &u
		}
		s.Add(r)
	}
	sum := s.Summary()
	if sum.Traces != 4 || sum.Overall.Traces != 4 {
		t.Fatalf("traces %d / %d, want 4", sum.Traces, sum.Overall.Traces)
	}
	get := func(d trace.Distribution, name string) trace.Spread {
		for _, q := range d.Measures {
			if q.Name == name {
				return q
			}
		}
		t.Fatalf("no measure %s", name)
		return trace.Spread{}
	}
	if q := get(sum.Overall, "events"); q.N != 4 || q.Median != 20 || q.P90 != 40 || q.Max != 40 || q.Min != 10 || q.Sum != 100 || q.Approximate {
		t.Errorf("events %+v", q)
	}
	if q := get(sum.Overall, "derived.untrusted_reach"); q.N != 1 || q.Max != 0.5 {
		t.Errorf("untrusted reach %+v, want one value", q)
	}
	var order []string
	for _, d := range sum.ByTopology {
		order = append(order, d.Topology)
	}
	if len(order) != 3 || order[0] != "centralized" || order[1] != "debate" || order[2] != trace.NoTopology {
		t.Errorf("topology order %q", order)
	}
	if q := get(sum.ByTopology[1], "events"); q.N != 2 || q.Median != 10 || q.Max != 30 {
		t.Errorf("debate events %+v", q)
	}
}
