package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/release"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/data"
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

// buildGCPercent is masrl build's GOGC. A 10,000-entry build keeps 70 to
// 85 MB live and allocates many times that in short-lived page data and
// template output; at the default of 100 the collector ran 17 cycles,
// its mark workers 7 to 9 % of the build's CPU
// (bench/profile/build-10k-2.md). At 400 it runs 5, for a peak of about
// 370 MB instead of 210, and the memory limit still bounds the heap of a
// large corpus. A GOGC in the environment wins.
const buildGCPercent = 400

func buildCommand() command {
	return command{summary: "build the static site (pages, feeds, downloads) into a directory", run: runBuild}
}

// buildFlags are the flags build and serve share.
type buildFlags struct {
	corpus, out, baseURL, templates, data, echarts *string
	// config names masrl.yaml; nil (a caller without the flag) reads none.
	config *string
	// site holds the flags of masrl.yaml's other keys (siteconfig.Keys) by
	// key name; a flag given a value overrides the file.
	site map[string]*string
	// traceExample and downloads feed the traces page; nil (a caller
	// without the flags) builds it with the embedded example and no
	// downloads.
	traceExample, downloads *string
	// claims counts the list's claims in the verdict the build waits
	// for, as check's --claims does; nil (a caller without the flag)
	// counts them.
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
		site:    map[string]*string{},
	}
	for _, k := range siteconfig.Keys() {
		usage := k.Usage + " (masrl.yaml: " + k.Name + ")"
		if k.Name == "base_url" {
			usage = baseURLUsage
		}
		bf.site[k.Name] = fs.String(k.Flag, "", usage)
	}
	bf.baseURL = bf.site["base_url"]
	bf.templates = bf.site["templates"]
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
	if err := needCorpus(*bf.corpus); err != nil {
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
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(buildMemoryLimit)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(buildGCPercent)
	}
	start := time.Now()
	res, err := bf.build(opt)
	if code := reportBuild(stderr, "masrl build", res, err); code != exitOK {
		return code
	}
	if opt.BaseURL == "" {
		fmt.Fprintln(stderr, noBaseURLNotice)
	}
	fmt.Fprintf(stdout, "%s: %d files from %s in %s\n", *bf.out, res.Files.Len(), *bf.corpus, time.Since(start).Round(time.Millisecond))
	return exitOK
}

// noBaseURLNotice says what a build without a base URL leaves out, and
// how to give one.
const noBaseURLNotice = "masrl build: note: no base URL (base_url in masrl.yaml, or --base-url), so the site has no canonical links, Open Graph URLs, sitemap or feed: they need absolute URLs"

// options turns the flags and masrl.yaml into the build's options: the
// file is read from --config or the corpus directory, and every site flag
// given a value overrides its key.
func (bf buildFlags) options() (site.Options, error) {
	cfg := &siteconfig.Config{}
	configDir := ""
	if bf.config != nil {
		path, err := siteconfig.Find(*bf.config, *bf.corpus)
		if err != nil {
			return site.Options{}, err
		}
		if path != "" {
			configDir = filepath.Dir(path)
			if cfg, err = siteconfig.Load(path); err != nil {
				return site.Options{}, err
			}
		}
	}
	for _, k := range siteconfig.Keys() {
		v := bf.site[k.Name]
		if k.Name == "base_url" {
			v = bf.baseURL
		}
		if v == nil || *v == "" {
			continue
		}
		if err := k.Check(*v); err != nil {
			return site.Options{}, err
		}
		*k.Field(cfg) = *v
	}
	opt := site.Options{Config: *cfg, Out: *bf.out, Templates: site.TemplateFS(cfg.Templates), WithClaims: bf.claims == nil || *bf.claims}
	if bf.templates == nil || *bf.templates == "" {
		// templates: in masrl.yaml is read inside the file's folder.
		tfs, err := configTemplates(cfg.Templates, configDir)
		if err != nil {
			return site.Options{}, err
		}
		opt.Templates = tfs
	}
	// The releases and upkeep dates are read here, beside the corpus,
	// for the site reads nothing from disk itself.
	history, err := release.ReadHistory(*bf.corpus)
	if err != nil {
		return site.Options{}, err
	}
	opt.History = history
	// So are the days rows joined the list, from git (a list's feed
	// without an added column), when the build asks.
	dir := *bf.corpus
	opt.AddedDates = func(keyColumn int) (map[string]string, error) {
		return corpus.AddedFromHistory(context.Background(), dir, keyColumn)
	}
	assets, err := listAssets(*bf.corpus, cfg.Theme.Assets)
	if err != nil {
		return site.Options{}, err
	}
	opt.AssetFiles = assets
	if bf.echarts != nil { // nil: a caller without the flag builds without charts
		opt.ECharts = *bf.echarts
	}
	if bf.traceExample != nil {
		opt.TraceExample = *bf.traceExample
	}
	if bf.downloads != nil {
		opt.Downloads = *bf.downloads
	}
	return opt, nil
}

// build opens the corpus with the data of --data and the profile of
// masrl.yaml or --profile, and builds its site.
func (bf buildFlags) build(opt site.Options) (*site.Result, error) {
	ck, err := corpus.Open(*bf.corpus, data.Dir(*bf.data), opt.Profile)
	if err != nil {
		return nil, err
	}
	return site.Build(ck, opt)
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
		fmt.Fprintf(w, "%s: the corpus has %s; the previous site was left as it was\n", prog, count(ds.Count(corpus.Error), "error"))
		return exitFindings
	}
	fmt.Fprintf(w, "%s: %v\n", prog, err)
	return exitUsage
}
