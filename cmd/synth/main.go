// Command synth writes synthetic benchmark inputs: corpora shaped like the
// real one, at any size. Its output is never published.
//
// main stays thin: it hands the arguments to run and turns the result into
// an exit code.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches to a subcommand and returns the exit code: 0 on success,
// 2 for bad usage or a failure.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: synth corpus [flags]")
		return 2
	}
	var err error
	switch args[0] {
	case "corpus":
		err = runCorpus(args[1:], stdout)
	default:
		fmt.Fprintf(stderr, "synth: unknown command %q\nusage: synth corpus [flags]\n", args[0])
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "synth %s: %v\n", args[0], err)
		return 2
	}
	return 0
}
