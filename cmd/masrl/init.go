package main

import (
	"context"
	"fmt"
	"io"

	"github.com/masrl/masrl/upkeep/scaffold"
)

func initCommand() command {
	return command{summary: "make a new list repository: a corpus with its own vocabulary, masrl.yaml, a README and workflows", run: runInit}
}

// runInit scaffolds a list repository in a new or empty directory and says
// what to do next.
func runInit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fail := failer(stderr, "init")
	fs := newFlagSet("init", "init [--title T] [--description S] [--repository URL] DIR", stderr)
	var opt scaffold.Options
	fs.StringVar(&opt.Title, "title", "", "the list's `title` (default: \"Awesome\" and the directory's name)")
	fs.StringVar(&opt.Description, "description", "", "one `sentence` about the list")
	fs.StringVar(&opt.Repository, "repository", "", "the http(s) `address` of the list's repository, for the site's edit links")
	// Accept DIR before the flags as well (masrl init mylist --title T).
	var dir string
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		dir, args = args[0], args[1:]
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if dir == "" && fs.NArg() == 1 {
		dir = fs.Arg(0)
	} else if dir == "" || fs.NArg() > 0 {
		fs.Usage()
		return exitUsage
	}
	// An empty DIR ('' from an unset shell variable) is not the current
	// directory.
	if dir == "" {
		fmt.Fprintf(stderr, "masrl init: DIR is empty: name a new or empty directory (. for the current one)\n")
		fs.Usage()
		return exitUsage
	}
	if err := scaffold.Create(dir, opt); err != nil {
		return fail(exitUsage, "%v", err)
	}
	scaffold.WriteNext(stdout, dir)
	return exitOK
}
