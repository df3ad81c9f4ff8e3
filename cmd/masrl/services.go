package main

import (
	"flag"
	"os"
	"path/filepath"
	"time"

	"github.com/masrl/masrl/upkeep/intake"
)

// serviceFlags are the flags of the commands that ask web services
// (refresh, links, watch): the services' URLs, the cache and the time
// allowed per request, declared and turned into a client in one place so
// that the commands say them alike.
type serviceFlags struct {
	client   intake.Client
	cacheDir string
	timeout  time.Duration
}

// declareScholarly declares the services refresh and links share (arXiv,
// Crossref, OpenAlex) and the cache flags.
func (s *serviceFlags) declareScholarly(fs *flag.FlagSet) {
	fs.StringVar(&s.client.ArxivAPI, "arxiv-api", intake.DefaultArxivAPI, "arXiv query API `URL` (masrl asks URL?id_list=ID)")
	fs.StringVar(&s.client.CrossrefAPI, "crossref-api", intake.DefaultCrossrefAPI, "Crossref REST API base `URL` (masrl asks URL/works/DOI)")
	fs.StringVar(&s.client.OpenAlexAPI, "openalex-api", intake.DefaultOpenAlexAPI, "OpenAlex API base `URL` (asked only with "+openAlexKeyEnv+" set)")
	s.declareCache(fs)
}

// declareCache declares --cache and --timeout.
func (s *serviceFlags) declareCache(fs *flag.FlagSet) {
	fs.StringVar(&s.cacheDir, "cache", defaultCacheDir(), "`directory` that keeps answers with their ETag between runs (empty: no cache)")
	fs.DurationVar(&s.timeout, "timeout", 30*time.Second, "time allowed for each request")
}

// ready returns the client once the flags are parsed: each request with
// its own time limit, only to public addresses and the loopback services
// the flags name (intake.AddressPolicy), the services' rate limits, and
// the cache.
func (s *serviceFlags) ready() *intake.Client {
	c := &s.client
	c.HTTP = c.NewHTTP(s.timeout)
	c.Limiter = &intake.Limiter{}
	if s.cacheDir != "" {
		c.Cache = &intake.Cache{Dir: s.cacheDir}
	}
	return c
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

// parseNoArgs is parseFlags for a command that takes flags only: an
// argument left over is a usage error, answered with the usage.
func parseNoArgs(fs *flag.FlagSet, args []string) (code int, ok bool) {
	if code, ok := parseFlags(fs, args); !ok {
		return code, false
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return exitUsage, false
	}
	return 0, true
}
