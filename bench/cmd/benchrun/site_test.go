package main

import (
	"slices"
	"testing"
)

// TestMasrlBuildArgv holds the build section to building a synthetic
// corpus despite its failing claims: without --claims=false every timed
// build was the check's refusal.
func TestMasrlBuildArgv(t *testing.T) {
	for _, tc := range []struct {
		synthetic bool
		want      []string
	}{
		{false, []string{"masrl", "build", "--corpus", "c", "--out", "o", "--profile", "survey"}},
		{true, []string{"masrl", "build", "--corpus", "c", "--out", "o", "--profile", "survey", "--claims=false"}},
	} {
		if got := masrlBuildArgv("masrl", "c", "o", tc.synthetic); !slices.Equal(got, tc.want) {
			t.Errorf("synthetic %v: got %q, want %q", tc.synthetic, got, tc.want)
		}
	}
}
