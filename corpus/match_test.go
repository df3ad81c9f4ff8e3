package corpus

import (
	"strings"
	"testing"
)

// The check matches arXiv ids and keys by hand, for speed; the regexps
// stay their definition (the row schema publishes them). These tests hold
// the hand-written matchers to the regexps, and normalizeTitle's ASCII
// path to the rune by rune fold.

// regexpFindArxivID is findArxivID by its definition: arxivIDInText's
// first match after the first "arxiv" in any ASCII case.
func regexpFindArxivID(s string) string {
	lower := strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
	i := strings.Index(lower, "arxiv")
	if len(lower) != len(s) || i < 0 {
		// strings.Map replaces invalid UTF-8 and so may change lengths:
		// find the marker byte by byte instead.
		i = -1
		for j := 0; j+5 <= len(s); j++ {
			if strings.EqualFold(s[j:j+5], "arxiv") {
				i = j
				break
			}
		}
	}
	if i < 0 {
		return ""
	}
	if m := arxivIDInText.FindStringSubmatch(s[i:]); m != nil {
		return m[1]
	}
	return ""
}

// arxivCases are inputs at the edges of the patterns.
var arxivCases = []string{
	"", "2508.04652", "2508.04652v2", "2508.0465", "2508.046522", "2508.04652v", "2508.04652vv2",
	"2508.04652v12x", "x2508.04652", "2508.04652 ", "250.04652", "2508-04652", "25080.4652",
	"arXiv:2508.04652", "arxiv 2508.04652v3.", "ARXIV:12508.04652 and 2509.00001",
	"https://arxiv.org/abs/2508.04652v1", "arXiv preprint arXiv:2508.04652", "arxiv.2508.04652",
	"arxiv 2508.046521 2601.12345", "arxiv\xff2508.04652", "arxiv é2508.04652", "ar xiv 2508.04652",
	"ȺȺȺȺȺȺarxiv 2508.04652", "ȺȺȺȺȺȺARXIV", "İİarXiv:2508.04652", "arxiv2508.04652",
	"arxiv 2508.04652.1", "arxiv 1.2508.04652", "arxiv:2508.04652v", "arxiv:2508.04652v2v3",
	"a-b", "-ab", "ab-", "k0000001", "Key", "a_b", "é", "a b", "0",
	"LLM Collaboration.", "Ünïcode Title: 2", strings.Repeat("Long Title ", 20), "\xffA", "ǅ",
}

func TestArxivMatchers(t *testing.T) {
	for _, s := range arxivCases {
		assertMatchersAgree(t, s)
	}
	// Lowering "\u023a" makes it longer: the marker found in the lowered
	// text once indexed past the end of the original, and panicked.
	if got := findArxivID(strings.Repeat("Ⱥ", 6) + "arxiv:2508.04652"); got != "2508.04652" {
		t.Errorf("findArxivID after \\u023a = %q, want 2508.04652", got)
	}
}

func FuzzArxivMatchers(f *testing.F) {
	for _, s := range arxivCases {
		f.Add(s)
	}
	f.Fuzz(assertMatchersAgree)
}

func assertMatchersAgree(t *testing.T, s string) {
	if got, want := IsArxivID(s), arxivIDPattern.MatchString(s); got != want {
		t.Errorf("IsArxivID(%q) = %v, the pattern says %v", s, got, want)
	}
	if got, want := findArxivID(s), regexpFindArxivID(s); got != want {
		t.Errorf("findArxivID(%q) = %q, the pattern finds %q", s, got, want)
	}
	if got, want := IsKey(s), keyPattern.MatchString(s); got != want {
		t.Errorf("IsKey(%q) = %v, the pattern says %v", s, got, want)
	}
	if got, want := normalizeTitle(s), normalizeTitleUnicode(s); got != want {
		t.Errorf("normalizeTitle(%q) = %q, the rune by rune fold gives %q", s, got, want)
	}
}
