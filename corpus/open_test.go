package corpus

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"
	"unsafe"

	"github.com/masrl/masrl/data"
)

var openToday = time.Date(2026, 5, 5, 0, 0, 0, 0, time.UTC)

// TestOpen checks that Open sees what loading and checking by hand sees:
// the same findings, the embedded vocabulary, claims and pool.
func TestOpen(t *testing.T) {
	ck, err := OpenWith("testdata/base", nil, data.SurveyProfile, CheckOptions{Today: openToday})
	if err != nil {
		t.Fatal(err)
	}
	c, err := Load("testdata/base")
	if err != nil {
		t.Fatal(err)
	}
	v, err := DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	want := Check(c, v, CheckOptions{Today: openToday})
	if got := ck.Diagnostics(); !slices.EqualFunc(got, want, func(a, b Diagnostic) bool { return a.String() == b.String() }) {
		t.Errorf("Open's findings differ from Load and Check:\n%v\nwant\n%v", got, want)
	}
	if len(ck.Corpus.Papers) != len(c.Papers) || ck.Pool == nil || ck.Claims.Pool != ck.Pool || ck.FS != fs.FS(data.FS) {
		t.Errorf("Open: %d papers (want %d), pool %v, data %v: want the embedded data with the survey's pool", len(ck.Corpus.Papers), len(c.Papers), ck.Pool, ck.FS)
	}
	for _, d := range ck.Warnings() {
		if d.Severity == Error {
			t.Errorf("Warnings holds an error: %v", d)
		}
	}
	if (ck.Err() != nil) != (want.Count(Error) > 0) {
		t.Errorf("Err = %v with %d errors", ck.Err(), want.Count(Error))
	}
}

// TestOpenData checks that the data directory given to Open drives the
// check: a vocabulary without the value "shared" makes alpha's row wrong.
func TestOpenData(t *testing.T) {
	b, err := fs.ReadFile(data.FS, "vocab.yaml")
	if err != nil {
		t.Fatal(err)
	}
	vocab := strings.Replace(string(b), "- value: shared\n", "- value: shared-team\n", 1)
	if vocab == string(b) {
		t.Fatal("vocab.yaml has no value shared to rename")
	}
	dfs := data.Overlay(fstest.MapFS{"vocab.yaml": {Data: []byte(vocab)}, "claims.yaml": {Data: []byte("claims: []\n")}}, data.FS)
	ck, err := OpenWith("testdata/base", dfs, data.SurveyProfile, CheckOptions{Today: openToday})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range ck.Diagnostics() {
		found = found || d.Severity == Error && d.Field == "reward_type" && d.Value == "shared"
	}
	if !found {
		t.Errorf("the data directory's vocabulary was not used: no error for reward_type shared in\n%v", ck.Diagnostics())
	}
	if ck.Pool != nil {
		t.Errorf("claims naming no pool gave pool %v", ck.Pool)
	}
}

func TestOpenErrors(t *testing.T) {
	if _, err := Open(t.TempDir(), nil, ""); err == nil {
		t.Error("Open of a directory without papers.csv: no error")
	}
	bad := data.Overlay(fstest.MapFS{"vocab.yaml": {Data: []byte("fields: [{name: x}]\n")}}, data.FS)
	if _, err := Open("testdata/base", bad, ""); err == nil || !strings.Contains(err.Error(), "vocab.yaml") {
		t.Errorf("Open with a broken vocabulary: %v, want an error naming vocab.yaml", err)
	}
}

// TestOpenProfile: without a profile a list gets nothing of the survey's
// (no claims, pool or survey) unless it keeps a claims.yaml of its own,
// which is then read from its directory and named there in positions;
// an unknown profile is an error naming the known ones.
func TestOpenProfile(t *testing.T) {
	ck, err := OpenWith("testdata/base", nil, "", CheckOptions{Today: openToday})
	if err != nil {
		t.Fatal(err)
	}
	if ck.Claims != nil || ck.Pool != nil || ck.Survey != nil || ck.ListTitle() != "" || ck.Profile != "" {
		t.Errorf("no profile: claims %v, pool %v, survey %v, title %q", ck.Claims, ck.Pool, ck.Survey, ck.ListTitle())
	}
	sv, err := OpenWith("testdata/base", nil, data.SurveyProfile, CheckOptions{Today: openToday})
	if err != nil {
		t.Fatal(err)
	}
	if sv.Claims == nil || sv.Survey == nil || sv.ListTitle() == "" {
		t.Error("the survey profile: want the embedded claims, survey and list title")
	}

	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/base")); err != nil {
		t.Fatal(err)
	}
	own := "claims:\n  - {id: total/retained, kind: total, of: retained, expect: 99, description: rows, source: README}\n"
	if err := os.WriteFile(filepath.Join(dir, ListClaimsFile), []byte(own), 0o644); err != nil {
		t.Fatal(err)
	}
	ck, err = Open(dir, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if ck.Claims == nil || len(ck.Claims.Claims) != 1 || ck.Survey != nil {
		t.Fatalf("own claims.yaml: claims %v, survey %v", ck.Claims, ck.Survey)
	}
	res := VerifyClaims(ck.Corpus, ck.Vocabulary, ck.Claims)
	ds := ClaimDiagnostics(res)
	if len(ds) != 1 || ds[0].Severity != Error || ds[0].Pos.File != filepath.Join(dir, ListClaimsFile) || ds[0].Pos.Line != 2 {
		t.Errorf("own failing claim: %v, want one error at %s:2", ds, filepath.Join(dir, ListClaimsFile))
	}

	if err := os.WriteFile(filepath.Join(dir, ListClaimsFile), []byte("claims: [oops\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, nil, ""); err == nil || !strings.Contains(err.Error(), ListClaimsFile) {
		t.Errorf("broken claims.yaml: %v, want an error naming it", err)
	}
	if _, err := Open("testdata/base", nil, "surveys"); err == nil || !strings.Contains(err.Error(), `unknown profile "surveys"; masrl knows survey`) {
		t.Errorf("unknown profile: %v", err)
	}
}

// TestReopenEqualsOpen edits a corpus at random, as a contributor does
// while masrl serve runs, and holds each Reopen from the previous result
// to a fresh OpenWith: the same rows, BibTeX entries, matches and
// findings. papers.bib is edited one step in four, so that both its reuse
// and its parsing afresh are exercised; the test fails unless both are.
func TestReopenEqualsOpen(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{}
	for _, name := range []string{PapersFile, ExcludedFile, BibFile, SpotcheckFile} {
		b, err := os.ReadFile(filepath.Join("testdata", "base", name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = b
	}
	write := func() {
		for name, b := range files {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	write()
	rng := rand.New(rand.NewPCG(23, 6))
	pieces := []string{",", "\"", "\n", " ", "x", "é", "\xff", "{", "}", "@", ";", "2027", "arXiv:2508.04652", "-"}
	edit := func(b []byte) []byte {
		i := rng.IntN(len(b) + 1)
		switch rng.IntN(3) {
		case 0:
			return slices.Insert(slices.Clone(b), i, []byte(pieces[rng.IntN(len(pieces))])...)
		case 1:
			if i < len(b) {
				return slices.Delete(slices.Clone(b), i, i+1)
			}
		}
		// A byte replaced: the same length, other content.
		b = slices.Clone(b)
		if len(b) == 0 {
			return []byte("x")
		}
		if i == len(b) {
			i--
		}
		b[i] = "x{,\"@0"[rng.IntN(6)] ^ b[i]&1
		return b
	}
	// Without a profile: the survey's claims, parsed on every open, would
	// be most of the test's time and are not what Reopen reuses.
	opt := CheckOptions{Today: openToday}
	prev, err := OpenWith(dir, nil, "", opt)
	if err != nil {
		t.Fatal(err)
	}
	reused, parsed := 0, 0
	for step := range 120 {
		if len(files[PapersFile]) > 4000 { // start over before the edits pile up
			b, _ := os.ReadFile(filepath.Join("testdata", "base", PapersFile))
			files[PapersFile] = b
		}
		files[PapersFile] = edit(files[PapersFile])
		if step%4 == 3 {
			files[BibFile] = edit(files[BibFile])
		}
		write()
		next, err := Reopen(prev, dir, nil, "", opt)
		if err != nil {
			t.Fatal(err)
		}
		// Reopened again at once, while next's check may still index its
		// papers.bib (go test -race watches this): the same result.
		again, err := Reopen(next, dir, nil, "", opt)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := OpenWith(dir, nil, "", opt)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := next.Diagnostics(), fresh.Diagnostics(); !reflect.DeepEqual(got, want) || !reflect.DeepEqual(again.Diagnostics(), want) {
			t.Fatalf("step %d: Reopen's findings differ from Open's:\n%v\nwant\n%v", step, got, want)
		}
		if !reflect.DeepEqual(again.Corpus.Bib, fresh.Corpus.Bib) {
			t.Fatalf("step %d: the second Reopen's BibTeX entries differ from Open's", step)
		}
		a, b := next.Corpus, fresh.Corpus
		if !reflect.DeepEqual(a.Papers, b.Papers) || !reflect.DeepEqual(a.Bib, b.Bib) || !reflect.DeepEqual(a.Excluded, b.Excluded) {
			t.Fatalf("step %d: Reopen's rows or BibTeX entries differ from Open's", step)
		}
		for i := range a.Papers {
			if x, y := a.BibFor(a.Papers[i]), b.BibFor(b.Papers[i]); (x == nil) != (y == nil) || x != nil && x.Pos != y.Pos {
				t.Fatalf("step %d: row %d resolves to %v after Reopen, %v after Open", step, i, x, y)
			}
		}
		if a.HasBib && prev.Corpus.HasBib && unsafe.StringData(a.bibSrc) == unsafe.StringData(prev.Corpus.bibSrc) {
			reused++
		} else {
			parsed++
		}
		prev = next
	}
	if reused == 0 || parsed == 0 {
		t.Errorf("papers.bib reused %d times and parsed %d times in 120 steps: want both", reused, parsed)
	}
}

// TestReopenRowsEqualOpen edits papers.csv the way a contributor does,
// cell by cell and row by row (text with commas, quotes and line breaks,
// rows added, removed and moved, now and then a broken byte), and holds
// each Reopen, which decodes only the records that changed, to a fresh
// OpenWith: the same rows at the same positions, the same findings. It
// fails unless rows were reused both before and after an edit.
func TestReopenRowsEqualOpen(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{ExcludedFile, BibFile, SpotcheckFile} {
		b, err := os.ReadFile(filepath.Join("testdata", "base", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(filepath.Join("testdata", "base", PapersFile))
	if err != nil {
		t.Fatal(err)
	}
	base, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	rows := [][]string{base[0]}
	for i := range 40 {
		r := slices.Clone(base[1+i%(len(base)-1)])
		r[0] = fmt.Sprintf("%s-%d", r[0], i)
		rows = append(rows, r)
	}
	rng := rand.New(rand.NewPCG(23, 7))
	texts := []string{"plain", "with, comma", "a \"quote\"", "two\nlines", "", " padded ", "é", "2508.04652"}
	write := func(broken bool) {
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		w.UseCRLF = rng.IntN(8) == 0
		w.WriteAll(rows)
		out := buf.Bytes()
		if broken {
			out = slices.Insert(out, rng.IntN(len(out)), '"')
		}
		if rng.IntN(3) == 0 {
			out = bytes.TrimSuffix(out, []byte("\n"))
		}
		if err := os.WriteFile(filepath.Join(dir, PapersFile), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(false)
	opt := CheckOptions{Today: openToday}
	prev, err := Reopen(nil, dir, nil, "", opt)
	if err != nil {
		t.Fatal(err)
	}
	before, after := 0, 0
	for step := range 300 {
		i := 1 + rng.IntN(len(rows)-1)
		if rng.IntN(4) == 0 {
			i = len(rows) - 1 // the last record may end without a newline
		}
		switch rng.IntN(7) {
		case 6: // text added to a cell: the old text is a prefix of the new
			rows[i] = slices.Clone(rows[i])
			rows[i][len(rows[i])-1-rng.IntN(2)] += texts[rng.IntN(len(texts))]
		case 0:
			rows = slices.Insert(rows, i, slices.Clone(rows[i]))
		case 1:
			if len(rows) > 3 {
				rows = slices.Delete(rows, i, i+1)
			}
		case 2:
			j := 1 + rng.IntN(len(rows)-1)
			rows[i], rows[j] = rows[j], rows[i]
		default:
			rows[i] = slices.Clone(rows[i])
			rows[i][rng.IntN(len(rows[i]))] = texts[rng.IntN(len(texts))]
		}
		write(rng.IntN(10) == 0)
		next, err := Reopen(prev, dir, nil, "", opt)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := OpenWith(dir, nil, "", opt)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := next.Diagnostics(), fresh.Diagnostics(); !reflect.DeepEqual(got, want) {
			t.Fatalf("step %d: Reopen's findings differ from Open's:\n%v\nwant\n%v", step, got, want)
		}
		a, f := next.Corpus.Papers, fresh.Corpus.Papers
		if len(a) != len(f) {
			t.Fatalf("step %d: %d rows after Reopen, %d after Open", step, len(a), len(f))
		}
		for r := range a {
			if !reflect.DeepEqual(a[r], f[r]) || a[r].Pos("title") != f[r].Pos("title") {
				t.Fatalf("step %d: row %d after Reopen\n%+v\nafter Open\n%+v", step, r, a[r], f[r])
			}
		}
		if p := prev.Corpus.Papers; len(a) > 0 && len(p) > 0 {
			if unsafe.SliceData(a[0].fields) == unsafe.SliceData(p[0].fields) {
				before++
			}
			if unsafe.SliceData(a[len(a)-1].fields) == unsafe.SliceData(p[len(p)-1].fields) {
				after++
			}
		}
		prev = next
	}
	if before == 0 || after == 0 {
		t.Errorf("rows reused before an edit %d times and after one %d times in 300 steps: want both", before, after)
	}
	t.Logf("rows reused before an edit %d times, after one %d times", before, after)
}

// TestReopenEdges holds Reopen to OpenWith on the edits at the edges of
// row reuse: text added to a last record that ended without a newline
// (the old text is then a prefix of the new, yet that record changed), a
// row added at the end, the header changed, the file emptied.
func TestReopenEdges(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "base", PapersFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	last := strings.Replace(lines[1], "alpha,", "omega,", 1)
	last = last[:strings.LastIndexByte(strings.TrimSuffix(last, "\n"), ',')+1] + "plain"
	base := string(b) + last
	for _, tt := range []struct{ name, before, after string }{
		{"text added to an unterminated last record", base, base + " more\n"},
		{"newline added after an unterminated last record", base, base + "\n"},
		{"a row added after an unterminated last record", base, base + "\n" + strings.Replace(last, "omega", "psi", 1)},
		{"a row added at the end", string(b), string(b) + last + "\n"},
		{"the last row removed", base, string(b)},
		{"the header changed", base, strings.Replace(base, "title", "titel", 1)},
		{"emptied", base, ""},
		{"unchanged", base, base},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, PapersFile)
			if err := os.WriteFile(path, []byte(tt.before), 0o644); err != nil {
				t.Fatal(err)
			}
			opt := CheckOptions{Today: openToday}
			prev, err := Reopen(nil, dir, nil, "", opt)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(tt.after), 0o644); err != nil {
				t.Fatal(err)
			}
			next, err := Reopen(prev, dir, nil, "", opt)
			if err != nil {
				t.Fatal(err)
			}
			fresh, err := OpenWith(dir, nil, "", opt)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := next.Diagnostics(), fresh.Diagnostics(); !reflect.DeepEqual(got, want) {
				t.Errorf("findings after Reopen:\n%v\nafter Open:\n%v", got, want)
			}
			if !reflect.DeepEqual(next.Corpus.Papers, fresh.Corpus.Papers) {
				t.Errorf("rows after Reopen:\n%+v\nafter Open:\n%+v", next.Corpus.Papers, fresh.Corpus.Papers)
			}
		})
	}
}

// TestNeedPapers: a directory without papers.csv is refused with the
// flag that names the corpus directory and its default; one with it is
// accepted.
func TestNeedPapers(t *testing.T) {
	dir := t.TempDir()
	want := fmt.Sprintf("no papers.csv in %s: point --corpus at the corpus directory (the one holding papers.csv; default \"corpus\")", dir)
	if err := NeedPapers(dir); err == nil || err.Error() != want {
		t.Fatalf("NeedPapers(empty) = %v, want %s", err, want)
	}
	if err := os.WriteFile(filepath.Join(dir, PapersFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := NeedPapers(dir); err != nil {
		t.Fatalf("NeedPapers with papers.csv: %v", err)
	}
}
