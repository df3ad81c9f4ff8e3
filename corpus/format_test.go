package corpus

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/masrl/masrl/internal/corpustest"
)

func TestFormatCSV(t *testing.T) {
	in := "\ufeffkey,title,notes\r\n" +
		"zeta,\"Plain\",\"\"\r\n" +
		"\r\n" +
		"alpha,\"A, with comma\",\" leading space\"\r\n" +
		"mid,\"Says \"\"hi\"\"\",\"two\r\nlines\"\r\n" +
		"alpha,second alpha,kept after the first\r\n"
	want := "key,title,notes\n" +
		"alpha,\"A, with comma\",\" leading space\"\n" +
		"alpha,second alpha,kept after the first\n" +
		"mid,\"Says \"\"hi\"\"\",\"two\nlines\"\n" +
		"zeta,Plain,\n"
	got, err := FormatCSV("t.csv", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	checkCSVLossless(t, []byte(in), got)
}

func TestFormatCSVSyntaxError(t *testing.T) {
	in := []byte("key,title\na,\"unclosed\n")
	got, err := FormatCSV("t.csv", in)
	if err == nil || !strings.Contains(err.Error(), "t.csv:2:") || !bytes.Equal(got, in) {
		t.Errorf("got %q, %v; want the input unchanged and an error at t.csv:2", got, err)
	}
}

func TestFormatBib(t *testing.T) {
	in := "% Header comment   \r\n\r\n\r\n% section\n" +
		"@ARTICLE{b2025, Year = 2025, note={n}, TITLE = \"A {GPU}   story\",\n" +
		"   author={Doe, Jane\n   and Roe, R.}, custom = {x}, abstract = {y}, month = jan, title = {dup}}\n" +
		"@string{foo = \"Foo\"}\n" +
		"@misc{c, title = {T}, % inner comment\n  url = {u}}\n" +
		"@misc{d, howpublished = \"a\" # foo # {b}, note = \"odd } { braces\"}trailing text\n"
	want := "% Header comment\n\n% section\n\n" +
		"@article{b2025,\n" +
		"  title    = {A {GPU} story},\n" +
		"  title    = {dup},\n" +
		"  author   = {Doe, Jane and Roe, R.},\n" +
		"  year     = {2025},\n" +
		"  month    = jan,\n" +
		"  note     = {n},\n" +
		"  abstract = {y},\n" +
		"  custom   = {x},\n" +
		"}\n\n" +
		"@string{foo = \"Foo\"}\n\n" +
		"@misc{c, title = {T}, % inner comment\n  url = {u}}\n\n" +
		"@misc{d,\n" +
		"  howpublished = \"a\" # foo # {b},\n" +
		"  note         = \"odd } { braces\",\n" +
		"}\n\n" +
		"trailing text\n"
	got, err := FormatBib("t.bib", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	checkBibLossless(t, []byte(in), got)
	again, _ := FormatBib("t.bib", got)
	if !bytes.Equal(again, got) {
		t.Errorf("not idempotent:\n%s", again)
	}
}

func TestFormatBibSyntaxError(t *testing.T) {
	in := []byte("@article{a, title = {x}\n@misc{b, title = }\n")
	got, err := FormatBib("t.bib", in)
	if err == nil || !strings.Contains(err.Error(), "t.bib:2:") || !bytes.Equal(got, in) {
		t.Errorf("got %q, %v; want the input unchanged and an error at t.bib:2", got, err)
	}
}

// TestFormatRealCorpus formats every file of the real corpus: nothing is
// lost and a second pass changes nothing. It reads the corpus and never
// writes it.
func TestFormatRealCorpus(t *testing.T) {
	dir := corpustest.Dir(t)
	for _, name := range FormatFiles() {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			got, err := Format(name, src)
			if err != nil {
				t.Fatal(err)
			}
			if name == BibFile {
				checkBibLossless(t, src, got)
			} else {
				checkCSVLossless(t, src, got)
			}
			again, err := Format(name, got)
			if err != nil || !bytes.Equal(again, got) {
				t.Errorf("second pass changes the file (err %v)", err)
			}
		})
	}
}

func readRecords(t testing.TB, b []byte) [][]string {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(b, []byte(utf8BOM))))
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatalf("reading %q: %v", b, err)
	}
	return rows
}

// checkCSVLossless: same header, same multiset of records.
func checkCSVLossless(t testing.TB, before, after []byte) {
	t.Helper()
	a, b := readRecords(t, before), readRecords(t, after)
	if len(a) != len(b) {
		t.Fatalf("%d records before, %d after", len(a), len(b))
	}
	if len(a) == 0 {
		return
	}
	if lfLineEnds(strings.Join(a[0], "\x00")) != strings.Join(b[0], "\x00") {
		t.Errorf("header %q became %q", a[0], b[0])
	}
	// Line ends inside values are LF in the canonical form.
	key := func(r []string) string { return lfLineEnds(strings.Join(r, "\x00")) + "\x01" + string(rune(len(r))) }
	ka, kb := make([]string, 0, len(a)), make([]string, 0, len(b))
	for i := 1; i < len(a); i++ {
		ka, kb = append(ka, key(a[i])), append(kb, key(b[i]))
	}
	slices.Sort(ka)
	slices.Sort(kb)
	if !slices.Equal(ka, kb) {
		t.Errorf("records differ:\nbefore %q\nafter  %q", ka, kb)
	}
}

// checkBibLossless: the same entries in the same order with the same
// fields and values, and the same comment lines.
func checkBibLossless(t testing.TB, before, after []byte) {
	t.Helper()
	a, da := parseBib("before", before)
	b, db := parseBib("after", after)
	if da.Count(Error) > 0 || db.Count(Error) > 0 {
		t.Fatalf("parse errors: before %v, after %v", da, db)
	}
	if len(a) != len(b) {
		t.Fatalf("%d entries before, %d after", len(a), len(b))
	}
	for i := range a {
		if a[i].Type != b[i].Type || a[i].Key != b[i].Key || !equalFields(a[i].Fields, b[i].Fields) {
			t.Errorf("entry %d: %s{%s %v} became %s{%s %v}", i, a[i].Type, a[i].Key, a[i].Fields, b[i].Type, b[i].Key, b[i].Fields)
		}
	}
	if ca, cb := commentLines(before), commentLines(after); !slices.Equal(ca, cb) {
		t.Errorf("comments differ:\nbefore %q\nafter  %q", ca, cb)
	}
}

func equalFields(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// commentLines are the characters other than white space of the text
// outside entries (comments, @string blocks), in order: a formatter may
// change the space in it, nothing else.
func commentLines(b []byte) []string {
	entries, _ := parseBib("x", b)
	rest, from := string(b), 0
	for _, e := range entries {
		i := strings.Index(rest[from:], e.Raw)
		if i < 0 {
			return []string{"entry not found: " + e.Key}
		}
		rest = rest[:from+i] + " " + rest[from+i+len(e.Raw):]
		from += i + 1
	}
	return []string{strings.Join(strings.Fields(rest), "")}
}
