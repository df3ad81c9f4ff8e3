package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"path/filepath"

	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/site"
	"github.com/masrl/masrl/site/serve"
)

func serveCommand() command {
	return command{summary: "build, serve the site locally, rebuild incrementally when the corpus, templates or data change, and reload the open pages", run: runServe}
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve", "serve [--addr 127.0.0.1:8080] "+buildUsage, stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "`address` to listen on")
	bf := addBuildFlags(fs, "`URL` for canonical links, the sitemap and the feed (default http://ADDR/; masrl.yaml's base_url is not used, so the local site links to itself)")
	if code, ok := parseNoArgs(fs, args); !ok {
		return code
	}
	if err := needCorpus(*bf.corpus); err != nil {
		fmt.Fprintf(stderr, "masrl serve: %v\n", err)
		return exitUsage
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "masrl serve: %v\n", err)
		return exitUsage
	}
	if *bf.baseURL == "" {
		*bf.baseURL = "http://" + ln.Addr().String() + "/"
	}
	if err := serve.Run(ctx, ln, bf.serveOptions(stderr), stdout); err != nil {
		fmt.Fprintf(stderr, "masrl serve: %v\n", err)
		return exitUsage
	}
	return exitOK
}

// serveOptions are what masrl serve builds and watches: the flags'
// corpus, data and output, masrl.yaml read again for every build, and
// its templates: and assets: folders among the inputs.
func (bf buildFlags) serveOptions(log io.Writer) serve.Options {
	return serve.Options{
		Corpus: *bf.corpus, Data: data.Dir(*bf.data), Out: *bf.out,
		Site:   bf.options,
		Inputs: bf.inputs,
		Report: func(w io.Writer, res *site.Result, err error) { reportBuild(w, "masrl serve", res, err) },
		Log:    log,
	}
}

// inputs are the files and folders a build reads besides the corpus
// directory: the flags' masrl.yaml, templates and data, and the
// templates: and assets: folders masrl.yaml names (a masrl.yaml
// elsewhere than the corpus names folders beside it). An unreadable
// masrl.yaml adds nothing: the build reports it.
func (bf buildFlags) inputs() []string {
	in := []string{*bf.corpus, *bf.config, *bf.templates, *bf.data}
	p, err := siteconfig.Find(*bf.config, *bf.corpus)
	if err != nil || p == "" {
		return in
	}
	in = append(in, p)
	cfg, err := siteconfig.Load(p)
	if err != nil {
		return in
	}
	if cfg.Templates != "" {
		in = append(in, cfg.Templates) // resolved beside masrl.yaml by Load
	}
	if cfg.Theme.Assets != "" {
		in = append(in, filepath.Join(*bf.corpus, cfg.Theme.Assets))
	}
	return in
}
