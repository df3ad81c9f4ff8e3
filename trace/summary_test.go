package trace

import (
	"math"
	"testing"
)

func TestSummaryMeasuresAreReportMembers(t *testing.T) {
	for _, m := range summaryMeasures() {
		if !IsMeasure(m.name) {
			t.Errorf("summary measure %q is not a member of Report", m.name)
		}
	}
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

func TestSummarizer(t *testing.T) {
	s := NewSummarizer()
	u := 0.5
	for i, topo := range []string{"debate", "", "debate", "centralized"} {
		r := &Report{Topology: topo, Events: 10 * (i + 1)}
		if i == 0 {
			r.Derived.UntrustedReach = &u
		}
		s.Add(r)
	}
	sum := s.Summary()
	if sum.Traces != 4 || sum.Overall.Traces != 4 {
		t.Fatalf("traces %d / %d, want 4", sum.Traces, sum.Overall.Traces)
	}
	get := func(d Distribution, name string) Spread {
		for _, q := range d.Measures {
			if q.Name == name {
				return q
			}
		}
		t.Fatalf("no measure %s", name)
		return Spread{}
	}
	if q := get(sum.Overall, "events"); q.N != 4 || q.Median != 20 || q.P90 != 40 || q.Max != 40 {
		t.Errorf("events %+v", q)
	}
	if q := get(sum.Overall, "derived.untrusted_reach"); q.N != 1 || q.Max != 0.5 {
		t.Errorf("untrusted reach %+v, want one value", q)
	}
	var order []string
	for _, d := range sum.ByTopology {
		order = append(order, d.Topology)
	}
	if len(order) != 3 || order[0] != "centralized" || order[1] != "debate" || order[2] != NoTopology {
		t.Errorf("topology order %q", order)
	}
	if q := get(sum.ByTopology[1], "events"); q.N != 2 || q.Median != 10 || q.Max != 30 {
		t.Errorf("debate events %+v", q)
	}
}

// nearestRank returns the p-th percentile of sorted vs by the nearest-rank
// method: the smallest value with at least p% of the values at or below
// it. It is the oracle the partials' percentiles are held to.
func nearestRank(vs []float64, p float64) float64 {
	k := int(math.Ceil(p / 100 * float64(len(vs))))
	return vs[max(k, 1)-1]
}
