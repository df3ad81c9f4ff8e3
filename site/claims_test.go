package site

import (
	"testing"

	"github.com/masrl/masrl/corpus"
)

// TestClaimForEntry: an entry page quotes its own row of an order claim
// and leaves other claims, and rows the claim does not name, as they are.
func TestClaimForEntry(t *testing.T) {
	cv := &ClaimView{ClaimResult: corpus.ClaimResult{Kind: corpus.KindOrder, Status: corpus.Acknowledged,
		Actual: "A: malt (2024) after marsrl (2025); C: openai-codex (2025) after kimi-k2-6 (2026)"}}
	cv.ActualShort = cv.Actual
	if got, want := cv.forEntry("openai-codex").ActualShort, "C: openai-codex (2025) after kimi-k2-6 (2026); … (2 in all)"; got != want {
		t.Errorf("openai-codex sees %q, want %q", got, want)
	}
	if cv.forEntry("kimi-k2-6") != cv || cv.forEntry("marsrl") != cv {
		t.Error("a row named only as the one before gets its own copy; it should see the claim whole")
	}
	if cv.ActualShort != cv.Actual {
		t.Error("forEntry changed the claims page's view")
	}
	set := &ClaimView{ClaimResult: corpus.ClaimResult{Kind: corpus.KindSet, Actual: "a, b"}}
	if set.forEntry("a") != set {
		t.Error("a set claim is copied per entry")
	}
}
