package linkcheck

import (
	"context"

	"github.com/masrl/masrl/corpus"
)

// Report is a link check of a whole corpus: masrl links' --format json
// output, and what its other formats print.
type Report struct {
	Corpus      string             `json:"corpus"`
	URLs        int                `json:"urls"`
	Errors      int                `json:"errors"`
	Warnings    int                `json:"warnings"`
	Diagnostics corpus.Diagnostics `json:"diagnostics"`
}

// CheckCorpus checks every link of the checked corpus ck: the URLs of
// its files and of the link columns its vocabulary declares (Collect).
// The error is Check's: then no link was judged.
func (ck *Checker) CheckCorpus(ctx context.Context, c *corpus.Checked) (*Report, error) {
	var columns []string
	for _, l := range c.Vocabulary.Links {
		columns = append(columns, l.Name)
	}
	links, err := Collect(c.Corpus, columns...)
	if err != nil {
		return nil, err
	}
	res, err := ck.Check(ctx, links)
	if err != nil {
		return nil, err
	}
	rep := &Report{Corpus: c.Corpus.Dir, URLs: res.URLs, Errors: res.Findings.Count(corpus.Error), Warnings: res.Findings.Count(corpus.Warning), Diagnostics: res.Findings}
	if rep.Diagnostics == nil {
		rep.Diagnostics = corpus.Diagnostics{} // [] in JSON, not null
	}
	return rep, nil
}
