package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/site"
)

// defaultOut is where make site and masrl build write the site.
const defaultOut = "public"

// buildMemoryLimit is the soft memory limit masrl build runs under unless
// GOMEMLIMIT sets one. A build of 100,000 entries keeps about 600 MB live
// (the corpus, its views and every entry's rendered list item); the
// collector's default of letting the heap double before collecting took
// the process to 1.7 GB, and this limit keeps it near 1.2 GB for about a
// tenth more CPU time. A smaller corpus never reaches the limit.
const buildMemoryLimit = 1200 << 20

func buildCommand() command {
	return command{summary: "build the static site (pages, feeds, downloads) into a directory", run: runBuild}
}

// buildFlags are the flags build and serve share.
type buildFlags struct {
	corpus, out, baseURL, templates, data, echarts *string
	// traceExample and downloads feed the traces page; nil (a caller
	// without the flags) builds it without them.
	traceExample, downloads *string
}

// addTraceFlags declares the flags of the traces page, which build and
// serve share.
func (bf *buildFlags) addTraceFlags(fs *flag.FlagSet) {
	bf.traceExample = fs.String("trace-example", site.DefaultTraceExample, "`file` example orchestration trace the traces page offers (must be valid); empty: none")
	bf.downloads = fs.String("downloads", "", "`directory` with the cross-compiled masrl-OS-ARCH binaries, masrl.wasm, wasm_exec.js and validator.js (make site fills bin/dist); empty: the traces page has no binaries and no in-browser validator")
}

func runBuild(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("build", "build [--corpus DIR] [--out DIR] [--base-url URL] [--templates DIR] [--data DIR] [--echarts FILE] [--trace-example FILE] [--downloads DIR]", stderr)
	bf := buildFlags{
		corpus:    fs.String("corpus", defaultCorpus, "corpus `directory`"),
		out:       fs.String("out", defaultOut, "output `directory`; replaced only when the build succeeds"),
		baseURL:   fs.String("base-url", site.DefaultBaseURL, "absolute `URL` the site is published at (feeds and sitemap)"),
		templates: fs.String("templates", "", "`directory` of templates overriding the embedded ones"),
		data:      fs.String("data", "", "`directory` of project data (vocab.yaml, claims.yaml, pages/) overriding the embedded one"),
		echarts:   fs.String("echarts", site.DefaultECharts, "`file` echarts.min.js to publish for the charts; empty: no charts"),
	}
	bf.addTraceFlags(fs)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return exitUsage
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(buildMemoryLimit)
	}
	start := time.Now()
	res, err := site.Build(bf.options(), *bf.out)
	if code := reportBuild(stderr, "masrl build", res, err); code != exitOK {
		return code
	}
	fmt.Fprintf(stdout, "%s: %d files from %s in %s\n", *bf.out, res.Files.Len(), *bf.corpus, time.Since(start).Round(time.Millisecond))
	return exitOK
}

func (bf buildFlags) options() site.Options {
	opt := site.Options{
		CorpusDir: *bf.corpus, BaseURL: *bf.baseURL,
		Templates: site.TemplateFS(*bf.templates), Data: site.DataFS(*bf.data), Today: time.Now(),
	}
	if bf.echarts != nil { // nil: a caller without the flag builds without charts
		opt.ECharts = *bf.echarts
	}
	if bf.traceExample != nil {
		opt.TraceExample = *bf.traceExample
	}
	if bf.downloads != nil {
		opt.Downloads = *bf.downloads
	}
	return opt
}

// reportBuild prints a build's warnings and, when it failed, every finding
// of the check (exit 1) or the error (exit 2).
func reportBuild(w io.Writer, prog string, res *site.Result, err error) int {
	if res != nil {
		for _, d := range res.Warnings {
			fmt.Fprintln(w, d.String())
		}
	}
	if err == nil {
		return exitOK
	}
	if ds, ok := site.IsCheckError(err); ok {
		for _, d := range ds {
			if d.Severity == corpus.Error {
				fmt.Fprintln(w, d.String())
			}
		}
		fmt.Fprintf(w, "%s: the corpus has %d errors; the previous site was left as it was\n", prog, ds.Count(corpus.Error))
		return exitFindings
	}
	fmt.Fprintf(w, "%s: %v\n", prog, err)
	return exitUsage
}
