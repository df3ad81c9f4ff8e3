package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/masrl/masrl/internal/synth"
)

// runCorpus writes a synthetic corpus learned from a real one:
//
//	synth corpus -entries N -exclusions M -out DIR [-from ../shared/corpus] [-seed 1]
func runCorpus(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("corpus", flag.ContinueOnError)
	entries := fs.Int("entries", 84, "number of retained entries (papers.csv rows)")
	exclusions := fs.Int("exclusions", 32, fmt.Sprintf("number of excluded records (excluded.csv rows, at most %d)", synth.MaxExclusions))
	out := fs.String("out", "", "output `directory` (created if needed)")
	from := fs.String("from", "../shared/corpus", "real corpus `directory` whose tag distributions and field lengths are copied")
	seed := fs.Uint64("seed", 1, "random seed; the same seed and inputs give byte-identical files")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() > 0 {
		return errors.New("usage: synth corpus -entries N -exclusions M -out DIR [-from DIR] [-seed S]")
	}
	opt := synth.CorpusOptions{Entries: *entries, Exclusions: *exclusions, Seed: *seed}
	if err := synth.WriteCorpusFrom(*from, *out, opt); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d entries, %d exclusions (seed %d, learned from %s)\n", *out, opt.Entries, opt.Exclusions, opt.Seed, *from)
	return nil
}

// corpusSubcommand adapts runCorpus to the dispatch table: 0 on success,
// 2 for bad usage or a failure.
func corpusSubcommand(_ context.Context, args []string, stdout, stderr io.Writer) int {
	switch err := runCorpus(args, stdout); {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case err != nil:
		fmt.Fprintln(stderr, "synth corpus:", err)
		return 2
	}
	return 0
}
