package templbench

import (
	"bytes"
	"context"
	"html/template"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// page returns an entry page's data shaped like a synthetic corpus's
// entry, with text that needs escaping, and its frame cut from the site's
// golden entry page.
func page(t testing.TB) *EntryPage {
	t.Helper()
	golden, err := os.ReadFile(filepath.Join("..", "..", "site", "testdata", "golden", "papers__alpha__index.html"))
	if err != nil {
		t.Fatal(err)
	}
	g := string(golden)
	_, top, _ := strings.Cut(g, "<link rel=\"canonical\"")
	_, top, _ = strings.Cut(top, "\n")
	top, _, _ = strings.Cut(top, "\n<main")
	_, bottom, _ := strings.Cut(g, "</main>\n")
	tag := `<li><a class="tag" href="../../taxonomy/reward_type/verifiable/"><span class="tag-field">Reward type:</span> verifiable (R2)</a></li>`
	return &EntryPage{
		Page: Page{
			Title: "Cooperative <Agents> & Credit: \"MAGRPO\"", HeadTitle: "Cooperative <Agents> & Credit: \"MAGRPO\" · Awesome RL for LLM Multi-Agent Systems",
			Description: "Trains 'agents' jointly & assigns credit per turn.", URL: "http://127.0.0.1:8080/papers/magrpo-1234/",
			Root: "../../", Top: template.HTML(top), Bottom: template.HTML(bottom),
		},
		Key: "magrpo-1234", Heading: "Cooperative <Agents> & Credit: \"MAGRPO\"", FirstAuthor: "Zhang", Affiliation: "Univ. A & B",
		Year: "2025", Venue: "NeurIPS", ArxivID: "2508.04652", ArxivURL: "https://arxiv.org/abs/2508.04652",
		OneLiner: "Trains 'agents' jointly & assigns credit per turn.", Notes: "v2 2025-09-01; code <released>",
		Bib:        "@article{magrpo-1234,\n  title={Cooperative Agents},\n  author={Zhang, A. and Li, B.},\n  year={2025}\n}\n",
		Links:      []Link{{"arxiv.org", "https://arxiv.org/abs/2508.04652", true}, {"github.com", "https://github.com/x/y?a=1&b=2", true}},
		Breadcrumb: `<p class="breadcrumb"><a href="../../papers/">Papers</a> › <a href="../../taxonomy/category/rl_method/">RL method</a></p>`,
		Verified:   `<a href="../../taxonomy/verified/yes/">Yes</a>`,
		CellHead:   `<p>Other entries with reward type <a href="../../taxonomy/reward_type/verifiable/">verifiable</a> and credit granularity <a href="../../taxonomy/credit_granularity/turn/">turn</a> (<a href="../../coverage/reward_type-credit_granularity/verifiable-turn/">the whole cell</a>):</p>`,
		BibHref:    "../../papers.bib", ClaimsHref: "../../claims/",
		TagItems:      template.HTML(strings.Repeat("\n"+tag, 8)),
		SameCellItems: template.HTML(strings.Repeat("\n<li><a href=\"../../papers/other-1/\">Another paper title here</a> (2024)</li>", 5)),
		Cell:          &CellLinks{Href: "../../coverage/reward_type-credit_granularity/verifiable-turn/", Count: 812}, SameCellMore: 806,
	}
}

// htmlTemplate parses the site's layout.html and entry.html.
func htmlTemplate(t testing.TB) *template.Template {
	t.Helper()
	dir := filepath.Join("..", "..", "templates")
	tm, err := template.ParseFiles(filepath.Join(dir, "layout.html"), filepath.Join(dir, "entry.html"))
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// TestSameWork checks both engines print the same escaped values, so that
// the benchmarks compare the same work. templ lays out whitespace its own
// way, so the pages are compared value by value, not byte by byte.
func TestSameWork(t *testing.T) {
	p := page(t)
	var a, b bytes.Buffer
	if err := htmlTemplate(t).ExecuteTemplate(&a, "layout", p); err != nil {
		t.Fatal(err)
	}
	if err := EntryPageTempl(p).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Cooperative &lt;Agents&gt; &amp; Credit: &#34;MAGRPO&#34;", "Univ. A &amp; B", "code &lt;released&gt;",
		`href="https://github.com/x/y?a=1&amp;b=2"`, "Trains &#39;agents&#39; jointly &amp; assigns credit per turn.",
		"And 806 more", "all 812 entries", string(p.Bottom[:200]),
	} {
		if !strings.Contains(a.String(), want) {
			t.Errorf("html/template lacks %q", want)
		}
		if !strings.Contains(b.String(), want) {
			t.Errorf("templ lacks %q", want)
		}
	}
	t.Logf("html/template %d bytes, templ %d bytes", a.Len(), b.Len())
}

func BenchmarkEntryPage(b *testing.B) {
	p := page(b)
	var buf bytes.Buffer
	b.Run("engine=html-template", func(b *testing.B) {
		tm := htmlTemplate(b)
		for b.Loop() {
			buf.Reset()
			if err := tm.ExecuteTemplate(&buf, "layout", p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("engine=templ", func(b *testing.B) {
		ctx := context.Background()
		for b.Loop() {
			buf.Reset()
			if err := EntryPageTempl(p).Render(ctx, &buf); err != nil {
				b.Fatal(err)
			}
		}
	})
}
