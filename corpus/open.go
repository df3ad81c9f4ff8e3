package corpus

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/masrl/masrl/data"
)

// Data is the project data a corpus is read against: the vocabulary and,
// with the survey's profile, the paper's claims and the survey's pool,
// each read once from one data directory, so that every command sees the
// same data (masrl --data, --profile).
type Data struct {
	// FS is the data directory the rest was read from: data.FS, or a
	// directory laid over it (data.Dir). Whoever reads more of it (the
	// site's pages, orchestration sub-decisions) reads this one, and only
	// with the survey's profile.
	FS fs.FS
	// Profile is the list's profile: data.SurveyProfile, or "" for a list
	// of one's own, which gets nothing of the survey's.
	Profile    string
	Vocabulary *Vocabulary
	// Claims is claims.yaml with the pool it names: the data directory's
	// with the survey's profile, else the list's own beside papers.csv;
	// nil when the list has none (no claims page, no claims gate).
	Claims *Claims
	// Pool is the survey's pool, Claims.Pool: nil when the claims name
	// none (fixtures and other corpora count their whole corpus).
	Pool *Pool
	// Survey is the survey the list belongs to, survey-pool.yaml (PoolFile)
	// read whether or not the claims count its pool: the paper, its
	// title, its arXiv id and the list's default title are said there
	// alone. Nil without the survey's profile.
	Survey *Pool
	// digest hashes the files the data was read from (dataDigest), for
	// Reopen to keep it while they are unchanged; "" when not known.
	digest string
}

// LoadData reads the data of the list in the corpus directory dir from a
// data directory (nil: the embedded one) with a profile: the vocabulary
// always (the list's own vocab.yaml in dir when it has one, else the data
// directory's); with data.SurveyProfile the claims, the pool and the survey of
// the data directory; without a profile ("") only the list's own
// claims.yaml in dir, when it has one.
func LoadData(fsys fs.FS, profile, dir string) (*Data, error) {
	if fsys == nil {
		fsys = data.FS
	}
	if profile != "" {
		if err := data.CheckProfile(profile); err != nil {
			return nil, err
		}
	}
	// A list's own vocab.yaml beside papers.csv wins over the data
	// directory's: it is what the check, the counts, the site, the README
	// list, add and the row schema see, and what the list's own claims
	// are read against. The survey's claims stay read against the data
	// directory's vocabulary, whose list they describe. Each file is
	// parsed once, and the data directory's only when it is used.
	own, err := ListVocabulary(dir)
	if err != nil {
		return nil, err
	}
	var sv *Vocabulary
	if own == nil || profile != "" {
		if sv, err = LoadVocabulary(fsys); err != nil {
			return nil, err
		}
	}
	v := cmp.Or(own, sv)
	if profile == "" {
		cl, err := LoadListClaims(dir, v)
		if err != nil {
			return nil, err
		}
		d := &Data{FS: fsys, Vocabulary: v, Claims: cl}
		if cl != nil {
			d.Pool = cl.Pool
		}
		return d, nil
	}
	cl, err := LoadClaimsFS(fsys, sv)
	if err != nil {
		return nil, err
	}
	survey := cl.Pool
	if survey == nil || cl.PoolFile != "survey-pool.yaml" {
		b, err := fs.ReadFile(fsys, "survey-pool.yaml")
		if err != nil {
			return nil, err
		}
		if survey, err = ParsePool(PoolFile, b); err != nil {
			return nil, err
		}
	}
	return &Data{FS: fsys, Profile: profile, Vocabulary: v, Claims: cl, Pool: cl.Pool, Survey: survey}, nil
}

// ListTitle is the title the profile gives the list: the survey list's
// title with the survey's profile, else "".
func (d *Data) ListTitle() string {
	if d.Survey == nil {
		return ""
	}
	return d.Survey.ListTitle
}

// VocabularyFor returns the vocabulary of the list in dir: its own
// vocab.yaml when it has one, else the data directory's (nil: the
// embedded one), as LoadData picks it.
func VocabularyFor(dir string, fsys fs.FS) (*Vocabulary, error) {
	own, err := ListVocabulary(dir)
	if err != nil || own != nil {
		return own, err
	}
	if fsys == nil {
		fsys = data.FS
	}
	return LoadVocabulary(fsys)
}

// ListVocabulary reads the vocab.yaml beside a list's papers.csv: nil
// without one (or for dir ""), a *VocabularyError with every problem when
// it is unusable, an *EscapeError when it links out of dir.
func ListVocabulary(dir string) (*Vocabulary, error) {
	if dir == "" {
		return nil, nil
	}
	path := filepath.Join(dir, VocabFile)
	b, err := ReadFile(dir, VocabFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return ParseVocabulary(path, b)
}

// Checked is a corpus loaded with its data, and its check: the one value
// every command that reads a whole corpus starts from. The check runs in
// the background from the moment the corpus is loaded, so that a caller
// can prepare its own work meanwhile (the site prepares its views) and
// waits only when it asks for the findings.
type Checked struct {
	*Data
	Corpus *Corpus

	done chan struct{}
	// run checks the corpus and closes done, once (Start).
	run     func()
	started sync.Once
	diags   Diagnostics
	opt     CheckOptions // what Propose checks the proposed corpus with
	claimsMemo
	// memo is what the check keeps for the check of the corpus reopened
	// after an edit (Reopen, checkMemo); nil unless opened by Reopen.
	memo *checkMemo
}

// DefaultDir is where the commands look for the corpus when --corpus is
// not given: a directory named corpus in the current one, the layout of a
// list's repository that check.yml also assumes (MASRL_CORPUS_PATH).
const DefaultDir = "corpus"

// NeedPapers reports a corpus directory without papers.csv with the flag
// that names it, instead of the bare file error a load would give: the
// likeliest mistake is a command run outside the list's repository.
func NeedPapers(dir string) error {
	_, err := os.Stat(filepath.Join(dir, PapersFile))
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no %s in %s: point --corpus at the corpus directory (the one holding papers.csv; default %q)", PapersFile, dir, DefaultDir)
	}
	return err
}

// Open loads the corpus of dir and the data of the data directory dataFS
// (nil: the embedded one) with a profile (LoadData) and starts checking
// it. The error is for what could not be read at all; the check's
// findings are Diagnostics.
func Open(dir string, dataFS fs.FS, profile string) (*Checked, error) {
	return OpenWith(dir, dataFS, profile, CheckOptions{})
}

// OpenWith is Open with the check's options (a fixed Today for tests).
func OpenWith(dir string, dataFS fs.FS, profile string, opt CheckOptions) (*Checked, error) {
	return openWith(dir, dataFS, profile, opt, LoadOptions{}, nil)
}

// Reopen is OpenWith for a corpus opened before from the same directory
// (masrl serve rebuilding after an edit): what prev read from files that
// have not changed since is used again instead of parsed again (an
// unchanged papers.bib, the unchanged rows of papers.csv:
// LoadOptions.Previous), and what prev's check found of those rows is
// used again instead of checked again (checkMemo): only the changed rows
// and the rules that read every row are checked, so the result is the
// one OpenWith would give (TestReopenMatchesOpen). prev may be nil, or from
// another directory, when it is plain OpenWith that keeps what the next
// Reopen needs (LoadOptions.Keep); it must not have been changed since it
// was opened.
func Reopen(prev *Checked, dir string, dataFS fs.FS, profile string, opt CheckOptions) (*Checked, error) {
	return ReopenKnowing(prev, dir, dataFS, profile, opt, Known{})
}

// Known is what the caller of ReopenKnowing knows of the corpus files
// since prev was opened, without reading them: masrl serve's watcher
// hears of every change to the directory, and reading and comparing a
// 100,000-entry papers.bib (27 MB) was a third of Reopen's time on
// every edit of papers.csv. The zero Known knows nothing.
type Known struct {
	// BibUnchanged: papers.bib has not changed since prev read it (no
	// event named it or its directory, from a watcher that lost none,
	// and its size and modification time are those of then). A wrong
	// true keeps the old BibTeX; when in doubt, leave it false.
	BibUnchanged bool
}

// ReopenKnowing is Reopen skipping the files known unchanged since prev
// was opened.
func ReopenKnowing(prev *Checked, dir string, dataFS fs.FS, profile string, opt CheckOptions, known Known) (*Checked, error) {
	lo := LoadOptions{Keep: true}
	if prev != nil {
		lo.Previous = prev.Corpus
		lo.BibUnchanged = known.BibUnchanged
	}
	return openWith(dir, dataFS, profile, opt, lo, prev)
}

func openWith(dir string, dataFS fs.FS, profile string, opt CheckOptions, lo LoadOptions, prev *Checked) (*Checked, error) {
	// The data (YAML) is read while the corpus loads: neither reads the
	// other, and the claims alone cost a tenth of opening a 10,000-entry
	// corpus. The data's error, when there is one, is the one returned,
	// as when they were read one after the other.
	type loaded struct {
		d   *Data
		err error
	}
	dataDone := make(chan loaded, 1)
	go func() {
		if !lo.Keep {
			d, err := LoadData(dataFS, profile, dir)
			dataDone <- loaded{d, err}
			return
		}
		// Reopen: the data of the open before while its files are
		// unchanged (datamemo.go), hashed before they are read, so
		// that an edit while they are read is seen the next time.
		var prevData *Data
		if prev != nil {
			prevData = prev.Data
		}
		listed := prevData.listFiles()
		digest := dataDigest(dataFS, profile, dir, listed)
		if prevData != nil && digest != "" && prevData.digest == digest {
			dataDone <- loaded{prevData, nil}
			return
		}
		d, err := LoadData(dataFS, profile, dir)
		if err == nil {
			if !slices.Equal(d.listFiles(), listed) {
				digest = dataDigest(dataFS, profile, dir, d.listFiles())
			}
			d.digest = digest
		}
		dataDone <- loaded{d, err}
	}()
	lo.NoSources = opt.NoSources
	c, err := LoadWith(dir, lo)
	ld := <-dataDone
	if ld.err != nil {
		return nil, ld.err
	}
	if err != nil {
		return nil, err
	}
	return startCheck(c, ld.d, opt, prev, lo.Keep), nil
}

// StartCheck starts checking a corpus already loaded, against d. The
// corpus must not change until the check is done (Diagnostics returns).
func StartCheck(c *Corpus, d *Data, opt CheckOptions) *Checked {
	return startCheck(c, d, opt, nil, false)
}

// startCheck is StartCheck reusing what prev's check found of the rows c
// shares with prev's corpus (checkMemo), and, with keep, keeping what the
// check finds for the next.
func startCheck(c *Corpus, d *Data, opt CheckOptions, prev *Checked, keep bool) *Checked {
	ck := &Checked{Data: d, Corpus: c, done: make(chan struct{}), opt: opt}
	ck.run = func() {
		defer close(ck.done)
		var memo *checkMemo
		if prev != nil {
			prev.Start()
			<-prev.done
			memo = prev.memo
			// ck.run stays referenced after it ran: without this, every
			// reopened corpus would keep all the ones before it alive
			// (TestReopenLetsOlderGo).
			prev = nil
		}
		ck.diags, ck.memo = check(c, d.Vocabulary, opt, memo, keep)
	}
	// Reopen's check waits for its caller (Start, or the first wait for
	// its findings): masrl serve shows an edit's first pages before it
	// (site's quick.go), and at 100,000 entries the check of every row on
	// the other core made the collector's work on the page's path.
	// Every other open starts it at once.
	if !keep {
		ck.Start()
	}
	return ck
}

// Start starts the check in the background, if it has not started: a
// corpus opened by Reopen is checked from its first Start or its first
// wait for the findings, any other at once.
func (ck *Checked) Start() {
	ck.started.Do(func() {
		if ck.run != nil {
			go ck.run()
		}
	})
}

// Diagnostics waits for the check and returns its findings, sorted.
func (ck *Checked) Diagnostics() Diagnostics {
	ck.Start()
	<-ck.done
	return ck.diags
}

// Err waits for the check and returns a *CheckError with every finding
// when any is an error, else nil.
func (ck *Checked) Err() error { return ck.Diagnostics().Err() }

// Warnings waits for the check and returns its findings that are not
// errors: what a command that goes on prints.
func (ck *Checked) Warnings() Diagnostics {
	var out Diagnostics
	for _, d := range ck.Diagnostics() {
		if d.Severity != Error {
			out = append(out, d)
		}
	}
	return out
}

// Unchecked wraps a corpus with no check at all: its Diagnostics are
// empty. It exists for tests that hold a consumer's own guards (keys as
// paths, escaping) to rows the check would refuse; a command never uses
// it.
func Unchecked(c *Corpus, d *Data) *Checked {
	ck := &Checked{Data: d, Corpus: c, done: make(chan struct{})}
	close(ck.done)
	return ck
}
