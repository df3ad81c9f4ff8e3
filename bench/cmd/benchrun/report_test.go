package main

import (
	"maps"
	"os"
	"strings"
	"testing"
	"time"
)

func TestReplaceBlocks(t *testing.T) {
	md := "intro\n<!-- BEGIN BENCH:a -->\nold\nlines\n<!-- END BENCH:a -->\nmiddle\n<!-- BEGIN BENCH:b -->\n<!-- END BENCH:b -->\nend\n"
	got, err := replaceBlocks(md, map[string]string{"a": "| new |\n", "b": "B"})
	if err != nil {
		t.Fatal(err)
	}
	want := "intro\n<!-- BEGIN BENCH:a -->\n| new |\n<!-- END BENCH:a -->\nmiddle\n<!-- BEGIN BENCH:b -->\nB\n<!-- END BENCH:b -->\nend\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	again, _ := replaceBlocks(got, map[string]string{"a": "| new |\n", "b": "B"})
	if again != got {
		t.Errorf("rewriting with the same blocks changed the file")
	}
	if _, err := replaceBlocks(md, map[string]string{"c": "x"}); err == nil || !strings.Contains(err.Error(), "c") {
		t.Errorf("missing markers: err = %v", err)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{84: "84", 1000: "1,000", 100000: "100,000", 1000000: "1,000,000"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestPartialRunKeepsOtherBlocks: a run of some sections rewrites only
// their blocks, never the machine, targets or commands of a full run.
func TestPartialRunKeepsOtherBlocks(t *testing.T) {
	blocks := map[string]string{"machine": "m", "live": "l", "targets": "t", "commands": "c"}
	got := blocksToWrite([]string{"live"}, blocks, false)
	if len(got) != 1 || got["live"] != "l" {
		t.Errorf("partial run writes %v, want only live", got)
	}
	all := strings.Split(allSections, ",")
	if got := blocksToWrite(all, blocks, false); len(got) != len(blocks) {
		t.Errorf("full run writes %v, want every block", got)
	}
	busy := blocksToWrite([]string{"live"}, blocks, true)
	want := map[string]string{"machine-busy": "m", "targets-busy": "t", "live-busy": "l"}
	if !maps.Equal(busy, want) {
		t.Errorf("busy run writes %v, want %v: its own blocks, never the quiet run's", busy, want)
	}
}

// TestBenchmarksHasEveryBlock: make bench's two runs (every section, then
// the build section with one core busy) rewrite BENCHMARKS.md, and a block
// without its markers fails the run after its half hour of measuring.
func TestBenchmarksHasEveryBlock(t *testing.T) {
	md, err := os.ReadFile("../../../BENCHMARKS.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string]string{"machine": "", "targets": "", "commands": ""}
	for s := range strings.SplitSeq(allSections, ",") {
		blocks[s] = ""
	}
	if _, err := replaceBlocks(string(md), blocks); err != nil {
		t.Errorf("the full run: %v", err)
	}
	if _, err := replaceBlocks(string(md), blocksToWrite([]string{"build"}, blocks, true)); err != nil {
		t.Errorf("the run with one core busy: %v", err)
	}
}

// TestBuildTargetsRealCorpus: the real corpus's goal (well under a second)
// is decided on the real corpus's row only, never on the first size a run
// measured (a run of -build-sizes 10000 judged 10,000 entries by it).
func TestBuildTargetsRealCorpus(t *testing.T) {
	row := func(size int, wall time.Duration) *result {
		return &result{tool: "masrl build (rebuild)", size: size, samples: []sample{{wall: wall}}}
	}
	only10k := [][]*result{{row(10000, 1400*time.Millisecond)}}
	for _, tg := range buildTargets(only10k, 84) {
		if strings.Contains(tg.goal, "real corpus") {
			t.Errorf("a run without the real corpus decided %q: %s", tg.goal, tg.figure)
		}
	}
	withReal := [][]*result{{row(84, 70*time.Millisecond)}, {row(10000, 1400*time.Millisecond)}}
	ts := buildTargets(withReal, 84)
	if len(ts) == 0 || !strings.Contains(ts[0].goal, "real corpus") || ts[0].met == nil || !*ts[0].met {
		t.Errorf("the real corpus's goal: %+v", ts)
	}
}
