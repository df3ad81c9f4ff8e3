package refresh

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/upkeep/intake"
	"github.com/masrl/masrl/upkeep/intake/intaketest"
)

func recordings(t *testing.T) *intaketest.Server {
	s := intaketest.New(filepath.Join("..", "intake", "testdata"))
	t.Cleanup(s.Close)
	return s
}

func client(s *intaketest.Server) *intake.Client {
	return &intake.Client{ArxivAPI: s.ArxivAPI, CrossrefAPI: s.CrossrefAPI, OpenAlexAPI: s.OpenAlexAPI, Backoff: 1}
}

// TestPropose: exactly the published versions and notices the recordings
// hold, and nothing for beta (a preprint still), zeta (already recorded)
// or delta without OpenAlex.
func TestPropose(t *testing.T) {
	s := recordings(t)
	c, err := corpus.Load(filepath.Join("testdata", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Propose(context.Background(), c, Options{Client: client(s)})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]map[string]string{}
	for _, p := range res.Proposals {
		got[p.Key] = p.Set
	}
	want := map[string]map[string]string{
		"alpha": {
			"venue": "Transactions on Machine Learning Research",
			"year":  "2026",
			"url":   "https://arxiv.org/abs/2501.00001 ; https://doi.org/10.5555/tmlr.2026.17",
			"notes": "v2 2025-06-01; published as doi:10.5555/tmlr.2026.17 (Transactions on Machine Learning Research, 2026)",
		},
		"epsilon": {
			"venue": "Journal of Artificial Intelligence Research",
			"year":  "2026",
			"url":   "https://doi.org/10.5555/preprint.2025.1 ; https://doi.org/10.5555/jair.2026.88",
			"notes": "published as doi:10.5555/jair.2026.88 (Journal of Artificial Intelligence Research, 2026); corrected doi:10.5555/jair.2026.88.corr (2026-08-01)",
		},
		"gamma": {
			"notes": "read 2026-04-01; retracted doi:10.5555/retraction.2026.3 (2026-03-02)",
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("proposals:\n got %v\nwant %v", got, want)
	}
	if len(res.Findings) != 0 {
		t.Errorf("findings: %v", res.Findings)
	}

	// With an OpenAlex key, delta's published location is found there.
	cl := client(s)
	cl.OpenAlexKey = "test-key"
	res, err = Propose(context.Background(), c, Options{Client: cl, OpenAlex: true})
	if err != nil {
		t.Fatal(err)
	}
	var delta *Proposal
	for i := range res.Proposals {
		if res.Proposals[i].Key == "delta" {
			delta = &res.Proposals[i]
		}
	}
	if delta == nil || delta.Set["venue"] != "International Conference on Machine Learning" ||
		delta.Set["url"] != "https://arxiv.org/abs/2601.00004 ; https://doi.org/10.5555/icml.2026.404" || delta.Set["year"] != "" {
		t.Errorf("delta with OpenAlex: %+v", delta)
	}
}

// TestApply changes only the proposed rows of a canonical file.
func TestApply(t *testing.T) {
	s := recordings(t)
	dir := filepath.Join("testdata", "corpus")
	c, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Propose(context.Background(), c, Options{Client: client(s)})
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dir, corpus.PapersFile))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Apply(corpus.PapersFile, src, res.Proposals)
	if err != nil {
		t.Fatal(err)
	}
	before, after := strings.Split(string(src), "\n"), strings.Split(string(out), "\n")
	if len(before) != len(after) {
		t.Fatalf("%d lines became %d", len(before), len(after))
	}
	var changed []string
	for i := range before {
		if before[i] != after[i] {
			changed = append(changed, strings.SplitN(after[i], ",", 2)[0])
		}
	}
	if strings.Join(changed, " ") != "alpha epsilon gamma" {
		t.Errorf("changed rows %v, want alpha epsilon gamma", changed)
	}
	again, err := corpus.ParsePapers(corpus.PapersFile, out)
	if err != nil {
		t.Fatal(err)
	}
	// A second refresh of the written corpus proposes nothing: the
	// notices are recorded.
	res2, err := Propose(context.Background(), again, Options{Client: client(s)})
	if err != nil || len(res2.Proposals) != 0 {
		t.Errorf("second refresh: %v %+v", err, res2.Proposals)
	}
	if _, err := Apply(corpus.PapersFile, src, []Proposal{{Key: "nobody", Set: map[string]string{"venue": "x"}}}); err == nil {
		t.Error("a proposal for a missing key was applied")
	}
}

// TestServiceDown: an unreachable or persistently rate-limiting service
// stops refresh with an error naming it.
func TestServiceDown(t *testing.T) {
	c, err := corpus.Load(filepath.Join("testdata", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	s := recordings(t)
	cl := client(s)
	cl.CrossrefAPI = intaketest.Unreachable()
	_, err = Propose(context.Background(), c, Options{Client: cl})
	var se *ServiceError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "Crossref: cannot reach") {
		t.Errorf("Crossref down: %v", err)
	}

	s.Fail("arxiv", intaketest.Failure{Status: 0})
	_, err = Propose(context.Background(), c, Options{Client: client(s)})
	if !errors.As(err, &se) || !errors.Is(err, intake.ErrRateLimited) || !strings.Contains(err.Error(), "arXiv API") {
		t.Errorf("arXiv answering 503 forever: %v", err)
	}
}

// TestRetryAfter: a service that rate-limits twice, then answers, gives
// the same proposals; every request after the first is a cache hit.
func TestRetryAfter(t *testing.T) {
	c, err := corpus.Load(filepath.Join("testdata", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	s := recordings(t)
	s.Fail("crossref", intaketest.Failure{Status: 429, RetryAfter: "0"}, intaketest.Failure{Status: 503, RetryAfter: "0"})
	cl := client(s)
	cl.Cache = &intake.Cache{Dir: t.TempDir()}
	res, err := Propose(context.Background(), c, Options{Client: cl})
	if err != nil || len(res.Proposals) != 3 {
		t.Fatalf("after 429 and 503: %v, %d proposals", err, len(res.Proposals))
	}
	n := s.Requests("crossref") + s.Requests("arxiv")
	if _, err := Propose(context.Background(), c, Options{Client: cl}); err != nil {
		t.Fatal(err)
	}
	// Every answer is cached but the one 404 (zeta's DOI, which Crossref
	// does not hold), which is asked again.
	if got, asked := s.NotModified(), s.Requests("crossref")+s.Requests("arxiv")-n; got != asked-1 || got == 0 {
		t.Errorf("second run: %d answers 304 of %d requests; want all but the 404", got, asked)
	}
}
