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
