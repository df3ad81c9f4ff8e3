package site

import (
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
)

// TestEntryNotices: the notices masrl refresh records in the notes show
// under the entry's title, the retraction before the published version,
// with doi.org links; hostile text in a notice stays text.
func TestEntryNotices(t *testing.T) {
	header := strings.Join(corpus.PaperColumns(), ",") + "\n"
	rows := `k,T,A,,2025,,V,https://ok.example/p,survey,yes,NA,NA,NA,NA,core,x,yes,"v2; published as doi:10.5555/tmlr.2026.17 (Transactions <b>ML</b>, 2026); retracted doi:10.5555/retraction.2026.3 (2026-03-02)"
plain,P,A,,2025,,V,https://ok.example/q,survey,yes,NA,NA,NA,NA,core,x,yes,published as a book
`
	c, err := corpus.ParsePapers("papers.csv", []byte(header+rows))
	if err != nil {
		t.Fatal(err)
	}
	c.Dir = t.TempDir()
	files := mustLoad(t, unchecked(t, c), Options{})
	p := page(t, files, "papers/k/index.html")
	want := `<h1><bdi>T</bdi></h1>
<div class="notices">
<p class="notice notice-retracted"><strong>Retracted</strong> (2026-03-02): <a href="https://doi.org/10.5555/retraction.2026.3">doi:10.5555/retraction.2026.3</a></p>
<p class="notice notice-published-as"><strong>Published as</strong> (Transactions &lt;b&gt;ML&lt;/b&gt;, 2026): <a href="https://doi.org/10.5555/tmlr.2026.17">doi:10.5555/tmlr.2026.17</a></p>
</div>
`
	if !strings.Contains(p, want) {
		i := strings.Index(p, "<h1>")
		t.Errorf("entry page lacks the notices:\n%s", p[i:min(len(p), i+800)])
	}
	if q := page(t, files, "papers/plain/index.html"); strings.Contains(q, "notices") {
		t.Error("prose in the notes became a notice")
	}
}
