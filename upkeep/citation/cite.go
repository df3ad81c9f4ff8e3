package citation

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/release"
	"github.com/masrl/masrl/corpus/siteconfig"
)

// This file is masrl cite short of its flags and its output: what is
// refused before anything is read, the files of a checked corpus, and
// writing them before the release the caller staged is put in place, so
// that every failure leaves no file changed.

// Request is one masrl cite.
type Request struct {
	// Config is masrl.yaml's path; empty: the corpus directory's.
	Config string
	// Out is the directory CITATION.cff and .zenodo.json are written in,
	// made when missing.
	Out string
	// Version (v3) and Date (YYYY-MM-DD) name the release; both empty
	// for a snapshot between releases.
	Version, Date string
	// Snapshot also records the release: the corpus files copied into
	// the corpus's releases/VERSION/ with their hash (release.Stage).
	Snapshot bool
	// Check writes nothing: the files are only compared with Out's.
	Check bool
}

// Refuse says why req cannot be carried out on the corpus of dir, before
// the corpus is read: a date that is not YYYY-MM-DD, a snapshot without
// its version and date or with Check; a corpus whose last edit was interrupted has files
// that may not agree, so nothing is cited or released from it (unless
// Check), and a release that would be refused changes no file,
// CITATION.cff included.
func Refuse(dir string, req Request) error {
	if req.Date != "" && !release.IsDate(req.Date) {
		return fmt.Errorf("--date %q: want YYYY-MM-DD", req.Date)
	}
	if req.Snapshot && (req.Version == "" || req.Date == "" || req.Check) {
		return errors.New("--snapshot needs --version and --date, and not --check")
	}
	if !req.Check {
		if err := corpus.Interrupted(dir); err != nil {
			return fmt.Errorf("%w; no file was changed", err)
		}
	}
	if req.Snapshot {
		return release.CanSnapshot(dir, req.Version, req.Date)
	}
	return nil
}

// Plan is a cite of one corpus: the files it makes and which of those in
// Out are missing or differ (Stale).
type Plan struct {
	Request
	// Dir is the corpus directory and Hash its content hash
	// (corpus.ContentHash), which the files cite.
	Dir, Hash string
	Files     map[string][]byte
	Stale     []string
}

// NewPlan makes the files of the checked corpus ck as req asks, from
// masrl.yaml (req.Config, or the corpus directory's), and compares them
// with req.Out's. It writes nothing.
func NewPlan(ck *corpus.Checked, req Request) (*Plan, error) {
	dir := ck.Corpus.Dir
	path, err := siteconfig.Find(req.Config, dir)
	if err != nil {
		return nil, err
	}
	cfg := &siteconfig.Config{}
	if path != "" {
		if cfg, err = siteconfig.Load(path); err != nil {
			return nil, err
		}
	}
	p := &Plan{Request: req, Dir: dir}
	if p.Hash, err = corpus.ContentHash(dir); err != nil {
		return nil, err
	}
	p.Files, err = Files(&Input{
		Title: cfg.TitleOr(ck.ListTitle()), Description: cfg.Description, Config: cfg,
		Papers: len(ck.Corpus.Papers), Exclusions: len(ck.Corpus.Excluded), Hash: p.Hash, Version: req.Version, Date: req.Date,
	})
	if errors.Is(err, ErrNoAuthors) && path == "" {
		return nil, fmt.Errorf("%w; there is no masrl.yaml in %s (or name one with --config)", err, dir)
	} else if err != nil {
		return nil, err
	}
	p.Stale = Stale(req.Out, p.Files)
	return p, nil
}

// Write writes the plan's files into Out and then, with Snapshot, puts
// the release staged (release.Stage, by the caller: the corpus is
// written through corpus/release, never by this package) in place with
// one rename after them, so that every failure leaves no file changed
// (the two files get their old content back). A process killed between
// the two leaves the new citation files and no release, and the same
// cite then completes it. A release staged from other content than the
// plan's (the corpus changed meanwhile) is refused before anything is
// written.
func (p *Plan) Write(staged *release.Staged) error {
	var commit func() error
	if p.Snapshot {
		if staged == nil {
			return errors.New("--snapshot: no staged release to put in place")
		}
		if staged.Hash != p.Hash {
			return fmt.Errorf("the corpus changed while masrl cite ran (hash %s, then %s); run it again", p.Hash, staged.Hash)
		}
		commit = staged.Commit
	}
	if err := makeOutDir(p.Out); err != nil {
		return err
	}
	return Write(p.Out, p.Files, commit)
}

// Cite is the whole of masrl cite short of printing: with Snapshot the
// release is staged in full first, beside its place (release.Stage, in
// the corpus directory Dir), then Write writes the files and puts it in
// place after them; a failure leaves no file changed and no staged
// release behind. It returns the release put in place, nil without
// Snapshot, for its folder and hash.
func (p *Plan) Cite() (*release.Staged, error) {
	var staged *release.Staged
	if p.Snapshot {
		var err error
		if staged, err = release.Stage(p.Dir, p.Version, p.Date); err != nil {
			return nil, fmt.Errorf("%w; no file was changed", err)
		}
		defer staged.Discard() // gone after Commit; cleans up after a failure
	}
	if err := p.Write(staged); err != nil {
		return nil, err
	}
	return staged, nil
}

// makeOutDir makes the directory the files go in when it is missing, as
// masrl build makes its output directory: a release job writes the files
// into a fresh folder. A path that is something else is an error that
// names it and says what --out wants.
func makeOutDir(dir string) error {
	const want = "name the directory to write CITATION.cff and .zenodo.json in (made when missing; default: the current one)"
	st, err := os.Stat(dir)
	switch {
	case err == nil && !st.IsDir():
		return fmt.Errorf("--out %s is a file, not a directory: %s", dir, want)
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrNotExist):
		err = os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return fmt.Errorf("--out %s: cannot make the directory (%w): %s", dir, err, want)
	}
	return nil
}
