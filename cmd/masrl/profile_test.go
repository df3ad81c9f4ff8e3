package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/siteconfig"
)

// ownList copies testdata/ownlist, a list of one's own (five rows of its
// own keys and URLs in the survey's 18 columns, papers.csv and nothing
// else), into a fresh directory, with the extra files given by name.
func ownList(t *testing.T, extra map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "corpus")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "ownlist"))); err != nil {
		t.Fatal(err)
	}
	for name, body := range extra {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// surveyStrings are what marks a page as the survey's: its arXiv id, the
// paper's title and the title of its list, read from the embedded pool so
// that the test follows the data.
func surveyStrings(t *testing.T) []string {
	t.Helper()
	p, err := corpus.LoadPool()
	if err != nil {
		t.Fatal(err)
	}
	if p.ArxivID() == "" || p.Title == "" || p.ListTitle == "" {
		t.Fatalf("the survey's pool lacks an arXiv id or titles: %+v", p)
	}
	return []string{p.ArxivID(), p.Title, p.ListTitle}
}

// buildOwn builds the site of dir into a fresh directory with args added
// and returns the directory; the build must exit 0.
func buildOwn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "public")
	argv := append([]string{"build", "--corpus", dir, "--out", out, "--echarts="}, args...)
	if _, errs, code := runCmd(t, argv...); code != exitOK {
		t.Fatalf("masrl build: exit %d\n%s", code, errs)
	}
	return out
}

// TestOwnListSaysNothingOfTheSurvey: a list of one's own with the survey's
// 18 columns checks clean with no claims, and builds a site with no claims
// page, no survey pool, no orchestration sub-decisions or survey pages,
// and not one mention of the survey's id or titles on any page.
func TestOwnListSaysNothingOfTheSurvey(t *testing.T) {
	dir := ownList(t, nil)
	out, errs, code := runCmd(t, "check", "--corpus", dir)
	if code != exitOK {
		t.Fatalf("masrl check: exit %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "5 entries, 0 exclusions: 0 errors") || strings.Contains(out, "claims") || strings.Contains(out, "survey pool") {
		t.Errorf("masrl check: want 5 clean entries and nothing about claims or the survey's pool:\n%s", out)
	}
	js, _, code := runCmd(t, "check", "--corpus", dir, "--format", "json")
	var rep map[string]any
	if err := json.Unmarshal([]byte(js), &rep); err != nil || code != exitOK {
		t.Fatalf("check --format json: exit %d, %v", code, err)
	}
	for _, k := range []string{"claims", "survey", "claim_results", "errata"} {
		if _, ok := rep[k]; ok {
			t.Errorf("check --format json reports %q for a list without claims", k)
		}
	}

	pub := buildOwn(t, dir)
	for _, gone := range []string{"claims", "orchestration", "about", "method", "contribute", "coverage/survey"} {
		if _, err := os.Stat(filepath.Join(pub, gone)); err == nil {
			t.Errorf("the site has %s/, which belongs to the survey's list", gone)
		}
	}
	marks := surveyStrings(t)
	pages := 0
	err := filepath.WalkDir(pub, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(pub, p)
		// The trace schema is published byte for byte as masrl embeds
		// it; its description names the paper that proposed it.
		if filepath.Base(rel) == "trace.schema.json" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.HasSuffix(rel, ".html") {
			pages++
		}
		for _, m := range marks {
			if strings.Contains(string(b), m) {
				t.Errorf("%s mentions the survey: %q", rel, m)
			}
		}
		if strings.HasSuffix(rel, ".html") && regexp.MustCompile(`href="[./]*(claims|orchestration|about|method)/"`).Match(b) {
			t.Errorf("%s links a page of the survey's list", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pages < 20 {
		t.Fatalf("only %d pages walked: the build is not the whole site", pages)
	}
	home, err := os.ReadFile(filepath.Join(pub, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(home), "<title>"+siteconfig.DefaultTitle+"</title>") {
		t.Errorf("home page: want the neutral title %q", siteconfig.DefaultTitle)
	}
	if !strings.Contains(string(home), `"@type":"Dataset"`) || strings.Contains(string(home), "isBasedOn") {
		t.Error("home page: want a Dataset without isBasedOn")
	}

	// masrl.yaml's title and description are the site's.
	cfg := "title: Tidepool Reading List\ndescription: Papers on shared-memory agent teams.\n"
	pub = buildOwn(t, ownList(t, map[string]string{"masrl.yaml": cfg}))
	home, _ = os.ReadFile(filepath.Join(pub, "index.html"))
	if !strings.Contains(string(home), "<title>Tidepool Reading List</title>") || !strings.Contains(string(home), `<meta name="description" content="Papers on shared-memory agent teams.">`) {
		t.Error("home page: masrl.yaml's title or description is missing")
	}
}

// ownClaims are claims of the fixture list, one holding per kind of
// figure; %d is the number of retained entries it states.
const ownClaims = `# What the list's README says about it.
claims:
  - {id: total/retained, kind: total, of: retained, expect: %d, description: "papers in the list", source: "README"}
  - {id: count/rl-method, kind: count, field: category, value: rl_method, expect: 2, description: "RL methods", source: "README"}
`

// TestOwnListClaims: a list with its own claims.yaml beside papers.csv gets
// the claims gate (a failed claim fails the check, at its line of that
// file) and a claims page, still without the survey.
func TestOwnListClaims(t *testing.T) {
	dir := ownList(t, map[string]string{corpus.ListClaimsFile: strings.Replace(ownClaims, "%d", "5", 1)})
	out, errs, code := runCmd(t, "check", "--corpus", dir)
	if code != exitOK || !strings.HasSuffix(out, "5 entries, 0 exclusions: 0 errors, 2 warnings; claims: 2 held, 0 acknowledged, 0 failed\n") {
		t.Fatalf("masrl check with holding claims: exit %d\n%s%s", code, out, errs)
	}
	pub := buildOwn(t, dir)
	page, err := os.ReadFile(filepath.Join(pub, "claims", "index.html"))
	if err != nil {
		t.Fatal("no claims page for a list with claims.yaml")
	}
	for _, want := range []string{"count/rl-method", "papers in the list", "claims.yaml"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("claims page lacks %q", want)
		}
	}
	home, _ := os.ReadFile(filepath.Join(pub, "index.html"))
	if !strings.Contains(string(home), `href="claims/"`) {
		t.Error("the home page does not link the claims page")
	}
	for _, m := range surveyStrings(t) {
		if strings.Contains(string(page), m) || strings.Contains(string(home), m) {
			t.Errorf("a list's own claims page mentions the survey: %q", m)
		}
	}

	bad := ownList(t, map[string]string{corpus.ListClaimsFile: strings.Replace(ownClaims, "%d", "6", 1)})
	out, _, code = runCmd(t, "check", "--corpus", bad)
	want := filepath.Join(bad, corpus.ListClaimsFile) + ":3: error: total/retained: "
	if code != exitFindings || !strings.Contains(out, want) || !strings.Contains(out, "claims: 1 held, 0 acknowledged, 1 failed") {
		t.Errorf("masrl check with a failing claim: exit %d, want 1 and %q in\n%s", code, want, out)
	}
	// --claims=false still skips them.
	if _, _, code := runCmd(t, "check", "--corpus", bad, "--claims=false"); code != exitOK {
		t.Errorf("check --claims=false: exit %d, want 0", code)
	}
}

// TestProfileSelection: the survey's profile comes from masrl.yaml or
// --profile; it applies the survey's claims (which a list of five rows
// fails), and an unknown profile is a usage error that names the known.
func TestProfileSelection(t *testing.T) {
	dir := ownList(t, map[string]string{"masrl.yaml": "profile: survey\n"})
	out, _, code := runCmd(t, "check", "--corpus", dir)
	if code != exitFindings || !strings.Contains(out, "survey pool ") || !strings.Contains(out, "data/claims.yaml:") {
		t.Errorf("profile: survey in masrl.yaml: exit %d, want the survey's claims failing\n%s", code, lastLine(out))
	}
	plain := ownList(t, nil)
	if out, _, code := runCmd(t, "check", "--corpus", plain, "--profile", "survey"); code != exitFindings || !strings.Contains(out, "survey pool ") {
		t.Errorf("--profile survey: exit %d, want the survey's claims failing\n%s", code, lastLine(out))
	}
	for _, argv := range [][]string{
		{"check", "--corpus", plain, "--profile", "surveys"},
		{"build", "--corpus", plain, "--out", filepath.Join(t.TempDir(), "p"), "--profile", "surveys"},
		{"stats", "--corpus", plain, "--profile", "surveys"},
	} {
		_, errs, code := runCmd(t, argv...)
		if code != exitUsage || !strings.Contains(errs, `unknown profile "surveys"`) || !strings.Contains(errs, "survey") {
			t.Errorf("%s --profile surveys: exit %d, %s", argv[0], code, errs)
		}
	}
	bad := ownList(t, map[string]string{"masrl.yaml": "profile: nonesuch\n"})
	if _, errs, code := runCmd(t, "check", "--corpus", bad); code != exitUsage || !strings.Contains(errs, "masrl.yaml:1:10: profile: unknown profile") {
		t.Errorf("profile: nonesuch in masrl.yaml: exit %d, %s", code, errs)
	}
}

// lastLine is the summary line of a check's output.
func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	return s[strings.LastIndex(s, "\n")+1:]
}
