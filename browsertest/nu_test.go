package browsertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/site"
	"github.com/masrl/masrl/upkeep/scaffold"
)

// nuReport is the W3C Nu HTML checker's JSON output.
type nuReport struct {
	Messages []struct {
		Type      string `json:"type"`    // "error", "info" (with subType "warning") or "non-document-error"
		SubType   string `json:"subType"` // "warning", "fatal", ...
		URL       string `json:"url"`
		LastLine  int    `json:"lastLine"`
		FirstCol  int    `json:"firstColumn"`
		Message   string `json:"message"`
		Extract   string `json:"extract"`
		FirstLine int    `json:"firstLine"`
	} `json:"messages"`
}

// TestNuChecker runs the W3C Nu HTML checker (npm vnu-jar, pinned; it needs
// java) on every HTML page of the built site in one run, and fails on any
// error, naming the file, line and column; warnings are logged.
func TestNuChecker(t *testing.T) {
	parallel(t)
	if testing.Short() {
		t.Skip("the Nu checker takes a while; not in -short")
	}
	nuCheck(t, publicDir(t))
}

// TestNuCheckerOwnList runs the checker on the sites of a list of one's
// own (cmd/masrl/testdata/ownlist: no survey profile, papers.csv only),
// without and with claims of its own, of testdata/lists/gnnx (fields of
// its own) and of a list just made by masrl init: the pages' survey-free
// wording, navigation and the list's own fields must be valid HTML too.
func TestNuCheckerOwnList(t *testing.T) {
	parallel(t)
	if testing.Short() {
		t.Skip("the Nu checker takes a while; not in -short")
	}
	src := filepath.Join(repoRoot(t), "cmd", "masrl", "testdata", "ownlist")
	withClaims := t.TempDir()
	if err := os.CopyFS(withClaims, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	claims := "claims:\n  - {id: total/retained, kind: total, of: retained, expect: 5, description: papers in the list, source: README}\n"
	if err := os.WriteFile(filepath.Join(withClaims, corpus.ListClaimsFile), []byte(claims), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for name, dir := range map[string]string{"plain": src, "claims": withClaims} {
		ck, err := corpus.Open(dir, nil, "")
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(root, name)
		if _, err := site.Build(ck, site.Options{Out: out, ECharts: site.DefaultECharts, Config: siteconfig.Config{BaseURL: "https://example.org/own/"}}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := os.Stat(filepath.Join(out, "claims", "index.html")); (err == nil) != (name == "claims") {
			t.Fatalf("%s: claims page present = %v", name, err == nil)
		}
	}
	// And testdata/lists/gnnx: controlled fields of its own (vocab.yaml),
	// a free-text column, no exclusion log.
	if err := os.CopyFS(filepath.Join(root, "gnnx"), os.DirFS(buildOwnList(t))); err != nil {
		t.Fatal(err)
	}
	// And a new list as masrl init makes it, with its masrl.yaml.
	newList := filepath.Join(t.TempDir(), "new-list")
	if err := scaffold.Create(newList, scaffold.Options{Repository: "https://github.com/example/new-list"}); err != nil {
		t.Fatal(err)
	}
	cfg, err := siteconfig.Load(filepath.Join(newList, scaffold.CorpusDir, siteconfig.FileName))
	if err != nil {
		t.Fatal(err)
	}
	ck, err := corpus.Open(filepath.Join(newList, scaffold.CorpusDir), nil, cfg.Profile)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := site.Build(ck, site.Options{Out: filepath.Join(root, "init"), ECharts: site.DefaultECharts, Config: *cfg}); err != nil {
		t.Fatalf("building a new list: %v", err)
	}
	nuCheck(t, root)
}

// buildOwnList builds the example list of one's own, testdata/lists/gnnx
// (its own vocab.yaml, no profile), into a temporary directory.
func buildOwnList(t *testing.T) string {
	t.Helper()
	ck, err := corpus.Open(filepath.Join(repoRoot(t), "testdata", "lists", "gnnx", "corpus"), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := ck.Err(); err != nil {
		t.Fatalf("the example list does not pass the check: %v", err)
	}
	out := t.TempDir()
	if _, err := site.Build(ck, site.Options{Out: out, ECharts: site.DefaultECharts}); err != nil {
		t.Fatalf("building the example list: %v", err)
	}
	return out
}

// nuCheck runs the W3C Nu HTML checker on every HTML page under dir in
// one run and fails on any error, naming the file, line and column;
// warnings are logged.
func nuCheck(t *testing.T, dir string) {
	t.Helper()
	jar := filepath.Join(repoRoot(t), "node_modules", "vnu-jar", "build", "dist", "vnu.jar")
	_, err := os.Stat(jar)
	need(t, err == nil, "vnu-jar not installed: %v (run make node_modules)", err)
	java, err := exec.LookPath("java")
	need(t, err == nil, "java not found: %v (the Nu checker needs it)", err)

	pages := sitePages(t, dir)
	// The JVM compiles with its quick compiler only (C1): a run of a few
	// hundred pages is over before the optimising compiler's work pays
	// off, and skipping it halved the run's CPU (8.6 s to 3.7 s on the
	// survey's 255 pages, the same report byte for byte). C1's frames
	// are larger, so the schema's deep recursion gets a bigger stack
	// than the checker's minimum of 512k (it overflowed the default 1m).
	args := []string{"-Xss16m", "-XX:TieredStopAtLevel=1", "-jar", jar, "--format", "json", "--exit-zero-always"}
	for _, p := range pages {
		args = append(args, filepath.Join(dir, filepath.FromSlash(p)))
	}
	cmd := exec.Command(java, args...)
	var out bytes.Buffer
	cmd.Stderr = &out // vnu writes its JSON report to stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("vnu: %v\n%s", err, out.Bytes())
	}
	var rep nuReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("vnu: decoding its report: %v\n%.2000s", err, out.Bytes())
	}
	var errs, warnings int
	for _, m := range rep.Messages {
		where := fmt.Sprintf("%s:%d:%d", m.URL, m.LastLine, m.FirstCol)
		if rel, err := filepath.Rel(dir, trimFileURL(m.URL)); err == nil {
			where = fmt.Sprintf("%s:%d:%d", rel, m.LastLine, m.FirstCol)
		}
		switch {
		case m.Type == "error" || m.Type == "non-document-error":
			errs++
			t.Errorf("%s: %s (%q)", where, m.Message, m.Extract)
		case m.SubType == "warning":
			warnings++
			t.Logf("warning: %s: %s", where, m.Message)
		}
	}
	t.Logf("Nu HTML checker: %d pages, %d errors, %d warnings", len(pages), errs, warnings)
}

// trimFileURL turns the checker's file: URL back into a path.
func trimFileURL(u string) string {
	if len(u) > len("file:") && u[:len("file:")] == "file:" {
		return u[len("file:"):]
	}
	return u
}
