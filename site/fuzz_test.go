package site

import (
	"bytes"
	"encoding/csv"
	"html"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/site/outdir"
)

var unsafeHref = regexp.MustCompile(`(?i)\b(href|src)="\s*(javascript|data|vbscript):`)

// FuzzEntryPage renders an unchecked row whose free-text fields are
// arbitrary: each field must appear in its place as escaped text that reads
// back as the original, and no link may use a script scheme.
func FuzzEntryPage(f *testing.F) {
	f.Add("<script>alert(1)</script>", "javascript:alert(1)", "<img src=x onerror=alert(1)>", "1")
	f.Add("Title \" ' & <", "https://ok.example/a ; data:text/html,<b>x</b>", "{{.Key}}", "\u2028")
	f.Add("</textarea><svg/onload=1>", " JAVASCRIPT:x", "a\nb", "`")
	d, err := corpus.LoadData(nil, data.SurveyProfile, "")
	if err != nil {
		f.Fatal(err)
	}
	tmpl, _, err := parseTemplates(TemplateFS(""))
	if err != nil {
		f.Fatal(err)
	}
	base, _ := parseBaseURL("")
	f.Fuzz(func(t *testing.T, title, url, notes, venue string) {
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		w.Write(corpus.PaperColumns())
		w.Write([]string{"k", title, venue, notes, "2025", "", venue, url, "survey", "yes", "NA", "NA", "NA", "NA", "core", title, "yes", notes})
		w.Flush()
		c, err := corpus.ParsePapers("papers.csv", buf.Bytes())
		if err != nil || len(c.Papers) != 1 {
			t.Skip()
		}
		// Only the entry page is rendered, so that the fuzzer runs fast;
		// TestUnsafeInput renders whole sites from unchecked rows.
		r := &renderer{
			inputs: inputs{
				c: c, v: d.Vocabulary, base: base, tmpl: tmpl, data: d.FS, md: newMarkdown(),
				claimSet: d.Claims, pool: d.Pool, survey: d.Survey,
			},
			output: output{files: outdir.Memory()},
		}
		if err := r.prepare(); err != nil {
			t.Fatal(err)
		}
		ep := r.entryPage(r.byKey["k"])
		var out bytes.Buffer
		if err := tmpl["entry"].ExecuteTemplate(&out, "layout", ep); err != nil {
			t.Fatal(err)
		}
		page := out.String()
		if r.cache.err != nil {
			t.Fatal(r.cache.err)
		}
		e := c.Papers[0]
		for _, f := range []struct{ name, before, after, want string }{
			{"title", "<h1><bdi>", "</bdi></h1>", e.Title},
			{"venue", "<dt>Venue</dt><dd>", "</dd>", e.Venue},
			{"notes", "<h2 id=\"notes-h\">Notes</h2>\n<p>", "</p>\n</section>", e.Notes},
		} {
			if f.want == "" || !utf8.ValidString(f.want) {
				continue // the check rejects invalid UTF-8 before any build
			}
			// html/template writes NUL as U+FFFD.
			f.want = strings.ReplaceAll(f.want, "\x00", "\uFFFD")
			_, rest, ok := strings.Cut(page, f.before)
			if !ok {
				t.Fatalf("%s: no %q in the page", f.name, f.before)
			}
			got, _, ok := strings.Cut(rest, f.after)
			if !ok || strings.ContainsAny(got, "<>") || html.UnescapeString(got) != f.want {
				t.Fatalf("%s %q rendered as %q", f.name, f.want, got)
			}
		}
		if m := unsafeHref.FindString(page); m != "" {
			t.Fatalf("script link %q", m)
		}
	})
}
