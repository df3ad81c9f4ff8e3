package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// newFlagSet returns a FlagSet for one subcommand that reports errors instead
// of exiting, so that run can map them to exit code 2.
func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: masrl %s\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args into fs. It returns ok=false with the exit code to
// use when parsing ended the command: 0 for -h, 2 for a bad flag.
func parseFlags(fs *flag.FlagSet, args []string) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, false
		}
		return exitUsage, false
	}
	return 0, true
}
