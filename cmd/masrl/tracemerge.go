package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/masrl/masrl/trace"
	"github.com/masrl/masrl/trace/partial"
)

// traceMerge is "masrl trace merge": it reads partials (trace stats
// --partial) and prints the report trace stats gives over all their
// traces, or, with --partial, the merged partial, to merge again.
func traceMerge(_ context.Context, args []string, stdout, stderr io.Writer, in trace.BatchInput) int {
	fail := failer(stderr, "trace merge")
	fs := newFlagSet("trace merge", "trace merge [--format text|json] [--partial] PARTIAL|DIR...", stderr)
	format := &formatFlag{value: "text", choices: []string{"text", "json"}}
	fs.Var(format, "format", "output `format` of the report: text or json")
	asPartial := fs.Bool("partial", false, "write the merged partial instead of the report, to merge it again later")
	files, code, ok := parseInterspersed(fs, args)
	switch {
	case !ok:
		return code
	case len(files) == 0:
		fmt.Fprintln(stderr, "masrl trace merge: no partials (use - for standard input)")
		fs.Usage()
		return exitUsage
	case *asPartial && flagSet(fs, "format"):
		return fail(exitUsage, "--partial writes a partial, not a report: leave out --format")
	}
	total, errs := partial.MergeFiles(files, in)
	for _, err := range errs {
		fail(exitUsage, "%v", err)
	}
	switch {
	case len(errs) > 0:
		return exitUsage
	case *asPartial:
		if err := total.Write(stdout); err != nil {
			return fail(exitUsage, "%v", err)
		}
		return exitOK
	case total.Traces()+total.Invalid() == 0:
		return fail(exitUsage, "no traces")
	}
	if err := total.WriteReport(stdout, format.value); err != nil {
		return fail(exitUsage, "%v", err)
	}
	if total.Invalid() > 0 {
		return fail(exitFindings, "%s", total.LeftOut())
	}
	return exitOK
}

// flagSet reports whether the flag called name was given.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
