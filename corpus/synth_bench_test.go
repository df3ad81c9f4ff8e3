package corpus_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/internal/corpustest"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/internal/synth"
)

// The benchmarks below measure the hot paths of the corpus package on the
// real corpus and on synthetic corpora shaped like it. Compare runs with
// benchstat:
//
//	go test -run '^$' -bench . -count 6 ./corpus | tee new.txt
//	benchstat old.txt new.txt

// benchSizes are the synthetic corpus sizes every benchmark runs at besides
// the real corpus: small enough for -count 6 to stay within a minute.
var benchSizes = []int{1000, 10000}

// benchCorpus is one input: a name for the sub-benchmark and a directory.
type benchCorpus struct {
	name, dir string
}

// benchCorpora returns the real corpus (when it can be found) and one
// synthetic corpus per size, generated once into a temporary directory.
func benchCorpora(b *testing.B) []benchCorpus {
	b.Helper()
	realDir := corpustest.Dir(b)
	real, err := corpus.Load(realDir)
	if err != nil {
		b.Fatal(err)
	}
	m, err := synth.Learn(real)
	if err != nil {
		b.Fatal(err)
	}
	out := []benchCorpus{{"real", realDir}}
	for _, n := range benchSizes {
		dir := filepath.Join(b.TempDir(), fmt.Sprint(n))
		opt := synth.CorpusOptions{Entries: n, Exclusions: min(n/10, synth.MaxExclusions), Seed: 1}
		if err := synth.WriteCorpus(dir, m, opt); err != nil {
			b.Fatal(err)
		}
		out = append(out, benchCorpus{fmt.Sprintf("entries=%d", n), dir})
	}
	return out
}

func mustLoad(b *testing.B, dir string) *corpus.Corpus {
	b.Helper()
	c, err := corpus.Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkLoad reads and parses papers.csv, excluded.csv and papers.bib.
func BenchmarkLoad(b *testing.B) {
	for _, bc := range benchCorpora(b) {
		b.Run(bc.name, func(b *testing.B) {
			n := len(mustLoad(b, bc.dir).Papers)
			b.ReportAllocs()
			for b.Loop() {
				mustLoad(b, bc.dir)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entry")
		})
	}
}

// BenchmarkCheck runs every check rule on a loaded corpus.
func BenchmarkCheck(b *testing.B) {
	v, err := corpus.DefaultVocabulary()
	if err != nil {
		b.Fatal(err)
	}
	opt := corpus.CheckOptions{Today: time.Date(2026, 5, 5, 12, 0, 0, 0, time.UTC)}
	for _, bc := range benchCorpora(b) {
		b.Run(bc.name, func(b *testing.B) {
			c := mustLoad(b, bc.dir)
			b.ReportAllocs()
			for b.Loop() {
				corpus.Check(c, v, opt)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(c.Papers)), "ns/entry")
		})
	}
}

// countFields are the eight controlled fields of papers.csv, and
// crossTabs the three cross-tabulations of the artifact's statistics script
// (Appendix C.6).
var (
	countFields = []string{"category", "is_rl", "reward_type", "credit_granularity",
		"orchestration_form", "scenario", "is_core", "verified"}
	crossTabs = [][2]string{
		{"reward_type", "credit_granularity"},
		{"orchestration_form", "credit_granularity"},
		{"category", "verified"},
	}
)

// BenchmarkCount computes what the statistics show: the eight histograms,
// the three cross-tabs, the screening funnel and the exclusion log's
// sources and query families.
func BenchmarkCount(b *testing.B) {
	v, err := corpus.DefaultVocabulary()
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range benchCorpora(b) {
		b.Run(bc.name, func(b *testing.B) {
			c := mustLoad(b, bc.dir)
			b.ReportAllocs()
			for b.Loop() {
				for _, f := range countFields {
					c.Histogram(v, f)
				}
				for _, x := range crossTabs {
					c.CrossTab(v, x[0], x[1])
				}
				c.Funnel(v)
				c.CountColumn(corpus.ExcludedFile, "source")
				c.CountColumn(corpus.ExcludedFile, "query_family")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(c.Papers)), "ns/entry")
		})
	}
}

// BenchmarkOpen measures what masrl serve waits for after an edit of
// papers.csv at 10,000 synthetic entries (the corpus of site's
// BenchmarkIncrementalEdit): Open with the survey's data, then the check
// to completion. Profile it with
// `go test -run '^$' -bench Open -cpuprofile cpu.out ./corpus`.
func BenchmarkOpen(b *testing.B) {
	dir := serveCorpus(b)
	opt := corpus.CheckOptions{Today: time.Date(2026, 5, 5, 12, 0, 0, 0, time.UTC)}
	b.ReportAllocs()
	for b.Loop() {
		ck, err := corpus.OpenWith(dir, nil, data.SurveyProfile, opt)
		if err != nil {
			b.Fatal(err)
		}
		if len(ck.Corpus.Papers) != 10000 {
			b.Fatalf("%d rows, want 10000", len(ck.Corpus.Papers))
		}
		ck.Diagnostics()
	}
}

// serveCorpus writes the 10,000-entry synthetic corpus of site's
// BenchmarkIncrementalEdit into a temporary directory.
func serveCorpus(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	if err := synth.WriteCorpusFrom(corpustest.Dir(b), dir, synth.CorpusOptions{Entries: 10000, Exclusions: 200, Seed: 23}); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkReopen is BenchmarkOpen as masrl serve meets it: each iteration
// edits the title of another row of papers.csv (untimed), then opens the
// corpus afresh (open) or from the previous result (reopen: papers.bib,
// unchanged, is not parsed again) and waits for the check.
func BenchmarkReopen(b *testing.B) {
	dir := serveCorpus(b)
	papers := filepath.Join(dir, corpus.PapersFile)
	raw, err := os.ReadFile(papers)
	if err != nil {
		b.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
	if err != nil {
		b.Fatal(err)
	}
	title := slices.Index(rows[0], "title")
	n := 0
	edit := func() {
		n++
		rows[1+n%(len(rows)-1)][title] += fmt.Sprintf(" edited %d", n)
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		w.WriteAll(rows)
		if err := os.WriteFile(papers, buf.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	opt := corpus.CheckOptions{Today: time.Date(2026, 5, 5, 12, 0, 0, 0, time.UTC)}
	for _, reuse := range []bool{false, true} {
		name := "open"
		if reuse {
			name = "reopen"
		}
		b.Run(name, func(b *testing.B) {
			var prev *corpus.Checked
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				edit()
				b.StartTimer()
				// Both keep the previous result alive, as the server does.
				from := prev
				if !reuse {
					from = nil
				}
				ck, err := corpus.Reopen(from, dir, nil, data.SurveyProfile, opt)
				if err != nil {
					b.Fatal(err)
				}
				if len(ck.Corpus.Papers) != 10000 {
					b.Fatalf("%d rows, want 10000", len(ck.Corpus.Papers))
				}
				ck.Diagnostics()
				prev = ck
			}
		})
	}
}

// BenchmarkReopenEdit is what masrl serve does first after an edit of one
// title of papers.csv, before it can show the edited page: it reopens the
// corpus from the one before (corpus.ReopenKnowing, papers.bib known
// unchanged), without its check, which waits for the page. The part of
// it that grows with the list is reading papers.csv and finding what
// changed. The corpus is MASRL_SERVE_CORPUS (copied; as site/serve's
// BenchmarkServeEdit), else 10,000 synthetic entries; it reports the
// fastest and the median reopen beside the mean.
func BenchmarkReopenEdit(b *testing.B) {
	var dir string
	if from := os.Getenv("MASRL_SERVE_CORPUS"); from != "" {
		dir = corpustest.CopyCorpus(b, from)
	} else {
		dir = serveCorpus(b)
	}
	papers := filepath.Join(dir, corpus.PapersFile)
	raw, err := os.ReadFile(papers)
	if err != nil {
		b.Fatal(err)
	}
	prev, err := corpus.ReopenKnowing(nil, dir, nil, "", corpus.CheckOptions{}, corpus.Known{})
	if err != nil {
		b.Fatal(err)
	}
	prev.Diagnostics()
	// The middle row's title, edited in place: one byte flips between
	// two letters, so the file keeps its size and its lines.
	at := bytes.Index(raw, []byte(prev.Corpus.Papers[len(prev.Corpus.Papers)/2].Title))
	if at < 0 {
		b.Fatal("the middle row's title is not in papers.csv as it is")
	}
	var times []time.Duration
	n := 0
	for b.Loop() {
		b.StopTimer()
		n++
		raw[at] = "XY"[n%2]
		if err := os.WriteFile(papers, raw, 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		ck, err := corpus.ReopenKnowing(prev, dir, nil, "", corpus.CheckOptions{}, corpus.Known{BibUnchanged: true})
		if err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
		b.StopTimer()
		ck.Diagnostics() // as serve's build waits for it before the next edit
		prev = ck
		b.StartTimer()
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[0])/float64(time.Millisecond), "min-ms")
	b.ReportMetric(float64(times[len(times)/2])/float64(time.Millisecond), "median-ms")
}
