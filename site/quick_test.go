package site

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/siteconfig"
)

// TestQuickFirstMatchesFull holds the first pages an edit shows from the
// last build's views (quick.go) to a full build's bytes, over a seeded
// series of the edits a maintainer makes in place: one or a few rows'
// titles (which move them in their cell's order), authors, notes, venue
// or one-liner; and, now and then, an edit the first pages cannot be
// made for so (a tag, a row added), after which the build shows them
// itself. The visited pages are the edited rows' pages, their cell
// neighbours' (which list the edited rows) and a few others. Every
// in-place edit must have been shown before the build (or the test
// would prove nothing), and Early called once.
func TestQuickFirstMatchesFull(t *testing.T) {
	dir := synthCorpus(t, 240)
	out := filepath.Join(t.TempDir(), "public")
	papers := filepath.Join(dir, corpus.PapersFile)
	cache := NewCache()
	cfg := siteconfig.Config{BaseURL: "https://example.org/list/"}
	cfg.Repository.URL = "https://github.com/example/list"
	rng := rand.New(rand.NewPCG(39, 2))
	var reopened *corpus.Checked
	quick := 0
	for step := range 40 {
		rows := parseRows(t, keepPrevious(t, papers))
		head, body := rows[0], rows[1:]
		col := func(name string) int { return slices.Index(head, name) }
		inPlace := step > 0 && step%7 != 3
		var what string
		var edited []int
		switch {
		case step == 0:
			what = "start"
		case !inPlace && step%2 == 1:
			i := rng.IntN(len(body))
			c := []string{"reward_type", "credit_granularity", "category"}[rng.IntN(3)]
			for _, j := range rng.Perm(len(body)) {
				if v := body[j][col(c)]; v != body[i][col(c)] {
					body[i][col(c)] = v
					break
				}
			}
			what, edited = "tag: "+c+" of "+body[i][0], []int{i}
		case !inPlace:
			row := slices.Clone(body[rng.IntN(len(body))])
			row[0] = fmt.Sprintf("added-row-%d", step)
			row[col("arxiv_id")] = ""
			row[col("url")] = fmt.Sprintf("https://example.org/added-%d", step)
			body = slices.Insert(body, rng.IntN(len(body)+1), row)
			what = "add: " + row[0]
		default:
			for range 1 + rng.IntN(3) {
				i := rng.IntN(len(body))
				c := []string{"title", "title", "first_author", "notes", "venue", "one_liner"}[rng.IntN(6)]
				v := fmt.Sprintf("%c edited %d", 'A'+rng.IntN(26), step)
				if c == "title" && rng.IntN(2) == 0 {
					v = body[i][col(c)] + v
				}
				body[i][col(c)] = v
				edited = append(edited, i)
				what += fmt.Sprintf("%s of %s; ", c, body[i][0])
			}
		}
		writeRows(t, papers, append([][]string{head}, body...))
		// The visited pages: the edited rows', their cells' and others.
		var first []string
		pageOf := func(i int) string { return "papers/" + corpus.Slug(body[i][0]) + "/index.html" }
		for _, i := range edited {
			first = append(first, pageOf(i))
			for _, j := range body {
				if j[col("reward_type")] == body[i][col("reward_type")] && j[col("credit_granularity")] == body[i][col("credit_granularity")] && rng.IntN(4) == 0 {
					first = append(first, "papers/"+corpus.Slug(j[0])+"/index.html")
				}
			}
		}
		for range 3 {
			first = append(first, pageOf(rng.IntN(len(body))))
		}
		slices.Sort(first)
		first = slices.Compact(first)

		var err error
		reopened, err = corpus.Reopen(reopened, dir, nil, "", corpus.CheckOptions{Today: today})
		if err != nil {
			t.Fatal(err)
		}
		shown := 0
		var early map[string][]byte
		_, derr := Build(reopened, Options{Config: cfg, Cache: cache, Out: out, First: first,
			Early: func(pages map[string][]byte) { shown++; early = pages }})
		full, ferr := Build(openList(t, dir), Options{Config: cfg})
		if derr != nil || ferr != nil {
			t.Fatalf("step %d (%s): build failed: %v; full: %v", step, what, derr, ferr)
		}
		if shown != 1 {
			t.Fatalf("step %d (%s): Early called %d times, want once", step, what, shown)
		}
		if cache.quick != (step > 0 && inPlace) {
			t.Fatalf("step %d (%s): first pages shown from the last views: %v, want %v", step, what, cache.quick, step > 0 && inPlace)
		}
		if cache.quick {
			quick++
		}
		if len(early) != len(first) {
			t.Fatalf("step %d (%s): %d first pages shown, want %d", step, what, len(early), len(first))
		}
		want := memoryTree(full.Files)
		for n, b := range early {
			if string(b) != want[n] {
				t.Fatalf("step %d (%s): %s as shown first differs from the full build's:\n%s", step, what, n, firstDiff(string(b), want[n]))
			}
		}
	}
	t.Logf("%d edits shown from the last build's views", quick)
}

// openList opens dir as a list of its own (no profile: no claims), as
// the live benchmark's synthetic lists are.
func openList(t *testing.T, dir string) *corpus.Checked {
	t.Helper()
	ck, err := corpus.OpenWith(dir, nil, "", corpus.CheckOptions{Today: today})
	if err != nil {
		t.Fatal(err)
	}
	return ck
}

// firstDiff shows where two pages first differ.
func firstDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(0, i-200)
	return fmt.Sprintf("got  …%s\nwant …%s", got[lo:min(len(got), i+200)], want[lo:min(len(want), i+200)])
}
