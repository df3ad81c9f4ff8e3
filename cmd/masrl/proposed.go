package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/masrl/masrl/corpus"
)

// editFailed reports an edit of the corpus that failed (corpus.Edit,
// corpus.Apply) and returns the exit code: a refusal prints the check of
// the corpus as the edit would have left it (RefusedError.WriteCheck)
// and then refused's sentence (exit 1); an edit left half done says so
// alone, since a file did change; any other failure is fail's (exit 2).
// refused is nil for an edit that is not judged (fmt).
func editFailed(stderr io.Writer, name string, fail func(code int, format string, args ...any) int, err error, refused func(*corpus.RefusedError) string) int {
	var r *corpus.RefusedError
	switch {
	case refused != nil && errors.As(err, &r):
		r.WriteCheck(stderr)
		return fail(exitFindings, "%s", refused(r))
	case errors.As(err, new(*corpus.HalfAppliedError)):
		return failer(stderr, name)(exitUsage, "%v", err)
	}
	return fail(exitUsage, "%v", err)
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
	done, found, err := corpus.Recover(*dir)
	for _, n := range done {
		fmt.Fprintf(stdout, "replaced %s\n", filepath.Join(*dir, n))
	}
	if err != nil {
		return failer(stderr, "recover")(exitUsage, "%v", err)
	}
	if !found {
		fmt.Fprintf(stdout, "%s: no interrupted edit to complete\n", *dir)
	} else {
		fmt.Fprintf(stdout, "%s: the interrupted edit is complete\n", *dir)
	}
	return exitOK
}
