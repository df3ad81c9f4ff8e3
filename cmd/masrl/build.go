package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/site"
)

// defaultOut is where make site and masrl build write the site.
const defaultOut = "public"

func buildCommand() command {
	return command{summary: "build the static site (pages, feeds, downloads) into a directory", run: runBuild}
}

// buildFlags are the flags build and serve share.
type buildFlags struct {
	corpus, config, out, data, echarts, traceExample, downloads *string
	// site holds the flags of masrl.yaml's keys by key name; a flag
	// given a value overrides the file.
	site siteconfig.Flags
	// claims counts the list's claims in the verdict the build waits
	// for, as check's --claims does.
	claims *bool
}

// buildUsage is the synopsis of the flags build and serve share.
const buildUsage = "[--corpus DIR] [--config FILE] [--out DIR] [--base-url URL] [--title T] [--repository URL] ... [--templates DIR] [--data DIR] [--echarts FILE] [--trace-example FILE] [--downloads DIR] [--claims=false]"

// addBuildFlags declares the flags build and serve share; baseURLUsage
// says what --base-url defaults to for the command.
func addBuildFlags(fs *flag.FlagSet, baseURLUsage string) buildFlags {
	bf := buildFlags{
		corpus:  corpusFlag(fs),
		config:  fs.String("config", "", "`file` masrl.yaml with the site's settings (default: masrl.yaml in the corpus directory, if there is one)"),
		out:     fs.String("out", defaultOut, "output `directory`; replaced only when the build succeeds"),
		data:    dataFlag(fs),
		echarts: fs.String("echarts", site.DefaultECharts, "`file` echarts.min.js to publish for the charts; empty: no charts"),
		site:    siteconfig.DeclareFlags(fs, baseURLUsage),
	}
	bf.traceExample = fs.String("trace-example", "", "`file` example orchestration trace the traces page offers (must be valid); default: the example built into masrl")
	bf.claims = fs.Bool("claims", true, "refuse to build when a claim of the list fails (claims.yaml beside papers.csv, or the survey's with --profile survey), as masrl check does; false: only the check's errors refuse it")
	bf.downloads = fs.String("downloads", "", "`directory` with the WebAssembly validator (masrl.wasm, wasm_exec.js, validator.js; make site fills bin/validator) and, optionally, the masrl-OS-ARCH binaries (make dist fills bin/dist); empty: no in-browser validator, and binaries only as links to release.url")
	return bf
}

func runBuild(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fail := failer(stderr, "build")
	fs := newFlagSet("build", "build "+buildUsage+" [--verbose]", stderr)
	bf := addBuildFlags(fs, "absolute `URL` the site is published at, for canonical links, Open Graph, the sitemap and the feed (masrl.yaml: base_url); none: those are left out")
	verbose := fs.Bool("verbose", false, "print each step of the build and its time to stderr")
	if code, ok := parseNoArgs(fs, args); !ok {
		return code
	}
	if err := corpus.NeedPapers(*bf.corpus); err != nil {
		return fail(exitUsage, "%v", err)
	}
	opt, err := bf.options()
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	if *verbose {
		opt.StepTime = func(step string, took time.Duration) {
			fmt.Fprintf(stderr, "masrl build: %-14s %s\n", step, took.Round(time.Microsecond))
		}
	}
	limitMemory(site.BuildMemoryLimit, site.BuildGCPercent)
	start := time.Now()
	var res *site.Result
	ck, err := corpus.Open(*bf.corpus, data.Dir(*bf.data), opt.Profile)
	if err == nil {
		res, err = site.Build(ck, opt)
	}
	switch refused := site.WriteOutcome(stderr, "masrl build", res, err); {
	case refused:
		return exitFindings
	case err != nil:
		return exitUsage
	}
	if opt.BaseURL == "" {
		fmt.Fprintln(stderr, "masrl build: note: no base URL (base_url in masrl.yaml, or --base-url), so the site has no canonical links, Open Graph URLs, sitemap or feed: they need absolute URLs")
	}
	fmt.Fprintf(stdout, "%s: %d files from %s in %s\n", *bf.out, res.Files.Len(), *bf.corpus, time.Since(start).Round(time.Millisecond))
	return exitOK
}

// options are the build's options: the flags, with what the site reads
// of the list on disk (site.ListOptions).
func (bf buildFlags) options() (site.Options, error) {
	return site.ListOptions(*bf.corpus, *bf.config, bf.site.Overrides(), site.Options{Out: *bf.out, WithClaims: *bf.claims,
		ECharts: *bf.echarts, TraceExample: *bf.traceExample, Downloads: *bf.downloads})
}
