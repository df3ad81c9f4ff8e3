package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/intake"
	"github.com/masrl/masrl/refresh"
	"github.com/masrl/masrl/release"
)

func refreshCommand() command {
	return command{summary: "propose published versions and retraction/correction notices from arXiv, Crossref, OpenAlex", run: runRefresh}
}

// openAlexKeyEnv names the environment variable that holds an OpenAlex
// API key; without it OpenAlex is not asked.
const openAlexKeyEnv = "OPENALEX_API_KEY"

// openForUpdate opens the corpus masrl refresh, links and watch work on,
// through corpus.Open like every other command, so that --data and
// --profile are honoured the same way.
func openForUpdate(dir, dataDir, profile string) (*corpus.Checked, error) {
	if err := needCorpus(dir); err != nil {
		return nil, err
	}
	prof, err := listProfile(profile, "", dir)
	if err != nil {
		return nil, err
	}
	return corpus.Open(dir, data.Dir(dataDir), prof)
}

// serviceFlags declares the service URLs and the cache that refresh and
// links share.
func serviceFlags(fs *flag.FlagSet, c *intake.Client, cacheDir *string) *time.Duration {
	fs.StringVar(&c.ArxivAPI, "arxiv-api", intake.DefaultArxivAPI, "arXiv query API `URL` (masrl asks URL?id_list=ID)")
	fs.StringVar(&c.CrossrefAPI, "crossref-api", intake.DefaultCrossrefAPI, "Crossref REST API base `URL` (masrl asks URL/works/DOI)")
	fs.StringVar(&c.OpenAlexAPI, "openalex-api", intake.DefaultOpenAlexAPI, "OpenAlex API base `URL` (asked only with "+openAlexKeyEnv+" set)")
	fs.StringVar(cacheDir, "cache", defaultCacheDir(), "`directory` that keeps answers with their ETag between runs (empty: no cache)")
	return fs.Duration("timeout", 30*time.Second, "time allowed for each request")
}

// defaultCacheDir is masrl's directory in the user's cache ($XDG_CACHE_HOME
// on Linux), or none when there is no such directory.
func defaultCacheDir() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "masrl", "http")
}

// httpClient gives each request its own time limit.
func httpClient(timeout time.Duration) *http.Client {
	return &http.Client{Timeout: timeout}
}

// runRefresh is masrl refresh: it prints the proposed changes as masrl
// diff does and, with --write, writes them in masrl fmt's form unless the
// result has more check errors than the corpus had. Exit 0 with or
// without proposals, 1 when --write was refused, 2 on usage errors or a
// service that failed (then nothing is written).
func runRefresh(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("refresh", "refresh [--write [--record YYYY-MM-DD]] [--corpus DIR] [--arxiv-api URL] [--crossref-api URL] [--openalex-api URL] [--cache DIR]", stderr)
	dir := corpusFlag(fs)
	dataDir := dataFlag(fs)
	profile := profileFlag(fs)
	write := fs.Bool("write", false, "write the proposals into papers.csv (refused when the result fails the check)")
	record := fs.String("record", "", "with --write, record `YYYY-MM-DD` as the last refresh in the corpus's upkeep.yaml (the home page shows it)")
	withClaims := fs.Bool("claims", true, "also verify the paper's claims before writing; false for corpora other than the survey's")
	var client intake.Client
	var cacheDir string
	timeout := serviceFlags(fs, &client, &cacheDir)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return exitUsage
	}
	fail := func(code int, format string, args ...any) int {
		fmt.Fprintf(stderr, "masrl refresh: "+format+"\n", args...)
		return code
	}
	if *record != "" && (!*write || !release.IsDate(*record)) {
		return fail(exitUsage, "--record %q: want a YYYY-MM-DD date, with --write", *record)
	}
	// recorded notes the refresh in upkeep.yaml once it has been written.
	recorded := func() int {
		if *record == "" {
			return exitOK
		}
		if err := release.RecordUpkeep(*dir, func(u *release.Upkeep) { u.Refreshed = *record }); err != nil {
			return fail(exitUsage, "%v", err)
		}
		return exitOK
	}
	ck, err := openForUpdate(*dir, *dataDir, *profile)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	c, v := ck.Corpus, ck.Vocabulary
	var claims *corpus.Claims
	if *withClaims {
		claims = ck.Claims
	}
	client.HTTP = httpClient(*timeout)
	client.Limiter = &intake.Limiter{}
	if cacheDir != "" {
		client.Cache = &intake.Cache{Dir: cacheDir}
	}
	client.OpenAlexKey = os.Getenv(openAlexKeyEnv)
	res, err := refresh.Propose(ctx, c, refresh.Options{Client: &client, OpenAlex: client.OpenAlexKey != ""})
	for _, d := range res.Findings {
		fmt.Fprintln(stderr, d.String())
	}
	if err != nil {
		return fail(exitUsage, "%v\nmasrl refresh: no file was changed", err)
	}
	if len(res.Proposals) == 0 {
		fmt.Fprintf(stdout, "%s: no entry has a new published version or notice\n", *dir)
		if *write {
			return recorded()
		}
		return exitOK
	}
	name := filepath.Join(*dir, corpus.PapersFile)
	src, err := os.ReadFile(name)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	out, err := refresh.Apply(name, src, res.Proposals)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	newer, err := corpus.ParsePapers(name, out)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	for _, p := range res.Proposals {
		fmt.Fprintf(stdout, "%s: %s: %s (%s)\n", p.Pos, p.Key, strings.Join(p.Columns(), ", "), strings.Join(p.Sources, "; "))
	}
	// Compare the papers alone on both sides, so the diff is about the
	// rows refresh changes.
	older, err := corpus.ParsePapers(name, src)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	d := corpus.DiffCorpora(older, newer, v, claims)
	d.Old, d.New = "before", "after refresh"
	io.WriteString(stdout, "\n"+diffMarkdown(&d, len(older.Papers), len(newer.Papers)))
	if !*write {
		return exitOK
	}
	before := checkCorpus(*dir, ck, *withClaims)
	// Check the corpus as it would be: the new papers.csv with the other
	// files as they are, in a scratch copy.
	scratch, err := os.MkdirTemp("", "masrl-refresh-")
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	defer os.RemoveAll(scratch)
	files := map[string][]byte{corpus.PapersFile: out}
	for _, f := range []string{corpus.ExcludedFile, corpus.BibFile, corpus.SpotcheckFile} {
		b, err := os.ReadFile(filepath.Join(*dir, f))
		if errors.Is(err, os.ErrNotExist) {
			continue
		} else if err != nil {
			return fail(exitUsage, "%v", err)
		}
		files[f] = b
	}
	if err := corpus.WriteFiles(scratch, files); err != nil {
		return fail(exitUsage, "%v", err)
	}
	nc, err := corpus.Load(scratch)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	after := checkCorpus(*dir, corpus.StartCheck(nc, ck.Data, corpus.CheckOptions{}), *withClaims)
	if after.Errors > before.Errors {
		for i := range after.Diagnostics {
			if p := &after.Diagnostics[i].Pos; strings.HasPrefix(p.File, scratch) {
				p.File = filepath.Join(*dir, strings.TrimPrefix(p.File, scratch+string(filepath.Separator)))
			}
		}
		writeCheckReport(stderr, "text", after)
		return fail(exitFindings, "--write refused: the refreshed corpus has %s where it had %d; no file was changed", count(after.Errors, "error"), before.Errors)
	}
	if err := corpus.WriteFiles(*dir, map[string][]byte{corpus.PapersFile: out}); err != nil {
		return fail(exitUsage, "%v", err)
	}
	fmt.Fprintf(stdout, "\nwrote %s: %s\n", name, count(len(res.Proposals), "entry"))
	return recorded()
}
