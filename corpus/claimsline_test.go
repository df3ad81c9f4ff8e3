package corpus

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// surveyText returns the lines of the survey's text extraction
// (paper/survey.txt beside the real corpus, or $MASRL_PAPER), which the
// claims cite.
func surveyText(t *testing.T) []string {
	t.Helper()
	p := os.Getenv("MASRL_PAPER")
	if p == "" { // beside the corpus: ../shared/{corpus,paper}
		p = filepath.Join(filepath.Dir(realCorpus(t)), "paper", "survey.txt")
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("survey text not found (set MASRL_PAPER): %v", err)
	}
	return strings.Split(string(b), "\n")
}

// TestClaimsCiteTheirLine holds every claim to the line of survey.txt it
// names: each names one, and that line prints the claim's quoted text, or
// for a number without a quote, the number (as is, or doubled as the text
// extraction writes "84" in prose: "8484").
func TestClaimsCiteTheirLine(t *testing.T) {
	lines := surveyText(t)
	cl, err := LoadClaims(testVocab(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cl.Claims {
		if c.Line <= 0 || c.Line > len(lines) {
			t.Errorf("%s: %s names no line of survey.txt (line %d of %d)", c.Pos, c.ID, c.Line, len(lines))
			continue
		}
		text := strings.Join(strings.Fields(lines[c.Line-1]), " ")
		switch {
		case c.Printed != "":
			if !strings.Contains(text, c.Printed) {
				t.Errorf("%s: %s: survey.txt line %d does not print %q", c.Pos, c.ID, c.Line, c.Printed)
			}
		case c.Kind == KindCell:
			// A row of a printed cross-tab: its label is the row's
			// value, its numbers follow.
			if !strings.Contains(" "+text+" ", " "+strconv.Itoa(c.Number)+" ") {
				t.Errorf("%s: %s: survey.txt line %d (%q) does not print %d", c.Pos, c.ID, c.Line, text, c.Number)
			}
		case c.Kind == KindTotal || c.Kind == KindCount:
			n := strconv.Itoa(c.Number)
			if !containsNumber(text, n) && !containsNumber(text, n+n) {
				t.Errorf("%s: %s: survey.txt line %d does not print %s", c.Pos, c.ID, c.Line, n)
			}
		}
	}
}

// containsNumber reports whether text has n as a whole number.
func containsNumber(text, n string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], n)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || text[j-1] < '0' || text[j-1] > '9'
		end := j + len(n)
		after := end == len(text) || text[end] < '0' || text[end] > '9'
		if before && after {
			return true
		}
		i = j + 1
	}
}
