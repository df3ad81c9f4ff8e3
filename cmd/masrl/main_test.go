package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/masrl/masrl/internal/corpustest"

	"github.com/masrl/masrl/upkeep/intake/intaketest"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run the masrl binary in-process as "masrl",
// and removes the binary builtMasrl built once the tests are done.
func TestMain(m *testing.M) {
	testscript.Main(removingBuild{m}, map[string]func(){
		"masrl": func() { os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the command-line scripts in testdata/script. $CORPUS is
// the real corpus (corpustest); $DATA the project's data directory.
func TestScripts(t *testing.T) {
	corpusDir := corpustest.Dir(t)
	dataDir, err := filepath.Abs(filepath.Join("..", "..", "data"))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "script"),
		Setup: func(env *testscript.Env) error {
			env.Setenv("CORPUS", corpusDir)
			env.Setenv("DATA", dataDir)
			// masrl add reads recorded arXiv and doi.org answers.
			s := intaketest.New(filepath.Join("..", "..", "upkeep", "intake", "testdata"))
			env.Defer(s.Close)
			env.Setenv("ARXIV_API", s.ArxivAPI)
			env.Setenv("DOI_API", s.DOIAPI)
			env.Setenv("CROSSREF_API", s.CrossrefAPI)
			env.Setenv("OPENALEX_API", s.OpenAlexAPI)
			env.Setenv("S2_API", s.S2API)
			env.Setenv("DOWN_API", intaketest.Unreachable())
			env.Setenv("HTML_API", s.HTMLAPI)
			return nil
		},
		UpdateScripts: os.Getenv("UPDATE_SCRIPTS") != "",
		Cmds:          statsScriptCmds(),
	})
}
