package browsertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/site"
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
	if testing.Short() {
		t.Skip("the Nu checker takes a while; not in -short")
	}
	dir := publicDir(t)
	jar := filepath.Join(repoRoot(t), "node_modules", "vnu-jar", "build", "dist", "vnu.jar")
	_, err := os.Stat(jar)
	need(t, err == nil, "vnu-jar not installed: %v (run make node_modules)", err)
	java, err := exec.LookPath("java")
	need(t, err == nil, "java not found: %v (the Nu checker needs it)", err)

	// The survey's site and the site of a list of one's own
	// (testdata/lists/gnnx, with fields of its own), in one run.
	own := buildOwnList(t)
	pages := sitePages(t, dir)
	ownPages := sitePages(t, own)
	args := []string{"-jar", jar, "--format", "json", "--exit-zero-always"}
	for _, p := range pages {
		args = append(args, filepath.Join(dir, filepath.FromSlash(p)))
	}
	for _, p := range ownPages {
		args = append(args, filepath.Join(own, filepath.FromSlash(p)))
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
		if rel, err := filepath.Rel(own, trimFileURL(m.URL)); err == nil && !strings.HasPrefix(rel, "..") {
			where = fmt.Sprintf("own list %s:%d:%d", rel, m.LastLine, m.FirstCol)
		} else if rel, err := filepath.Rel(dir, trimFileURL(m.URL)); err == nil {
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
	t.Logf("Nu HTML checker: %d pages and %d of the list of one's own, %d errors, %d warnings", len(pages), len(ownPages), errs, warnings)
}

// buildOwnList builds the example list of one's own, testdata/lists/gnnx,
// into a temporary directory, as masrl build --data does.
func buildOwnList(t *testing.T) string {
	t.Helper()
	list := filepath.Join(repoRoot(t), "testdata", "lists", "gnnx")
	ck, err := corpus.Open(filepath.Join(list, "corpus"), data.Dir(filepath.Join(list, "data")))
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

// trimFileURL turns the checker's file: URL back into a path.
func trimFileURL(u string) string {
	if len(u) > len("file:") && u[:len("file:")] == "file:" {
		return u[len("file:"):]
	}
	return u
}
