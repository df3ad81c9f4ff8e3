package corpus

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// syntheticPapers returns a papers.csv of n rows whose controlled fields
// cycle through the vocabulary and whose free text has the quoting of the
// real file (commas, quotes, a multi-line note every 97 rows), about 330
// bytes a row like the real one.
func syntheticPapers(v *Vocabulary, n int) []byte {
	var b bytes.Buffer
	b.WriteString(papersHeader)
	fields := []string{"category", "is_rl", "reward_type", "credit_granularity", "orchestration_form", "scenario", "is_core", "verified"}
	vals := make([][]string, len(fields))
	for i, f := range fields {
		vals[i] = v.Field(f).Allowed()
	}
	for i := range n {
		tag := func(j int) string { return vals[j][(i*(j+3)+i/7)%len(vals[j])] }
		note := "v2 2025-12-09; with co-authors, see \"\"project page\"\""
		if i%97 == 0 {
			note = "first line\nsecond line"
		}
		fmt.Fprintf(&b, "k%07d,\"Synthetic Paper %d: Learning to Orchestrate, Delegate and Aggregate\",\"Doe, Jane\",Example University / Lab,%d,25%02d.%05d,arXiv,https://arxiv.org/abs/25%02d.%05d,%s,%s,%s,%s,%s,%s,%s,\"One-liner about multi-agent RL, credit and orchestration\",%s,\"%s\"\n",
			i, i, 2020+i%7, i%12+1, i%100000, i%12+1, i%100000,
			tag(0), tag(1), tag(2), tag(3), tag(4), tag(5), tag(6), tag(7), note)
	}
	return b.Bytes()
}

// BenchmarkLoadAndCount loads a generated papers.csv (MASRL_BENCH_ROWS
// rows, default 100,000; the target is 1,000,000) and computes the
// full statistics report and the claims check over it.
func BenchmarkLoadAndCount(b *testing.B) {
	v := testVocab(b)
	n := benchRows(b)
	path := filepath.Join(b.TempDir(), PapersFile)
	data := syntheticPapers(v, n)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	claims, err := LoadClaims(v)
	if err != nil {
		b.Fatal(err)
	}
	// Sub-benchmarks separate the costs: loading dominates.
	b.Run("load", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			c, err := LoadPapersFile(path)
			if err != nil {
				b.Fatal(err)
			}
			if len(c.Papers) != n {
				b.Fatalf("%d rows, want %d", len(c.Papers), n)
			}
		}
	})
	c, err := LoadPapersFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("stats", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if s := ComputeStats(c, v); s.Histograms[0].Total != n {
				b.Fatalf("histogram total %d", s.Histograms[0].Total)
			}
		}
	})
	b.Run("claims", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if len(VerifyClaims(c, v, claims)) == 0 {
				b.Fatal("no claims")
			}
		}
	})
}

// benchRows is the number of generated rows: MASRL_BENCH_ROWS, default
// 100,000.
func benchRows(b *testing.B) int {
	s := os.Getenv("MASRL_BENCH_ROWS")
	if s == "" {
		return 100_000
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		b.Fatal(err)
	}
	return n
}

// BenchmarkStreamStats runs masrl stats' path over a generated papers.csv
// of benchRows rows: the markdown report counts only, the JSON one keeps
// every row's key in its cells.
func BenchmarkStreamStats(b *testing.B) {
	v := testVocab(b)
	n := benchRows(b)
	dir := b.TempDir()
	data := syntheticPapers(v, n)
	if err := os.WriteFile(filepath.Join(dir, PapersFile), data, 0o644); err != nil {
		b.Fatal(err)
	}
	for _, countsOnly := range []bool{true, false} {
		name := "keys"
		if countsOnly {
			name = "counts"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				s, err := StreamStats(dir, v, StatsOptions{CountsOnly: countsOnly})
				if err != nil {
					b.Fatal(err)
				}
				if s.Retained != n {
					b.Fatalf("%d rows, want %d", s.Retained, n)
				}
			}
		})
	}
}
