package intake_test

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/internal/corpustest"
	"github.com/masrl/masrl/upkeep/intake"
	"github.com/masrl/masrl/upkeep/intake/intaketest"
)

// addCorpus copies testdata/add-corpus (papers.csv and excluded.csv of
// the survey's vocabulary, without papers.bib) into a new directory.
func addCorpus(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "add-corpus"))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// addTo runs Add on the corpus of dir with the answers on a terminal and
// the recorded arXiv answers, and returns the addition, what the
// dialogue said and the error.
func addTo(t *testing.T, dir string, r intake.Request, answers string, interactive bool) (*intake.Addition, string, error) {
	t.Helper()
	s := intaketest.New("testdata")
	t.Cleanup(s.Close)
	d, err := corpus.LoadData(data.Dir(""), "", dir)
	if err != nil {
		t.Fatal(err)
	}
	client := &intake.Client{ArxivAPI: s.ArxivAPI}
	var out bytes.Buffer
	a, err := client.Add(context.Background(), dir, d, r, intake.Dialogue{In: strings.NewReader(answers), Out: &out, Interactive: interactive})
	return a, out.String(), err
}

// rowOf loads the corpus of dir with the addition's files in place of
// its own and returns the new entry.
func rowOf(t *testing.T, dir string, a *intake.Addition) *corpus.Entry {
	t.Helper()
	if err := corpus.WriteFiles(dir, a.Changes); err != nil {
		t.Fatal(err)
	}
	c, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	e := c.Entry(a.Draft.Key)
	if e == nil {
		t.Fatalf("no entry %s in the addition's papers.csv", a.Draft.Key)
	}
	return e
}

// TestAddAsks drives Add's questions as a person on a terminal would
// answer them: by number, by value, a typo (asked again), then the
// one-liner; a tag given is not asked, and nothing is written.
func TestAddAsks(t *testing.T) {
	dir := addCorpus(t)
	before := corpustest.ReadTree(t, dir)
	answers := strings.Join([]string{
		"1",           // category: rl_method
		"yes",         // is_rl
		"sharred",     // reward_type: a typo, asked again
		"shared",      // reward_type
		"6",           // credit_granularity: message
		"centralized", // orchestration_form
		"supporting",  // is_core
		"partial",     // verified
		"",            // one_liner: empty, asked again
		"Learns a message router",
	}, "\n") + "\n"
	a, said, err := addTo(t, dir, intake.Request{ID: "2606.01234", Tags: []string{"scenario=coding"}}, answers, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"OrchestraRL", // the paper found, before the questions
		"key orchestrarl",
		"Category (category): The kind of source an entry is.",
		"1. rl_method",
		"Survey", // a value's definition mentions it
		`"sharred" is not a value of reward_type; did you mean "shared"?`,
		"one_liner: A one-line summary",
	} {
		if !strings.Contains(said, want) {
			t.Errorf("the dialogue lacks %q:\n%s", want, said)
		}
	}
	if strings.Contains(said, "Scenario (scenario)") {
		t.Errorf("asked for scenario, which the request gave")
	}
	if after := corpustest.ReadTree(t, dir); !maps.Equal(before, after) {
		t.Fatal("Add wrote the corpus")
	}
	e := rowOf(t, dir, a)
	var got []string
	for _, f := range []string{"category", "is_rl", "reward_type", "credit_granularity", "orchestration_form", "scenario", "is_core", "verified", "one_liner"} {
		got = append(got, e.Value(f))
	}
	want := []string{"rl_method", "yes", "shared", "message", "centralized", "coding", "supporting", "partial", "Learns a message router"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("tags %v, want %v", got, want)
	}
}

// TestAddInputEnds: answers that stop early are an error, and so is a
// missing value off a terminal, which names the flags to give.
func TestAddInputEnds(t *testing.T) {
	dir := addCorpus(t)
	if _, _, err := addTo(t, dir, intake.Request{ID: "2606.01234"}, "1\n", true); err == nil || !strings.Contains(err.Error(), "input ended") || intake.Refused(err) {
		t.Errorf("answers that end early: %v; want 'input ended', not a refusal", err)
	}
	_, _, err := addTo(t, dir, intake.Request{ID: "2606.01234", Tags: []string{"category=rl_method"}}, "", false)
	if err == nil || !strings.Contains(err.Error(), "missing (not on a terminal, so not asked):") || !strings.Contains(err.Error(), "--tag is_rl=VALUE, one of: ") || !strings.Contains(err.Error(), "--one-liner TEXT") || strings.Contains(err.Error(), "--tag category=") {
		t.Errorf("off a terminal: %v; want the missing flags, is_rl and --one-liner and not category", err)
	}
}

// TestAddRefuses: a bad tag is a FlagErrors with every value; a paper
// the corpus holds, by id or once its title is known, is a refusal
// (intake.Refused) that names the record, and so is a key in use.
func TestAddRefuses(t *testing.T) {
	dir := addCorpus(t)
	_, _, err := addTo(t, dir, intake.Request{ID: "2606.01234", Tags: []string{"category=nope", "colour=red"}}, "", false)
	var fe *intake.FlagErrors
	if !errors.As(err, &fe) || fe.Flag != "--tag" || len(fe.Errs) != 2 || err.Error() != "2 bad --tag flags" {
		t.Errorf("bad tags: %v (%+v), want FlagErrors for --tag with both", err, fe)
	}
	c, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	held := c.Papers[0]
	_, _, err = addTo(t, dir, intake.Request{ID: held.ArxivID}, "", false)
	var dup *intake.DuplicateError
	if held.ArxivID == "" || !errors.As(err, &dup) || !intake.Refused(err) || !strings.HasPrefix(err.Error(), held.ArxivID+" is already in the corpus:\n  ") {
		t.Errorf("an id the corpus holds (%q): %v, want a DuplicateError before the network", held.ArxivID, err)
	}
	_, _, err = addTo(t, dir, intake.Request{ID: "2606.01234", Key: held.Key}, "", false)
	if !errors.Is(err, intake.ErrKeyTaken) || !intake.Refused(err) || !strings.HasSuffix(err.Error(), "; choose another with --key") {
		t.Errorf("a key in use: %v, want ErrKeyTaken, a refusal", err)
	}
	if _, _, err = addTo(t, dir, intake.Request{ID: "not an id"}, "", false); err == nil || intake.Refused(err) {
		t.Errorf("not an id: %v, want an error that is not a refusal", err)
	}
}

// TestAddAsksSeveralValues drives the question for a multi-valued,
// nested field (testdata/lists/agents' topic): its values are shown
// under their parents, one line takes several by number or value
// separated by ';' or ',', a typo among them asks the whole line again
// with the nearest value, and the cell is written in canonical order.
func TestAddAsksSeveralValues(t *testing.T) {
	dir := corpustest.CopyList(t, "agents")
	answers := strings.Join([]string{
		"memroy, software", // a typo: the line is asked again
		" ; ",              // no value: asked again
		"software; 4, 1, memory",
		"method", // the list asks for no one-liner
	}, "\n") + "\n"
	a, said, err := addTo(t, dir, intake.Request{ID: "2606.01234"}, answers, true)
	if err != nil {
		t.Fatalf("%v\n%s", err, said)
	}
	for _, want := range []string{
		"topic [1-11 or value; several separated by ; or ,]: ",
		`"memroy" is not a value of topic; did you mean "memory"?`,
		"topic needs at least one value",
		"   8.     software ", // under role-play, under multi-agent
		"kind [1-3 or value]: ",
	} {
		if !strings.Contains(said, want) {
			t.Errorf("the questions lack %q:\n%s", want, said)
		}
	}
	e := rowOf(t, dir, a)
	if got, want := e.Value("topic"), "planning; memory; software"; got != want {
		t.Errorf("topic %q, want %q (vocabulary order, memory once)", got, want)
	}
	if got := e.Value("kind"); got != "method" {
		t.Errorf("kind %q, want method", got)
	}
}

// TestWriteAdded: after the edit, masrl add says what it added, the
// check of the corpus with it (the standing warnings of other entries
// left out) and the diff.
func TestWriteAdded(t *testing.T) {
	dir := addCorpus(t)
	a, _, err := addTo(t, dir, intake.Request{ID: "2606.01234", OneLiner: "Learns a message router", Tags: []string{
		"category=rl_method", "is_rl=yes", "reward_type=shared", "credit_granularity=message", "orchestration_form=centralized",
		"scenario=coding", "is_core=supporting", "verified=partial"}}, "", false)
	if err != nil {
		t.Fatal(err)
	}
	p, err := corpus.Edit(a.Standing, a.Changes, corpus.EditOptions{Claims: true, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	a.WriteAdded(&b, p)
	var diff strings.Builder
	p.WriteDiff(&diff)
	got := b.String()
	if !strings.HasPrefix(got, "added "+a.Draft.Key+" to papers.csv and "+a.Draft.BibKey+" to papers.bib\n\n") || !strings.HasSuffix(got, diff.String()) {
		t.Errorf("WriteAdded:\n%s", got)
	}
	rep := p.After.Report(p.Dir, true)
	var concerning []string
	for _, d := range a.Concerning(rep.Diagnostics) {
		concerning = append(concerning, d.String())
	}
	for _, d := range rep.Diagnostics {
		if mine := slices.Contains(concerning, d.String()); strings.Contains(got, d.String()) != mine {
			t.Errorf("finding %s: printed %v, concerns the entry %v", d, !mine, mine)
		}
	}
}
