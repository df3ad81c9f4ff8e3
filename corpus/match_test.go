package corpus

import (
	"strings"
	"testing"
)

// normalizeTitle folds ASCII byte by byte and any other text rune by
// rune (normalizeTitleUnicode): these tests hold the two paths to the
// same result.

// matchCases are inputs at the edges of the arXiv and title matchers.
var matchCases = []string{
	"", "2508.04652", "2508.04652v2", "2508.0465", "2508.046522", "2508.04652v", "2508.04652vv2",
	"2508.04652v12x", "x2508.04652", "2508.04652 ", "250.04652", "2508-04652", "25080.4652",
	"arXiv:2508.04652", "arxiv 2508.04652v3.", "ARXIV:12508.04652 and 2509.00001",
	"https://arxiv.org/abs/2508.04652v1", "arXiv preprint arXiv:2508.04652", "arxiv.2508.04652",
	"arxiv 2508.046521 2601.12345", "arxiv\xff2508.04652", "arxiv é2508.04652", "ar xiv 2508.04652",
	"ȺȺȺȺȺȺarxiv 2508.04652", "ȺȺȺȺȺȺARXIV", "İİarXiv:2508.04652", "arxiv2508.04652",
	"arxiv 2508.04652.1", "arxiv 1.2508.04652", "arxiv:2508.04652v", "arxiv:2508.04652v2v3",
	"LLM Collaboration.", "Ünïcode Title: 2", strings.Repeat("Long Title ", 20), "\xffA", "ǅ",
}

func TestFindArxivIDAfterGrowingLowercase(t *testing.T) {
	// Lowering "\u023a" makes it longer: the marker found in the lowered
	// text once indexed past the end of the original, and panicked.
	if got := findArxivID(strings.Repeat("Ⱥ", 6) + "arxiv:2508.04652"); got != "2508.04652" {
		t.Errorf("findArxivID after \\u023a = %q, want 2508.04652", got)
	}
	for _, s := range matchCases {
		findArxivID(s) // must not panic
	}
}

func TestNormalizeTitlePaths(t *testing.T) {
	for _, s := range matchCases {
		assertTitleFoldsAgree(t, s)
	}
}

func FuzzNormalizeTitle(f *testing.F) {
	for _, s := range matchCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		assertTitleFoldsAgree(t, s)
		findArxivID(s)
	})
}

func assertTitleFoldsAgree(t *testing.T, s string) {
	if got, want := normalizeTitle(s), normalizeTitleUnicode(s); got != want {
		t.Errorf("normalizeTitle(%q) = %q, the rune by rune fold gives %q", s, got, want)
	}
}
