package main

import (
	"context"
	"fmt"
	"io"

	"github.com/masrl/masrl/site"
)

func templatesCommand() command {
	return command{summary: "export the embedded templates and assets to restyle the site (templates export DIR)", run: runTemplates}
}

// runTemplates dispatches templates' one subcommand, export.
func runTemplates(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	const usage = "usage: masrl templates export DIR\n\n" +
		"  export  write every embedded template and asset into DIR (new or empty), for --templates DIR\n"
	if len(args) == 0 {
		io.WriteString(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "export":
		return templatesExport(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		io.WriteString(stderr, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "masrl templates: unknown subcommand %q\n%s", args[0], usage)
	return exitUsage
}

// templatesExport writes the embedded templates and assets into a new or
// empty directory (site.ExportDefaults).
func templatesExport(args []string, stdout, stderr io.Writer) int {
	fail := failer(stderr, "templates export")
	fs := newFlagSet("templates export", "templates export DIR", stderr)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	dir := fs.Arg(0)
	n, err := site.ExportDefaults(dir)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	fmt.Fprintf(stdout, "%s: %d files; build with --templates %s (or templates: in masrl.yaml) after changing any of them, and delete the ones you keep as they are\n", dir, n, dir)
	return exitOK
}
