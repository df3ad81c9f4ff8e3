// Command masrl checks, counts and publishes the paper pool of the survey
// "Reinforcement Learning for LLM-based Multi-Agent Systems through
// Orchestration Traces", and validates orchestration traces.
//
// main stays thin: it hands the arguments to run and turns the result into an
// exit code, so every subcommand can be tested in-process.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"sort"
	"strings"
)

// Exit codes shared by every subcommand.
const (
	exitOK       = 0 // clean
	exitFindings = 1 // the input has errors (findings, failed claims, stale README)
	exitUsage    = 2 // bad usage, unreadable input or an internal failure
)

// command is one subcommand: its one-line summary and its entry point.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// commands lists every subcommand. It is a function, not a package variable,
// so that nothing is shared between concurrent runs in tests.
func commands() map[string]command {
	return map[string]command{
		"check":      checkCommand(),
		"stats":      statsCommand(),
		"diff":       diffCommand(),
		"trace":      {"validate orchestration traces and report their measures", runTrace},
		"build":      buildCommand(),
		"readme":     readmeCommand(),
		"serve":      serveCommand(),
		"fmt":        fmtCommand(),
		"init":       initCommand(),
		"add":        addCommand(),
		"import":     importCommand(),
		"issue-form": issueFormCommand(),
		"refresh":    refreshCommand(),
		"links":      linksCommand(),
		"cite":       citeCommand(),
		"watch":      watchCommand(),
		"recover":    recoverCommand(),
		"templates":  templatesCommand(),
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run dispatches to the subcommand named by args[0] and returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr, cmds)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "masrl: unknown command %q\n", args[0])
		usage(stderr, cmds)
		return exitUsage
	}
	return c.run(ctx, args[1:], stdout, stderr)
}

func usage(w io.Writer, cmds map[string]command) {
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("usage: masrl <command> [flags]\n\ncommands:\n")
	for _, n := range names {
		fmt.Fprintf(&b, "  %-8s %s\n", n, cmds[n].summary)
	}
	b.WriteString("\nRun 'masrl <command> -h' for a command's flags.\n")
	io.WriteString(w, b.String())
}

// limitMemory sets the process's soft memory limit and GC percentage
// (the build's, the trace validator's) unless GOMEMLIMIT or GOGC in the
// environment set them: a person who tuned them wins.
func limitMemory(limit int64, gcPercent int) {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(limit)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}
