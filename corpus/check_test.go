package corpus

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/masrl/masrl/internal/corpustest"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/masrl/masrl/internal/golden"
)

// checkDay fixes "today" so that year and date rules give the same answer
// on every run: the corpus's own date, 2026-05-05.
var checkDay = time.Date(2026, 5, 5, 12, 0, 0, 0, time.UTC)

// TestCheckRules runs one archive per rule under testdata/check. Each
// archive names the files it replaces in the valid base corpus
// (testdata/base) and, in its want section, every finding Check reports.
// Its first line says what the case breaks; a line "remove: FILE..." deletes
// base files.
func TestCheckRules(t *testing.T) {
	v := mustVocabulary(t)
	archives, err := filepath.Glob("testdata/check/*.txtar")
	if err != nil || len(archives) == 0 {
		t.Fatalf("no archives: %v", err)
	}
	for _, path := range archives {
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			dir := corpusFromArchive(t, ar)
			c, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			ds := Check(c, v, CheckOptions{Today: checkDay})
			var b strings.Builder
			for _, d := range ds {
				b.WriteString(d.String())
				b.WriteByte('\n')
			}
			got := strings.ReplaceAll(b.String(), dir+string(filepath.Separator), "")
			for _, d := range ds {
				assertPositionInFile(t, dir, d)
			}
			want := archiveFile(ar, "want")
			if name != "bom_crlf" && got == "" {
				t.Fatalf("rule case %s produced no finding", name)
			}
			if got == want {
				return
			}
			if golden.Update() {
				setArchiveFile(ar, "want", got)
				if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			t.Errorf("findings differ (run go test -update to accept)\ngot:\n%s\nwant:\n%s", got, want)
		})
	}
}

// TestBaseCorpusIsClean guards the fixtures: every rule case starts from a
// corpus with no findings, so each finding comes from the case's change.
func TestBaseCorpusIsClean(t *testing.T) {
	c, err := Load("testdata/base")
	if err != nil {
		t.Fatal(err)
	}
	if ds := Check(c, mustVocabulary(t), CheckOptions{Today: checkDay}); len(ds) != 0 {
		t.Fatalf("base corpus has findings:\n%v", ds)
	}
	if len(c.Papers) != 3 || len(c.Excluded) != 2 || len(c.Bib) != 3 || len(c.Audits) != 1 {
		t.Fatalf("loaded %d papers, %d exclusions, %d bib entries, %d audits", len(c.Papers), len(c.Excluded), len(c.Bib), len(c.Audits))
	}
	if got := c.Papers[2].Notes; got != "notes with a comma, inside" {
		t.Errorf("quoted field with comma: got %q", got)
	}
	if got := c.Papers[1].URLs; len(got) != 2 || got[1] != "https://github.com/example/beta" {
		t.Errorf("split URLs: got %q", got)
	}
	if b := c.BibFor(c.Papers[2]); b == nil || b.Key != "gamma-2026" || b.ArxivID() != "2601.00001" {
		t.Errorf("gamma resolves to bib %+v", b)
	}
}

// TestRealCorpus loads the survey's corpus and requires zero errors.
func TestRealCorpus(t *testing.T) {
	dir := corpustest.Dir(t)
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	ds := Check(c, mustVocabulary(t), CheckOptions{Today: checkDay})
	for _, d := range ds {
		t.Log(d)
	}
	if n := ds.Count(Error); n != 0 {
		t.Fatalf("real corpus: %d errors", n)
	}
	if len(c.Papers) != 84 || len(c.Excluded) != 32 {
		t.Fatalf("real corpus: %d entries, %d exclusions", len(c.Papers), len(c.Excluded))
	}
	for i := range c.Papers {
		if c.BibFor(c.Papers[i]) == nil {
			t.Errorf("%s: no BibTeX entry", c.Papers[i].Key)
		}
	}
}

// TestEveryCellMutation turns each cell of the real corpus, one at a time,
// into an invalid value and requires an error at that cell's exact file,
// line and column, naming the field (and, for a controlled field, every
// allowed value).
func TestEveryCellMutation(t *testing.T) {
	dir := corpustest.Dir(t)
	orig, err := os.ReadFile(filepath.Join(dir, PapersFile))
	if err != nil {
		t.Fatal(err)
	}
	v := mustVocabulary(t)
	base, err := ParsePapers(PapersFile, orig)
	if err != nil {
		t.Fatal(err)
	}
	invalid := map[string]string{
		"key": "Not-A-Slug", "year": "20x5", "arxiv_id": "cs/0101001", "url": "ftp://example.org/x",
	}
	for i := range base.Papers {
		e := base.Papers[i]
		for _, col := range paperColumns() {
			bad, ok := invalid[col]
			f := v.Field(col)
			switch {
			case f != nil:
				bad = "bogus-value"
			case !ok:
				bad = "text with an invalid byte \xff"
			}
			pos := e.Pos(col)
			c, err := ParsePapers(PapersFile, replaceAt(t, orig, pos, e.Value(col), bad))
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, d := range Check(c, v, CheckOptions{Today: checkDay}) {
				if d.Severity == Error && d.Pos == pos && d.Field == col && (f == nil || len(d.Allowed) == len(f.Values)) {
					found = true
				}
			}
			if !found {
				t.Fatalf("%s %s at %s: no error for the invalid value %q", e.Key, col, pos, bad)
			}
		}
	}
}

// replaceAt swaps the field starting at pos in a CSV file for repl, which
// must need no quoting. A quoted field is replaced with its quotes.
func replaceAt(t *testing.T, file []byte, pos Pos, old, repl string) []byte {
	t.Helper()
	off := 0
	for line := 1; line < pos.Line; line++ {
		off += bytes.IndexByte(file[off:], '\n') + 1
	}
	start := off + pos.Col - 1
	end := start + len(old)
	if start < len(file) && file[start] == '"' {
		end = start + 1
		for {
			q := bytes.IndexByte(file[end:], '"')
			if q < 0 {
				t.Fatalf("%s: unterminated quoted field", pos)
			}
			end += q + 1
			if end < len(file) && file[end] == '"' {
				end++
				continue
			}
			break
		}
	} else if !bytes.HasPrefix(file[start:], []byte(old)) {
		t.Fatalf("%s: field does not start with %q", pos, old)
	}
	out := append([]byte(nil), file[:start]...)
	out = append(out, repl...)
	return append(out, file[end:]...)
}

func mustVocabulary(t testing.TB) *Vocabulary {
	v, err := DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// corpusFromArchive copies testdata/base into a temporary directory and
// applies the archive's replacements and removals.
func corpusFromArchive(t *testing.T, ar *txtar.Archive) string {
	dir := t.TempDir()
	base, err := os.ReadDir("testdata/base")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range base {
		b, err := os.ReadFile(filepath.Join("testdata/base", f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for line := range strings.SplitSeq(string(ar.Comment), "\n") {
		if rest, ok := strings.CutPrefix(line, "remove: "); ok {
			for name := range strings.FieldsSeq(rest) {
				if err := os.Remove(filepath.Join(dir, name)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for _, f := range ar.Files {
		if f.Name == "want" {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func archiveFile(ar *txtar.Archive, name string) string {
	for _, f := range ar.Files {
		if f.Name == name {
			return string(f.Data)
		}
	}
	return ""
}

func setArchiveFile(ar *txtar.Archive, name, data string) {
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			ar.Files[i].Data = []byte(data)
			return
		}
	}
	ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(data)})
}

// assertPositionInFile requires a finding's position to lie inside its
// file: the line exists and the column is at most one past its end.
func assertPositionInFile(t testing.TB, dir string, d Diagnostic) {
	t.Helper()
	if d.Pos.Line == 0 {
		return
	}
	b, err := os.ReadFile(d.Pos.File)
	if err != nil {
		t.Fatalf("%s: %v", d, err)
	}
	checkPosition(t, b, d)
}

func checkPosition(t testing.TB, b []byte, d Diagnostic) {
	t.Helper()
	lines := bytes.SplitAfter(b, []byte("\n"))
	if strings.HasSuffix(d.Pos.File, ".csv") && crOnly(b) { // the CSV reader counts the file's own lines, as an editor shows them
		lines = bytes.SplitAfter(b, []byte("\r"))
	}
	if d.Pos.Line < 1 || d.Pos.Line > len(lines) {
		t.Fatalf("%s: line outside the file (%d lines)", d, len(lines))
	}
	if n := len(lines[d.Pos.Line-1]); d.Pos.Col < 0 || d.Pos.Col > n+1 {
		t.Fatalf("%s: column outside line %d (%d bytes)", d, d.Pos.Line, n)
	}
}
