package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/upkeep/importer"
)

func importCommand() command {
	return command{summary: "make a new list from an awesome README, a BibTeX file or a CSL JSON export", run: runImport}
}

// runImport is masrl import: it reads each FILE (its format detected
// from its content), reports every item it could not read, checks the
// new list in memory and writes it into --out, all files or none, or
// merges it into the list --into names (importInto). Exit 1: items were
// left out, or nothing could be read, or the merged list fails the
// check; 2: usage, or an --out that is not empty.
func runImport(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("import", "import FILE... --out DIR | --into DIR [--dry-run] [--tag-field FIELD]", stderr)
	out := fs.String("out", "", "the new list's `directory` (missing or empty)")
	into := fs.String("into", "", "merge into the list in `directory` instead, as masrl add does (duplicates reported, not added)")
	dryRun := fs.Bool("dry-run", false, "print the report and the files that would be written; write nothing")
	tagField := fs.String("tag-field", "", "the BibTeX field or CSL variable whose values become tags (default keywords; CSL tags and keyword)")
	// Files and flags may come in any order.
	files, code, ok := parseFiles(fs, args, "")
	if !ok {
		return code
	}
	if len(files) == 0 || (*out != "" && *into != "") || (*out == "" && *into == "" && !*dryRun) {
		fs.Usage()
		return exitUsage
	}
	r, err := importer.ReadSources(files, importer.Options{TagField: *tagField})
	if err != nil {
		fmt.Fprintf(stderr, "masrl import: %v\n", err)
		if errors.As(err, new(*os.PathError)) {
			return exitUsage
		}
		return exitFindings
	}
	if *into != "" {
		r.Report(stdout)
		return importInto(*into, r, *dryRun, stdout, stderr)
	}
	dir := cmp.Or(*out, ".")
	// The files first: they give entries under no heading their value,
	// which the report counts.
	list, err := r.NewList(dir)
	r.Report(stdout)
	if err != nil {
		fmt.Fprintf(stderr, "masrl import: %v\nmasrl import: nothing was written\n", err)
		return exitFindings
	}
	if *dryRun {
		importer.WriteListing(stdout, list)
		return importExit(len(r.Problems))
	}
	if err := importer.WriteNew(dir, list); err != nil {
		fmt.Fprintf(stderr, "masrl import: %v\nmasrl import: nothing was written\n", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "wrote %s: papers.csv, papers.bib, vocab.yaml, masrl.yaml\n", dir)
	return importExit(len(r.Problems))
}

// importExit is 1 when items were left out: the list was written, but not
// all of the source is in it.
func importExit(problems int) int {
	if problems > 0 {
		return exitFindings
	}
	return 0
}

// importInto merges the entries into the list in dir (importer's Into)
// through the edit masrl add makes (corpus.Edit): checked, and written
// all or none only when the check is no worse. Entries already in the
// list, and entries the list's vocabulary cannot hold, are reported and
// left out.
func importInto(dir string, r *importer.Result, dryRun bool, stdout, stderr io.Writer) int {
	fail := editFailer(stderr, "import")
	m, standing, err := r.Into(dir)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	m.Report(stdout)
	left := len(r.Problems) + len(m.Duplicates) + len(m.Problems)
	if len(m.Added) == 0 {
		fmt.Fprintln(stdout, "nothing to add")
		return importExit(left)
	}
	p, err := corpus.Edit(standing, m.Changes, corpus.EditOptions{Claims: true, DryRun: dryRun, Apply: applyOptions(stderr)})
	if err != nil {
		return editFailed(stderr, "import", fail, err, func(*corpus.RefusedError) string {
			return "the import is refused: the list with it fails the check"
		})
	}
	if !dryRun {
		fmt.Fprintf(stdout, "added %d entries to %s and %s\n", len(m.Added), corpus.PapersFile, corpus.BibFile)
	}
	p.WriteDiff(stdout)
	return importExit(left)
}
