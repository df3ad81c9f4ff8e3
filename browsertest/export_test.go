package browsertest

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/site/search"
)

// download clicks the papers page's export button for format and returns
// the file name and text it offered.
func download(t *testing.T, p *page, format string) (name, text string) {
	t.Helper()
	var got struct{ Name, Text string }
	p.eval(t, fmt.Sprintf(`new Promise((resolve, reject) => {
	  const btn = document.querySelector('button.search-download[data-format=%q]');
	  if (!btn) { reject(new Error("no %s export button")); return; }
	  const made = URL.createObjectURL;
	  URL.createObjectURL = blob => {
	    URL.createObjectURL = made;
	    blob.text().then(text => resolve({Name: btn.getAttribute("data-filename"), Text: text}));
	    return made.call(URL, blob);
	  };
	  btn.click();
	})`, format, format), &got)
	return got.Name, got.Text
}

// checkExport filters the papers page at path by a query and a facet and
// checks the three downloads against the corpus: the entries the Go twin
// of the search leaves, in CSV order, with the corpus' own texts and
// BibTeX, in files named after the filter.
func checkExport(t *testing.T, p *page, path string, c *corpus.Corpus, v *corpus.Vocabulary, pool *corpus.Pool) {
	t.Helper()
	ix := search.Build(c, v, func(k string) string { return "papers/" + k + "/" })
	// With a pool, each entry also carries the papers page's Survey facet:
	// in the survey's pool, or added since.
	for i := range ix.Entries {
		if e := &ix.Entries[i]; pool != nil {
			e.Tags["since"] = "survey"
			if !pool.HasKey(e.Key) {
				e.Tags["since"] = "added"
			}
		}
	}
	facet := map[string][]string{"credit_granularity": {"message", "turn"}}
	q := ""
	for _, w := range []string{"agent", "multi", "learning", "llm"} {
		if n := len(ix.Match(w, facet)); n > 0 {
			q = w
			break
		}
	}
	want := ix.Match(q, facet)
	if len(want) == 0 {
		t.Fatalf("no entry of the corpus matches the export's filter %q %v", q, facet)
	}
	p.open(t, path+"?q="+q+"&credit_granularity=message&credit_granularity=turn")
	p.waitFor(t, searchReadyJS)
	// The file name gives the selected values in vocabulary order.
	var picked []string
	for _, t := range v.Field("credit_granularity").Values {
		if slices.Contains(facet["credit_granularity"], t.Value) {
			picked = append(picked, t.Value)
		}
	}
	stem := "papers-q-" + q + "__credit_granularity-" + strings.Join(picked, "-")
	byKey := map[string]*search.Entry{}
	for i := range ix.Entries {
		byKey[ix.Entries[i].Key] = &ix.Entries[i]
	}

	name, text := download(t, p, "json")
	var got []search.Entry
	if err := json.Unmarshal([]byte(text), &got); err != nil {
		t.Fatalf("JSON export: %v", err)
	}
	if name != stem+".json" {
		t.Errorf("JSON export named %q, want %q", name, stem+".json")
	}
	var keys []string
	for _, e := range got {
		keys = append(keys, e.Key)
		w := byKey[e.Key]
		if w == nil {
			continue
		}
		if e.Title != w.Title || e.Authors != w.Authors || e.Year != w.Year || e.Venue != w.Venue || e.URL != p.b.base+w.URL ||
			len(e.Tags) != len(w.Tags) || e.Tags["credit_granularity"] != w.Tags["credit_granularity"] || e.Tags["since"] != w.Tags["since"] {
			t.Errorf("JSON export of %s: %+v, want %+v with the URL under %s", e.Key, e, *w, p.b.base)
		}
	}
	if strings.Join(keys, " ") != strings.Join(want, " ") {
		t.Errorf("JSON export holds %v, want %v", keys, want)
	}

	name, text = download(t, p, "csv")
	if name != stem+".csv" {
		t.Errorf("CSV export named %q, want %q", name, stem+".csv")
	}
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatalf("CSV export: %v", err)
	}
	if len(rows) != len(want)+1 {
		t.Fatalf("CSV export has %d rows, want a header and %d entries", len(rows), len(want))
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, h := range []string{"key", "title", "authors", "year", "url", "credit_granularity", "category"} {
		if _, ok := col[h]; !ok {
			t.Errorf("CSV export lacks the column %s: %v", h, rows[0])
		}
	}
	for i, r := range rows[1:] {
		e := c.Entry(want[i])
		if e == nil || r[col["key"]] != e.Key || r[col["title"]] != e.Title || r[col["year"]] != strconv.Itoa(e.Year) ||
			r[col["credit_granularity"]] != e.Value("credit_granularity") || r[col["url"]] != p.b.base+"papers/"+e.Key+"/" {
			t.Errorf("CSV export row %d: %v, want the corpus' entry %s", i+1, r, want[i])
		}
	}

	name, text = download(t, p, "bib")
	if name != stem+".bib" {
		t.Errorf("BibTeX export named %q, want %q", name, stem+".bib")
	}
	var bibs, missing []string
	for _, k := range want {
		if b := c.BibFor(c.Entry(k)); b != nil {
			bibs = append(bibs, strings.TrimSpace(b.Raw))
		} else {
			missing = append(missing, k)
		}
	}
	wantBib := strings.Join(bibs, "\n\n") + "\n"
	if len(missing) > 0 {
		wantBib = "% No BibTeX for: " + strings.Join(missing, ", ") + "\n\n" + wantBib
	}
	if text != wantBib {
		t.Errorf("BibTeX export:\n%s\nwant:\n%s", text, wantBib)
	}
}
