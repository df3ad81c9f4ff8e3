package site

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/internal/corpustest"
	"github.com/masrl/masrl/internal/synth"
	"github.com/masrl/masrl/site/outdir"
)

// TestIncrementalMatchesFull edits a synthetic corpus at random (a row's
// text, a controlled tag, a row added, removed, a key renamed, a key
// made a duplicate, which the check refuses; then the site's
// configuration, which every entry page reads) and after
// every edit builds the site three ways: from scratch in memory, and
// incrementally with a Cache in memory and into a directory. The three
// trees must be byte-identical. An edit the check refuses must fail all
// three and leave the directory as it was; the next edit starts from the
// corpus before it. The incremental builds must also have kept pages
// (an edit of one row's text renders the list pages and the few entry
// pages that show the row), or they would prove nothing.
func TestIncrementalMatchesFull(t *testing.T) {
	dir := synthCorpus(t, 100)
	out := filepath.Join(t.TempDir(), "public")
	memCache, dirCache := NewCache(), NewCache()
	cfg := siteconfig.Config{BaseURL: "https://example.org/list/"}
	cfg.Repository.URL = "https://github.com/example/list"
	rng := rand.New(rand.NewPCG(23, 6))
	papers := filepath.Join(dir, corpus.PapersFile)

	var before map[string]string // the directory after the last good build
	var reopened *corpus.Checked // the corpus the directory's last build read
	edits := []string{"start"}
	var tfs fs.FS    // the templates; from step 7 on, with another list item
	edited := papers // the file the last edit changed
	for step := range 17 {
		switch step {
		case 0:
		case 16: // no file changes; every entry page's edit link does
			cfg.Repository.Branch = "trunk"
			edits = append(edits, "config: the repository's branch")
		case 13: // the search index and its BibTeX change, papers.json not
			edited = filepath.Join(dir, corpus.BibFile)
			edits = append(edits, editBib(t, edited, rng, step))
		case 14: // no row changes: the files made from the rows are kept
			edited = filepath.Join(dir, corpus.ExcludedFile)
			edits = append(edits, editExcluded(t, edited, rng, step))
		case 15: // the labels the term and cell pages show of a field and a value
			edited = filepath.Join(dir, "vocab.yaml")
			edits = append(edits, editLabels(t, edited))
		default:
			edited = papers
			edits = append(edits, editPapers(t, papers, rng, step))
		}
		if step == 7 {
			tfs = changedListItem(t)
			edits[len(edits)-1] += ", and the list item's template"
		}
		name := edits[len(edits)-1]
		ck := openCorpus(t, dir, nil)
		full, ferr := Build(ck, Options{Config: cfg, Templates: tfs})
		mem, merr := Build(ck, Options{Config: cfg, Templates: tfs, Cache: memCache})
		// The build into a directory is serve's: the corpus opened again
		// from the last one.
		// Like serve, it shows the visited pages first: here every entry
		// page, which must reach Early before the taxonomy is made (the
		// views that grow with the list), with the bytes of the full build.
		reopened = reopenCorpus(t, reopened, dir)
		var events []string // "early" and the steps, in order
		var early map[string][]byte
		_, derr := Build(reopened, Options{Config: cfg, Templates: tfs, Cache: dirCache, Out: out,
			First: entryFiles(t, papers),
			Early: func(pages map[string][]byte) {
				events = append(events, "early")
				early = pages
			},
			StepTime: func(step string, _ time.Duration) { events = append(events, step) }})
		if derr == nil {
			if n := strings.Count(strings.Join(events, " "), "early"); n != 1 {
				t.Fatalf("step %d (%s): Early called %d times, want once: %q", step, name, n, events)
			}
			if e, tx := slices.Index(events, "early"), slices.Index(events, "taxonomy"); tx < 0 || e > tx {
				t.Fatalf("step %d (%s): the first pages were shown after the taxonomy was made: %q", step, name, events)
			}
		} else if early != nil {
			t.Fatalf("step %d (%s): the build failed (%v) after showing its first pages", step, name, derr)
		}
		if ferr != nil {
			if merr == nil || derr == nil {
				t.Fatalf("step %d (%s): the full build failed (%v), an incremental one did not (memory: %v, directory: %v)", step, name, ferr, merr, derr)
			}
			if got := corpustest.ReadTree(t, out); !equalTrees(got, before) {
				t.Fatalf("step %d (%s): a failed build changed the output directory", step, name)
			}
			t.Logf("step %d (%s): refused by the check, as it should be; undone", step, name)
			undoPapers(t, edited)
			continue
		}
		if merr != nil || derr != nil {
			t.Fatalf("step %d (%s): the full build passed, an incremental one failed (memory: %v, directory: %v)", step, name, merr, derr)
		}
		want := memoryTree(full.Files)
		if diff := treeDiff(memoryTree(mem.Files), want); diff != "" {
			t.Fatalf("step %d (%s): incremental build in memory differs from the full build: %s", step, name, diff)
		}
		got := corpustest.ReadTree(t, out)
		// The output's mark is the full build's, and no page.
		wantMark, err := full.Files.Mark()
		if err != nil {
			t.Fatal(err)
		}
		if got[outdir.MarkName] != wantMark {
			t.Fatalf("step %d (%s): the output's mark is %q, want %q", step, name, got[outdir.MarkName], wantMark)
		}
		before = maps.Clone(got)
		delete(got, outdir.MarkName)
		if diff := treeDiff(got, want); diff != "" {
			t.Fatalf("step %d (%s): incremental build into a directory differs from the full build: %s", step, name, diff)
		}
		for n, b := range early {
			if string(b) != want[n] {
				t.Fatalf("step %d (%s): %s as shown first differs from the full build's", step, name, n)
			}
		}
		t.Logf("step %d (%s): %d files; memory rendered %d, kept %d; directory rendered %d, kept %d",
			step, name, len(want), memCache.Rendered, memCache.Reused, dirCache.Rendered, dirCache.Reused)
		// The directory's cache knows the buffer from the third build on:
		// the buffer of the second is the directory before the first.
		if strings.HasPrefix(name, "text") && step != 7 && (memCache.Reused == 0 || step > 1 && dirCache.Reused == 0) {
			t.Fatalf("step %d (%s): an edit of one row's text kept no page (memory %d, directory %d)", step, name, memCache.Reused, dirCache.Reused)
		}
	}
}

// TestTitleEditRendersItsListPages edits the title of one row at a time
// and holds the pages an incremental build rendered, but the entry
// pages, to those whose bytes the edit changed: the papers list page
// holding the row, its term pages, its cells' pages and, in the survey's
// list, the sub-decision pages naming it; not the pages that count every
// entry (home, taxonomy, fields, coverage, orchestration) or list claims
// by key, which a title does not change. Each such page is keyed by its
// own data, and that data reaches only what its template prints. It runs
// on a synthetic list and on a copy of the survey's corpus, whose rows
// are named by claims and sub-decisions.
func TestTitleEditRendersItsListPages(t *testing.T) {
	survey := t.TempDir()
	if err := os.CopyFS(survey, os.DirFS(corpustest.Dir(t))); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		dir  string
		keys []string // the rows whose titles are edited, one after another
	}{
		{"synthetic", synthCorpus(t, 100), nil},
		{"survey", survey, []string{"magrpo", "c3", "agentspawn"}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkTitleEdits(t, tc.dir, tc.keys) })
	}
}

// checkTitleEdits edits the titles of the rows of keys (nil: three rows
// spread over the list) in the corpus at dir, and after each edit
// compares the list pages an incremental build rendered with those whose
// bytes changed.
func checkTitleEdits(t *testing.T, dir string, keys []string) {
	papers := filepath.Join(dir, corpus.PapersFile)
	cache := NewCache()
	build := func() map[string]string {
		t.Helper()
		res, err := Build(openCorpus(t, dir, nil), Options{Cache: cache})
		if err != nil {
			t.Fatal(err)
		}
		return memoryTree(res.Files)
	}
	before := build()
	rows := readRows(t, papers)
	title := slices.Index(rows[0], "title")
	entryPages := map[string]bool{}
	for _, r := range rows[1:] {
		entryPages["papers/"+r[0]+"/index.html"] = true
	}
	edited := []int{1, len(rows) / 3, len(rows) - 1}
	if keys != nil {
		edited = nil
		for _, k := range keys {
			i := slices.IndexFunc(rows, func(r []string) bool { return r[0] == k })
			if i < 1 {
				t.Fatalf("%s has no row %s", papers, k)
			}
			edited = append(edited, i)
		}
	}
	for step, row := range edited {
		rows[row][title] += fmt.Sprintf(" edited %d", step)
		writeRows(t, papers, rows)
		after := build()
		var changed []string
		for name, b := range after {
			if strings.HasSuffix(name, ".html") && !entryPages[name] && before[name] != b {
				changed = append(changed, name)
			}
		}
		slices.Sort(changed)
		rendered := slices.Sorted(slices.Values(cache.rendered))
		t.Logf("title of %s edited: rendered %d list pages: %v", rows[row][0], len(rendered), rendered)
		if !slices.Equal(rendered, changed) {
			t.Errorf("title of %s edited: rendered the pages\n\t%s\nwant those whose bytes changed\n\t%s",
				rows[row][0], strings.Join(rendered, "\n\t"), strings.Join(changed, "\n\t"))
		}
		// The edit shows on the list, term and cell pages: the test
		// would prove nothing if it changed none of them.
		// The papers list page holding it is papers/ or papers/page/N/.
		for _, want := range [][]string{{"papers/", "papers/page/*/"}, {"taxonomy/*/*/"}, {"coverage/*/*/"}} {
			if !slices.ContainsFunc(changed, func(name string) bool {
				return slices.ContainsFunc(want, func(w string) bool { ok, _ := path.Match(w+"index.html", name); return ok })
			}) {
				t.Errorf("title of %s edited: no page %sindex.html changed; changed: %v", rows[row][0], want, changed)
			}
		}
		before = after
	}
}

// TestResetKeepingMemo holds a walker that keeps its memo from value to
// value (resetKeepingMemo) to a fresh one: after a walk through a cycle,
// or through a value it cannot hash, no hash of that walk may be reused.
func TestResetKeepingMemo(t *testing.T) {
	type node struct {
		Name  string
		Next  *node
		Extra any
	}
	cyclic := &node{Name: "a"}
	shared := &node{Name: "b", Next: cyclic}
	cyclic.Next = shared // a -> b -> a
	unhashable := &node{Name: "c", Next: &node{Name: "d", Extra: func() {}}}
	tag := &node{Name: "t"}
	cache := NewCache()
	fresh := func(v any) (uint64, bool) {
		kw := cache.walker(nil)
		kw.walk(reflect.ValueOf(v))
		return kw.h.Sum64(), kw.bad
	}
	for _, tc := range []struct {
		name          string
		first, second any
	}{
		{"after a cycle", cyclic, shared},
		{"after a function", unhashable, &node{Name: "e", Next: unhashable.Next}},
		{"without either, sharing a value", &node{Name: "f", Next: tag}, &node{Name: "g", Next: tag}},
	} {
		kw := cache.walker(nil)
		kw.walk(reflect.ValueOf(tc.first))
		kw.resetKeepingMemo()
		kw.walk(reflect.ValueOf(tc.second))
		wantH, wantBad := fresh(tc.second)
		if got := kw.h.Sum64(); got != wantH || kw.bad != wantBad {
			t.Errorf("%s: the second value hashed %x (cannot hash: %v), a fresh walker's %x (%v)", tc.name, got, kw.bad, wantH, wantBad)
		}
	}
}

// synthCorpus writes a synthetic corpus of n entries, learnt from the
// test corpus, with a fifth as many exclusion records (at most 200),
// into a new directory and returns it.
func synthCorpus(t testing.TB, n int) string {
	t.Helper()
	dir := t.TempDir()
	if err := synth.WriteCorpusFrom(corpustest.Dir(t), dir, synth.CorpusOptions{Entries: n, Exclusions: min(n/5, 200), Seed: 23}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// changedListItem returns the embedded templates with another brief
// list item: pieces cached by an earlier build must not survive it.
func changedListItem(t *testing.T) fs.FS {
	t.Helper()
	b, err := fs.ReadFile(TemplateFS(""), "layout.html")
	if err != nil {
		t.Fatal(err)
	}
	changed := bytes.Replace(b, []byte(`<li class="entry-brief" `), []byte(`<li class="entry-brief changed" `), 1)
	if bytes.Equal(changed, b) {
		t.Fatal("layout.html has no entry-brief item to change")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "layout.html"), changed, 0o644); err != nil {
		t.Fatal(err)
	}
	return TemplateFS(dir)
}

// editPapers makes one random edit to papers.csv, keeping the previous
// file as papers.csv.prev for undoPapers, and names the edit.
func editPapers(t *testing.T, path string, rng *rand.Rand, step int) string {
	t.Helper()
	rows := parseRows(t, keepPrevious(t, path))
	head, body := rows[0], rows[1:]
	col := func(name string) int {
		i := slices.Index(head, name)
		if i < 0 {
			t.Fatalf("papers.csv has no column %s", name)
		}
		return i
	}
	i := rng.IntN(len(body))
	var what string
	switch op := step % 6; op {
	case 1:
		c := []string{"title", "one_liner", "venue", "notes"}[rng.IntN(4)]
		body[i][col(c)] += fmt.Sprintf(" edited %d", step)
		what = fmt.Sprintf("text: %s of %s", c, body[i][0])
	case 2:
		c := []string{"category", "reward_type", "credit_granularity", "orchestration_form", "scenario", "verified"}[rng.IntN(6)]
		from := body[rng.IntN(len(body))][col(c)]
		what = fmt.Sprintf("tag: %s of %s from %s to %s", c, body[i][0], body[i][col(c)], from)
		body[i][col(c)] = from
	case 3:
		row := slices.Clone(body[i])
		row[0] = fmt.Sprintf("added-row-%d", step)
		row[col("title")] = fmt.Sprintf("Added row %d", step)
		row[col("arxiv_id")] = ""
		row[col("url")] = fmt.Sprintf("https://example.org/added-%d", step)
		at := rng.IntN(len(body) + 1)
		body = slices.Insert(body, at, row)
		what = fmt.Sprintf("add: %s at row %d", row[0], at)
	case 4:
		what = "remove: " + body[i][0]
		body = slices.Delete(body, i, i+1)
	case 5:
		old := body[i][0]
		body[i][0] = fmt.Sprintf("renamed-%d", step)
		what = fmt.Sprintf("rename: %s to %s", old, body[i][0])
	default:
		j := (i + 1) % len(body)
		what = fmt.Sprintf("duplicate: %s renamed to %s", body[i][0], body[j][0])
		body[i][0] = body[j][0]
	}
	writeRows(t, path, append([][]string{head}, body...))
	return what
}

// editBib adds an author to one entry of papers.bib: only the rows'
// BibTeX changes, which the entry page, the search index and its BibTeX
// file show.
func editBib(t *testing.T, path string, rng *rand.Rand, step int) string {
	t.Helper()
	raw := keepPrevious(t, path)
	const field = "author  = {"
	n := bytes.Count(raw, []byte(field))
	if n == 0 {
		t.Fatalf("%s has no %q", path, field)
	}
	at, k := 0, rng.IntN(n)
	for range k + 1 {
		at += bytes.Index(raw[at:], []byte(field)) + len(field)
	}
	edited := slices.Concat(raw[:at], fmt.Appendf(nil, "Edited%d, Author and ", step), raw[at:])
	if err := os.WriteFile(path, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("bib: an author added to entry %d of %d", k+1, n)
}

// editLabels gives the list a vocabulary of its own, the embedded one
// with another label for the field category and its value rl_method:
// what term and cell pages show of their field and values
// (FieldRef, TermRef).
func editLabels(t *testing.T, path string) string {
	t.Helper()
	raw, err := fs.ReadFile(data.FS, "vocab.yaml")
	if err != nil {
		t.Fatal(err)
	}
	edited := raw
	for _, label := range []string{"label: Category\n", "label: RL method\n"} {
		if bytes.Count(edited, []byte(label)) != 1 {
			t.Fatalf("data/vocab.yaml has not one %q", label)
		}
		edited = bytes.Replace(edited, []byte(label), []byte(strings.TrimSuffix(label, "\n")+" (edited)\n"), 1)
	}
	if err := os.WriteFile(path, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	return "labels: of category and of its value rl_method, in the list's own vocab.yaml"
}

// editExcluded edits one row of excluded.csv: no row of papers.csv
// changes.
func editExcluded(t *testing.T, path string, rng *rand.Rand, step int) string {
	t.Helper()
	rows := parseRows(t, keepPrevious(t, path))
	c := slices.Index(rows[0], "screening_label")
	if c < 0 || len(rows) < 2 {
		t.Fatalf("%s has no screening_label or no row", path)
	}
	i := 1 + rng.IntN(len(rows)-1)
	rows[i][c] += fmt.Sprintf(" edited %d", step)
	writeRows(t, path, rows)
	return fmt.Sprintf("excluded: screening_label of %s", rows[i][0])
}

// keepPrevious reads the file at path and keeps it as path.prev, for
// undoPapers, before an edit.
func keepPrevious(t *testing.T, path string) []byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+".prev", raw, 0o644); err != nil {
		t.Fatal(err)
	}
	return raw
}

// readRows reads a CSV file's rows.
func readRows(t testing.TB, path string) [][]string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parseRows(t, raw)
}

func parseRows(t testing.TB, raw []byte) [][]string {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// writeRows writes rows as a CSV file.
func writeRows(t testing.TB, path string, rows [][]string) {
	t.Helper()
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.WriteAll(rows)
	if err := w.Error(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func undoPapers(t *testing.T, path string) {
	t.Helper()
	if err := os.Rename(path+".prev", path); err != nil {
		t.Fatal(err)
	}
}

func memoryTree(f *outdir.Files) map[string]string {
	m := map[string]string{}
	for _, n := range f.Names() {
		b, _ := f.Get(n)
		m[n] = string(b)
	}
	return m
}

// treeDiff names the first file (in sorted order) that one tree lacks
// or holds with other bytes, or returns "".
func treeDiff(got, want map[string]string) string {
	var names []string
	for n := range got {
		names = append(names, n)
	}
	for n := range want {
		if _, ok := got[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		g, gok := got[n]
		w, wok := want[n]
		switch {
		case !gok:
			return n + " is missing"
		case !wok:
			return n + " should not be there"
		case g != w:
			return fmt.Sprintf("%s has other bytes (%d, want %d)", n, len(g), len(w))
		}
	}
	return ""
}

// BenchmarkIncrementalEdit measures what masrl serve does after one row
// of papers.csv is edited at 10,000 synthetic entries: open the corpus
// again and build into the output directory with the serve's Cache. Each
// iteration edits the title of another row. Besides ms/op it reports the
// pages rendered in the last rebuild and the process's CPU time per
// rebuild (cpu-ms/op, the edits between them included). Profile it with
// `go test -run '^$' -bench IncrementalEdit -cpuprofile cpu.out ./site`.
func BenchmarkIncrementalEdit(b *testing.B) {
	dir := synthCorpus(b, 10000)
	papers := filepath.Join(dir, corpus.PapersFile)
	rows := readRows(b, papers)
	title := slices.Index(rows[0], "title")
	out := filepath.Join(b.TempDir(), "public")
	cache := NewCache()
	var ck *corpus.Checked
	build := func() {
		ck = reopenCorpus(b, ck, dir)
		if _, err := Build(ck, Options{Out: out, Cache: cache}); err != nil {
			b.Fatal(err)
		}
	}
	// The serve's start-up build and two edits: from then on the cache
	// knows the output and its buffer.
	build()
	edit := func(n int) {
		r := rows[1+n%(len(rows)-1)]
		r[title] += fmt.Sprintf(" edited %d", n)
		writeRows(b, papers, rows)
	}
	edit(0)
	build()
	edit(1)
	build()
	n := 2
	cpu0 := cpuTime(b)
	rendered, most := 0, 0
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		edit(n)
		n++
		b.StartTimer()
		build()
		rendered += cache.Rendered
		most = max(most, cache.Rendered)
	}
	// The pages rendered again depend on the edited row (its cell
	// neighbours): their mean over the iterations, and the most.
	b.ReportMetric(float64(rendered)/float64(n-2), "rendered/op")
	b.ReportMetric(float64(most), "max-rendered")
	b.ReportMetric(float64((cpuTime(b)-cpu0).Milliseconds())/float64(n-2), "cpu-ms/op")
}

// BenchmarkKeys measures, at 10,000 synthetic entries, the two walks of
// an incremental build's keys that do not depend on the entry pages, each
// on one goroutine: every entry's view (hashEntries' work) and the keys
// of the pages queued with their data, the list pages (runJob's).
func BenchmarkKeys(b *testing.B) {
	ck := openCorpus(b, synthCorpus(b, 10000), nil)
	r, err := render(ck, Options{Cache: NewCache()}, outdir.Memory())
	if err != nil {
		b.Fatal(err)
	}
	b.Run("entries", func(b *testing.B) {
		for b.Loop() {
			kw := r.inc.cache.walker(nil)
			for _, ev := range r.entries {
				kw.resetKeepingMemo()
				kw.walk(reflect.ValueOf(ev))
			}
		}
	})
	b.Run("list-pages", func(b *testing.B) {
		pages := 0
		for b.Loop() {
			pages = 0
			for _, j := range r.jobs {
				if j.build == nil && j.tmpl != "" {
					if _, ok := r.inc.pageKey(j.tmpl, j.file, j.data); !ok {
						b.Fatalf("%s: no key", j.file)
					}
					pages++
				}
			}
		}
		b.ReportMetric(float64(pages), "pages")
	})
}

// cpuTime is the CPU time (user and system) the process has used: on a
// machine shared with other work, a rebuild's CPU time moves less with
// the load than its wall time.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestEntryEditRendersFewEntryPages edits the title of the entry that
// comes first in the largest reward × credit cell of a generated corpus
// (a quarter of its entries share that cell) and rebuilds with a Cache:
// the entry pages whose key changes must be the edited entry's and those
// of the entries that list it as a cell neighbour, at most
// sameCellLimit around its old place and as many around its new one,
// not every page of its cell.
func TestEntryEditRendersFewEntryPages(t *testing.T) {
	dir := generatedCorpus(t, 300)
	r, err := render(openCorpus(t, dir, nil), Options{}, outdir.Memory())
	if err != nil {
		t.Fatal(err)
	}
	var big *CellView
	for _, cell := range r.tables[0].cells {
		{
			if big == nil || len(cell.Entries) > len(big.Entries) {
				big = cell
			}
		}
	}
	const bound = 4*sameCellLimit + 1
	if big == nil || len(big.Entries) <= 2*bound {
		t.Fatalf("the generated corpus has no cell of more than %d entries: the test would prove nothing", 2*bound)
	}
	edited := big.Entries[0].Key

	cache := NewCache()
	build := func() map[string]uint64 {
		t.Helper()
		if _, err := Build(openCorpus(t, dir, nil), Options{Cache: cache}); err != nil {
			t.Fatal(err)
		}
		return maps.Clone(cache.keys)
	}
	before := build()
	papers := filepath.Join(dir, corpus.PapersFile)
	rows := readRows(t, papers)
	title := slices.Index(rows[0], "title")
	for _, row := range rows[1:] {
		if row[0] == edited {
			row[title] += " (edited)"
		}
	}
	writeRows(t, papers, rows)
	after := build()

	var changed []string
	for file, k := range after {
		if strings.HasPrefix(file, "papers/") && strings.Count(file, "/") == 2 && before[file] != k {
			changed = append(changed, file)
		}
	}
	slices.Sort(changed)
	if !slices.Contains(changed, "papers/"+edited+"/index.html") {
		t.Fatalf("the edited entry's page kept its key; entry pages whose key changed: %v", changed)
	}
	if len(changed) < 2 || len(changed) > bound {
		t.Fatalf("editing %s (first of a cell of %d) changed the keys of %d entry pages, want 2 to %d: %v",
			edited, len(big.Entries), len(changed), bound, changed[:min(len(changed), 2*bound)])
	}
	t.Logf("editing %s (first of a cell of %d) changed %d entry pages", edited, len(big.Entries), len(changed))
}

// entryFiles are the entry pages of the rows of papers.csv at path.
func entryFiles(t *testing.T, path string) []string {
	t.Helper()
	rows := readRows(t, path)
	key := slices.Index(rows[0], "key")
	var files []string
	for _, r := range rows[1:] {
		files = append(files, "papers/"+corpus.Slug(r[key])+"/index.html")
	}
	return files
}
