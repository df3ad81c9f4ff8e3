package importer

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/masrl/masrl/internal/golden"
)

// fixtures are the sources under testdata/import, each imported alone.
var fixtures = []string{"bullets.md", "table.md", "flat.md", "unreadable.md", "refs.bib", "zotero.json", "details.md", "badges.md", "commented.bib"}

const fixtureDir = "../../testdata/import"

func importFixture(t *testing.T, name string) (*Result, map[string][]byte) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(fixtureDir, name))
	if err != nil {
		t.Fatal(err)
	}
	var r Result
	if err := r.Read(name, src, Options{}); err != nil {
		t.Fatal(err)
	}
	files, err := r.Files(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &r, files
}

// TestImportGolden imports each fixture, checks the list it makes and
// compares the report and the files with their goldens.
func TestImportGolden(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			r, files := importFixture(t, name)
			if err := Check("list", files); err != nil {
				t.Fatalf("the imported list does not check clean:\n%v", err)
			}
			var b bytes.Buffer
			r.Report(&b)
			for _, f := range []string{"papers.csv", "papers.bib", "vocab.yaml", "masrl.yaml"} {
				b.WriteString("--- " + f + "\n")
				b.Write(files[f])
			}
			golden.Check(t, filepath.Join(fixtureDir, "golden", name+".txt"), b.Bytes())
		})
	}
}

// TestUnreadableItems: a README with five items it cannot read reports
// exactly those five, at their lines, and keeps the rest.
func TestUnreadableItems(t *testing.T) {
	r, files := importFixture(t, "unreadable.md")
	var got []string
	for _, p := range r.Problems {
		got = append(got, p.Pos)
	}
	want := []string{"unreadable.md:6", "unreadable.md:7", "unreadable.md:8", "unreadable.md:10", "unreadable.md:11"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("problems at %v, want %v", got, want)
	}
	if len(r.Entries) != 3 {
		t.Errorf("%d entries, want 3", len(r.Entries))
	}
	if !bytes.Contains(files["papers.csv"], []byte("AgentBench")) {
		t.Error("the readable items after the unreadable ones are missing")
	}
}

// TestCrossListed: an item under two headings is one entry with both
// values, nested headings are nested values, and so is a group item
// ("- **Surveys**" over a nested list).
func TestCrossListed(t *testing.T) {
	r, _ := importFixture(t, "bullets.md")
	var react *Entry
	for _, e := range r.Entries {
		if e.ArxivID == "2210.03629" {
			react = e
		}
	}
	if react == nil || strings.Join(react.Values, ";") != "planning;reasoning" {
		t.Fatalf("ReAct: %+v, want one entry under planning and reasoning", react)
	}
	if react.Code != "https://github.com/ysymyth/ReAct" || react.Project != "https://react-lm.github.io/" || react.Date != "2022-10" {
		t.Errorf("ReAct's links or date: %+v", react)
	}
	parents := map[string]string{}
	for _, v := range r.Values {
		parents[v.Value] = v.Parent
	}
	if parents["critique"] != "self-reflection" || parents["self-reflection"] != "reasoning" || parents["reasoning"] != "planning" || parents["surveys"] != "planning" {
		t.Errorf("the four-level heading tree became %v", parents)
	}
}

// TestWriteNewRefusesNonEmpty: --out never writes into a directory that
// holds files.
func TestWriteNewRefusesNonEmpty(t *testing.T) {
	_, files := importFixture(t, "table.md")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteNew(dir, files); err == nil || !strings.Contains(err.Error(), "is not empty") {
		t.Fatalf("WriteNew into a non-empty directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "papers.csv")); err == nil {
		t.Error("papers.csv was written into a non-empty directory")
	}
	empty := filepath.Join(t.TempDir(), "new")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteNew(empty, files); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(empty)
	if len(ents) != 4 {
		t.Errorf("%d files written, want 4", len(ents))
	}
}

func fuzzRead(f *testing.F, seeds ...string) {
	for _, s := range seeds {
		b, err := os.ReadFile(filepath.Join(fixtureDir, s))
		if err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) { readAll(t, src) })
}

// FuzzImportMarkdown: any input gives a report or an error, never a panic.
func FuzzImportMarkdown(f *testing.F) {
	fuzzRead(f, "bullets.md", "table.md", "flat.md", "unreadable.md")
}

// FuzzImportBib: any input gives a report or an error, never a panic.
func FuzzImportBib(f *testing.F) { fuzzRead(f, "refs.bib") }

// FuzzImportCSL: any input gives a report or an error, never a panic.
func FuzzImportCSL(f *testing.F) { fuzzRead(f, "zotero.json") }

// TestCSL: Zotero's tags and collections become values, the arXiv id
// comes from the number field, dates from date-parts or raw, and an
// organisation stays one name.
func TestCSL(t *testing.T) {
	r, files := importFixture(t, "zotero.json")
	byTitle := map[string]*Entry{}
	for _, e := range r.Entries {
		byTitle[e.Title] = e
	}
	react := byTitle["ReAct: Synergizing Reasoning and Acting in Language Models"]
	if react == nil || react.ArxivID != "2210.03629" || react.Date != "2023-03-09" || !slices.Contains(react.Values, "agents") || !slices.Contains(react.Values, "tool-use") {
		t.Errorf("ReAct: %+v", react)
	}
	if gat := byTitle["Graph Attention Networks"]; gat == nil || gat.Date != "2017-10-30" || gat.ArxivID != "1710.10903" {
		t.Errorf("GAT: %+v", gat)
	}
	if !bytes.Contains(files["papers.bib"], []byte("{MineDojo Team}")) {
		t.Errorf("the organisation is not one name:\n%s", files["papers.bib"])
	}
	if len(r.Problems) != 2 {
		t.Errorf("problems %v, want the undated page and the string author", r.Problems)
	}
}

// TestDetect names each fixture's format from its content.
func TestDetect(t *testing.T) {
	for name, want := range map[string]Format{"bullets.md": Markdown, "table.md": Markdown, "flat.md": Markdown, "refs.bib": BibTeX, "zotero.json": CSLJSON} {
		src, err := os.ReadFile(filepath.Join(fixtureDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if got := Detect(src); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	for _, md := range []string{"[Title](https://x) is a link\n", "# Cite us\n\n```\n@article{us,\n}\n```\n", "@someone's list\n"} {
		if got := Detect([]byte(md)); got != Markdown {
			t.Errorf("Detect(%q) = %s, want Markdown", md, got)
		}
	}
}

// TestTexText: LaTeX escapes and accents in BibTeX titles and names
// become plain text.
func TestTexText(t *testing.T) {
	for in, want := range map[string]string{
		`M{\"u}ller`:              "Müller",
		`Dess{\` + "`" + `\i}`:    "Dessì",
		`G{\'o}mez`:               "Gómez",
		`A {\&} B --- C -- D`:     "A & B — C – D",
		`{ReAct}: 100\% \emph{x}`: "ReAct: 100% x",
		`\c{c}a~va`:               "ça va",
	} {
		if got := texText(in); got != want {
			t.Errorf("texText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestNestedDetails: the shapes of real lists whose items carry their
// details in nested bullets (authors, "Keyword:", "Code: [Official](…)",
// "Project page:", a one-line summary), a news section of bold dates,
// Hugging Face paper pages, italic authors with affiliations followed by
// "et al. VENUE", and a table listing the same papers by short name.
func TestNestedDetails(t *testing.T) {
	r, _ := importFixture(t, "details.md")
	if len(r.Problems) != 0 {
		t.Errorf("problems %v, want none: the news section is skipped and details belong to their item", r.Problems)
	}
	byID := map[string]*Entry{}
	for _, e := range r.Entries {
		byID[e.ArxivID] = e
	}
	if len(r.Entries) != 4 {
		t.Errorf("%d entries, want 4", len(r.Entries))
	}
	cai := byID["2212.08073"]
	if cai == nil || cai.Title != "Constitutional AI: Harmlessness from AI Feedback" || cai.Date != "2022-12" ||
		cai.Code != "https://github.com/anthropics/ConstitutionalHarmlessnessPaper" || len(cai.Authors) != 3 || cai.Authors[0].Family != "Bai" {
		t.Errorf("Constitutional AI: %+v", cai)
	}
	dpo := byID["2305.18290"]
	if dpo == nil || dpo.Year != 2023 || dpo.Project != "https://example.org/dpo" || len(dpo.Authors) != 3 {
		t.Errorf("DPO (a huggingface.co/papers link): %+v", dpo)
	}
	srag := byID["2310.11511"]
	if srag == nil || len(srag.Authors) != 1 || srag.Authors[0].Family != "Asai" || srag.Authors[0].Given != "Akari" ||
		srag.Venue != "ICLR 2024" || !strings.HasPrefix(srag.OneLiner, "This work trains") || srag.Code != "https://github.com/AkariAsai/self-rag" {
		t.Errorf("Self-RAG: %+v", srag)
	}
	voy := byID["2305.16291"]
	if voy == nil || len(voy.Authors) != 1 || voy.Authors[0].Family != "Wang" || voy.Venue != "arXiv" ||
		voy.Title != "Voyager: An Open-Ended Embodied Agent with Large Language Models" || strings.Join(voy.Values, ";") != "methods;papers" {
		t.Errorf("Voyager (its short name in the table must not replace the title): %+v", voy)
	}
}

// TestPlainTitleBadgeTable: a table whose Title column is plain text and
// whose paper and code links are badges; a row without a date but with
// a blog link is reported, not dropped silently.
func TestPlainTitleBadgeTable(t *testing.T) {
	r, _ := importFixture(t, "badges.md")
	if len(r.Entries) != 2 {
		t.Fatalf("%d entries %+v, want R1 (listed twice) and VinePPO", len(r.Entries), r.Entries)
	}
	r1 := r.Entries[0]
	if r1.Title != "DeepSeek-R1: Incentivizing Reasoning Capability in LLMs via Reinforcement Learning" || r1.ArxivID != "2501.12948" ||
		r1.URL != "https://arxiv.org/abs/2501.12948" || r1.Code != "https://github.com/deepseek-ai/DeepSeek-R1" || r1.Date != "2025-01" ||
		strings.Join(r1.Values, ";") != "models;credit-assignment" {
		t.Errorf("R1: %+v", r1)
	}
	if len(r.Problems) != 1 || r.Problems[0].Pos != "badges.md:10" || !strings.Contains(r.Problems[0].Msg, "QwQ-32B") {
		t.Errorf("problems %v, want the undated QwQ row at line 10", r.Problems)
	}
}

// TestCommentedBib: a BibTeX file with "# heading" comment lines between
// its entries is BibTeX, not a README, and an entry without a link is
// reported with a hint in BibTeX's terms.
func TestCommentedBib(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(fixtureDir, "commented.bib"))
	if err != nil {
		t.Fatal(err)
	}
	if got := Detect(src); got != BibTeX {
		t.Fatalf("Detect = %s, want BibTeX", got)
	}
	r, _ := importFixture(t, "commented.bib")
	if len(r.Entries) != 2 {
		t.Errorf("%d entries, want 2", len(r.Entries))
	}
	// The hint names what BibTeX has, not Markdown's [Title](url).
	if len(r.Problems) != 1 || r.Problems[0].String() != `commented.bib:24: "A Survey of Credit Assignment" has no link: give it a url, doi or eprint field` {
		t.Errorf("problems %v, want the entry without a link at line 24", r.Problems)
	}
}

// TestMergeIdentities: items are one paper by arXiv id, DOI or
// normalised title, also by an identity learnt when an earlier listing
// merged (a short name, then the whole title, then the whole title
// again); titles without a letter or digit never make two papers one,
// nor do equal titles with different arXiv ids (R1-Searcher and
// R1-Searcher++).
func TestMergeIdentities(t *testing.T) {
	src := `# L

## A

| Name | Venue |
| --- | --- |
| [Search-R1](https://arxiv.org/abs/2503.09516) | COLM |
| [R1-Searcher](https://arxiv.org/abs/2503.05592) | arXiv |
| [R1-Searcher++](https://arxiv.org/abs/2505.17005) | arXiv |

## B

- [2025-03] [Search-R1: Training LLMs to Reason and Leverage Search Engines](https://arxiv.org/abs/2503.09516v2)
- [2025-03] [Search-R1: Training LLMs to Reason and Leverage Search Engines](https://example.org/search-r1)
- [2024] [???](https://example.org/a)
- [2024] [!!!](https://example.org/b)
- [2024] [A Paper](https://doi.org/10.1000/XYZ)

## C

- [2024] [The Same Paper, Retitled](https://doi.org/10.1000/xyz)
- [2025-03] **Search-R1: Training LLMs to Reason and Leverage Search Engines**
- **Answer quality**: exact match, or *LLM-as-a-judge* scores (as in [Search-R1](https://arxiv.org/abs/2503.09516)).
`
	var r Result
	if err := r.Read("l.md", []byte(src), Options{}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range r.Entries {
		got = append(got, e.Title+" ["+strings.Join(e.Values, ",")+"]")
	}
	want := []string{
		"Search-R1: Training LLMs to Reason and Leverage Search Engines [a,b,c]",
		"R1-Searcher [a]", "R1-Searcher++ [a]",
		"??? [b]", "!!! [b]",
		"A Paper [b,c]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A prose item that mentions a paper gives it no authors.
	if a := r.Entries[0].Authors; len(a) != 0 {
		t.Errorf("Search-R1's authors %v, want none", a)
	}
}

// BenchmarkReadLarge reads a README of 4,000 items: the merge by
// identity is a look-up, not a scan of every entry read before.
func BenchmarkReadLarge(b *testing.B) {
	var src bytes.Buffer
	src.WriteString("# Large\n\n## A\n\n")
	for i := range 4000 {
		fmt.Fprintf(&src, "- [2023-05] **Paper number %d about things** [[paper](https://arxiv.org/abs/2305.%05d)]\n", i, i)
	}
	for b.Loop() {
		var r Result
		if err := r.Read("large.md", src.Bytes(), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestOneBadItemDoesNotStopTheImport: inputs the fuzzer found whose one
// odd item made files that fail the check, so that nothing at all was
// written: a relative or mistyped link, and an arXiv badge before a
// title linking another arXiv paper. A source that is not UTF-8 is a
// clear error at its line and column.
func TestOneBadItemDoesNotStopTheImport(t *testing.T) {
	src := "# L\n\n## A\n\n" +
		"- [2023-01] [A Paper](./paper.pdf)\n" +
		"- [2023-02] [B Paper](htttps://example.org/b) [[paper](https://arxiv.org/abs/2302.04761)] [[code](../code)]\n" +
		"- [![arXiv](https://img.shields.io/badge/arXiv-b31b1b)](https://arxiv.org/abs/2308.11432) [2022-10] [C Paper](https://arxiv.org/abs/2210.03629)\n"
	var r Result
	if err := r.Read("l.md", []byte(src), Options{}); err != nil {
		t.Fatal(err)
	}
	files, err := r.Files(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check("list", files); err != nil {
		t.Fatalf("one odd item fails the whole import:\n%v", err)
	}
	if len(r.Problems) != 1 || r.Problems[0].String() != `l.md:5: "A Paper" has no link: "./paper.pdf" is not an absolute http or https URL` {
		t.Errorf("problems %v", r.Problems)
	}
	if len(r.Entries) != 2 || r.Entries[0].URL != "https://arxiv.org/abs/2302.04761" || r.Entries[0].Code != "" || r.Entries[1].ArxivID != "2210.03629" {
		t.Errorf("entries %+v %+v", r.Entries[0], r.Entries[len(r.Entries)-1])
	}
	err = r.Read("latin1.md", []byte("# L\n\n- [2023] [Caf\xe9 Agents](https://example.org/c)\n"), Options{})
	if err == nil || err.Error() != "latin1.md:3:14: invalid UTF-8: save the file as UTF-8" {
		t.Errorf("a Latin-1 README: %v", err)
	}
}

// TestTextTheCheckRefuses: found by fuzzing; a NUL or an unbalanced
// bidirectional override in an item, or a year out of the check's
// range, made files that failed the check and stopped the import.
func TestTextTheCheckRefuses(t *testing.T) {
	src := "# L\n\n## A\n\n" +
		"- [2023-01] [A\x00Paper](https://example.org/a) *Ann\u202eLee* [ICLR\x7f 2024]\n" +
		"- [1901-01] [B Paper](https://example.org/b)\n"
	var r Result
	if err := r.Read("l.md", []byte(src), Options{}); err != nil {
		t.Fatal(err)
	}
	files, err := r.Files(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check("list", files); err != nil {
		t.Fatalf("the imported files fail the check:\n%v", err)
	}
	if e := r.Entries[0]; e.Title != "A Paper" || e.Authors[0].Literal != "AnnLee" {
		t.Errorf("entry %+v", e)
	}
	if len(r.Problems) != 1 || r.Problems[0].String() != `l.md:6: "B Paper": the year 1901 is not between 1950 and next year` {
		t.Errorf("problems %v", r.Problems)
	}
}

// TestYearFromProceedingsURL: lists link conference papers to their
// proceedings without a date; the year is in the proceedings' URL.
func TestYearFromProceedingsURL(t *testing.T) {
	src := "# L\n\n" +
		"- [Language Models are Few-Shot Learners](https://proceedings.neurips.cc/paper/2020/hash/1457c0d6bfcb4967418bfb8ac142f64a-Abstract.html)\n" +
		"- [Direct Preference Optimization](https://proceedings.neurips.cc/paper_files/paper/2023/file/a85b405ed65c6477a4fe8302b5e06ce7-Paper-Conference.pdf)\n" +
		"- [The Accuracy Paradox in RLHF](https://aclanthology.org/2024.emnlp-main.174/)\n" +
		"- [Old ACL Paper](https://aclanthology.org/P19-1001.pdf)\n" +
		"- [A Vision Paper](https://openaccess.thecvf.com/content/CVPR2023/html/Paper_CVPR_2023_paper.html)\n" +
		"- [An Older Vision Paper](https://openaccess.thecvf.com/content_ICCV_2017/papers/Paper_ICCV_2017_paper.pdf)\n" +
		"- [An IJCAI Paper](https://www.ijcai.org/proceedings/2021/0012.pdf)\n" +
		"- [A Paper Elsewhere](https://example.org/2020/paper)\n"
	var r Result
	if err := r.Read("l.md", []byte(src), Options{}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range r.Entries {
		got = append(got, fmt.Sprint(e.Year))
	}
	if strings.Join(got, " ") != "2020 2023 2024 2019 2023 2017 2021" {
		t.Errorf("years %v", got)
	}
	if len(r.Problems) != 1 || !strings.Contains(r.Problems[0].Msg, "A Paper Elsewhere") {
		t.Errorf("problems %v, want the paper whose host says nothing of its year", r.Problems)
	}
}

// TestDOILinkEscaped: a DOI with characters a URL may not hold, or the
// ';' that separates the url column's URLs (a SICI DOI), gives a link
// the check takes (before, one such entry stopped the whole import).
func TestDOILinkEscaped(t *testing.T) {
	src := "@article{a,\n  title = {A DOI With Brackets},\n  year = {2020},\n  doi = {10.1002/(SICI)1097-4571<3::AID>3.0.CO;2-X}\n}\n"
	var r Result
	if err := r.Read("a.bib", []byte(src), Options{}); err != nil {
		t.Fatal(err)
	}
	files, err := r.Files(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check("list", files); err != nil {
		t.Fatalf("the imported files fail the check:\n%v", err)
	}
	if u := r.Entries[0].URL; u != "https://doi.org/10.1002/%28sici%291097-4571%3C3::aid%3E3.0.co%3B2-x" {
		t.Errorf("URL %s", u)
	}
}

// TestDetailNotNames: a one-word nested line under an entry is its
// one-liner, not an author called "Survey"; a line of names with a
// lowercase or one-word name is still the authors.
func TestDetailNotNames(t *testing.T) {
	var r Result
	if err := r.Read("l.md", []byte("# L\n\n- [2023-01] [A Paper](https://example.org/a)\n  - Survey\n"), Options{}); err != nil {
		t.Fatal(err)
	}
	if e := r.Entries[0]; len(e.Authors) != 0 || e.OneLiner != "Survey" {
		t.Errorf("entry %+v", e)
	}
	// Names as lists write them: a lowercase family name, one-word names.
	r = Result{}
	if err := r.Read("l.md", []byte("# L\n\n- [2023-01] [A Paper](https://example.org/a)\n  - Kimin Lee, Hao liu, Xianyu, Craig Boutilier\n"), Options{}); err != nil {
		t.Fatal(err)
	}
	if e := r.Entries[0]; len(e.Authors) != 4 || e.OneLiner != "" {
		t.Errorf("entry %+v", e)
	}
}
