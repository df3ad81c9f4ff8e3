package site

import (
	"bytes"
	"slices"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/release"
	"github.com/masrl/masrl/internal/corpustest"
	"github.com/masrl/masrl/site/outdir"
)

// buildBoth builds ck in memory with tmplexec and with html/template
// alone, and returns both sites and the cache of the first, whose
// template sets count how each template ran.
func buildBoth(t *testing.T, ck *corpus.Checked, opt Options) (fast, slow *outdir.Files, cache *Cache) {
	t.Helper()
	cache = NewCache()
	opt.Cache = cache
	res, err := Build(ck, opt)
	if err != nil {
		t.Fatalf("Build with tmplexec: %v", err)
	}
	fast = res.Files
	opt.Cache, opt.htmlOnly = nil, true
	res, err = Build(ck, opt)
	if err != nil {
		t.Fatalf("Build with html/template: %v", err)
	}
	return fast, res.Files, cache
}

// sameFiles fails the test for each file that differs between a and b.
func sameFiles(t *testing.T, a, b *outdir.Files) {
	t.Helper()
	na, nb := a.Names(), b.Names()
	if len(na) != len(nb) {
		t.Errorf("%d files with tmplexec, %d with html/template", len(na), len(nb))
	}
	bad := 0
	for _, name := range na {
		x, _ := a.Get(name)
		y, ok := b.Get(name)
		if !ok {
			t.Errorf("%s: only with tmplexec", name)
			continue
		}
		if !bytes.Equal(x, y) {
			if bad++; bad <= 5 {
				i := 0
				for i < len(x) && i < len(y) && x[i] == y[i] {
					i++
				}
				lo := max(0, i-80)
				t.Errorf("%s differs at byte %d:\ntmplexec:      %q\nhtml/template: %q", name, i, x[lo:min(len(x), i+80)], y[lo:min(len(y), i+80)])
			}
		}
	}
	if bad > 5 {
		t.Errorf("… and %d more files differ", bad-5)
	}
}

// checkAllFast fails the test when a template of the build ran on
// html/template: our own templates must all run on tmplexec, or the
// comparison proves nothing.
func checkAllFast(t *testing.T, cache *Cache, unused ...string) {
	t.Helper()
	var fast int64
	for name, set := range cache.tmpl {
		st := set.Stats()
		fast += st.Fast
		if st.Fast == 0 && !slices.Contains(unused, name) {
			t.Errorf("%s.html: no execution on tmplexec", name)
		}
		for tmpl, why := range st.Uncompiled {
			t.Errorf("%s.html: template %s runs on html/template: %s", name, tmpl, why)
		}
		if st.Fallback != 0 {
			t.Errorf("%s.html: %d executions fell back to html/template", name, st.Fallback)
		}
	}
	if fast == 0 {
		t.Error("no template ran on tmplexec")
	}
}

// TestTmplexecSurveySite holds tmplexec to html/template on the
// survey's whole site: every file byte for byte, with every template of
// templates/ compiled (the survey has no releases: their pages are
// TestTmplexecSynthSite's).
func TestTmplexecSurveySite(t *testing.T) {
	ck := openCorpus(t, corpustest.Dir(t), nil)
	fast, slow, cache := buildBoth(t, ck, Options{})
	sameFiles(t, fast, slow)
	checkAllFast(t, cache, "releases", "release")
}

// TestTmplexecSynthSite does the same on a synthetic corpus of 300
// entries, with a base URL, a release and upkeep dates.
func TestTmplexecSynthSite(t *testing.T) {
	dir := synthCorpus(t, 300)
	if _, err := release.Snapshot(dir, "v1", "2026-06-01"); err != nil {
		t.Fatal(err)
	}
	if err := release.RecordUpkeep(dir, func(u *release.Upkeep) { u.Refreshed, u.LinksChecked = "2026-07-02", "2026-07-03" }); err != nil {
		t.Fatal(err)
	}
	history, err := release.ReadHistory(dir)
	if err != nil {
		t.Fatal(err)
	}
	ck := openCorpus(t, dir, nil)
	opt := Options{History: history}
	opt.BaseURL = "https://example.org/list/"
	fast, slow, cache := buildBoth(t, ck, opt)
	sameFiles(t, fast, slow)
	checkAllFast(t, cache)
}
