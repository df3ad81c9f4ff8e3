package site

import (
	"bytes"
	"io/fs"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

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

// TestTmplexecFallback builds the survey with a --templates folder
// that uses what tmplexec does not reproduce (the slice and index
// builtins, break): those templates run on html/template, the others on tmplexec,
// and the site is html/template's byte for byte.
func TestTmplexecFallback(t *testing.T) {
	tfs := fstest.MapFS{}
	src := TemplateFS("")
	names, err := fs.Glob(src, "*.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		b, err := fs.ReadFile(src, name)
		if err != nil {
			t.Fatal(err)
		}
		tfs[name] = &fstest.MapFile{Data: b}
	}
	edit := func(name, old, new string) {
		s := string(tfs[name].Data)
		if !strings.Contains(s, old) {
			t.Fatalf("%s has no %q", name, old)
		}
		tfs[name] = &fstest.MapFile{Data: []byte(strings.Replace(s, old, new, 1))}
	}
	edit("entry.html", `<h1><bdi>{{.Heading}}</bdi></h1>`, `<h1><bdi>{{.Heading}}</bdi> {{slice .Key 1}}{{range .Links}}{{break}}{{end}}</h1>`)
	edit("term.html", `{{define "content"}}`, `{{define "content"}}<!-- {{index $.Title 0}} -->`)
	edit("layout.html", `({{.E.YearText}})`, `({{.E.YearText}}, {{printf "%q" .E.Title}})`)
	ck := openCorpus(t, corpustest.Dir(t), nil)
	fast, slow, cache := buildBoth(t, ck, Options{Templates: tfs})
	sameFiles(t, fast, slow)
	if b, _ := fast.Get("papers/" + ck.Corpus.Papers[0].Key + "/index.html"); !bytes.Contains(b, []byte(`&#34;`)) {
		t.Error("the edited cell-neighbour item is not on an entry page")
	}
	for _, tc := range []struct{ set, want string }{
		{"entry", "slice"},
		{"term", "index"},
	} {
		st := cache.tmpl[tc.set].Stats()
		if why := st.Uncompiled["layout"]; !strings.Contains(why, tc.want) {
			t.Errorf("%s.html: layout compiled (%q), want it on html/template for %s", tc.set, why, tc.want)
		}
	}
	// The cell-neighbour piece with printf runs on tmplexec.
	if st := cache.tmpl["entry"].Stats(); st.Uncompiled["cell-neighbour"] != "" || st.Fast == 0 {
		t.Errorf("entry.html's pieces: %+v, want them on tmplexec", st)
	}
}

// TestTmplexecRandomData runs every page of the survey, and the pieces
// the pages share, through both executors after random changes to
// their data (strings with markup, NUL and invalid UTF-8, numbers,
// nil pointers and interfaces, empty lists): the bytes and the failures
// must be the same, and most executions must stay on tmplexec, or the
// comparison proves nothing.
func TestTmplexecRandomData(t *testing.T) {
	ck := openCorpus(t, corpustest.Dir(t), nil)
	r, err := render(ck, Options{}, outdir.Memory())
	if err != nil {
		t.Fatal(err)
	}
	srcs, _, err := readTemplates(TemplateFS(""))
	if err != nil {
		t.Fatal(err)
	}
	slow, err := parseTemplateSources(srcs, true)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(38, 1))
	runs := 0
	for i, j := range r.jobs {
		if j.tmpl == "" || i%3 != 0 && j.tmpl == "entry" {
			continue
		}
		data := j.data
		if j.build != nil {
			var p *Page
			data, p = j.build(j.input())
			r.frame(j.tmpl, p)
		}
		for round := range 3 {
			if round > 0 {
				mutate(rng, reflect.ValueOf(data), 0, map[uintptr]bool{})
			}
			var a, b bytes.Buffer
			errA := r.tmpl[j.tmpl].ExecuteTemplate(&a, "layout", data)
			errB := slow[j.tmpl].ExecuteTemplate(&b, "layout", data)
			runs++
			if (errA == nil) != (errB == nil) || errA != nil && errA.Error() != errB.Error() {
				t.Fatalf("%s, round %d: tmplexec %v, html/template %v", j.file, round, errA, errB)
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Fatalf("%s, round %d: the pages differ", j.file, round)
			}
		}
	}
	var fast, fallback int64
	for _, set := range r.tmpl {
		st := set.Stats()
		fast, fallback = fast+st.Fast, fallback+st.Fallback
	}
	t.Logf("%d pages: %d executions on tmplexec, %d handed to html/template", runs, fast, fallback)
	if fast < 2*fallback || fast < int64(runs) {
		t.Errorf("%d executions on tmplexec, %d handed to html/template: too few on tmplexec", fast, fallback)
	}
}

// nasty are the strings mutate puts in place of a string.
var nasty = []string{"", "<script>x</script>", "a&b\"c'd+e", "\x00", "\xff\xfe", "javascript:alert(1)",
	"https://x.example/a b?c=d&e=%zz", "\u2028", "é", "100%", "on", "x y"}

// mutate changes v's exported fields at random, through pointers,
// slices and interfaces, down to a depth of six.
func mutate(rng *rand.Rand, v reflect.Value, depth int, seen map[uintptr]bool) {
	if depth > 6 || !v.IsValid() {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		mutate(rng, v.Elem(), depth+1, seen)
	case reflect.Interface:
		if v.CanSet() && !v.IsNil() && rng.IntN(8) == 0 {
			v.SetZero()
			return
		}
		if !v.IsNil() {
			mutate(rng, v.Elem(), depth+1, seen)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				mutate(rng, v.Field(i), depth+1, seen)
			}
		}
	case reflect.Slice:
		if v.CanSet() && v.Len() > 0 && rng.IntN(6) == 0 {
			v.SetLen(rng.IntN(v.Len()))
		}
		for i := 0; i < v.Len(); i++ {
			mutate(rng, v.Index(i), depth+1, seen)
		}
	case reflect.String:
		if v.CanSet() && rng.IntN(3) == 0 {
			v.SetString(nasty[rng.IntN(len(nasty))] + v.String()[:rng.IntN(v.Len()+1)])
		}
	case reflect.Int, reflect.Int64:
		if v.CanSet() && rng.IntN(3) == 0 {
			v.SetInt(int64(rng.IntN(5) - 1))
		}
	case reflect.Bool:
		if v.CanSet() && rng.IntN(3) == 0 {
			v.SetBool(!v.Bool())
		}
	}
}
