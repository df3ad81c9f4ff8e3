package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/upkeep/intake/intaketest"
)

// TestAddAsks drives masrl add's questions as a person on a terminal
// would answer them: by number, by value, a typo (asked again), then the
// one-liner.
func TestAddAsks(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"papers.csv", "excluded.csv"} {
		b, err := os.ReadFile(filepath.Join("testdata", "corpus-new", f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	s := intaketest.New(filepath.Join("..", "..", "upkeep", "intake", "testdata"))
	defer s.Close()
	answers := strings.Join([]string{
		"1",           // category: rl_method
		"yes",         // is_rl
		"sharred",     // reward_type: a typo, asked again
		"shared",      // reward_type
		"6",           // credit_granularity: message
		"centralized", // orchestration_form
		"coding",      // scenario
		"supporting",  // is_core
		"partial",     // verified
		"",            // one_liner: empty, asked again
		"Learns a message router",
	}, "\n") + "\n"
	var out, errb bytes.Buffer
	o := addOptions{dir: dir, id: "2606.01234", stdin: strings.NewReader(answers), interactive: true}
	o.client.ArxivAPI = s.ArxivAPI
	o.tags = []string{"scenario=coding"} // given: not asked
	code := addPaper(context.Background(), o, &out, &errb)
	if code != exitOK {
		t.Errorf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{
		"Category (category): The kind of source an entry is.",
		"1. rl_method",
		"Survey", // a value's definition mentions it
		`"sharred" is not a value of reward_type; did you mean "shared"?`,
		"one_liner: A one-line summary",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the questions lack %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "Scenario (scenario)") {
		t.Errorf("asked for scenario, which --tag gave")
	}
	c, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	e := c.Entry("orchestrarl")
	if e == nil {
		t.Fatalf("no entry written (exit %d): %s", code, errb.String())
	}
	var got []string
	for _, f := range []string{"category", "is_rl", "reward_type", "credit_granularity", "orchestration_form", "scenario", "is_core", "verified", "one_liner"} {
		got = append(got, e.Value(f))
	}
	want := []string{"rl_method", "yes", "shared", "message", "centralized", "coding", "supporting", "partial", "Learns a message router"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("tags %v, want %v", got, want)
	}
}

// TestAddInputEnds: answers that stop early leave the files unchanged.
func TestAddInputEnds(t *testing.T) {
	dir := t.TempDir()
	b, _ := os.ReadFile(filepath.Join("testdata", "corpus-new", "papers.csv"))
	os.WriteFile(filepath.Join(dir, "papers.csv"), b, 0o644)
	s := intaketest.New(filepath.Join("..", "..", "upkeep", "intake", "testdata"))
	defer s.Close()
	var out, errb bytes.Buffer
	o := addOptions{dir: dir, id: "2606.01234", stdin: strings.NewReader("1\n"), interactive: true}
	o.client.ArxivAPI = s.ArxivAPI
	if code := addPaper(context.Background(), o, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "input ended") {
		t.Errorf("exit %d, stderr %q; want 2 and 'input ended'", code, errb.String())
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "papers.csv")); !bytes.Equal(after, b) {
		t.Error("papers.csv changed")
	}
	if _, err := os.Stat(filepath.Join(dir, "papers.bib")); err == nil {
		t.Error("papers.bib written")
	}
}

// TestAddAsksSeveralValues drives the question for a multi-valued,
// nested field (testdata/lists/agents' topic): its values are shown
// under their parents, one line takes several by number or value
// separated by ';' or ',', a typo among them asks the whole line again
// with the nearest value, and the cell is written in canonical order.
func TestAddAsksSeveralValues(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "corpus")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "testdata", "lists", "agents", "corpus"))); err != nil {
		t.Fatal(err)
	}
	s := intaketest.New(filepath.Join("..", "..", "upkeep", "intake", "testdata"))
	defer s.Close()
	answers := strings.Join([]string{
		"memroy, software", // a typo: the line is asked again
		" ; ",              // no value: asked again
		"software; 4, 1, memory",
		"method", // the list asks for no one-liner
	}, "\n") + "\n"
	var out, errb bytes.Buffer
	o := addOptions{dir: dir, id: "2606.01234", stdin: strings.NewReader(answers), interactive: true}
	o.client.ArxivAPI = s.ArxivAPI
	if code := addPaper(context.Background(), o, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s\n%s", code, errb.String(), out.String())
	}
	for _, want := range []string{
		"topic [1-11 or value; several separated by ; or ,]: ",
		`"memroy" is not a value of topic; did you mean "memory"?`,
		"topic needs at least one value",
		"   8.     software ", // under role-play, under multi-agent
		"kind [1-3 or value]: ",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the questions lack %q:\n%s", want, out.String())
		}
	}
	c, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	e := c.Entry("orchestrarl")
	if e == nil {
		t.Fatalf("no entry written:\n%s", out.String())
	}
	if got, want := e.Value("topic"), "planning; memory; software"; got != want {
		t.Errorf("topic %q, want %q (vocabulary order, memory once)", got, want)
	}
	if got := e.Value("kind"); got != "method" {
		t.Errorf("kind %q, want method", got)
	}
}
