package site

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/siteconfig"
)

// hostileRows are papers.csv rows whose every free-text field holds what
// an escaper can get wrong: markup, quotes, ampersands, plus signs, NUL,
// script URLs, spaces and non-ASCII bytes in URLs, invalid UTF-8, and a
// controlled value outside the vocabulary.
var hostileRows = []string{
	`k1,"<b>T</b> & ""q"" 'a' +1",<A>,"Aff & <i>",2025,2501.00001,"V<x>+","https://ok.example/a b?x=1&y=+é ; javascript:alert(1) ; JAVASCRIPT:x ; ftp://x/a ; https://h.example/%2F'""<>",survey,yes,NA,NA,NA,NA,core,"one <liner> & '""",yes,"notes ` + "\x00" + ` & <script>"`,
	`k2,Plain,B,,2024,,arXiv,,benchmark,no,NA,NA,NA,NA,supporting,,partial,`,
	"k3,\"bad \xff\xfe utf8\",C,,2023,not-an-id,V,https://x.example/\xff,industry,partial,shared,agent,centralized,coding,case,x,no,n",
	`k4,T4,D,,2025,2502.00002,V,mailto:a@b.example,rl_method,yes,bogus_value,message,debate,math,core,y,yes,`,
}

// entryHTMLCorpora are the corpora on which the hand-written entry HTML
// must equal the templates': the fixture, hostile rows and, under make
// test, the survey's corpus.
func entryHTMLCorpora(t *testing.T) map[string]*corpus.Corpus {
	t.Helper()
	out := map[string]*corpus.Corpus{}
	c, _ := load(t, corpusFromTxtar(t, "tiny.txtar"))
	out["tiny"] = c
	header := strings.Join(corpus.PaperColumns(), ",") + "\n"
	csv := header + strings.Join(hostileRows, "\n") + "\n"
	h, err := corpus.ParsePapers("papers.csv", []byte(csv))
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Papers) != len(hostileRows) {
		t.Fatalf("%d hostile rows parsed, want %d", len(h.Papers), len(hostileRows))
	}
	h.Dir = t.TempDir()
	if err := os.WriteFile(filepath.Join(h.Dir, "papers.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	out["hostile"] = h
	if dir := os.Getenv("MASRL_CORPUS"); dir != "" {
		real, _ := load(t, dir)
		out["survey"] = real
	}
	return out
}

// TestEntryHTMLMatchesTemplates renders every entry's page and list items
// with the templates and by hand, and requires the same bytes.
func TestEntryHTMLMatchesTemplates(t *testing.T) {
	v, err := corpus.DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range entryHTMLCorpora(t) {
		r, err := render(c, v, Options{}, newFiles())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(r.entries) != len(c.Papers) {
			t.Fatalf("%s: %d entries rendered, want %d", name, len(r.entries), len(c.Papers))
		}
		for _, ev := range r.entries {
			ep := r.entryPage(ev)
			r.frame("entry", &ep.Page)
			var want bytes.Buffer
			if err := r.tmpl["entry"].ExecuteTemplate(&want, "layout", ep); err != nil {
				t.Fatal(err)
			}
			sameHTML(t, name+" "+ev.Key+" page", string(entryPageHTML(nil, ep)), want.String())
			sameHTML(t, name+" "+ev.Key+" entry-item-open", string(appendItemOpen(nil, ev.Entry)), string(r.piece("papers", "entry-item-open", ev.Entry)))
			tags := r.appendItemTags(nil, ev)
			sameHTML(t, name+" "+ev.Key+" entry-item-close", string(appendItemClose(nil, ev.Entry, tags)), string(r.piece("papers", "entry-item-close", itemCloseArgs{ev.Entry, tags.Join()})))
			sameHTML(t, name+" "+ev.Key+" entry-brief-open", entryBriefOpen(ev.Entry), string(r.piece("papers", "entry-brief-open", ev.Entry)))
			sameHTML(t, name+" "+ev.Key+" entry-brief-close", entryBriefClose(ev.Entry), string(r.piece("papers", "entry-brief-close", ev.Entry)))
			for _, root := range []string{"", "../", "../../../"} {
				sameHTML(t, name+" "+ev.Key+" entry-item-link "+root, entryItemLink(root, ev), string(r.piece("papers", "entry-item-link", entryItemArgs{root, ev})))
			}
		}
		if r.cache.err != nil {
			t.Fatal(r.cache.err)
		}
	}
}

// sameHTML reports the first difference between got and want.
func sameHTML(t *testing.T, what, got, want string) {
	t.Helper()
	if got == want {
		return
	}
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-60)
	t.Errorf("%s differs from its template at byte %d:\n got  …%q\n want …%q", what, i, got[from:min(len(got), i+60)], want[from:min(len(want), i+60)])
}

// TestByHandSiteEqualsTemplates builds each corpus twice in memory, with
// the embedded templates as given (entry pages and list items by hand) and
// as if --templates had named them (every page by html/template), and
// requires the same files with the same bytes.
func TestByHandSiteEqualsTemplates(t *testing.T) {
	v, err := corpus.DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range entryHTMLCorpora(t) {
		cfg := Options{Today: today, BaseURL: "https://example.org/x/", Language: "en-GB", Repository: siteconfig.Repository{URL: "https://github.com/o/n"}}
		hand, _, err := Render(c, v, cfg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cfg.Templates = overlayFS{top: TemplateFS(""), bottom: TemplateFS("")}
		tmpl, _, err := Render(c, v, cfg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if a, b := hand.Names(), tmpl.Names(); strings.Join(a, "\n") != strings.Join(b, "\n") {
			t.Fatalf("%s: by hand %d files, by template %d", name, len(a), len(b))
		}
		for _, f := range hand.Names() {
			a, _ := hand.Get(f)
			b, _ := tmpl.Get(f)
			sameHTML(t, name+" "+f, string(a), string(b))
		}
	}
}

// TestByHandOnlyWithEmbeddedTemplates: the command line passes the
// embedded templates as TemplateFS(""), which must take the fast path;
// a --templates directory must not.
func TestByHandOnlyWithEmbeddedTemplates(t *testing.T) {
	c, v := load(t, corpusFromTxtar(t, "tiny.txtar"))
	for _, tt := range []struct {
		name string
		tfs  fs.FS
		want bool
	}{
		{"nil", nil, true},
		{"TemplateFS(\"\")", TemplateFS(""), true},
		{"a directory", TemplateFS(t.TempDir()), false},
	} {
		r, err := render(c, v, Options{Templates: tt.tfs}, newFiles())
		if err != nil {
			t.Fatal(err)
		}
		if r.byHand != tt.want {
			t.Errorf("templates %s: byHand %v, want %v", tt.name, r.byHand, tt.want)
		}
	}
}
