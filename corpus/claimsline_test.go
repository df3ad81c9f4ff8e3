package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/masrl/masrl/internal/corpustest"
)

// surveyText returns the lines of the survey's text extraction
// (paper/survey.txt beside the real corpus, or $MASRL_PAPER), which the
// claims cite.
func surveyText(t *testing.T) []string {
	t.Helper()
	p := os.Getenv("MASRL_PAPER")
	if p == "" { // beside the corpus: ../shared/{corpus,paper}
		p = filepath.Join(filepath.Dir(corpustest.Dir(t)), "paper", "survey.txt")
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
			n := c.Check.(*CellClaim).Number
			if !strings.Contains(" "+text+" ", " "+strconv.Itoa(n)+" ") {
				t.Errorf("%s: %s: survey.txt line %d (%q) does not print %d", c.Pos, c.ID, c.Line, text, n)
			}
		case c.Kind == KindTotal || c.Kind == KindCount:
			var n string
			switch k := c.Check.(type) {
			case *TotalClaim:
				n = strconv.Itoa(k.Number)
			case *CountClaim:
				n = strconv.Itoa(k.Number)
			}
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
	i := slices.IndexFunc(c.Papers, func(e *Entry) bool { return e.Key == "matpo" })
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

// TestRefreshListsMatchHistory holds the two refresh lists of survey.txt
// line 32 to the artifact's history snapshots of papers.csv: the second
// list, the May 2026 refresh, is exactly what the history adds from
// 2026-04-30 to 2026-05-04; the first list's rows are in every snapshot
// (the coverage refresh predates them; claim s1.1/coverage-refresh holds
// them to their notes). A claim cannot say this: check reads the corpus,
// not its history folder, which a copy of a list need not carry.
func TestRefreshListsMatchHistory(t *testing.T) {
	line := strings.Join(strings.Fields(surveyText(t)[31]), " ")
	cl, err := LoadClaims(testVocab(t))
	if err != nil {
		t.Fatal(err)
	}
	keysOf := func(ns string) []string {
		var out []string
		for n := range strings.SplitSeq(ns, ", ") {
			i, err := strconv.Atoi(n)
			if err != nil || i < 1 || i > len(cl.Mentions.References) {
				t.Fatalf("line 32: %q is no reference number", n)
			}
			out = append(out, cl.Mentions.References[i-1].Key)
		}
		return out
	}
	// The references the two sentences cite, in printed order.
	var first, second []string
	_, rest, _ := strings.Cut(line, "A May 2026 coverage refresh added")
	firstText, secondText, ok := strings.Cut(rest, "A May 2026 refresh added")
	if !ok {
		t.Fatal("line 32 does not print the two refresh lists")
	}
	for _, m := range regexp.MustCompile(`\[([0-9, ]+)\]`).FindAllStringSubmatch(firstText, -1) {
		first = append(first, keysOf(m[1])...)
	}
	for _, m := range regexp.MustCompile(`\[([0-9, ]+)\]`).FindAllStringSubmatch(secondText, -1) {
		second = append(second, keysOf(m[1])...)
	}
	dir := filepath.Join(corpustest.Dir(t), "history")
	snapshot := func(name string) map[string]bool {
		c, err := LoadPapersFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		keys := map[string]bool{}
		for _, e := range c.Papers {
			keys[e.Key] = true
		}
		return keys
	}
	before, after := snapshot("papers-2026-04-30.csv"), snapshot("papers-2026-05-04.csv")
	var added []string
	for k := range after {
		if !before[k] {
			added = append(added, k)
		}
	}
	slices.Sort(added)
	slices.Sort(second)
	if !slices.Equal(added, second) {
		t.Errorf("the May 2026 refresh cites %v; the history adds %v from 2026-04-30 to 2026-05-04", second, added)
	}
	earliest := snapshot("papers-2026-04-28.csv")
	for _, k := range first {
		if !earliest[k] {
			t.Errorf("the coverage refresh cites %s, which the first snapshot (2026-04-28) lacks", k)
		}
	}
	if len(first) != 8 {
		t.Errorf("the coverage refresh cites %d rows, want the 8 of claim s1.1/coverage-refresh", len(first))
	}
}
