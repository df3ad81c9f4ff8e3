package main

import (
	"context"
	"fmt"
	"io"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/upkeep/intake"
)

func issueFormCommand() command {
	return command{summary: "write (or --check) the suggest-a-paper issue form from the vocabulary", run: runIssueForm}
}

// runIssueForm prints the GitHub issue form generated from the vocab.yaml
// beside the papers.csv of --corpus (data/vocab.yaml when there is none,
// as in masrl's own repository), writes it to FILE, or with --check exits
// 1 when FILE differs from it; --check without FILE checks the form where
// masrl init puts it and GitHub reads it (intake.IssueFormFile). --corpus
// defaults to corpus, as in every command, so that a list's own form
// follows its own fields.
func runIssueForm(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fail := failer(stderr, "issue-form")
	fs := newFlagSet("issue-form", "issue-form [--check] [--corpus DIR] [FILE] (FILE is usually "+intake.IssueFormFile+", which --check reads when FILE is not given)", stderr)
	check := fs.Bool("check", false, "do not write; exit 1 when FILE is not the generated form")
	dir := fs.String("corpus", corpus.DefaultDir, "a list's corpus `directory`: its vocab.yaml, when it has one, declares the form's fields")
	dataDir := dataFlag(fs)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return exitUsage
	}
	form, err := intake.ListIssueForm(*dir, data.Dir(*dataDir))
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	if fs.NArg() == 0 && !*check {
		stdout.Write(form)
		return exitOK
	}
	file := intake.IssueFormFile
	if fs.NArg() == 1 {
		file = fs.Arg(0)
	}
	stale, err := intake.UpdateIssueForm(file, form, *check)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	if stale {
		fmt.Fprintf(stdout, "%s is stale: run masrl issue-form %s\n", file, file)
		return exitFindings
	}
	return exitOK
}
