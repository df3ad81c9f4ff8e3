package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

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
	// Files and flags may come in any order: parse up to each file.
	var files []string
	for {
		if code, ok := parseFlags(fs, args); !ok {
			return code
		}
		if fs.NArg() == 0 {
			break
		}
		files, args = append(files, fs.Arg(0)), fs.Args()[1:]
	}
	if len(files) == 0 || (*out != "" && *into != "") || (*out == "" && *into == "" && !*dryRun) {
		fs.Usage()
		return exitUsage
	}
	var r importer.Result
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintf(stderr, "masrl import: %v\n", err)
			return exitUsage
		}
		if err := r.Read(name, src, importer.Options{TagField: *tagField}); err != nil {
			fmt.Fprintf(stderr, "masrl import: %v\n", err)
			return exitFindings
		}
	}
	if *into != "" {
		r.Report(stdout)
		return importInto(*into, &r, *dryRun, stdout, stderr)
	}
	dir := *out
	if dir == "" {
		dir = "."
	}
	// The files first: they give entries under no heading their value,
	// which the report counts.
	list, err := r.Files(nil)
	r.Report(stdout)
	if err == nil {
		err = importer.Check(dir, list)
	}
	if err != nil {
		fmt.Fprintf(stderr, "masrl import: %v\nmasrl import: nothing was written\n", err)
		return exitFindings
	}
	if *dryRun {
		names := slices.Sorted(func(yield func(string) bool) {
			for n := range list {
				if !yield(n) {
					return
				}
			}
		})
		for _, n := range names {
			fmt.Fprintf(stdout, "--- %s\n%s", n, list[n])
		}
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

// importInto merges the entries into the list in dir through the path
// masrl add takes: the new papers.csv and papers.bib are proposed
// (corpus.Propose), checked, and written all or none (Apply) only when
// the check is no worse. Entries already in the list, and entries the
// list's vocabulary cannot hold, are reported and left out.
func importInto(dir string, r *importer.Result, dryRun bool, stdout, stderr io.Writer) int {
	fail := func(code int, format string, args ...any) int {
		fmt.Fprintf(stderr, "masrl import: "+format+"\nmasrl import: no file was changed\n", args...)
		return code
	}
	if err := corpus.Interrupted(dir); err != nil {
		return fail(exitUsage, "%v", err)
	}
	d, err := corpus.LoadData(nil, "", dir)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	c, err := corpus.Load(dir)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	papers, err := corpus.ReadFile(dir, corpus.PapersFile)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	bib, err := corpus.ReadFile(dir, corpus.BibFile)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fail(exitUsage, "%v", err)
	}
	m, err := r.Merge(c, d.Vocabulary, papers, bib)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	m.Report(stdout)
	left := len(r.Problems) + len(m.Duplicates) + len(m.Problems)
	if len(m.Added) == 0 {
		fmt.Fprintln(stdout, "nothing to add")
		return importExit(left)
	}
	pc, err := checkProposed(dir, corpus.StartCheck(c, d, corpus.CheckOptions{}), m.Changes, true)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	if pc.Worse() {
		writeCheckReport(stderr, "text", pc.After)
		return fail(exitFindings, "the import is refused: the list with it fails the check")
	}
	diff := pc.Proposal.Diff()
	diff.Old, diff.New = "before", "after"
	if dryRun {
		io.WriteString(stdout, "\n"+diffMarkdown(&diff, len(c.Papers), len(pc.Proposal.After.Corpus.Papers)))
		return importExit(left)
	}
	if err := pc.Proposal.Apply(applyOptions(stderr)); err != nil {
		if half := (*corpus.HalfAppliedError)(nil); errors.As(err, &half) {
			fmt.Fprintf(stderr, "masrl import: %v\n", err)
			return exitUsage
		}
		return fail(exitUsage, "%v", err)
	}
	fmt.Fprintf(stdout, "added %d entries to %s and %s\n\n", len(m.Added), corpus.PapersFile, corpus.BibFile)
	io.WriteString(stdout, diffMarkdown(&diff, len(c.Papers), len(pc.Proposal.After.Corpus.Papers)))
	return importExit(left)
}
