package corpus

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"testing"
)

// addFormatSeeds adds the base fixtures and the formatter's own seeds
// (testdata/format) whose name ends in ext.
func addFormatSeeds(f *testing.F, ext string) {
	for _, dir := range []string{"base", "format"} {
		paths, _ := filepath.Glob(filepath.Join("testdata", dir, "*"+ext))
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
}

// FuzzFormatCSV: formatting never panics, a second pass changes nothing,
// and the records survive.
func FuzzFormatCSV(f *testing.F) {
	addFormatSeeds(f, ".csv")
	f.Add([]byte("key\n\"\"\nb\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(b, []byte(utf8BOM))))
		r.FieldsPerRecord = -1
		if _, err := r.ReadAll(); err != nil {
			if out, ferr := FormatCSV("f.csv", b); ferr == nil || !bytes.Equal(out, bytes.TrimPrefix(b, []byte(utf8BOM))) {
				t.Fatalf("unreadable CSV: got %q, %v; want it unchanged and an error", out, ferr)
			}
			return
		}
		once, err := FormatCSV("f.csv", b)
		if err != nil {
			t.Fatal(err)
		}
		checkCSVLossless(t, b, once)
		twice, err := FormatCSV("f.csv", once)
		if err != nil || !bytes.Equal(once, twice) {
			t.Fatalf("not idempotent:\n%q\n%q (%v)", once, twice, err)
		}
	})
}

// FuzzFormatBib: formatting never panics; a file that parses comes out
// parsing to the same entries and comments, and a second pass changes
// nothing; a file that does not parse comes back unchanged with an error.
func FuzzFormatBib(f *testing.F) {
	addFormatSeeds(f, ".bib")
	f.Fuzz(func(t *testing.T, b []byte) {
		once, err := FormatBib("f.bib", b)
		if err != nil {
			return
		}
		checkBibLossless(t, bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")), once)
		twice, err := FormatBib("f.bib", once)
		if err != nil || !bytes.Equal(once, twice) {
			t.Fatalf("not idempotent:\n%q\n%q (%v)", once, twice, err)
		}
	})
}
