package corpus

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/masrl/masrl/internal/corpustest"
)

// TestPoolMatchesRealCorpus: the pinned pool is exactly the survey's
// version of the corpus (84 retained, 32 excluded), which the real corpus
// still is.
func TestPoolMatchesRealCorpus(t *testing.T) {
	c, err := Load(corpustest.Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	p, err := LoadPool()
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Retained) != 84 || len(p.Excluded) != 32 || !strings.HasPrefix(p.Paper, "arXiv:2605.02801") {
		t.Errorf("pool of %s: %d retained, %d excluded; want arXiv:2605.02801, 84 and 32", p.Paper, len(p.Retained), len(p.Excluded))
	}
	if added, missing := p.Added(c), p.Missing(c); len(added) != 0 || len(missing) != 0 {
		t.Errorf("real corpus: added %v, missing %v; want none", added, missing)
	}
	r := p.Restrict(c)
	if len(r.Papers) != len(c.Papers) || len(r.Excluded) != len(c.Excluded) {
		t.Errorf("restricting the survey's own corpus keeps %d/%d rows, want all", len(r.Papers), len(r.Excluded))
	}
}

func TestPoolAddedMissingRestrict(t *testing.T) {
	p := &Pool{Paper: "v1", Retained: []string{"a", "b", "c"}, Excluded: []string{"E001"}}
	c := &Corpus{
		Papers:   []*Entry{{Key: "c"}, {Key: "z"}, {Key: "a"}, {Key: "y"}},
		Excluded: []Exclusion{{RecordID: "E001"}, {RecordID: "E002"}},
	}
	if got := p.Added(c); !slices.Equal(got, []string{"z", "y"}) {
		t.Errorf("Added = %v, want [z y] (corpus order)", got)
	}
	if got := p.Missing(c); !slices.Equal(got, []string{"b"}) {
		t.Errorf("Missing = %v, want [b]", got)
	}
	r := p.Restrict(c)
	var keys []string
	for _, e := range r.Papers {
		keys = append(keys, e.Key)
	}
	if !slices.Equal(keys, []string{"c", "a"}) || len(r.Excluded) != 1 || len(c.Papers) != 4 {
		t.Errorf("Restrict keeps %v and %d excluded (corpus still %d rows), want [c a], 1 and 4", keys, len(r.Excluded), len(c.Papers))
	}
}

func TestParsePoolErrors(t *testing.T) {
	src := "retained:\n  - a\n  - b\n  - a\n  - \"\"\nexcluded: E001\n"
	_, err := ParsePool("pool.yaml", []byte(src))
	var ce *CheckError
	if !errors.As(err, &ce) {
		t.Fatalf("error %v, want a *CheckError", err)
	}
	want := []string{
		"pool.yaml:1: error: the pool needs paper",
		`pool.yaml:4: error: retained: "a" repeats line 2`,
		"pool.yaml:5: error: retained: an item must be a non-empty key",
		"pool.yaml:6: error: excluded must be a list of keys",
	}
	if len(ce.Diagnostics) != len(want) {
		t.Fatalf("%d findings, want %d: %v", len(ce.Diagnostics), len(want), ce.Diagnostics)
	}
	for i, w := range want {
		if !strings.HasPrefix(ce.Diagnostics[i].String(), w) {
			t.Errorf("finding %d = %q, want prefix %q", i, ce.Diagnostics[i], w)
		}
	}
	if _, err := ParsePool("pool.yaml", []byte("paper: v1\nretained: [a]\nexcluded: []\nextra: 1\n")); err == nil || !strings.Contains(err.Error(), "extra") {
		t.Errorf("unknown field: error %v, want one naming it", err)
	}
}

// TestPoolRemovalAcknowledged: removing a survey entry fails the total
// until claims.yaml acknowledges it, with the existing mechanism.
func TestPoolRemovalAcknowledged(t *testing.T) {
	v := testVocab(t)
	p := &Pool{Paper: "v1", Retained: []string{"alpha", "beta"}}
	c := &Corpus{Papers: []*Entry{{Key: "alpha"}, {Key: "gamma"}}}
	for _, tt := range []struct {
		yaml string
		want ClaimStatus
	}{
		{"claims:\n  - {id: t, kind: total, of: retained, expect: 2, source: s}\n", Fails},
		{"claims:\n  - {id: t, kind: total, of: retained, expect: 2, source: s, acknowledged: {reason: beta withdrawn, csv: 1}}\n", Acknowledged},
	} {
		cl, err := ParseClaims("c.yaml", []byte(tt.yaml), v)
		if err != nil {
			t.Fatal(err)
		}
		cl.Pool = p
		if r := VerifyClaims(c, v, cl)[0]; r.Status != tt.want || r.Actual != "1" {
			t.Errorf("%s: got %s %s, want %s 1 (gamma is not in the pool)", tt.yaml, r.Status, r.Actual, tt.want)
		}
	}
}

func TestLoadClaimsFS(t *testing.T) {
	v := testVocab(t)
	claims := "claims:\n  - {id: t, kind: total, of: retained, expect: 1, source: s}\n"
	pool := []byte("paper: v1\nretained: [a]\nexcluded: []\n")
	// A pool file beside claims that do not name it is not theirs.
	without := fstest.MapFS{"claims.yaml": {Data: []byte(claims)}, "survey-pool.yaml": {Data: pool}}
	with := fstest.MapFS{"claims.yaml": {Data: []byte("pool: survey-pool.yaml\n" + claims)}, "survey-pool.yaml": {Data: pool}}
	c := &Corpus{Papers: []*Entry{{Key: "a"}, {Key: "b"}}}
	for _, tt := range []struct {
		name   string
		fsys   fstest.MapFS
		actual string
	}{{"without a pool file", without, "2"}, {"with one", with, "1"}} {
		cl, err := LoadClaimsFS(tt.fsys, v)
		if err != nil {
			t.Fatal(err)
		}
		if r := VerifyClaims(c, v, cl)[0]; r.Actual != tt.actual {
			t.Errorf("%s: retained %s, want %s", tt.name, r.Actual, tt.actual)
		}
	}
	bad := fstest.MapFS{"claims.yaml": {Data: []byte("pool: survey-pool.yaml\n" + claims)}, "survey-pool.yaml": {Data: []byte("retained: [a, a]\n")}}
	if _, err := LoadClaimsFS(bad, v); err == nil {
		t.Error("a bad pool file is accepted")
	}
	missing := fstest.MapFS{"claims.yaml": {Data: []byte("pool: nonesuch.yaml\n" + claims)}}
	if _, err := LoadClaimsFS(missing, v); err == nil || !strings.Contains(err.Error(), "nonesuch.yaml") {
		t.Errorf("a missing pool file: %v, want an error naming it", err)
	}
}

// TestStreamStatsPool counts a pool of two of the base corpus' three rows
// and one of its two exclusions: the streamed report equals the report of
// the corpus restricted to the pool, and differs from the whole one.
func TestStreamStatsPool(t *testing.T) {
	dir := filepath.Join("testdata", "base")
	v, err := DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParsePool("pool", []byte("paper: p\nretained: [alpha, gamma]\nexcluded: [E002]\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, countsOnly := range []bool{false, true} {
		got, err := StreamStats(dir, v, StatsOptions{Pool: p, CountsOnly: countsOnly})
		if err != nil {
			t.Fatal(err)
		}
		want := ComputeStats(p.Restrict(c), v)
		if got.Retained != 2 || got.Excluded != 1 {
			t.Errorf("countsOnly=%v: %d retained, %d excluded; want 2 and 1", countsOnly, got.Retained, got.Excluded)
		}
		if countsOnly {
			continue // want keeps keys
		}
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		if !bytes.Equal(gj, wj) {
			t.Errorf("streamed pool stats differ from the restricted corpus':\n%s\n%s", gj, wj)
		}
		whole, _ := json.Marshal(ComputeStats(c, v))
		if bytes.Equal(gj, whole) {
			t.Error("the pool's stats equal the whole corpus'")
		}
	}
}
