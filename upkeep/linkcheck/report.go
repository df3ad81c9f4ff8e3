package linkcheck

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/internal/diag"
	"golang.org/x/term"
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

// Write writes the report's findings in format, as masrl links prints
// them: "json" (the whole report, indented), "github" (one workflow
// command per finding) or "text" (one finding per line, as masrl check
// prints them). The summary line of text and github is Summary.
func (r *Report) Write(w io.Writer, format string) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	case "github":
		for _, d := range r.Diagnostics {
			if _, err := io.WriteString(w, d.Annotation().String()+"\n"); err != nil {
				return err
			}
		}
		return nil
	}
	for _, d := range r.Diagnostics {
		if _, err := io.WriteString(w, d.String()+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// Summary is the line masrl links ends its text and github output with:
// the corpus, how many links were checked, and the errors and warnings.
func (r *Report) Summary() string {
	return fmt.Sprintf("%s: %s checked: %s, %s", r.Corpus, diag.Count(r.URLs, "link"), diag.Count(r.Errors, "error"), diag.Count(r.Warnings, "warning"))
}

// TerminalProgress is the Progress masrl links shows, as prog, on w when
// w is a terminal: one line rewritten as the links are checked; nil
// when w is not one, so that a log or a pipe gets no such line. The
// caller ends the line once the check is done.
func TerminalProgress(w io.Writer, prog string) func(done, total int) {
	if f, ok := w.(*os.File); !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return func(done, total int) {
		fmt.Fprintf(w, "\r%s: %d of %d links checked", prog, done, total)
	}
}
