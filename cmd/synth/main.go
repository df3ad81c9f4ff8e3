// Command synth generates synthetic inputs for tests and benchmarks. It is
// a development tool with one subcommand per kind of input:
//
//	go run ./cmd/synth trace -events 1000000 -seed 1 > /tmp/t.json
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
)

// subcommand is one kind of generated input.
type subcommand struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// subcommands lists the generators; add one line per new kind of input.
func subcommands() map[string]subcommand {
	return map[string]subcommand{
		"corpus": {"write a synthetic corpus shaped like the real one", corpusSubcommand},
		"trace":  {"write a synthetic orchestration trace", runTrace},
		"traces": {"write synthetic orchestration traces as JSON Lines, one per line", runTraces},
		"otlp":   {"write synthetic OpenTelemetry spans as OTLP/JSON lines", runOTLP},
	}
}

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmds := subcommands()
	if len(args) > 0 {
		if c, ok := cmds[args[0]]; ok {
			return c.run(ctx, args[1:], stdout, stderr)
		}
		fmt.Fprintf(stderr, "synth: unknown subcommand %q\n", args[0])
	}
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintln(stderr, "usage: synth <subcommand> [flags]")
	for _, n := range names {
		fmt.Fprintf(stderr, "  %-8s %s\n", n, cmds[n].summary)
	}
	return 2
}
