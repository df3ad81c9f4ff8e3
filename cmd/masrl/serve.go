package main

import (
	"context"
	"io"
	"net"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/site"
	"github.com/masrl/masrl/site/serve"
)

func serveCommand() command {
	return command{summary: "build, serve the site locally, rebuild incrementally when the corpus, templates or data change, and reload the open pages", run: runServe}
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fail := failer(stderr, "serve")
	fs := newFlagSet("serve", "serve [--addr 127.0.0.1:8080] "+buildUsage, stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "`address` to listen on")
	bf := addBuildFlags(fs, "`URL` for canonical links, the sitemap and the feed (default http://ADDR/; masrl.yaml's base_url is not used, so the local site links to itself)")
	if code, ok := parseNoArgs(fs, args); !ok {
		return code
	}
	if err := corpus.NeedPapers(*bf.corpus); err != nil {
		return fail(exitUsage, "%v", err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	if baseURL := bf.site["base_url"]; *baseURL == "" {
		*baseURL = "http://" + ln.Addr().String() + "/"
	}
	// masrl.yaml is read again for every build, and its templates: and
	// assets: folders are watched with the flags' inputs.
	opt := serve.Options{
		Corpus: *bf.corpus, Data: data.Dir(*bf.data), Out: *bf.out,
		Site: bf.options,
		Inputs: func() []string {
			in := []string{*bf.corpus, *bf.config, *bf.site["templates"], *bf.data}
			return append(in, siteconfig.Inputs(*bf.config, *bf.corpus)...)
		},
		Report: func(w io.Writer, res *site.Result, err error) { site.WriteOutcome(w, "masrl serve", res, err) },
		Log:    stderr,
	}
	if err := serve.Run(ctx, ln, opt, stdout); err != nil {
		return fail(exitUsage, "%v", err)
	}
	return exitOK
}
