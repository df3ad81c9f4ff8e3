package main

import (
	"strings"
	"testing"
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
