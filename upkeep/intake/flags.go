package intake

import (
	"flag"
	"os"
	"path/filepath"
	"time"
)

// OpenAlexKeyEnv names the environment variable that holds an OpenAlex
// API key (Client.OpenAlexKey): OpenAlex is asked only with one.
const OpenAlexKeyEnv = "OPENALEX_API_KEY"

// Flags are the command-line settings of a Client for the commands that
// ask web services (masrl refresh, links, watch): the services' URLs,
// the cache and the time allowed per request, declared and turned into a
// client in one place so that the commands say them alike.
type Flags struct {
	// Client holds the services' URLs the flags set; Ready completes it.
	Client Client
	// CacheDir is --cache ("" : no cache) and Timeout --timeout.
	CacheDir string
	Timeout  time.Duration
}

// DeclareScholarly declares the services refresh and links share (arXiv,
// Crossref, OpenAlex) and the cache flags (DeclareCache).
func (f *Flags) DeclareScholarly(fs *flag.FlagSet) {
	fs.StringVar(&f.Client.ArxivAPI, "arxiv-api", DefaultArxivAPI, "arXiv query API `URL` (masrl asks URL?id_list=ID)")
	fs.StringVar(&f.Client.CrossrefAPI, "crossref-api", DefaultCrossrefAPI, "Crossref REST API base `URL` (masrl asks URL/works/DOI)")
	fs.StringVar(&f.Client.OpenAlexAPI, "openalex-api", DefaultOpenAlexAPI, "OpenAlex API base `URL` (asked only with "+OpenAlexKeyEnv+" set)")
	f.DeclareCache(fs)
}

// DeclareCache declares --cache (default: DefaultCacheDir) and --timeout.
func (f *Flags) DeclareCache(fs *flag.FlagSet) {
	fs.StringVar(&f.CacheDir, "cache", DefaultCacheDir(), "`directory` that keeps answers with their ETag between runs (empty: no cache)")
	fs.DurationVar(&f.Timeout, "timeout", 30*time.Second, "time allowed for each request")
}

// Ready returns the client once the flags are parsed: each request with
// its own time limit, only to public addresses and the loopback services
// the flags name (AddressPolicy), the services' rate limits (Limiter),
// and the cache.
func (f *Flags) Ready() *Client {
	c := &f.Client
	c.HTTP = c.NewHTTP(f.Timeout)
	c.Limiter = &Limiter{}
	if f.CacheDir != "" {
		c.Cache = &Cache{Dir: f.CacheDir}
	}
	return c
}

// DefaultCacheDir is masrl's directory in the user's cache
// ($XDG_CACHE_HOME on Linux), or none when there is no such directory.
func DefaultCacheDir() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "masrl", "http")
}
