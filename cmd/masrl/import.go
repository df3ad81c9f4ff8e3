package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/masrl/masrl/upkeep/importer"
)

func importCommand() command {
	return command{summary: "make a new list from an awesome README, a BibTeX file or a CSL JSON export", run: runImport}
}

// runImport is masrl import: it reads each FILE (its format detected
// from its content), reports every item it could not read, checks the
// new list in memory and writes it into --out, all files or none. Exit
// 1: items were left out or nothing could be read; 2: usage, or an
// --out that is not empty.
func runImport(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("import", "import FILE... --out DIR [--dry-run] [--tag-field FIELD]", stderr)
	out := fs.String("out", "", "the new list's `directory` (missing or empty)")
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
	if len(files) == 0 || (*out == "" && !*dryRun) {
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
	r.Report(stdout)
	dir := *out
	if dir == "" {
		dir = "."
	}
	list, err := r.Files(nil)
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
