package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/masrl/masrl/trace"
)

// traceIO is where the trace subcommands read files and standard input
// from. Tests substitute both, so that scripts run in-process can name
// files relative to their own directory.
type traceIO struct {
	stdin io.Reader
	open  func(name string) (io.ReadCloser, error)
}

func osTraceIO() traceIO {
	return traceIO{stdin: os.Stdin, open: func(name string) (io.ReadCloser, error) { return os.Open(name) }}
}

// traceMemoryLimit is the soft heap limit of the trace command. A million-
// event trace keeps about 80 MB of columns live; without a limit the
// collector lets the heap grow to twice that before it runs, and the limit
// holds the process near the 128 MB the validator promises, at a few
// percent of CPU. A GOMEMLIMIT in the environment wins.
const traceMemoryLimit = 96 << 20

// runTrace is the "trace" command: it dispatches to validate and stats.
func runTrace(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(traceMemoryLimit)
	}
	return traceMain(ctx, args, stdout, stderr, osTraceIO())
}

func traceMain(ctx context.Context, args []string, stdout, stderr io.Writer, tio traceIO) int {
	const usage = "usage: masrl trace <validate|stats> [flags] FILE...\n\n" +
		"  validate  check traces against the orchestration-trace schema and the graph rules\n" +
		"  stats     report a trace's reporting checklist (survey Table 14) and graph measures\n"
	if len(args) == 0 {
		io.WriteString(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "validate":
		return traceValidate(ctx, args[1:], stdout, stderr, tio)
	case "stats":
		return traceStats(ctx, args[1:], stdout, stderr, tio)
	case "-h", "-help", "--help", "help":
		io.WriteString(stderr, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "masrl trace: unknown subcommand %q\n%s", args[0], usage)
	return exitUsage
}

// parseInterspersed parses flags that may come before or after the file
// arguments ("trace stats FILE --format json"), as the synopsis
// writes them; arguments after "--" are never flags.
func parseInterspersed(fs *flag.FlagSet, args []string) (files []string, code int, ok bool) {
	var rest []string
	for i, a := range args {
		if a == "--" {
			args, rest = args[:i], args[i+1:]
			break
		}
	}
	for {
		if code, ok := parseFlags(fs, args); !ok {
			return nil, code, false
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	return append(files, rest...), 0, true
}

// formatFlag is a --format value restricted to a list of choices.
type formatFlag struct {
	value   string
	choices []string
}

func (f *formatFlag) String() string { return f.value }

func (f *formatFlag) Set(s string) error {
	for _, c := range f.choices {
		if s == c {
			f.value = s
			return nil
		}
	}
	return fmt.Errorf("must be one of %s", strings.Join(f.choices, ", "))
}

// fileResult is the outcome for one input file.
type fileResult struct {
	name string
	res  *trace.Result
	err  error // the file could not be read
}

// validateFiles checks every file, in parallel, and returns the results in
// input order. Standard input ("-") can be named once.
func validateFiles(ctx context.Context, names []string, opts trace.Options, tio traceIO) []fileResult {
	out := make([]fileResult, len(names))
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(names)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				out[i] = validateOne(ctx, names[i], opts, tio)
			}
		}()
	}
	stdinUsed := false
	for i, n := range names {
		if n == "-" {
			if stdinUsed {
				out[i] = fileResult{name: n, err: errors.New("standard input can be read only once")}
				continue
			}
			stdinUsed = true
		}
		work <- i
	}
	close(work)
	wg.Wait()
	return out
}

func validateOne(ctx context.Context, name string, opts trace.Options, tio traceIO) fileResult {
	var r io.Reader
	if name == "-" {
		r = tio.stdin
	} else {
		f, err := tio.open(name)
		if err != nil {
			return fileResult{name: name, err: err}
		}
		defer f.Close()
		r = f
		if st, ok := f.(interface{ Stat() (fs.FileInfo, error) }); ok {
			if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
				opts.SizeHint = fi.Size()
			}
		}
	}
	res, err := trace.Validate(ctxReader{ctx, r}, opts)
	return fileResult{name: name, res: res, err: err}
}

// ctxReader stops a validation when the command is interrupted.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

func displayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}

func traceValidate(ctx context.Context, args []string, stdout, stderr io.Writer, tio traceIO) int {
	fs := newFlagSet("trace validate", "trace validate [--format text|json|github] [--strict] FILE...", stderr)
	format := &formatFlag{value: "text", choices: []string{"text", "json", "github"}}
	fs.Var(format, "format", "output `format`: text, json or github (workflow commands)")
	strict := fs.Bool("strict", false, "treat warnings (edges back in time, cycles) as errors")
	files, code, ok := parseInterspersed(fs, args)
	if !ok {
		return code
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "masrl trace validate: no files (use - for standard input)")
		fs.Usage()
		return exitUsage
	}
	results := validateFiles(ctx, files, trace.Options{Strict: *strict}, tio)
	var errs, warns, ioErrs int
	for _, r := range results {
		if r.err != nil {
			ioErrs++
			fmt.Fprintf(stderr, "masrl trace validate: %s: %v\n", displayName(r.name), r.err)
			continue
		}
		errs += r.res.Errors
		warns += r.res.Warnings
	}
	var err error
	switch format.value {
	case "json":
		err = writeValidateJSON(stdout, results)
	case "github":
		err = writeValidateGitHub(stdout, results)
	default:
		err = writeValidateText(stdout, results)
		if errs+warns > 0 {
			fmt.Fprintf(stderr, "%d errors, %d warnings in %d files\n", errs, warns, len(files))
		}
	}
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "masrl trace validate: %v\n", err)
		return exitUsage
	case ioErrs > 0:
		return exitUsage
	case errs > 0:
		return exitFindings
	}
	return exitOK
}

func writeValidateText(w io.Writer, results []fileResult) error {
	var b strings.Builder
	for _, r := range results {
		if r.res == nil {
			continue
		}
		for _, f := range r.res.Findings {
			fmt.Fprintf(&b, "%s:%s\n", displayName(r.name), f)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// escapeGitHub escapes workflow-command data; properties also escape ':'
// and ','.
func escapeGitHub(s string, property bool) string {
	r := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	s = r.Replace(s)
	if property {
		s = strings.NewReplacer(":", "%3A", ",", "%2C").Replace(s)
	}
	return s
}

func writeValidateGitHub(w io.Writer, results []fileResult) error {
	var b strings.Builder
	for _, r := range results {
		if r.res == nil {
			continue
		}
		for _, f := range r.res.Findings {
			p := f.Pointer
			if p == "" {
				p = "(root)"
			}
			fmt.Fprintf(&b, "::%s file=%s,line=%d,col=%d,title=%s::%s\n", f.Severity,
				escapeGitHub(displayName(r.name), true), f.Line, f.Col,
				escapeGitHub("trace "+f.Rule, true), escapeGitHub(p+": "+f.Message, false))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// jsonFileReport is one file of the JSON report.
type jsonFileReport struct {
	File     string          `json:"file"`
	Valid    bool            `json:"valid"`
	Error    string          `json:"error,omitempty"`
	Errors   int             `json:"errors"`
	Warnings int             `json:"warnings"`
	Omitted  int             `json:"omitted"`
	Findings []trace.Finding `json:"findings"`
}

func writeValidateJSON(w io.Writer, results []fileResult) error {
	rep := struct {
		Valid    bool             `json:"valid"`
		Errors   int              `json:"errors"`
		Warnings int              `json:"warnings"`
		Files    []jsonFileReport `json:"files"`
	}{Valid: true, Files: []jsonFileReport{}}
	for _, r := range results {
		fr := jsonFileReport{File: displayName(r.name), Findings: []trace.Finding{}}
		if r.err != nil {
			fr.Error = r.err.Error()
		} else {
			fr.Valid = r.res.Valid()
			fr.Errors, fr.Warnings, fr.Omitted = r.res.Errors, r.res.Warnings, r.res.Omitted
			fr.Findings = append(fr.Findings, r.res.Findings...)
		}
		rep.Valid = rep.Valid && fr.Valid
		rep.Errors += fr.Errors
		rep.Warnings += fr.Warnings
		rep.Files = append(rep.Files, fr)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

func traceStats(ctx context.Context, args []string, stdout, stderr io.Writer, tio traceIO) int {
	fs := newFlagSet("trace stats", "trace stats FILE [--format text|json]", stderr)
	format := &formatFlag{value: "text", choices: []string{"text", "json"}}
	fs.Var(format, "format", "output `format`: text or json")
	files, code, ok := parseInterspersed(fs, args)
	if !ok {
		return code
	}
	if len(files) != 1 {
		fmt.Fprintf(stderr, "masrl trace stats: want exactly one FILE, got %d\n", len(files))
		fs.Usage()
		return exitUsage
	}
	r := validateOne(ctx, files[0], trace.Options{}, tio)
	if r.err != nil {
		fmt.Fprintf(stderr, "masrl trace stats: %s: %v\n", displayName(r.name), r.err)
		return exitUsage
	}
	// Findings go to stderr so that stdout stays the report.
	for _, f := range r.res.Findings {
		fmt.Fprintf(stderr, "%s:%s\n", displayName(r.name), f)
	}
	var err error
	if format.value == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(r.res.Report)
	} else {
		err = writeStatsText(stdout, &r.res.Report)
	}
	if err != nil {
		fmt.Fprintf(stderr, "masrl trace stats: %v\n", err)
		return exitUsage
	}
	if !r.res.Valid() {
		fmt.Fprintf(stderr, "masrl trace stats: %s has %d errors; the figures above may be incomplete\n", displayName(r.name), r.res.Errors)
		return exitFindings
	}
	return exitOK
}

// writeStatsText prints the report in the order of the survey's Table 14.
func writeStatsText(w io.Writer, r *trace.Report) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	row := func(k, v string) { fmt.Fprintf(tw, "  %s\t%s\n", k, v) }
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	opt := func(x *float64) string {
		if x == nil {
			return "n/a"
		}
		return num(*x)
	}
	counts := func(cs []trace.Count) string {
		var parts []string
		for _, c := range cs {
			parts = append(parts, fmt.Sprintf("%s %d", c.Name, c.Count))
		}
		if len(parts) == 0 {
			return "none"
		}
		return strings.Join(parts, ", ")
	}
	channels := func(cs []trace.Channel) string {
		var parts []string
		for _, c := range cs {
			parts = append(parts, c.Name+" "+num(c.Value))
		}
		if len(parts) == 0 {
			return "none"
		}
		return strings.Join(parts, ", ")
	}
	fmt.Fprintf(tw, "Trace\n")
	row("trace id", r.TraceID)
	row("task id", r.TaskID)
	row("system", orNone(r.System))
	fmt.Fprintf(tw, "Topology and roles\n")
	row("topology", orNone(r.Topology))
	row("active roles", counts(r.Roles))
	row("spawns / despawns", fmt.Sprintf("%d / %d", r.Spawns, r.Despawns))
	row("team size", fmt.Sprintf("%s (%d spawned sub-agents)", r.TeamSize, r.SubAgents))
	fmt.Fprintf(tw, "Trace scale\n")
	row("events", strconv.Itoa(r.Events))
	row("event types", counts(r.EventTypes))
	row("edges", strconv.Itoa(r.Edges))
	row("edge types", counts(r.EdgeTypes))
	row("messages", strconv.Itoa(r.Messages))
	row("tool calls", strconv.Itoa(r.ToolCalls))
	row("distinct agents", strconv.Itoa(r.Agents))
	row("wall clock (s)", num(r.Costs.WallClockS))
	row("tokens", num(r.Costs.Tokens))
	row("stated tool calls / messages", opt(r.Costs.ToolCalls)+" / "+opt(r.Costs.Messages))
	if len(r.Costs.Other) > 0 {
		row("other costs", channels(r.Costs.Other))
	}
	fmt.Fprintf(tw, "Reward channels\n")
	row("rewards", channels(r.Rewards))
	row("metrics", channels(r.Metrics))
	fmt.Fprintf(tw, "Safety instrumentation\n")
	s := r.Safety
	row("untrusted tool results", fmt.Sprintf("%d (%d tool results carry a trust label)", s.UntrustedToolResults, s.TrustLabelledToolResults))
	row("untrusted messages", fmt.Sprintf("%d (%d messages carry a trust label)", s.UntrustedMessages, s.TrustLabelledMessages))
	row("safety events", strconv.Itoa(s.SafetyEvents))
	row("human interventions", strconv.Itoa(s.HumanInterventions))
	row("safety-flow edges", strconv.Itoa(s.SafetyFlowEdges))
	fmt.Fprintf(tw, "Graph\n")
	g := r.Graph
	row("critical path (events)", strconv.Itoa(g.CriticalPath))
	row("max parallel width", strconv.Itoa(g.MaxWidth))
	row("spawn-tree depth", strconv.Itoa(g.SpawnDepth))
	row("structural parallelism", num(g.StructuralParallelism))
	if g.Cyclic {
		row("cycles", fmt.Sprintf("yes (%d events on or after a cycle are left out above)", g.EventsOnOrAfterCycles))
	}
	fmt.Fprintf(tw, "Table 13 (from the trace alone)\n")
	d := r.Derived
	row("useful-agent utilization", opt(d.UsefulAgentUtilization))
	row("exact-duplicate messages", opt(d.ExactDuplicateMessages))
	row("untrusted reach", opt(d.UntrustedReach))
	return tw.Flush()
}

func orNone(s string) string {
	if s == "" {
		return "(not given)"
	}
	return s
}
