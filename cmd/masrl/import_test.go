package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestImportReadme imports each README, BibTeX and CSL JSON fixture with masrl import, then
// checks the list and asserts that masrl readme --standalone lists every
// imported title and code link.
func TestImportReadme(t *testing.T) {
	for _, name := range []string{"bullets.md", "table.md", "flat.md", "unreadable.md", "refs.bib", "zotero.json"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "list")
			var out, errb bytes.Buffer
			code := run(context.Background(), []string{"import", filepath.Join("..", "..", "testdata", "import", name), "--out", dir}, &out, &errb)
			if code != 0 && !(name != "bullets.md" && name != "table.md" && name != "flat.md" && code == 1) {
				t.Fatalf("import: exit %d\n%s%s", code, out.String(), errb.String())
			}
			out.Reset()
			errb.Reset()
			if code := run(context.Background(), []string{"check", "--corpus", dir}, &out, &errb); code != 0 {
				t.Fatalf("check: exit %d\n%s%s", code, out.String(), errb.String())
			}
			out.Reset()
			if code := run(context.Background(), []string{"readme", "--standalone", "--corpus", dir}, &out, &errb); code != 0 {
				t.Fatalf("readme: exit %d\n%s", code, errb.String())
			}
			// Titles are compared as text: the README escapes Markdown punctuation.
			readme := mdEscape.ReplaceAllString(out.String(), "$1")
			f, err := os.Open(filepath.Join(dir, "papers.csv"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			recs, err := csv.NewReader(f).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			col := map[string]int{}
			for i, h := range recs[0] {
				col[h] = i
			}
			for _, rec := range recs[1:] {
				if title := rec[col["title"]]; !strings.Contains(readme, title) {
					t.Errorf("the README lacks the title %q", title)
				}
				if c := rec[col["code"]]; c != "" && !strings.Contains(readme, "("+c+")") {
					t.Errorf("the README lacks the code link %s", c)
				}
			}
		})
	}
}

// mdEscape is a Markdown backslash escape of ASCII punctuation.
var mdEscape = regexp.MustCompile(`\\([!-/:-@\[-` + "`" + `{-~])`)

// TestImportInto merges a README into a list made by import: the entries
// already there (by arXiv id, and by normalised title under another
// link) are reported, not added; an entry under a heading the list does
// not have is reported; the new one is added and the list still checks.
func TestImportInto(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "list")
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"import", "../../testdata/import/table.md", "--out", dir}, &out, &errb); code != 0 {
		t.Fatalf("import --out: exit %d\n%s%s", code, out.String(), errb.String())
	}
	before, err := os.ReadFile(filepath.Join(dir, "papers.csv"))
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := run(context.Background(), []string{"import", "../../testdata/import/more.md", "--into", dir, "--dry-run"}, &out, &errb); code != 1 {
		t.Fatalf("import --into --dry-run: exit %d, want 1 (items left out)\n%s%s", code, out.String(), errb.String())
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "papers.csv")); !bytes.Equal(after, before) {
		t.Fatal("--dry-run changed papers.csv")
	}
	out.Reset()
	code := run(context.Background(), []string{"import", "../../testdata/import/more.md", "--into", dir}, &out, &errb)
	if code != 1 {
		t.Fatalf("import --into: exit %d, want 1\n%s%s", code, out.String(), errb.String())
	}
	for _, want := range []string{
		"1 entries to add, 2 already in the list, 1 the list cannot hold",
		`more.md:5: "GNNExplainer: Generating Explanations for Graph Neural Networks" is already in the list`,
		`more.md:6: "Parameterized explainer for graph neural network" is already in the list`,
		`more.md:11: "XGNN: Towards Model-Level Explanations of Graph Neural Networks" has no value the list's topic knows (filed under "Generation"`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
	papers, _ := os.ReadFile(filepath.Join(dir, "papers.csv"))
	if n := bytes.Count(papers, []byte("\n")); n != 6 || !bytes.Contains(papers, []byte("CF-GNNExplainer")) {
		t.Errorf("papers.csv after the merge (%d lines):\n%s", n, papers)
	}
	out.Reset()
	if code := run(context.Background(), []string{"check", "--corpus", dir}, &out, &errb); code != 0 {
		t.Fatalf("check after --into: exit %d\n%s%s", code, out.String(), errb.String())
	}
}

// TestImportOutNotEmpty: --out refuses a directory that holds files,
// and writes nothing there.
func TestImportOutNotEmpty(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"import", "../../testdata/import/flat.md", "--out", dir}, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "is not empty") {
		t.Fatalf("exit %d, want 2 and a refusal:\n%s", code, errb.String())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d files in the directory, want the one it held", len(ents))
	}
}
