package intake

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/masrl/masrl/corpus"
)

// Request is what masrl add is asked to add: the paper's id and what the
// contributor says about it, from the command line or a suggestion issue.
type Request struct {
	// ID is an arXiv id (2508.04652), an arxiv.org abs or pdf URL, or a
	// DOI (10.1145/..., https://doi.org/...).
	ID string
	// Key is the entry's key; empty derives one from the title or the
	// first author (EntryKey).
	Key string
	// OneLiner and Notes are the one_liner and notes columns.
	OneLiner, Notes string
	// Tags are controlled values FIELD=VALUE and Sets free-text columns
	// COLUMN=VALUE, as given (ParseTags, ParseSets).
	Tags, Sets []string
}

// FromIssueFile is FromIssue for a suggestion issue's body saved in
// file (masrl add --from-issue), read with the vocabulary of the list
// whose corpus is in dir (corpus.VocabularyFor, the data of dataFS laid
// under it), so that a list's own form is read with its own fields.
func (r *Request) FromIssueFile(file, dir string, dataFS fs.FS) error {
	body, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	v, err := corpus.VocabularyFor(dir, dataFS)
	if err != nil {
		return err
	}
	return r.FromIssue(v, file, body)
}

// FromIssue fills in what r leaves empty from the body of a suggestion
// issue made with the form of the vocabulary v (IssueForm, ParseIssue),
// read from file, which its errors name. What r was given wins, and a
// tag of r comes first, so that ParseTags keeps it and reports the
// issue's other value of the same field.
func (r *Request) FromIssue(v *corpus.Vocabulary, file string, body []byte) error {
	s, err := ParseIssue(v, string(body))
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	r.ID = cmp.Or(r.ID, s.ID)
	r.OneLiner = cmp.Or(r.OneLiner, s.OneLiner)
	r.Key = cmp.Or(r.Key, s.Key)
	r.Notes = cmp.Or(r.Notes, s.Notes)
	given := map[string]bool{}
	for _, t := range r.Tags {
		name, _, _ := strings.Cut(t, "=")
		given[name] = true
	}
	for _, f := range v.FieldsOf(corpus.PapersFile) {
		if val := s.Tags[f.Name]; val != "" && !given[f.Name] {
			r.Tags = append(r.Tags, f.Name+"="+val)
		}
	}
	return nil
}

// Dialogue is where Add says which paper it found and, when Interactive,
// asks for the values the request lacks: each controlled field with its
// definition and every value with its own, so that a contributor picks a
// tag knowing what it means. Without Interactive (on CI, in a pipe) a
// missing value is an error that names the flags to give instead.
type Dialogue struct {
	In          io.Reader
	Out         io.Writer
	Interactive bool
}

// Addition is a paper Add proposes: its metadata and entry, and the
// corpus files with it, to be judged and written by corpus.Edit.
type Addition struct {
	Metadata *Metadata
	Draft    *Draft
	// Standing is the corpus as it stands; its check started before the
	// metadata was fetched, so that the two overlap.
	Standing *corpus.Checked
	// Changes are papers.csv and papers.bib with the new entry, in
	// canonical form.
	Changes map[string][]byte
}

// Concerning keeps the findings of ds that concern the new entry (they
// name its key or its BibTeX key) and every error: what masrl add shows
// after writing, leaving the corpus's standing warnings to masrl check.
func (a *Addition) Concerning(ds corpus.Diagnostics) corpus.Diagnostics {
	var mine corpus.Diagnostics
	for _, d := range ds {
		if s := d.String(); d.Severity == corpus.Error || strings.Contains(s, a.Draft.Key) || strings.Contains(s, a.Draft.BibKey) {
			mine = append(mine, d)
		}
	}
	return mine
}

// WriteAdded writes what masrl add prints once the addition, as the
// edit p, is written: the row and BibTeX entry it added, the check of
// the corpus with them as masrl check prints it but of the findings
// that concern the new entry and the errors only (Concerning), then
// what the edit changed (Proposal.WriteDiff).
func (a *Addition) WriteAdded(w io.Writer, p *corpus.Proposal) {
	fmt.Fprintf(w, "added %s to %s and %s to %s\n\n", a.Draft.Key, corpus.PapersFile, a.Draft.BibKey, corpus.BibFile)
	rep := p.After.Report(p.Dir, true)
	rep.Diagnostics = a.Concerning(rep.Diagnostics)
	rep.Write(w, "text")
	p.WriteDiff(w)
}

// FlagErrors are the bad values of a repeated flag (--tag, --set), each
// said on its own line by the caller.
type FlagErrors struct {
	Flag string   // the flag, with its dashes
	Errs []string // one per bad value, starting with the value
}

func (e *FlagErrors) Error() string { return fmt.Sprintf("%d bad %s flags", len(e.Errs), e.Flag) }

// DuplicateError is a paper the corpus already holds: retained or
// excluded, by arXiv id, DOI or title (corpus.Corpus.Duplicates).
type DuplicateError struct {
	// Paper names the paper as it was found: the id asked for, or the
	// quoted title the service answered with.
	Paper string
	// Matches are the corpus's records it matches.
	Matches []string
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("%s is already in the corpus:\n  %s", e.Paper, strings.Join(e.Matches, "\n  "))
}

// Refused reports whether err is Add's refusal of the paper itself
// (already in the corpus, unknown to the service, its key taken): a
// finding about the input, exit 1 in masrl add, rather than a request
// that could not be carried out.
func Refused(err error) bool {
	var dup *DuplicateError
	return errors.As(err, &dup) || errors.Is(err, ErrNotFound) || errors.Is(err, ErrKeyTaken)
}

// errNoAnswer is returned when the input ends before an answer.
var errNoAnswer = errors.New("input ended before every missing value was given")

// Add drafts the entry of the paper r names for the corpus of dir, with
// the data d (its vocabulary decides the tags): it refuses a paper the
// corpus holds before asking the network and again once the metadata
// names its title, derives the key, says on talk.Out which paper it
// found, asks for what is missing when talk.Interactive, and returns the
// files with the new entry. It writes nothing: the caller hands the
// Addition to corpus.Edit. A corpus with the journal of an interrupted
// edit is refused (corpus.InterruptedError).
func (c *Client) Add(ctx context.Context, dir string, d *corpus.Data, r Request, talk Dialogue) (*Addition, error) {
	v := d.Vocabulary
	tags, errs := ParseTags(v, r.Tags)
	if len(errs) > 0 {
		return nil, &FlagErrors{Flag: "--tag", Errs: errs}
	}
	arxivID, isArxiv := corpus.ParseArxivID(r.ID)
	doi, isDOI := corpus.ParseDOI(r.ID)
	if !isArxiv && !isDOI {
		return nil, fmt.Errorf("%q is not an arXiv id (2508.04652), an arxiv.org abs or pdf URL, or a DOI (10.1145/..., https://doi.org/...)", r.ID)
	}
	if err := corpus.Interrupted(dir); err != nil {
		return nil, err
	}
	cp, err := corpus.Load(dir)
	if err != nil {
		return nil, err
	}
	header, err := PapersHeader(dir)
	if err != nil {
		return nil, err
	}
	sets, errs := ParseSets(v, header, r.Sets)
	if len(errs) > 0 {
		return nil, &FlagErrors{Flag: "--set", Errs: errs}
	}
	a := &Addition{Standing: corpus.StartCheck(cp, d, corpus.CheckOptions{})}
	// The id alone may already be known: say so before asking the network.
	if m := cp.Duplicates(corpus.Candidate{ArxivID: arxivID, DOI: doi}); len(m) > 0 {
		return nil, &DuplicateError{Paper: r.ID, Matches: m}
	}
	if isArxiv {
		a.Metadata, err = c.Arxiv(ctx, arxivID)
	} else {
		a.Metadata, err = c.DOI(ctx, doi)
	}
	switch {
	case errors.Is(err, ErrNotFound):
		return nil, fmt.Errorf("unknown id: %w", err)
	case err != nil:
		return nil, fmt.Errorf("fetching the metadata failed: %w", err)
	}
	md := a.Metadata
	if m := cp.Duplicates(md.Candidate()); len(m) > 0 {
		return nil, &DuplicateError{Paper: strconv.Quote(md.Title), Matches: m}
	}
	key, err := EntryKey(cp, md, r.Key)
	switch {
	case errors.Is(err, ErrKeyTaken):
		return nil, fmt.Errorf("%w; choose another with --key", err)
	case err != nil:
		return nil, fmt.Errorf("--key %w", err)
	}
	fmt.Fprintf(talk.Out, "%s\n  %s (%d), %s; key %s\n", md.Title, md.FirstAuthor(), md.Year, md.Venue, key)
	oneLiner, err := complete(v, header, tags, cmp.Or(r.OneLiner, sets["one_liner"]), talk)
	if err != nil {
		return nil, err
	}
	a.Draft = NewDraft(md, key, tags, oneLiner, r.Notes)
	maps.Copy(a.Draft.Row, sets)
	if oneLiner != "" {
		a.Draft.Row["one_liner"] = oneLiner
	}
	if a.Changes, err = DraftFiles(dir, a.Draft); err != nil {
		return nil, err
	}
	return a, nil
}

// complete asks for the controlled fields tags lacks, into tags, and for
// the one-liner when the list requires one (its papers.csv, header, has
// the column and its vocabulary says it may not be empty) and none was
// given; it returns the one-liner. Without talk.Interactive it asks
// nothing and names the flags to give.
func complete(v *corpus.Vocabulary, header []string, tags map[string]string, oneLiner string, talk Dialogue) (string, error) {
	needOneLiner := oneLiner == "" && slices.Contains(header, "one_liner") && slices.Contains(v.NonEmptyColumns(), "one_liner")
	missing := MissingTags(v, tags)
	if len(missing) == 0 && !needOneLiner {
		return oneLiner, nil
	}
	if !talk.Interactive {
		var b strings.Builder
		for _, f := range missing {
			fmt.Fprintf(&b, "\n  --tag %s=VALUE, one of: %s", f.Name, strings.Join(f.Allowed(), ", "))
		}
		if needOneLiner {
			b.WriteString("\n  --one-liner TEXT")
		}
		return "", fmt.Errorf("missing (not on a terminal, so not asked):%s", b.String())
	}
	p := prompter{in: bufio.NewScanner(talk.In), out: talk.Out}
	for _, f := range missing {
		val, err := p.choose(f)
		if err != nil {
			return "", err
		}
		tags[f.Name] = val
	}
	if needOneLiner {
		return p.text("one_liner", "A one-line summary of the entry's contribution, shown in lists")
	}
	return oneLiner, nil
}
