package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
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

// TestMentionsCiteTheirLine holds the survey's references and mentions
// (data/survey-mentions.yaml) to survey.txt: each quote is printed on
// the line it names, each reference's line opens with its number, and
// every paper the References list cites has at least one mention.
func TestMentionsCiteTheirLine(t *testing.T) {
	lines := surveyText(t)
	cl, err := LoadClaims(testVocab(t))
	if err != nil {
		t.Fatal(err)
	}
	m := cl.Mentions
	if m == nil || len(m.References) == 0 {
		t.Fatal("the survey's claims name no mentions file")
	}
	onLine := func(pos Pos, line int, quote string) (string, bool) {
		if line <= 0 || line > len(lines) {
			t.Errorf("%s: line %d is no line of survey.txt (%d lines)", pos, line, len(lines))
			return "", false
		}
		text := strings.Join(strings.Fields(lines[line-1]), " ")
		if !strings.Contains(text, quote) {
			t.Errorf("%s: survey.txt line %d does not print %q", pos, line, quote)
		}
		return text, true
	}
	if len(m.Sections) == 0 {
		t.Error("the mentions file lists no sections")
	}
	for _, sec := range m.Sections {
		onLine(sec.Pos, sec.Line, sec.Title)
	}
	for _, r := range m.References {
		if text, ok := onLine(r.Pos, r.Line, r.Printed); ok && !strings.HasPrefix(text, "• ["+strconv.Itoa(r.Number)+"] ") {
			t.Errorf("%s: survey.txt line %d is not reference [%d]: %.40q", r.Pos, r.Line, r.Number, text)
		}
		if len(m.Of(r.Key)) == 0 {
			t.Errorf("%s: reference [%d] (%s) has no mention", r.Pos, r.Number, r.Key)
		}
		for _, mn := range m.Of(r.Key) {
			onLine(mn.Pos, mn.Line, mn.Printed)
		}
	}
}

// TestReferencesNameTheirPosition: a retained row removed from a copy of
// the real corpus breaks the references claim, which names the reference
// that cites it and its place in the mentions file.
func TestReferencesNameTheirPosition(t *testing.T) {
	c, v, cl := loadRealWithClaims(t)
	ref := cl.Mentions.Reference("matpo")
	if ref == nil {
		t.Fatal("no reference cites matpo")
	}
	i := slices.IndexFunc(c.Papers, func(e Entry) bool { return e.Key == "matpo" })
	c.Papers = slices.Delete(c.Papers, i, i+1)
	for _, r := range VerifyClaims(c, v, cl) {
		if r.ID != "references/retained" {
			continue
		}
		want := fmt.Sprintf("reference [43] (data/survey-mentions.yaml:%d) cites matpo, which is no retained row", ref.Pos.Line)
		if r.Status != Fails || !strings.Contains(r.Actual, want) || !slices.Equal(r.Responsible, []string{"matpo"}) {
			t.Errorf("references after removing matpo: %s %q %v, want fails naming %q", r.Status, r.Actual, r.Responsible, want)
		}
		return
	}
	t.Fatal("no references/retained claim")
}
