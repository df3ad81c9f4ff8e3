package corpus

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/masrl/masrl/internal/corpustest"
)

// statsExtra adds cross-tabs so that every controlled column of papers.csv
// is counted, some of them twice.
var statsExtra = [][2]string{{"scenario", "is_core"}, {"is_rl", "category"}}

// sequentialCounts counts papers.csv content the way StreamStats did before
// it read papers.csv in chunks: encoding/csv on one goroutine, gocsv
// decoding the counted columns into Entry values by name. It is the
// reference the chunked reader must match.
func sequentialCounts(t testing.TB, v *Vocabulary, b []byte, countsOnly bool) (string, Diagnostics) {
	t.Helper()
	tally, err := newStatsTally(v, statsExtra)
	if err != nil {
		t.Fatal(err)
	}
	tally.countsOnly = countsOnly
	cols := append([]string{"key"}, tally.fields...)
	slices.Sort(cols)
	_, _, diags, err := decodeCSV[Entry](PapersFile, bytes.NewReader(b), int64(len(b)), tally.add, slices.Compact(cols), nil)
	if err != nil {
		t.Fatal(err)
	}
	return tallyJSON(t, tally), diags
}

// chunkedCounts counts papers.csv content with countPapers.
func chunkedCounts(t testing.TB, v *Vocabulary, b []byte, countsOnly bool, chunkSize, workers int) (string, Diagnostics) {
	t.Helper()
	tally, err := newStatsTally(v, statsExtra)
	if err != nil {
		t.Fatal(err)
	}
	tally.countsOnly = countsOnly
	_, diags := countPapers(PapersFile, bytes.NewReader(b), tally, chunkSize, workers)
	return tallyJSON(t, tally), diags
}

// tallyJSON renders what a tally counted, as the report would show it,
// compact: TestCountPapersChunks compares some 28,000 of them, and
// indenting each took a quarter of its CPU; indentJSON lays out the ones
// a failure prints.
func tallyJSON(t testing.TB, tally *statsTally) string {
	t.Helper()
	for _, h := range tally.hists {
		h.finish()
	}
	b, err := json.Marshal(struct {
		Retained   int
		Histograms []*Histogram
		CrossTabs  []*CrossTab
	}{tally.retained, tally.hists, tally.xtabs})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// indentJSON indents a tallyJSON for a failure message.
func indentJSON(s string) string {
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(s), "", " "); err != nil {
		return s
	}
	return b.String()
}

// diagLines renders findings one per line, as masrl check prints them.
func diagLines(ds Diagnostics) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, d.String())
	}
	return out
}

// TestCountPapersChunks counts each fixture of testdata/stats with every
// chunk size from one byte to the whole file, with one to three workers,
// and requires the counts (with and without keys) and the findings of the
// sequential reader; it also pins what the fixture must count and report.
func TestCountPapersChunks(t *testing.T) {
	v := testVocab(t)
	tests := []struct {
		file     string
		retained int
		diags    []string
	}{
		{"multiline.csv", 6, nil},
		{"bom_crlf.csv", 3, nil},
		{"blank_lines.csv", 2, nil},
		{"header_only.csv", 0, nil},
		{"empty.csv", 0, nil},
		{"ragged.csv", 5, []string{
			"papers.csv:3:1: error: record has 3 fields, want 18 (a missing or extra comma, or an unquoted comma inside a field?)",
			"papers.csv:4:1: error: record has 20 fields, want 18 (a missing or extra comma, or an unquoted comma inside a field?)",
			"papers.csv:5:1: error: record has 1 fields, want 18 (a missing or extra comma, or an unquoted comma inside a field?)",
		}},
		{"syntax.csv", 3, []string{
			`papers.csv:3:8: error: CSV syntax: bare " in non-quoted-field`,
			`papers.csv:4:10: error: CSV syntax: extraneous or missing " in quoted-field`,
			`papers.csv:7:6: error: CSV syntax: extraneous or missing " in quoted-field`,
			`papers.csv:11:9: error: CSV syntax: extraneous or missing " in quoted-field`,
		}},
		{"parity.csv", 4, []string{
			`papers.csv:3:9: error: CSV syntax: extraneous or missing " in quoted-field`,
			`papers.csv:6:5: error: CSV syntax: bare " in non-quoted-field`,
		}},
		{"columns.csv", 3, []string{
			"papers.csv:4:1: error: record has 5 fields, want 10 (a missing or extra comma, or an unquoted comma inside a field?)",
		}},
		{"nokey.csv", 2, nil},
		{"outside.csv", 4, nil},
		{"before_header.csv", 2, []string{
			`papers.csv:1:5: error: CSV syntax: extraneous or missing " in quoted-field`,
		}},
		{"utf8.csv", 4, []string{
			"papers.csv:3:3: error: title: invalid UTF-8 at byte 2 of the field; save the file as UTF-8",
			"papers.csv:4:80: error: category: invalid UTF-8 at byte 6 of the field; save the file as UTF-8",
			"papers.csv:5:1: error: key: invalid UTF-8 at byte 2 of the field; save the file as UTF-8",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", "stats", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			for _, countsOnly := range []bool{false, true} {
				want, wantDiags := sequentialCounts(t, v, b, countsOnly)
				if got := diagLines(wantDiags); !slices.Equal(got, append([]string{}, tt.diags...)) {
					t.Fatalf("sequential reader reports:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.diags, "\n"))
				}
				var n struct{ Retained int }
				json.Unmarshal([]byte(want), &n)
				if n.Retained != tt.retained {
					t.Fatalf("sequential reader counts %d records, want %d", n.Retained, tt.retained)
				}
				for size := 1; size <= len(b)+1; size++ {
					workers := 1 + size%3
					got, gotDiags := chunkedCounts(t, v, b, countsOnly, size, workers)
					if got != want {
						t.Fatalf("chunks of %d, %d workers, countsOnly %v: counts\n%s\nwant\n%s", size, workers, countsOnly, indentJSON(got), indentJSON(want))
					}
					if !slices.Equal(diagLines(gotDiags), diagLines(wantDiags)) {
						t.Fatalf("chunks of %d, %d workers: findings\n%s\nwant\n%s", size, workers,
							strings.Join(diagLines(gotDiags), "\n"), strings.Join(diagLines(wantDiags), "\n"))
					}
				}
			}
		})
	}
}

// TestChunkCut pins where a chunk is cut: never inside a well-formed
// quoted field, and after the last newline when no newline qualifies.
func TestChunkCut(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"abc", 0},
		{"a\nb", 2},
		{"a\nb\n", 4},
		{"a,\"x\ny\"\nb", 8},
		{"a,\"x\ny", 5},
		{"a,\"x\"\"\n\"\"y", 7},
		{"\"\n\"\"\n", 5},
		{"\"\n\"\n\"\n", 4},
	}
	for _, tt := range tests {
		if got := chunkCut([]byte(tt.in)); got != tt.want {
			t.Errorf("chunkCut(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// TestStreamStatsChunkSizes requires StreamStats to give the same report
// whatever the chunk size, on the real corpus and on the fixtures' one.
func TestStreamStatsChunkSizes(t *testing.T) {
	v := testVocab(t)
	report := func(dir string, opt StatsOptions, size int) []byte {
		s, err := streamStats(dir, v, opt, size)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, dir := range []string{filepath.Join("testdata", "base"), corpustest.Dir(t)} {
		for _, countsOnly := range []bool{false, true} {
			opt := StatsOptions{Extra: statsExtra, CountsOnly: countsOnly}
			want := report(dir, opt, 1<<30)
			for _, size := range []int{1, 7, 100, 1000, 4096} {
				if got := report(dir, opt, size); !bytes.Equal(got, want) {
					t.Fatalf("%s, chunks of %d: report differs from the one read in one chunk", dir, size)
				}
			}
		}
	}
}

// FuzzStatsChunks counts arbitrary bytes as papers.csv in chunks of an
// arbitrary size and requires the keys, counts and findings of the
// sequential reader.
func FuzzStatsChunks(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "stats", "*.csv"))
	paths = append(paths, filepath.Join("testdata", "base", PapersFile))
	for i, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b, uint16(7*i+1), uint8(i))
		}
	}
	v := testVocab(f)
	f.Fuzz(func(t *testing.T, b []byte, chunk uint16, workers uint8) {
		size, n := 1+int(chunk)%(len(b)+2), 1+int(workers)%4
		want, wantDiags := sequentialCounts(t, v, b, false)
		got, gotDiags := chunkedCounts(t, v, b, false, size, n)
		if got != want {
			t.Fatalf("chunks of %d, %d workers: counts\n%s\nwant\n%s", size, n, indentJSON(got), indentJSON(want))
		}
		if !slices.Equal(diagLines(gotDiags), diagLines(wantDiags)) {
			t.Fatalf("chunks of %d, %d workers: findings\n%s\nwant\n%s", size, n,
				strings.Join(diagLines(gotDiags), "\n"), strings.Join(diagLines(wantDiags), "\n"))
		}
	})
}
