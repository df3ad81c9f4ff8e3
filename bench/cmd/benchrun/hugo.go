package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/masrl/masrl/corpus"
)

// hugoPage is the front matter of one entry's content file. Hugo reads
// JSON front matter; the eight controlled fields are taxonomies (declared in
// bench/hugo/hugo.toml), the rest are page parameters the templates print.
type hugoPage struct {
	Title             string   `json:"title"`
	Key               string   `json:"key"`
	FirstAuthor       string   `json:"first_author"`
	Affiliation       string   `json:"affiliation,omitempty"`
	Year              string   `json:"year"`
	ArxivID           string   `json:"arxiv_id,omitempty"`
	Venue             string   `json:"venue"`
	URLs              []string `json:"urls"`
	OneLiner          string   `json:"one_liner"`
	Notes             string   `json:"notes,omitempty"`
	Bib               string   `json:"bib,omitempty"`
	Category          []string `json:"category"`
	IsRL              []string `json:"is_rl"`
	RewardType        []string `json:"reward_type"`
	CreditGranularity []string `json:"credit_granularity"`
	OrchestrationForm []string `json:"orchestration_form"`
	Scenario          []string `json:"scenario"`
	IsCore            []string `json:"is_core"`
	Verified          []string `json:"verified"`
}

// writeHugoSite makes dst a Hugo site holding the entries of the corpus in
// corpusDir: a copy of the skeleton (configuration and layouts) and one
// content file per entry. This is set-up, not part of the timed build.
func writeHugoSite(skeleton, corpusDir, dst string) error {
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	err := filepath.WalkDir(skeleton, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(skeleton, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		return err
	}
	c, err := corpus.Load(corpusDir)
	if err != nil {
		return err
	}
	papers := filepath.Join(dst, "content", "papers")
	if err := os.MkdirAll(papers, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(papers, "_index.md"), []byte("{\"title\": \"Papers\"}\n"), 0o644); err != nil {
		return err
	}
	for i := range c.Papers {
		e := c.Papers[i]
		p := hugoPage{
			Title: e.Title, Key: e.Key, FirstAuthor: e.FirstAuthor, Affiliation: e.Affiliation,
			Year: e.YearText, ArxivID: e.ArxivID, Venue: e.Venue, URLs: e.URLs,
			OneLiner: e.OneLiner, Notes: e.Notes,
			Category: []string{e.Value("category")}, IsRL: []string{e.Value("is_rl")},
			RewardType: []string{e.Value("reward_type")}, CreditGranularity: []string{e.Value("credit_granularity")},
			OrchestrationForm: []string{e.Value("orchestration_form")}, Scenario: []string{e.Value("scenario")},
			IsCore: []string{e.Value("is_core")}, Verified: []string{e.Value("verified")},
		}
		if b := c.BibFor(e); b != nil {
			p.Bib = b.Raw
		}
		if err := writeJSONPage(filepath.Join(papers, e.Key+".md"), p); err != nil {
			return err
		}
	}
	return nil
}

func writeJSONPage(path string, p hugoPage) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(p); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
