package main

import (
	"context"
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
	format := &trace.Format{Value: "text", Choices: []string{"text", "json"}}
	fs.Var(format, "format", "output `format` of the report: text or json")
	asPartial := fs.Bool("partial", false, "write the merged partial instead of the report, to merge it again later")
	files, code, ok := parseFiles(fs, args, "no partials (use - for standard input)")
	switch {
	case !ok:
		return code
	case *asPartial && format.Given:
		return fail(exitUsage, "--partial writes a partial, not a report: leave out --format")
	}
	total, errs := partial.MergeFiles(files, in)
	for _, err := range errs {
		fail(exitUsage, "%v", err)
	}
	var err error
	switch {
	case len(errs) > 0:
		return exitUsage
	case *asPartial:
		err = total.Write(stdout)
	case total.Traces()+total.Invalid() == 0:
		return fail(exitUsage, "no traces")
	default:
		err = total.WriteReport(stdout, format.Value)
	}
	switch {
	case err != nil:
		return fail(exitUsage, "%v", err)
	case !*asPartial && total.Invalid() > 0:
		return fail(exitFindings, "%s", total.LeftOut())
	}
	return exitOK
}
