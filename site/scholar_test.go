package site

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/site/outdir"
)

func TestScholarMeta(t *testing.T) {
	bib := &corpus.BibEntry{Fields: map[string]string{
		"author": "Liu, Shuo and Amato, Christopher and others",
		"url":    "https://arxiv.org/abs/2508.04652v3",
		"doi":    "10.1/{X}",
	}}
	e := &corpus.Entry{Title: "T", FirstAuthor: "Liu, S.", Year: 2025}
	m := scholarMeta(e, bib)
	if !slices.Equal(m.Authors, []string{"Liu, Shuo", "Amato, Christopher"}) || m.Date != "2025" ||
		m.ArxivID != "2508.04652" || m.PDFURL != "https://arxiv.org/pdf/2508.04652" || m.DOI != "10.1/X" {
		t.Errorf("with BibTeX: %+v", m)
	}
	// Without BibTeX: the CSV's first author and arXiv ID.
	e = &corpus.Entry{Title: "U", FirstAuthor: "Roe, Rick", ArxivID: "2301.00001"}
	m = scholarMeta(e, nil)
	if !slices.Equal(m.Authors, []string{"Roe, Rick"}) || m.Date != "" || m.PDFURL != "https://arxiv.org/pdf/2301.00001" || m.DOI != "" {
		t.Errorf("without BibTeX: %+v", m)
	}
}

func TestScholarlyArticleJSON(t *testing.T) {
	m := &ScholarMeta{Title: "</script><b>x", Authors: []string{"A"}, Date: "2024", ArxivID: "2301.00001"}
	ev := &EntryView{Entry: &corpus.Entry{OneLiner: "one", Venue: "NeurIPS"}, Tags: []*Tag{{FieldLabel: "Reward", Label: "Shared"}}}
	b, err := json.Marshal(scholarlyArticle(m, ev, "https://example.org/papers/k/"))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got["@type"] != "ScholarlyArticle" || got["headline"] != m.Title || got["datePublished"] != "2024" ||
		got["url"] != "https://example.org/papers/k/" {
		t.Errorf("article: %s", b)
	}
	if a, _ := got["author"].([]any); len(a) != 1 {
		t.Errorf("authors: %s", b)
	}
	if s, _ := got["sameAs"].([]any); len(s) != 1 || s[0] != "https://arxiv.org/abs/2301.00001" {
		t.Errorf("sameAs: %s", b)
	}
}

func TestDataset(t *testing.T) {
	abs := func(p string) string { return "https://example.org/" + p }
	d := dataset("N", "D", "https://arxiv.org/abs/2605.02801", []Link{{Text: "papers.csv", URL: "papers.csv"}, {Text: "papers.bib", URL: "papers.bib"}}, abs)
	if d.License != "https://creativecommons.org/publicdomain/zero/1.0/" || len(d.Distribution) != 2 ||
		d.Distribution[0].ContentURL != "https://example.org/papers.csv" || d.Distribution[0].EncodingFormat != "text/csv" ||
		d.Distribution[1].EncodingFormat != "application/x-bibtex" || d.IsBasedOn != "https://arxiv.org/abs/2605.02801" {
		t.Errorf("dataset: %+v", d)
	}
	// Without a base URL the addresses stay relative.
	d = dataset("N", "D", "", []Link{{Text: "papers.csv", URL: "papers.csv"}}, func(string) string { return "" })
	if d.URL != "" || d.Distribution[0].ContentURL != "papers.csv" {
		t.Errorf("dataset without a base URL: %+v", d)
	}
}

// ldJSON returns the decoded JSON-LD script of a page, failing when there
// is none or it is not JSON.
func ldJSON(t *testing.T, html string) map[string]any {
	t.Helper()
	const open = `<script type="application/ld+json">`
	_, rest, ok := strings.Cut(html, open)
	if !ok {
		t.Fatal("no JSON-LD script")
	}
	body, _, ok := strings.Cut(rest, "</script>")
	if !ok {
		t.Fatal("JSON-LD script not closed")
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("JSON-LD does not parse: %v\n%s", err, body)
	}
	return v
}

// TestScholarTags renders the tiny corpus and reads the head of its pages:
// every page has a meta description and Open Graph title and description;
// entry pages carry the citation tags, every author of their BibTeX, and a
// ScholarlyArticle whose hostile title stays inside the script as JSON;
// the home page describes the corpus as a CC0 Dataset.
func TestScholarTags(t *testing.T) {
	dir := corpusFromTxtar(t, "tiny.txtar")
	ck := openCorpus(t, dir, nil)
	files := outdir.Memory()
	if _, err := render(ck, Options{Config: siteconfig.Config{BaseURL: "https://example.org/awesome/"}}, files); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"index.html", "papers/index.html", "coverage/index.html", "papers/alpha/index.html", "taxonomy/reward_type/shared/index.html"} {
		p := page(t, files, name)
		for _, want := range []string{`<meta name="description" content="`, `<meta property="og:title" content="`, `<meta property="og:description" content="`} {
			if !strings.Contains(p, want) {
				t.Errorf("%s lacks %s", name, want)
			}
		}
	}
	alpha := page(t, files, "papers/alpha/index.html")
	for _, want := range []string{
		`<meta name="citation_title" content="Alpha: Orchestrating Agents with RL">`,
		`<meta name="citation_author" content="Doe, Jane">`,
		`<meta name="citation_publication_date" content="2025">`,
		`<meta name="citation_arxiv_id" content="2508.04652">`,
		`<meta name="citation_pdf_url" content="https://arxiv.org/pdf/2508.04652">`,
	} {
		if !strings.Contains(alpha, want) {
			t.Errorf("alpha's page lacks %s", want)
		}
	}
	if ld := ldJSON(t, alpha); ld["@type"] != "ScholarlyArticle" || ld["url"] != "https://example.org/awesome/papers/alpha/" {
		t.Errorf("alpha's JSON-LD: %v", ld)
	}
	beta := page(t, files, "papers/beta/index.html")
	if ld := ldJSON(t, beta); ld["headline"] != "<script>alert(1)</script> & Friends" {
		t.Errorf("beta's JSON-LD headline %q, want the title as text", ld["headline"])
	}
	if strings.Count(beta, "<script>alert(1)") != 0 {
		t.Error("beta's hostile title became markup")
	}
	ld := ldJSON(t, page(t, files, "index.html"))
	dist, _ := ld["distribution"].([]any)
	if ld["@type"] != "Dataset" || ld["license"] != "https://creativecommons.org/publicdomain/zero/1.0/" || len(dist) < 4 {
		t.Errorf("home's JSON-LD: %v", ld)
	}
}
