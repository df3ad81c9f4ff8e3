package corpus

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/masrl/masrl/data"
)

// Data is the project data a corpus is read against: the vocabulary, the
// paper's claims and the survey's pool, each read once from one data
// directory, so that every command sees the same data (masrl --data).
type Data struct {
	// FS is the data directory the rest was read from: data.FS, or a
	// directory laid over it (data.Dir). Whoever reads more of it (the
	// site's pages, orchestration sub-decisions) reads this one.
	FS         fs.FS
	Vocabulary *Vocabulary
	// Claims is claims.yaml, with the pool it names.
	Claims *Claims
	// Pool is the survey's pool, Claims.Pool: nil when the claims name
	// none (fixtures and other corpora count their whole corpus).
	Pool *Pool
	// Survey is the survey the list belongs to, survey-pool.yaml (PoolFile)
	// read whether or not the claims count its pool: the paper, its
	// title, its arXiv id and the list's default title are said there
	// alone.
	Survey *Pool
}

// LoadData reads the vocabulary, the claims and the pool of a data
// directory; nil is the embedded one.
func LoadData(fsys fs.FS) (*Data, error) {
	if fsys == nil {
		fsys = data.FS
	}
	v, err := LoadVocabulary(fsys)
	if err != nil {
		return nil, err
	}
	cl, err := LoadClaimsFS(fsys, v)
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
	return &Data{FS: fsys, Vocabulary: v, Claims: cl, Pool: cl.Pool, Survey: survey}, nil
}

// LoadDataFor reads the data a corpus directory is read against: the data
// directory's (LoadData), with the list's own vocabulary when dir holds a
// vocab.yaml beside papers.csv. The list's declaration wins: it is what the
// check, the counts, the site, the README list, add and the row schema
// see. The claims stay read against the data directory's vocabulary, whose
// list they describe.
func LoadDataFor(dir string, fsys fs.FS) (*Data, error) {
	d, err := LoadData(fsys)
	if err != nil {
		return nil, err
	}
	v, err := ListVocabulary(dir)
	switch {
	case err != nil:
		return nil, err
	case v != nil:
		d.Vocabulary = v
	}
	return d, nil
}

// ListVocabulary reads the vocab.yaml beside a list's papers.csv: nil
// without one, a *VocabularyError with every problem when it is unusable.
func ListVocabulary(dir string) (*Vocabulary, error) {
	path := filepath.Join(dir, VocabFile)
	b, err := os.ReadFile(path)
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

	done  chan struct{}
	diags Diagnostics
}

// Open loads the corpus of dir and the data of the data directory dataFS
// (nil: the embedded one), with the list's own vocab.yaml when dir has one
// (LoadDataFor), and starts checking it. The error is for what
// could not be read at all; the check's findings are Diagnostics.
func Open(dir string, dataFS fs.FS) (*Checked, error) {
	return OpenWith(dir, dataFS, CheckOptions{})
}

// OpenWith is Open with the check's options (a fixed Today for tests).
func OpenWith(dir string, dataFS fs.FS, opt CheckOptions) (*Checked, error) {
	d, err := LoadDataFor(dir, dataFS)
	if err != nil {
		return nil, err
	}
	c, err := Load(dir)
	if err != nil {
		return nil, err
	}
	return StartCheck(c, d, opt), nil
}

// StartCheck starts checking a corpus already loaded, against d. The
// corpus must not change until the check is done (Diagnostics returns).
func StartCheck(c *Corpus, d *Data, opt CheckOptions) *Checked {
	ck := &Checked{Data: d, Corpus: c, done: make(chan struct{})}
	go func() {
		defer close(ck.done)
		ck.diags = Check(c, d.Vocabulary, opt)
	}()
	return ck
}

// Diagnostics waits for the check and returns its findings, sorted.
func (ck *Checked) Diagnostics() Diagnostics {
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
