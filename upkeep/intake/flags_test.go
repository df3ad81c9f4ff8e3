package intake

import (
	"flag"
	"io"
	"testing"
	"time"
)

// TestFlags: the flags set the services' URLs, the cache and the time
// allowed, and Ready makes the client the commands ask with: its own
// HTTP client, a rate limiter, and the cache only when one is named.
func TestFlags(t *testing.T) {
	var f Flags
	fs := flag.NewFlagSet("refresh", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.DeclareScholarly(fs)
	if err := fs.Parse([]string{"--crossref-api", "http://127.0.0.1:1/", "--cache", "", "--timeout", "2s"}); err != nil {
		t.Fatal(err)
	}
	c := f.Ready()
	if c.CrossrefAPI != "http://127.0.0.1:1/" || c.ArxivAPI != DefaultArxivAPI || c.OpenAlexAPI != DefaultOpenAlexAPI ||
		c.HTTP == nil || c.HTTP.Timeout != 2*time.Second || c.Limiter == nil || c.Cache != nil {
		t.Errorf("client: %+v", c)
	}
	f = Flags{}
	fs = flag.NewFlagSet("watch", flag.ContinueOnError)
	f.DeclareCache(fs)
	if err := fs.Parse([]string{"--cache", t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	if c := f.Ready(); c.Cache == nil || c.Cache.Dir != f.CacheDir || fs.Lookup("arxiv-api") != nil {
		t.Errorf("watch's flags: %+v", c)
	}
}
