package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/masrl/masrl/corpus"
)

// proposedCheck is the check of a corpus as a command proposes to leave
// it, beside the check of the corpus as it stands.
type proposedCheck struct {
	// Before and After are the two checks; both name the corpus's own
	// files (corpus.Propose reads the new content from memory).
	Before, After checkReport
	// Proposal is the edit, to diff and to apply.
	Proposal *corpus.Proposal
}

// Worse reports whether the proposed corpus has more check errors than
// the corpus had: the one rule refresh --write, watch --apply and add
// refuse a change by.
func (p *proposedCheck) Worse() bool {
	return p.After.Errors > p.Before.Errors
}

// checkProposed checks the corpus of dir as it would be with files (a
// file name in the corpus directory, and its new content) in place of its
// own, without changing dir (corpus.Propose). ck is the corpus as it
// stands, already being checked. The error is for what could not be read.
func checkProposed(dir string, ck *corpus.Checked, files map[string][]byte, withClaims bool) (*proposedCheck, error) {
	before := checkCorpus(dir, ck, withClaims)
	p, err := corpus.Propose(ck, files)
	if err != nil {
		return nil, err
	}
	after := checkCorpus(dir, p.After, withClaims)
	return &proposedCheck{Before: before, After: after, Proposal: p}, nil
}

// editPauseEnv names the environment variable that stops a command that
// writes the corpus at one step of its transaction (corpus.ApplyOptions:
// "staged", "committed", "renamed papers.bib", ..., "done"): the command
// says so on stderr and waits until it is killed. It exists for the test
// that kills masrl add between its two renames (TestAddKilledMidEdit);
// nothing else sets it.
const editPauseEnv = "MASRL_TEST_EDIT_PAUSE"

// applyOptions are the options every command that writes the corpus
// applies its edit with.
func applyOptions(stderr io.Writer) corpus.ApplyOptions {
	at := os.Getenv(editPauseEnv)
	if at == "" {
		return corpus.ApplyOptions{}
	}
	return corpus.ApplyOptions{Pause: func(step string) {
		if step != at {
			return
		}
		fmt.Fprintf(stderr, "masrl: paused at %q (%s)\n", step, editPauseEnv)
		if f, ok := stderr.(*os.File); ok {
			f.Sync()
		}
		for {
			time.Sleep(time.Hour)
		}
	}}
}

func recoverCommand() command {
	return command{summary: "complete an edit of the corpus that was interrupted (a journal left by add, refresh, watch, fmt)", run: runRecover}
}

// runRecover is masrl recover: it completes the interrupted edit of the
// corpus (corpus.Recover) and lists the files it replaced. Exit 0 also
// when there was nothing to do; 2 when the journal cannot be trusted or
// the files no longer match it (then nothing is written).
func runRecover(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("recover", "recover [--corpus DIR]", stderr)
	dir := corpusFlag(fs)
	if code, ok := parseNoArgs(fs, args); !ok {
		return code
	}
	fail := failer(stderr, "recover")
	done, found, err := corpus.Recover(*dir)
	for _, n := range done {
		fmt.Fprintf(stdout, "replaced %s\n", filepath.Join(*dir, n))
	}
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	if !found {
		fmt.Fprintf(stdout, "%s: no interrupted edit to complete\n", *dir)
	} else {
		fmt.Fprintf(stdout, "%s: the interrupted edit is complete\n", *dir)
	}
	return exitOK
}
