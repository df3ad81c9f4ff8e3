package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/trace"
)

// traceIO is where the trace subcommands read files and standard input
// from. Tests substitute both, so that scripts run in-process can name
// files relative to their own directory.
type traceIO struct {
	stdin io.Reader
	open  func(name string) (io.ReadCloser, error)
	// dir lists the trace files below name, in order, if it is a
	// directory; isDir is false otherwise.
	dir func(name string) (files []string, isDir bool, err error)
}

func osTraceIO() traceIO {
	in := trace.OSBatchInput()
	return traceIO{stdin: in.Stdin, open: in.Open, dir: in.Dir}
}

// batch is where trace.ValidateBatch reads.
func (tio traceIO) batch() trace.BatchInput {
	return trace.BatchInput{Stdin: tio.stdin, Open: tio.open, Dir: tio.dir}
}

// traceMemoryLimit is the soft heap limit of the trace command. A million-
// event trace keeps about 80 MB of columns live; without a limit the
// collector lets the heap grow to twice that before it runs, and the limit
// holds the process near the 128 MB the validator promises, at a few
// percent of CPU. A GOMEMLIMIT in the environment wins.
const traceMemoryLimit = 96 << 20

// traceGCPercent is the trace command's GOGC. A batch of small traces
// keeps little live (a few MB), so at the default of 100 the collector
// would run every few MB of garbage; at 400 it runs a quarter as often,
// and the memory limit still bounds the heap. A GOGC in the environment
// wins.
const traceGCPercent = 400

// runTrace is the "trace" command: it dispatches to validate and stats.
func runTrace(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(traceMemoryLimit)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(traceGCPercent)
	}
	return traceMain(ctx, args, stdout, stderr, osTraceIO())
}

func traceMain(ctx context.Context, args []string, stdout, stderr io.Writer, tio traceIO) int {
	const usage = "usage: masrl trace <validate|stats|merge|import|view|serve> [flags] FILE...\n\n" +
		"  validate  check traces against the orchestration-trace schema and the graph rules\n" +
		"  stats     report a trace's reporting checklist (survey Table 14) and graph measures\n" +
		"  merge     combine partials (trace stats --partial) into the report of all their traces\n" +
		"  import    turn OpenTelemetry spans (OTLP) into orchestration traces\n" +
		"  view      write one self-contained HTML file that draws a trace or a JSON Lines batch\n" +
		"  serve     receive OTLP/HTTP spans, write each trace as it completes, show them live\n"
	if len(args) == 0 {
		io.WriteString(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "validate":
		return traceValidate(ctx, args[1:], stdout, stderr, tio)
	case "stats":
		return traceStats(ctx, args[1:], stdout, stderr, tio)
	case "merge":
		return traceMerge(ctx, args[1:], stdout, stderr, tio)
	case "import":
		return traceImport(ctx, args[1:], stdout, stderr, importIO{traceIO: tio, path: func(n string) string { return n }})
	case "view":
		return traceView(ctx, args[1:], stdout, stderr, tio)
	case "serve":
		return traceServe(ctx, args[1:], stderr)
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
	if slices.Contains(f.choices, s) {
		f.value = s
		return nil
	}
	return fmt.Errorf("must be one of %s", strings.Join(f.choices, ", "))
}

func displayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}

// sizeFlag is a --max-* value: a size in bytes, as trace.ParseSize reads
// it ("64MiB").
type sizeFlag struct{ n *int64 }

func (f sizeFlag) String() string {
	if f.n == nil || *f.n == 0 {
		return ""
	}
	return trace.FormatSize(*f.n)
}

func (f sizeFlag) Set(s string) error {
	n, err := trace.ParseSize(s)
	if err == nil {
		*f.n = n
	}
	return err
}

// limitFlags registers on fs the flags that raise the readers' limits
// (trace.Limits) a command meets: "line", "record", "document",
// "decompressed".
func limitFlags(fs *flag.FlagSet, l *trace.Limits, which ...string) {
	for _, w := range which {
		switch w {
		case "line":
			fs.Var(sizeFlag{&l.MaxLine}, "max-line", "the longest line of JSON Lines read, in `bytes` (KiB, MiB, GiB allowed; default "+trace.FormatSize(trace.DefaultMaxLine)+")")
		case "record":
			fs.Var(sizeFlag{&l.MaxRecord}, "max-record", "the longest OTLP protobuf request read, decompressed, in `bytes` (default "+trace.FormatSize(trace.DefaultMaxRecord)+")")
		case "document":
			fs.Var(sizeFlag{&l.MaxDocument}, "max-document", "the most `bytes` read whole that are not one line (a multi-line OTLP/JSON document; what trace view embeds; default "+trace.FormatSize(trace.DefaultMaxDocument)+")")
		case "decompressed":
			fs.Var(sizeFlag{&l.MaxDecompressed}, "max-decompressed", "the most `bytes` a compressed input may expand to (default "+trace.FormatSize(trace.DefaultMaxDecompressed)+")")
		}
	}
}

// inputFile is an input a command read, kept so that no output is written
// over it.
type inputFile struct {
	name string
	info os.FileInfo
}

// statInput returns the input r is (an *os.File, as tio.open and os.Stdin
// give) with its name, or ok false when r is no file.
func statInput(name string, r any) (in inputFile, ok bool) {
	st, isFile := r.(interface{ Stat() (os.FileInfo, error) })
	if !isFile {
		return inputFile{}, false
	}
	fi, err := st.Stat()
	if err != nil {
		return inputFile{}, false
	}
	return inputFile{name: name, info: fi}, true
}

// notAnInput refuses to write out over one of the inputs: the files are
// compared with os.SameFile, so another spelling of the path, a hard link
// or a symbolic link to the input is refused as well. A path that does
// not exist yet is no input.
func notAnInput(out string, inputs []inputFile) error {
	fi, err := os.Stat(out)
	if err != nil {
		return nil
	}
	for _, in := range inputs {
		if os.SameFile(fi, in.info) {
			return fmt.Errorf("the output %s is the input %s: writing it would destroy the input; name another output", out, displayName(in.name))
		}
	}
	return nil
}

// writeOutput writes data to the file out atomically (corpus.WriteFiles:
// a temporary file beside it, renamed over it), after checking that out is
// none of the inputs.
func writeOutput(out string, data []byte, inputs []inputFile) error {
	if err := notAnInput(out, inputs); err != nil {
		return err
	}
	return corpus.WriteFiles(filepath.Dir(out), map[string][]byte{filepath.Base(out): data})
}
