package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/upkeep/intake"
	"golang.org/x/term"
)

func addCommand() command {
	return command{summary: "add a paper by arXiv id, arXiv URL or DOI (fetches its metadata)", run: runAdd}
}

// addOptions are masrl add's inputs; stdin and interactive are separate so
// tests can drive the prompts.
type addOptions struct {
	dir, data, profile, id, key, oneLiner, notes string
	tags                                         []string // field=value, as given
	sets                                         []string // column=value, as given
	client                                       intake.Client
	stdin                                        io.Reader
	interactive                                  bool // ask for what is missing
}

// runAdd is masrl add: it drafts a row and a BibTeX entry from arXiv's or
// doi.org's metadata, checks the corpus as it would be with them
// (corpus.Propose), writes both files in canonical form as one
// transaction (corpus.Apply), then prints the
// check and the diff. Exit 1: the paper is already in the corpus, the
// service knows no such id, or the new corpus fails the check; exit 2: usage, a tag outside the vocabulary, a
// network failure. In every failure no file changes.
func runAdd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("add", "add ID|--from-issue FILE [--tag FIELD=VALUE]... [--set COLUMN=VALUE]... [--one-liner TEXT] [--key KEY] [--corpus DIR] [--data DIR] [--profile survey]", stderr)
	var o addOptions
	fs.StringVar(&o.dir, "corpus", defaultCorpus, "corpus `directory`")
	dataDir := dataFlag(fs)
	profile := profileFlag(fs)
	fs.Func("tag", "a controlled tag `FIELD=VALUE` (repeat for each of the eight fields)", func(s string) error {
		o.tags = append(o.tags, s)
		return nil
	})
	fs.Func("set", "a free-text `COLUMN=VALUE` of papers.csv, such as a list's own columns (repeat; controlled fields take --tag, the key --key)", func(s string) error {
		o.sets = append(o.sets, s)
		return nil
	})
	fs.StringVar(&o.oneLiner, "one-liner", "", "the entry's one-line summary")
	fs.StringVar(&o.key, "key", "", "the entry's `key` (derived from the title or first author when absent)")
	fs.StringVar(&o.notes, "notes", "", "the notes column")
	fs.StringVar(&o.client.ArxivAPI, "arxiv-api", intake.DefaultArxivAPI, "arXiv query API `URL`")
	fs.StringVar(&o.client.DOIAPI, "doi-api", intake.DefaultDOIAPI, "DOI resolver `URL` (content negotiation)")
	timeout := fs.Duration("timeout", 30*time.Second, "time allowed for fetching the metadata")
	fromIssue := fs.String("from-issue", "", "read the id, tags, one-liner, key and notes from the body of a suggest-a-paper issue in `FILE` (flags given too win)")
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		o.id, args = args[0], args[1:]
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	o.data, o.profile = *dataDir, *profile
	if o.id == "" && fs.NArg() == 1 {
		o.id = fs.Arg(0)
	} else if fs.NArg() > 0 {
		fs.Usage()
		return exitUsage
	}
	if *fromIssue != "" {
		if err := o.fromIssue(*fromIssue); err != nil {
			return editFailer(stderr, "add")(exitFindings, "%v", err)
		}
	}
	if o.id == "" {
		fs.Usage()
		return exitUsage
	}
	o.stdin = os.Stdin
	// Ask only a person: on CI or in a pipe a missing value is an error.
	o.interactive = term.IsTerminal(int(os.Stdin.Fd())) && term.IsTerminal(int(os.Stdout.Fd()))
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	return addPaper(ctx, o, stdout, stderr)
}

// fromIssue fills in what the flags left empty from a suggestion issue's
// body (the issue form of masrl issue-form). Tags given by flag come
// first, so parseTags keeps them and reports a different issue value.
func (o *addOptions) fromIssue(file string) error {
	body, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	v, err := corpus.VocabularyFor(o.dir, data.Dir(o.data))
	if err != nil {
		return err
	}
	s, err := intake.ParseIssue(v, string(body))
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if o.id == "" {
		o.id = s.ID
	}
	if o.oneLiner == "" {
		o.oneLiner = s.OneLiner
	}
	if o.key == "" {
		o.key = s.Key
	}
	if o.notes == "" {
		o.notes = s.Notes
	}
	given := map[string]bool{}
	for _, t := range o.tags {
		name, _, _ := strings.Cut(t, "=")
		given[name] = true
	}
	for _, f := range v.FieldsOf(corpus.PapersFile) {
		if val := s.Tags[f.Name]; val != "" && !given[f.Name] {
			o.tags = append(o.tags, f.Name+"="+val)
		}
	}
	return nil
}

func addPaper(ctx context.Context, o addOptions, stdout, stderr io.Writer) int {
	fail := editFailer(stderr, "add")
	prof, err := listProfile(o.profile, "", o.dir)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	d, err := corpus.LoadData(data.Dir(o.data), prof, o.dir)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	v := d.Vocabulary
	tags, errs := intake.ParseTags(v, o.tags)
	if len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintf(stderr, "masrl add: --tag %s\n", e)
		}
		return fail(exitUsage, "%d bad --tag flags", len(errs))
	}
	arxivID, isArxiv := corpus.ParseArxivID(o.id)
	doi, isDOI := corpus.ParseDOI(o.id)
	if !isArxiv && !isDOI {
		return fail(exitUsage, "%q is not an arXiv id (2508.04652), an arxiv.org abs or pdf URL, or a DOI (10.1145/..., https://doi.org/...)", o.id)
	}
	if err := corpus.Interrupted(o.dir); err != nil {
		return fail(exitUsage, "%v", err)
	}
	c, err := corpus.Load(o.dir)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	header, err := intake.PapersHeader(o.dir)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	sets, errs := intake.ParseSets(v, header, o.sets)
	if len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintf(stderr, "masrl add: --set %s\n", e)
		}
		return fail(exitUsage, "%d bad --set flags", len(errs))
	}
	// The corpus as it stands is checked while the metadata is fetched.
	standing := corpus.StartCheck(c, d, corpus.CheckOptions{})
	// The id alone may already be known: say so before asking the network.
	if d := c.Duplicates(corpus.Candidate{ArxivID: arxivID, DOI: doi}); len(d) > 0 {
		return fail(exitFindings, "%s is already in the corpus:\n  %s", o.id, strings.Join(d, "\n  "))
	}
	var md *intake.Metadata
	if isArxiv {
		md, err = o.client.Arxiv(ctx, arxivID)
	} else {
		md, err = o.client.DOI(ctx, doi)
	}
	switch {
	case errors.Is(err, intake.ErrNotFound):
		return fail(exitFindings, "unknown id: %v", err)
	case err != nil:
		return fail(exitUsage, "fetching the metadata failed: %v", err)
	}
	if d := c.Duplicates(md.Candidate()); len(d) > 0 {
		return fail(exitFindings, "%q is already in the corpus:\n  %s", md.Title, strings.Join(d, "\n  "))
	}
	key, err := intake.EntryKey(c, md, o.key)
	switch {
	case errors.Is(err, intake.ErrKeyTaken):
		return fail(exitFindings, "%v; choose another with --key", err)
	case err != nil:
		return fail(exitUsage, "--key %v", err)
	}
	fmt.Fprintf(stdout, "%s\n  %s (%d), %s; key %s\n", md.Title, md.FirstAuthor(), md.Year, md.Venue, key)
	oneLiner := cmp.Or(o.oneLiner, sets["one_liner"])
	// A one-liner is asked for only where the list requires one.
	needOneLiner := oneLiner == "" && slices.Contains(header, "one_liner") && slices.Contains(v.NonEmptyColumns(), "one_liner")
	if missing := intake.MissingTags(v, tags); len(missing) > 0 || needOneLiner {
		if !o.interactive {
			var b strings.Builder
			for _, f := range missing {
				fmt.Fprintf(&b, "\n  --tag %s=VALUE, one of: %s", f.Name, strings.Join(f.Allowed(), ", "))
			}
			if needOneLiner {
				b.WriteString("\n  --one-liner TEXT")
			}
			return fail(exitUsage, "missing (not on a terminal, so not asked):%s", b.String())
		}
		p := prompter{in: newLineReader(o.stdin), out: stdout}
		for _, f := range missing {
			val, err := p.choose(f)
			if err != nil {
				return fail(exitUsage, "%v", err)
			}
			tags[f.Name] = val
		}
		if needOneLiner {
			if oneLiner, err = p.text("one_liner", "A one-line summary of the entry's contribution, shown in lists"); err != nil {
				return fail(exitUsage, "%v", err)
			}
		}
	}
	draft := intake.NewDraft(md, key, tags, oneLiner, o.notes)
	maps.Copy(draft.Row, sets)
	if oneLiner != "" {
		draft.Row["one_liner"] = oneLiner
	}
	files, err := intake.DraftFiles(o.dir, draft)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	pc, err := checkProposed(o.dir, standing, files, true)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	if pc.Worse() {
		writeCheckReport(stderr, "text", pc.After)
		return fail(exitFindings, "the new entry is refused: it fails the check")
	}
	if err := pc.Proposal.Apply(applyOptions(stderr)); err != nil {
		if half := (*corpus.HalfAppliedError)(nil); errors.As(err, &half) {
			return failer(stderr, "add")(exitUsage, "%v", err)
		}
		return fail(exitUsage, "%v", err)
	}
	rep, newer := pc.After, pc.Proposal.After.Corpus
	fmt.Fprintf(stdout, "added %s to %s and %s to %s\n\n", key, corpus.PapersFile, draft.BibKey, corpus.BibFile)
	// The findings that concern the new entry, and the summary: the
	// corpus' standing warnings are masrl check's to list.
	var mine corpus.Diagnostics
	for _, d := range rep.Diagnostics {
		if d.Severity == corpus.Error || strings.Contains(d.String(), key) || strings.Contains(d.String(), draft.BibKey) {
			mine = append(mine, d)
		}
	}
	rep.Diagnostics = mine
	writeCheckReport(stdout, "text", rep)
	diff := pc.Proposal.Diff()
	diff.Old, diff.New = "before", "after"
	io.WriteString(stdout, "\n"+diffMarkdown(&diff, len(c.Papers), len(newer.Papers)))
	return exitOK
}
