package corpus

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// baseCorpus is a copy of testdata/base, a corpus without findings.
func baseCorpus(t *testing.T) string {
	t.Helper()
	return corpusFromArchive(t, &txtar.Archive{})
}

// dirState is every file of dir with its content (links as "-> target"):
// what an edit that writes nothing leaves equal.
func dirState(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if e.Type()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			out[e.Name()] = "-> " + target
			continue
		}
		b, _ := os.ReadFile(p)
		out[e.Name()] = string(b)
	}
	return out
}

// TestLoadRefusesLinksOut: a corpus file that is a symbolic link leading
// out of the corpus directory is never read: papers.csv is an error, each
// other file an error finding at its own name, and what the link points
// at appears nowhere. A link to a file inside the corpus is followed.
func TestLoadRefusesLinksOut(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "environ")
	if err := os.WriteFile(secret, []byte("key,title\nSECRET_TOKEN=hunter2,x\n@misc{SECRET_TOKEN, title={hunter2}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{PapersFile, ExcludedFile, BibFile, SpotcheckFile} {
		for _, target := range []string{secret, "../" + filepath.Base(filepath.Dir(secret)) + "/environ", "/proc/self/environ"} {
			t.Run(name+" to "+target, func(t *testing.T) {
				dir := baseCorpus(t)
				path := filepath.Join(dir, name)
				os.Remove(path)
				if err := os.Symlink(target, path); err != nil {
					t.Fatal(err)
				}
				c, err := Load(dir)
				if name == PapersFile {
					var esc *EscapeError
					if !errors.As(err, &esc) || esc.Path != path || !strings.Contains(err.Error(), "leads out of the corpus directory") {
						t.Fatalf("Load with %s linked out: %v, want an *EscapeError at %s", name, err, path)
					}
					if strings.Contains(err.Error(), "hunter2") {
						t.Fatalf("the error shows the link's target's content: %v", err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				ds := Check(c, mustVocabulary(t), CheckOptions{Today: checkDay})
				var found bool
				for _, d := range ds {
					if strings.Contains(d.String(), "hunter2") || strings.Contains(d.String(), "SECRET_TOKEN") {
						t.Errorf("a finding shows the link's target's content: %s", d)
					}
					if d.Severity == Error && d.Pos.File == path && strings.Contains(d.Message, "symbolic link to "+target+" that leads out of the corpus directory") {
						found = true
					}
				}
				if !found {
					t.Errorf("no error finding at %s; findings:\n%s", path, ds)
				}
			})
		}
	}
	t.Run("a link inside the corpus", func(t *testing.T) {
		dir := baseCorpus(t)
		if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(filepath.Join(dir, BibFile), filepath.Join(dir, "sub", BibFile)); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join("sub", BibFile), filepath.Join(dir, BibFile)); err != nil {
			t.Fatal(err)
		}
		c, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		if ds := Check(c, mustVocabulary(t), CheckOptions{Today: checkDay}); len(ds) > 0 || !c.HasBib {
			t.Fatalf("a papers.bib linked inside the corpus: HasBib %v, findings:\n%s", c.HasBib, ds)
		}
	})
	t.Run("vocab.yaml and claims.yaml", func(t *testing.T) {
		for _, name := range []string{VocabFile, ListClaimsFile} {
			dir := baseCorpus(t)
			path := filepath.Join(dir, name)
			if err := os.Symlink(secret, path); err != nil {
				t.Fatal(err)
			}
			var err error
			if name == VocabFile {
				_, err = ListVocabulary(dir)
			} else {
				_, err = LoadListClaims(dir, mustVocabulary(t))
			}
			var esc *EscapeError
			if !errors.As(err, &esc) || esc.Path != path {
				t.Errorf("%s linked out: %v, want an *EscapeError at %s", name, err, path)
			}
		}
	})
}

// TestProposeNamesRealFiles: a proposed edit is checked without writing
// anything, and its findings name the corpus's own files, messages that
// point at another row included.
func TestProposeNamesRealFiles(t *testing.T) {
	dir := baseCorpus(t)
	before := dirState(t, dir)
	ck, err := OpenWith(dir, nil, "", CheckOptions{Today: checkDay})
	if err != nil {
		t.Fatal(err)
	}
	papers, err := os.ReadFile(filepath.Join(dir, PapersFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(papers), "\n")
	dup := append(slices.Clone(lines[:len(lines)-1]), lines[1]) // the first row again
	p, err := Propose(ck, map[string][]byte{PapersFile: []byte(strings.Join(dup, ""))})
	if err != nil {
		t.Fatal(err)
	}
	if n := p.Before.Diagnostics().Count(Error); n != 0 {
		t.Fatalf("the base corpus has %d errors", n)
	}
	ds := p.After.Diagnostics()
	if ds.Count(Error) == 0 {
		t.Fatal("a duplicated row is not an error of the proposal")
	}
	wantFile := filepath.Join(dir, PapersFile)
	for _, d := range ds {
		if d.Pos.File != wantFile {
			t.Errorf("finding at %q, want %q: %s", d.Pos.File, wantFile, d)
		}
		if strings.Contains(d.Message, os.TempDir()) && !strings.Contains(d.Message, dir) {
			t.Errorf("finding names another directory: %s", d)
		}
	}
	if d := p.Diff(); len(d.Added)+len(d.Removed)+len(d.Changed) == 0 && len(p.After.Corpus.Papers) == len(ck.Corpus.Papers) {
		t.Errorf("the proposal's corpus has the old rows: %d", len(p.After.Corpus.Papers))
	}
	if after := dirState(t, dir); !maps.Equal(before, after) {
		t.Fatal("Propose changed the corpus directory")
	}
	if _, err := Propose(ck, map[string][]byte{"../papers.csv": nil}); err == nil {
		t.Fatal("Propose accepted a file outside the corpus")
	}
}

// errStop stands for the process dying at a step of Apply.
var errStop = errors.New("stopped")

// applyStoppedAt runs Apply and stops it at step, as a kill would: no
// deferred clean-up of Apply's own runs after the journal is written
// that would not run after a kill either (its temporary files are kept
// once the edit is decided).
func applyStoppedAt(t *testing.T, dir string, changes map[string][]byte, step string) {
	t.Helper()
	defer func() {
		if r := recover(); r != errStop {
			t.Fatalf("Apply did not stop at %q: %v", step, r)
		}
	}()
	Apply(dir, changes, ApplyOptions{Pause: func(s string) {
		if s == step {
			panic(errStop)
		}
	}})
}

// TestApplyInterruptedAndRecovered: an Apply stopped between its two
// renames leaves the journal, which Load reports as an error at its path
// and Apply refuses; Recover completes the edit and Load is clean again.
func TestApplyInterruptedAndRecovered(t *testing.T) {
	dir := baseCorpus(t)
	v := mustVocabulary(t)
	bib, _ := os.ReadFile(filepath.Join(dir, BibFile))
	papers, _ := os.ReadFile(filepath.Join(dir, PapersFile))
	// Each file gets a change of its own that the check does not mind: a
	// comment in papers.bib, a header line ending in CRLF in papers.csv.
	changes := map[string][]byte{
		BibFile:    append(slices.Clone(bib), "\n% edited\n"...),
		PapersFile: []byte(strings.Replace(string(papers), "\n", "\r\n", 1)),
	}
	applyStoppedAt(t, dir, changes, "renamed "+BibFile)

	if b, _ := os.ReadFile(filepath.Join(dir, BibFile)); string(b) != string(changes[BibFile]) {
		t.Fatal("papers.bib was not replaced before the stop")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, PapersFile)); string(b) != string(papers) {
		t.Fatal("papers.csv was replaced before the stop")
	}
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	journal := filepath.Join(dir, JournalFile)
	ds := Check(c, v, CheckOptions{Today: checkDay})
	if ds.Count(Error) != 1 || ds[0].Pos.File != journal || !strings.Contains(ds[0].Message, "masrl recover --corpus "+dir) {
		t.Fatalf("the interrupted corpus's findings:\n%s\nwant one error at %s naming masrl recover", ds, journal)
	}
	var ie *InterruptedError
	if err := Apply(dir, map[string][]byte{ExcludedFile: []byte("x")}, ApplyOptions{}); !errors.As(err, &ie) {
		t.Fatalf("Apply on the interrupted corpus: %v, want an *InterruptedError", err)
	}
	if err := Interrupted(dir); !errors.As(err, &ie) {
		t.Fatalf("Interrupted: %v", err)
	}
	done, found, err := Recover(dir)
	if err != nil || !found || !slices.Equal(done, []string{PapersFile}) {
		t.Fatalf("Recover: %v, %v, %v; want [papers.csv], true, nil", done, found, err)
	}
	for name, want := range changes {
		if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != string(want) {
			t.Errorf("%s after Recover is not the edit's", name)
		}
	}
	for name := range dirState(t, dir) {
		if strings.HasPrefix(name, ".masrl-edit") {
			t.Errorf("%s left after Recover", name)
		}
	}
	if _, found, err := Recover(dir); found || err != nil {
		t.Fatalf("a second Recover: %v, %v", found, err)
	}

	// Stopped before the journal: nothing changed, and the next Apply works.
	dir2 := baseCorpus(t)
	before := dirState(t, dir2)
	applyStoppedAt(t, dir2, changes, "staged")
	for name, content := range before {
		if b, _ := os.ReadFile(filepath.Join(dir2, name)); string(b) != content {
			t.Errorf("%s changed by an edit stopped before its journal", name)
		}
	}
	if err := Apply(dir2, changes, ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
}

// TestRecoverRefusesForeignJournals: a journal is untrusted (a pull
// request can commit one). One that is not exactly what Apply writes, or
// that does not describe the files, is an error naming it, and Recover
// then writes nothing, inside the corpus or out of it.
func TestRecoverRefusesForeignJournals(t *testing.T) {
	const temp = ".masrl-edit.papers.csv.0123456789abcdef.tmp"
	newContent := "key,title\nevil,Evil\n"
	newHash := hashHex([]byte(newContent))
	outside := filepath.Join(t.TempDir(), "outside.txt")
	if err := os.WriteFile(outside, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, journal, want string
		setup               func(t *testing.T, dir string)
	}{
		{"wrong header", "masrl edit journal 2\npapers.csv " + temp + " absent " + newHash + " 0644\nend\n", "want the header", nil},
		{"no end", journalHeader + "\npapers.csv " + temp + " absent " + newHash + " 0644\n", `want "end"`, nil},
		{"target outside", journalHeader + "\n../outside.txt " + temp + " absent " + newHash + " 0644\nend\n", "is not a file an edit may change", nil},
		{"absolute target", journalHeader + "\n" + outside + " " + temp + " absent " + newHash + " 0644\nend\n", "is not a file an edit may change", nil},
		{"target not editable", journalHeader + "\nvocab.yaml " + temp + " absent " + newHash + " 0644\nend\n", "is not a file an edit may change", nil},
		{"temp outside", journalHeader + "\npapers.csv ../outside.txt absent " + newHash + " 0644\nend\n", "is not a temporary file of papers.csv", nil},
		{"temp of another file", journalHeader + "\npapers.csv .masrl-edit.papers.bib.0123456789abcdef.tmp absent " + newHash + " 0644\nend\n", "is not a temporary file of papers.csv", nil},
		{"bad mode", journalHeader + "\npapers.csv " + temp + " absent " + newHash + " 4777\nend\n", "mode", nil},
		{"twice", journalHeader + "\npapers.csv " + temp + " absent " + newHash + " 0644\npapers.csv " + temp + " absent " + newHash + " 0644\nend\n", "named twice", nil},
		{"old content not the file's", journalHeader + "\npapers.csv " + temp + " absent " + newHash + " 0644\nend\n", "changed since the interrupted edit",
			func(t *testing.T, dir string) { os.WriteFile(filepath.Join(dir, temp), []byte(newContent), 0o644) }},
		{"temp with other content", "", "differs from the journal", nil},
		{"temp a link out", "", "differs from the journal",
			func(t *testing.T, dir string) { os.Symlink(outside, filepath.Join(dir, temp)) }},
		{"journal a link", "", "not a journal masrl wrote",
			func(t *testing.T, dir string) {
				os.WriteFile(outside+".journal", []byte(journalHeader+"\n"), 0o644)
				os.Symlink(outside+".journal", filepath.Join(dir, JournalFile))
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := baseCorpus(t)
			journal := tc.journal
			if journal == "" && tc.name != "journal a link" {
				old, _ := os.ReadFile(filepath.Join(dir, PapersFile))
				journal = journalHeader + "\npapers.csv " + temp + " " + hashHex(old) + " " + newHash + " 0644\nend\n"
				if tc.setup == nil {
					os.WriteFile(filepath.Join(dir, temp), []byte("key,title\nother,Other\n"), 0o644)
				}
			}
			if journal != "" {
				if err := os.WriteFile(filepath.Join(dir, JournalFile), []byte(journal), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			before := dirState(t, dir)
			_, _, err := Recover(dir)
			if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, JournalFile)) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Recover: %v, want an error naming the journal and %q", err, tc.want)
			}
			if after := dirState(t, dir); !maps.Equal(before, after) {
				t.Errorf("Recover of a foreign journal changed the corpus directory")
			}
			if b, _ := os.ReadFile(outside); string(b) != "keep\n" {
				t.Errorf("Recover wrote outside the corpus")
			}
		})
	}
}

// TestFoldersLinkedOut: a folder of the corpus that links out of it
// (history/, releases/) is refused at its own name when a file in it is
// read, and CheckInside says so before a reader walks it.
func TestFoldersLinkedOut(t *testing.T) {
	dir := baseCorpus(t)
	outside := t.TempDir()
	b, _ := os.ReadFile(filepath.Join(dir, PapersFile))
	if err := os.WriteFile(filepath.Join(outside, "2026-01-01.csv"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, folder := range []string{"history", "releases"} {
		if err := os.Symlink(outside, filepath.Join(dir, folder)); err != nil {
			t.Fatal(err)
		}
	}
	want := filepath.Join(dir, "history")
	var esc *EscapeError
	if _, err := LoadPapersIn(dir, "history/2026-01-01.csv"); !errors.As(err, &esc) || esc.Path != want {
		t.Errorf("LoadPapersIn through a history link out: %v, want an *EscapeError at %s", err, want)
	}
	if err := CheckInside(dir, "releases"); !errors.As(err, &esc) || esc.Path != filepath.Join(dir, "releases") {
		t.Errorf("CheckInside(releases linked out): %v", err)
	}
	if err := CheckInside(dir, "nothing/here"); err != nil {
		t.Errorf("CheckInside of a missing path: %v", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "inside"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "inside", "a.csv"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if c, err := LoadPapersIn(dir, "inside/a.csv"); err != nil || len(c.Papers) == 0 {
		t.Errorf("LoadPapersIn of a file inside: %v", err)
	}
}

// FuzzParseJournal: a journal is untrusted (a pull request can commit
// one); parsing never panics, and an accepted one names only editable
// files and Apply's own temporary names, each target once.
func FuzzParseJournal(f *testing.F) {
	h := strings.Repeat("a", 64)
	f.Add(journalHeader + "\npapers.csv .masrl-edit.papers.csv.0123456789abcdef.tmp absent " + h + " 0644\nend\n")
	f.Add(journalHeader + "\npapers.bib .masrl-edit.papers.bib.0123456789abcdef.tmp " + h + " " + h + " 0600\npapers.csv .masrl-edit.papers.csv.0123456789abcdef.tmp absent " + h + " 0644\nend\n")
	f.Add(journalHeader + "\n../x .masrl-edit.x.0123456789abcdef.tmp absent " + h + " 0644\nend\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		es, err := parseJournal("j", []byte(s))
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, e := range es {
			if !slices.Contains(EditableFiles(), e.name) || seen[e.name] || !tempRE.MatchString(e.temp) || strings.ContainsAny(e.temp, "/\\") || e.mode > 0o777 {
				t.Fatalf("accepted %+v from %q", e, s)
			}
			seen[e.name] = true
		}
	})
}
