package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/site/awesome"
)

func readmeCommand() command {
	return command{summary: "write (or --check) the generated paper list in a README, or print a standalone awesome list", run: runReadme}
}

func runReadme(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fail := failer(stderr, "readme")
	fs := newFlagSet("readme", "readme FILE [--corpus DIR] [--data DIR] [--profile survey] [--check] | readme --standalone [--corpus DIR] [--data DIR] [--profile survey]", stderr)
	dir := fs.String("corpus", corpus.DefaultDir, "corpus `directory`")
	dataDir := dataFlag(fs)
	profile := profileFlag(fs)
	check := fs.Bool("check", false, "do not write; exit 1 when the list in FILE is out of date")
	standalone := fs.Bool("standalone", false, "print a complete awesome list (title, badge, contents, sections, contributing) instead of updating FILE")
	// Accept flags after FILE as well (masrl readme README.md --check).
	var file string
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		file, args = args[0], args[1:]
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if file == "" && fs.NArg() == 1 {
		file = fs.Arg(0)
	} else if fs.NArg() > 0 || (file == "") != *standalone {
		fs.Usage()
		return exitUsage
	}
	prof, err := siteconfig.Profile(*profile, "", *dir)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	ck, err := corpus.Open(*dir, data.Dir(*dataDir), prof)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	c, v, pool := ck.Corpus, ck.Vocabulary, ck.Pool
	if ds := ck.Diagnostics(); ds.Err() != nil {
		outcome := file + " was not changed"
		if *standalone {
			outcome = "no list printed"
		}
		ds.WriteRefusal(stderr, "masrl readme", outcome)
		return exitFindings
	}
	if *standalone {
		var cfg siteconfig.Config
		if pool == nil { // the survey's words need no masrl.yaml
			if cfg, err = siteconfig.Read("", *dir); err != nil {
				return fail(exitUsage, "%v", err)
			}
		}
		meta, ok := awesome.StandaloneMeta(c, pool, cfg.Title, cfg.Description)
		if !ok {
			return fail(exitUsage, "--standalone: give the list a title and a description in %s (or, for the survey's list, --profile survey): without the survey's pool, its words do not apply", filepath.Join(*dir, siteconfig.FileName))
		}
		stdout.Write(awesome.Standalone(c, v, meta, pool))
		return exitOK
	}
	stale, err := awesome.UpdateFile(file, awesome.List(c, v, pool), *check)
	switch {
	case err != nil:
		return fail(exitUsage, "%v", err)
	case !stale:
		fmt.Fprintf(stdout, "%s: paper list is up to date (%d entries)\n", file, len(c.Papers))
		return exitOK
	case *check:
		fmt.Fprintf(stderr, "%s: the generated paper list is out of date with %s; run: masrl readme %s --corpus %s\n", file, *dir, file, *dir)
		return exitFindings
	}
	fmt.Fprintf(stdout, "%s: paper list rewritten (%d entries)\n", file, len(c.Papers))
	return exitOK
}
