package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/masrl/masrl/trace"
	"github.com/masrl/masrl/trace/partial"
)

// traceMerge is "masrl trace merge": it reads partials (trace stats
// --partial) and prints the report trace stats gives over all their
// traces, or, with --partial, the merged partial, to merge again.
func traceMerge(_ context.Context, args []string, stdout, stderr io.Writer, tio traceIO) int {
	fail := failer(stderr, "trace merge")
	fs := newFlagSet("trace merge", "trace merge [--format text|json] [--partial] PARTIAL|DIR...", stderr)
	format := &formatFlag{value: "text", choices: []string{"text", "json"}}
	fs.Var(format, "format", "output `format` of the report: text or json")
	asPartial := fs.Bool("partial", false, "write the merged partial instead of the report, to merge it again later")
	files, code, ok := parseInterspersed(fs, args)
	if !ok {
		return code
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "masrl trace merge: no partials (use - for standard input)")
		fs.Usage()
		return exitUsage
	}
	if *asPartial && flagSet(fs, "format") {
		return fail(exitUsage, "--partial writes a partial, not a report: leave out --format")
	}
	names, err := partialFiles(files, tio)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	// Every partial is read and checked and every refusal reported; if
	// any is refused, nothing is printed: a bad shard is named, never
	// silently left out of the figures.
	var total *partial.Partial
	first, failed := "", false
	for _, name := range names {
		p, err := readPartialFile(name, tio)
		if err != nil {
			fmt.Fprintf(stderr, "masrl trace merge: %v\n", err)
			failed = true
			continue
		}
		if total == nil {
			total, first = p, name
			continue
		}
		if err := total.Merge(p); err != nil {
			fmt.Fprintf(stderr, "masrl trace merge: %s: /sketch: %v (%s's); partials merge only with the same sketch parameters\n", displayName(name), err, displayName(first))
			failed = true
		}
	}
	if failed {
		return exitUsage
	}
	if *asPartial {
		b, err := total.MarshalJSON()
		if err == nil {
			_, err = fmt.Fprintf(stdout, "%s\n", b)
		}
		if err != nil {
			return fail(exitUsage, "%v", err)
		}
		return exitOK
	}
	traces, invalid := total.Traces(), total.Invalid()
	if traces+invalid == 0 {
		return fail(exitUsage, "no traces")
	}
	sum := total.Summary()
	if format.value == "json" {
		err = writeJSON(stdout, statsSummaryJSON{Invalid: invalid, Summary: sum})
	} else {
		err = writeSummaryText(stdout, sum, invalid)
	}
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	if invalid > 0 {
		return fail(exitFindings, "%d of %s have errors and are left out of the figures above", invalid, count(traces+invalid, "trace"))
	}
	return exitOK
}

// partialFiles expands the arguments: a directory stands for the .json
// files below it, in lexical order.
func partialFiles(args []string, tio traceIO) ([]string, error) {
	var out []string
	for _, a := range args {
		if a == "-" {
			out = append(out, a)
			continue
		}
		files, isDir, err := tio.dir(a)
		if err != nil {
			return nil, err
		}
		if !isDir {
			out = append(out, a)
			continue
		}
		n := len(out)
		for _, f := range files {
			if strings.HasSuffix(strings.ToLower(f), ".json") {
				out = append(out, f)
			}
		}
		if len(out) == n {
			return nil, fmt.Errorf("%s: no .json files below it", a)
		}
	}
	return out, nil
}

// readPartialFile reads one partial; its errors start with the file's
// name, then the line and column or the JSON Pointer at fault.
func readPartialFile(name string, tio traceIO) (*partial.Partial, error) {
	var r io.Reader = tio.stdin
	if name != "-" {
		f, err := tio.open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	p, err := partial.Read(r)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", displayName(name), prefixColon(err))
	}
	return p, nil
}

// prefixColon makes "FILE:" + err read "FILE:1:2: ..." for a positioned
// error and "FILE: /ptr: ..." otherwise.
func prefixColon(err error) error {
	var pe *partial.Error
	if errors.As(err, &pe) && pe.Line > 0 {
		return err
	}
	return fmt.Errorf(" %w", err)
}

// flagSet reports whether the flag called name was given.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// statsOutputs are the outputs trace stats writes besides its report: the
// partial (--partial), which replaces the report, and each trace's
// findings as JSON Lines (--findings-jsonl), written as the traces come.
type statsOutputs struct {
	partial  *partial.Partial
	file     *os.File
	findings *bufio.Writer
	name     string
	err      error
}

// openStatsOutputs checks the flags and creates the findings file.
func openStatsOutputs(fs *flag.FlagSet, asPartial bool, findingsTo string, stderr io.Writer) (*statsOutputs, int, bool) {
	out := &statsOutputs{}
	if asPartial {
		if flagSet(fs, "format") {
			fmt.Fprintln(stderr, "masrl trace stats: --partial writes a partial, not a report: leave out --format")
			return nil, exitUsage, false
		}
		out.partial = partial.New()
	}
	switch findingsTo {
	case "":
	case "-":
		fmt.Fprintln(stderr, "masrl trace stats: --findings-jsonl -: standard output holds the report or the partial; name a file")
		return nil, exitUsage, false
	default:
		f, err := os.Create(findingsTo)
		if err != nil {
			fmt.Fprintf(stderr, "masrl trace stats: --findings-jsonl: %v\n", err)
			return nil, exitUsage, false
		}
		out.file, out.findings, out.name = f, bufio.NewWriterSize(f, 64<<10), findingsTo
	}
	return out, 0, true
}

// add records one trace: in the partial, and its findings (or the error
// that kept it from being read) as one line of the findings file.
func (o *statsOutputs) add(r *trace.BatchResult) {
	if o.partial != nil && r.Err == nil {
		if r.Result.Valid() {
			o.partial.Add(&r.Result.Report)
		} else {
			o.partial.AddInvalid()
		}
	}
	if o.findings == nil || o.err != nil || (r.Err == nil && len(r.Result.Findings) == 0) {
		return
	}
	fr := jsonFileReport{File: displayName(r.File), Line: r.Line, TraceID: r.TraceID(), Findings: []trace.Finding{}}
	if r.Err != nil {
		fr.Error = r.Err.Error()
	} else {
		fr.Valid = r.Result.Valid()
		fr.Errors, fr.Warnings, fr.Omitted = r.Result.Errors, r.Result.Warnings, r.Result.Omitted
		for _, f := range r.Result.Findings {
			f.Line, f.Col = r.Where(f)
			fr.Findings = append(fr.Findings, f)
		}
	}
	b, err := json.Marshal(fr)
	if err == nil {
		b = append(b, '\n')
		_, err = o.findings.Write(b)
	}
	o.err = err
}

// finish writes the partial to stdout, unless an input could not be read
// (a partial that silently lacks a file's traces would merge as if it
// were whole), and flushes the findings file.
func (o *statsOutputs) finish(stdout io.Writer, complete bool) error {
	if o.findings != nil {
		if err := o.findings.Flush(); o.err == nil {
			o.err = err
		}
		if err := o.file.Close(); o.err == nil {
			o.err = err
		}
		o.file = nil
		if o.err != nil {
			return fmt.Errorf("--findings-jsonl %s: %w", o.name, o.err)
		}
	}
	if o.partial == nil || !complete {
		return nil
	}
	b, err := o.partial.MarshalJSON()
	if err == nil {
		_, err = fmt.Fprintf(stdout, "%s\n", b)
	}
	return err
}

// close closes the findings file if finish did not.
func (o *statsOutputs) close() {
	if o.file != nil {
		o.file.Close()
	}
}
