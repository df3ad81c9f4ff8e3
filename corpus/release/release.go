// Package release keeps the citable releases of a list and the dates its
// upkeep last ran, both as files in the corpus directory, so that a static
// build reads them like the rest of the corpus and two builds of the same
// folder are byte-identical (no git, no clock at build time).
//
// A release is a folder releases/vN/ holding a copy of the corpus files
// as they were when tag vN was made, and release.yaml naming the version,
// the date and the content hash corpus.ContentHash gives those files
// (the hash CITATION.cff cites). Snapshot writes it; Load reads every
// release back in version order and refuses one whose files no longer
// hash to what release.yaml recorded, so a page never shows a snapshot
// under the wrong name.
package release

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"

	"github.com/masrl/masrl/corpus"
	"go.yaml.in/yaml/v3"
)

// Dir is the corpus's folder of releases; MetaFile is a release's record.
const (
	Dir      = "releases"
	MetaFile = "release.yaml"
)

// versionRE is the tag of a release: v and a positive number, which
// orders releases and makes the previous one N-1's predecessor in order.
var versionRE = regexp.MustCompile(`^v([1-9][0-9]{0,8})$`)

var isoDate = regexp.MustCompile(`^[0-9]{4}-(0[1-9]|1[012])-(0[1-9]|[12][0-9]|3[01])$`)

// Meta is release.yaml.
type Meta struct {
	Version string `yaml:"version"`
	Date    string `yaml:"date"`
	Hash    string `yaml:"hash"`
}

// Release is one snapshot read back.
type Release struct {
	Meta
	N      int            // the version's number
	Dir    string         // the snapshot's folder
	Corpus *corpus.Corpus // the snapshot's corpus files
}

// ParseVersion returns the number of a release tag such as v3.
func ParseVersion(v string) (int, error) {
	m := versionRE.FindStringSubmatch(v)
	if m == nil {
		return 0, fmt.Errorf("version %q: want v and a positive number, as v3", v)
	}
	return strconv.Atoi(m[1])
}

// snapshotFiles are the corpus files a release copies: the ones
// corpus.ContentHash hashes, so the copy hashes as the corpus did.
var snapshotFiles = []string{corpus.PapersFile, corpus.ExcludedFile, corpus.BibFile, corpus.SpotcheckFile}

// CanSnapshot reports why Snapshot would refuse version and date (not a
// version, not a date, a release that exists), so that a command can
// refuse before it writes anything else.
func CanSnapshot(corpusDir, version, date string) error {
	if _, err := ParseVersion(version); err != nil {
		return err
	}
	if !isoDate.MatchString(date) {
		return fmt.Errorf("date %q: want YYYY-MM-DD", date)
	}
	dir := filepath.Join(corpusDir, Dir, version)
	if _, err := os.Stat(dir); err == nil {
		return fmt.Errorf("%s: release %s exists; a published version never changes", dir, version)
	}
	return nil
}

// Snapshot records release version of the corpus in corpusDir, made on
// date: it copies the corpus files into releases/VERSION/ and writes
// release.yaml with their hash. An existing release of that version is
// an error: a published version never changes.
func Snapshot(corpusDir, version, date string) (*Meta, error) {
	s, err := Stage(corpusDir, version, date)
	if err != nil {
		return nil, err
	}
	if err := s.Commit(); err != nil {
		s.Discard()
		return nil, err
	}
	return &s.Meta, nil
}

// Staged is a release written in full into a staging folder inside the
// corpus's releases folder, not yet in place: masrl cite --snapshot stages
// the release before it writes CITATION.cff, so that a release that cannot
// be written (releases is a file, the disk is full) changes no file, and
// puts it in place with one rename after.
type Staged struct {
	Meta
	corpusDir, stage string
}

// Stage writes release version of the corpus in corpusDir, made on date,
// into a staging folder (Snapshot's files) and returns it; Commit puts it
// in place, Discard removes it. Everything is written through an os.Root
// of corpusDir: a corpus file or a releases folder that links out of the
// corpus is an error, never followed.
func Stage(corpusDir, version, date string) (*Staged, error) {
	if err := CanSnapshot(corpusDir, version, date); err != nil {
		return nil, err
	}
	hash, err := corpus.ContentHash(corpusDir)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(corpusDir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	if err := root.MkdirAll(Dir, 0o755); err != nil {
		return nil, fmt.Errorf("%s: cannot make the releases folder (%w): it must be a folder of the corpus", filepath.Join(corpusDir, Dir), err)
	}
	var rnd [8]byte
	rand.Read(rnd[:])
	stage := path.Join(Dir, "."+version+"-"+hex.EncodeToString(rnd[:]))
	if err := root.Mkdir(stage, 0o755); err != nil {
		return nil, err
	}
	s := &Staged{Meta: Meta{Version: version, Date: date, Hash: hash}, corpusDir: corpusDir, stage: stage}
	if err := s.write(root); err != nil {
		s.Discard()
		return nil, err
	}
	return s, nil
}

func (s *Staged) write(root *os.Root) error {
	for _, name := range snapshotFiles {
		b, err := corpus.ReadFile(s.corpusDir, name)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if err := writeSynced(root, path.Join(s.stage, name), b); err != nil {
			return err
		}
	}
	b, err := yaml.Marshal(&s.Meta)
	if err != nil {
		return err
	}
	return writeSynced(root, path.Join(s.stage, MetaFile), b)
}

// writeSynced writes a new file of root and syncs it, so that a release
// in place is a release on disk.
func writeSynced(root *os.Root, name string, b []byte) error {
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, werr := f.Write(b)
	if err := errors.Join(werr, f.Sync(), f.Close()); err != nil {
		return fmt.Errorf("writing %s: %w", filepath.Join(root.Name(), name), err)
	}
	return nil
}

// Dir is the folder the release will have once in place.
func (s *Staged) Dir() string { return filepath.Join(s.corpusDir, Dir, s.Version) }

// Commit renames the staged release into place, once: a release that
// exists by then (another masrl cite) is not replaced.
func (s *Staged) Commit() error {
	root, err := os.OpenRoot(s.corpusDir)
	if err != nil {
		return err
	}
	defer root.Close()
	final := path.Join(Dir, s.Version)
	if _, err := root.Lstat(final); err == nil {
		return fmt.Errorf("%s: release %s exists; a published version never changes", s.Dir(), s.Version)
	}
	if err := root.Rename(s.stage, final); err != nil {
		return err
	}
	if d, err := root.Open(Dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Discard removes the staged release.
func (s *Staged) Discard() {
	if root, err := os.OpenRoot(s.corpusDir); err == nil {
		root.RemoveAll(s.stage)
		root.Close()
	}
}

// Load reads every release of the corpus in corpusDir, oldest first.
// Without a releases folder there are none. Every problem is reported,
// each at its file: a folder that is not a version, a release.yaml that
// does not parse or disagrees with its folder, and files whose hash is
// not the recorded one.
func Load(corpusDir string) ([]Release, error) {
	// The releases folder and each release are corpus files: one that
	// links out of the corpus is an error, never read.
	if err := corpus.CheckInside(corpusDir, Dir); err != nil {
		return nil, err
	}
	root := filepath.Join(corpusDir, Dir)
	ents, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Release
	var errs []error
	for _, de := range ents {
		if !de.IsDir() || de.Name()[0] == '.' {
			continue
		}
		dir := filepath.Join(root, de.Name())
		n, err := ParseVersion(de.Name())
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", dir, err))
			continue
		}
		if err := corpus.CheckInside(corpusDir, path.Join(Dir, de.Name())); err != nil {
			errs = append(errs, err)
			continue
		}
		r, err := load(dir, de.Name(), n)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, *r)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b Release) int { return a.N - b.N })
	return out, nil
}

func load(dir, version string, n int) (*Release, error) {
	path := filepath.Join(dir, MetaFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m Meta
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var errs []error
	if m.Version != version {
		errs = append(errs, fmt.Errorf("%s: version %q in folder %s: want %q", path, m.Version, version, version))
	}
	if !isoDate.MatchString(m.Date) {
		errs = append(errs, fmt.Errorf("%s: date %q: want YYYY-MM-DD", path, m.Date))
	}
	hash, err := corpus.ContentHash(dir)
	if err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", dir, err))
	} else if hash != m.Hash {
		errs = append(errs, fmt.Errorf("%s: hash %q, but the files in %s hash to %q: a release's files never change", path, m.Hash, dir, hash))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	c, err := corpus.Load(dir)
	if err != nil {
		return nil, err
	}
	return &Release{Meta: m, N: n, Dir: dir, Corpus: c}, nil
}

// History is what a list's site shows of its past: its releases, oldest
// first, and the dates its upkeep last ran. The command reads it
// (ReadHistory) and hands it to the site, which reads nothing from the
// corpus directory itself.
type History struct {
	Releases []Release
	Upkeep   Upkeep
	// Snapshots are the dated papers.csv versions of the history folder
	// (ReadSnapshots), from which the site leaves a page at the old
	// address of every renamed entry.
	Snapshots []*corpus.Corpus
}

// HistoryDir is the corpus's folder of earlier papers.csv versions (the
// files masrl diff compares).
const HistoryDir = "history"

// ReadSnapshots reads every papers.csv version (*.csv) of the history
// folder of corpusDir, in name order; no folder or no file is none. Each
// is read through the corpus's root: a history file or folder that links
// out of the corpus is an error, not read.
func ReadSnapshots(corpusDir string) ([]*corpus.Corpus, error) {
	paths, err := filepath.Glob(filepath.Join(corpusDir, HistoryDir, "*.csv"))
	if err != nil {
		return nil, err
	}
	slices.Sort(paths)
	var out []*corpus.Corpus
	for _, p := range paths {
		old, err := corpus.LoadPapersIn(corpusDir, HistoryDir+"/"+filepath.Base(p))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		out = append(out, old)
	}
	return out, nil
}

// ReadHistory reads upkeep.yaml (ReadUpkeep), every release (Load) and
// every papers.csv version of the history folder (ReadSnapshots) of the
// corpus in corpusDir.
func ReadHistory(corpusDir string) (*History, error) {
	u, err := ReadUpkeep(corpusDir)
	if err != nil {
		return nil, err
	}
	rels, err := Load(corpusDir)
	if err != nil {
		return nil, err
	}
	snaps, err := ReadSnapshots(corpusDir)
	if err != nil {
		return nil, err
	}
	return &History{Releases: rels, Upkeep: u, Snapshots: snaps}, nil
}

// UpkeepFile records when the list's upkeep last ran: masrl refresh
// --write and masrl links --record write it, the site's home page shows
// it. The dates are the commands', so the build reads no clock.
const UpkeepFile = corpus.UpkeepFile

// Upkeep is upkeep.yaml; an empty date is unknown.
type Upkeep struct {
	Refreshed    string `yaml:"refreshed,omitempty"`
	LinksChecked string `yaml:"links_checked,omitempty"`
}

// ReadUpkeep reads upkeep.yaml of corpusDir; a missing file is all unknown.
func ReadUpkeep(corpusDir string) (Upkeep, error) {
	var u Upkeep
	path := filepath.Join(corpusDir, UpkeepFile)
	b, err := corpus.ReadFile(corpusDir, UpkeepFile)
	if errors.Is(err, os.ErrNotExist) {
		return u, nil
	}
	if err != nil {
		return u, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&u); err != nil && !errors.Is(err, io.EOF) {
		return u, fmt.Errorf("%s: %w", path, err)
	}
	var errs []error
	for _, d := range []struct{ name, v string }{{"refreshed", u.Refreshed}, {"links_checked", u.LinksChecked}} {
		if d.v != "" && !isoDate.MatchString(d.v) {
			errs = append(errs, fmt.Errorf("%s: %s %q: want YYYY-MM-DD", path, d.name, d.v))
		}
	}
	return u, errors.Join(errs...)
}

// RecordUpkeep sets one date of upkeep.yaml (set changes the read record)
// and writes it back, keeping the other date.
func RecordUpkeep(corpusDir string, set func(*Upkeep)) error {
	b, err := UpkeepRecorded(corpusDir, set)
	if err != nil {
		return err
	}
	return corpus.Apply(corpusDir, map[string][]byte{UpkeepFile: b}, corpus.ApplyOptions{})
}

// UpkeepRecorded is upkeep.yaml as RecordUpkeep would write it, for a
// command that writes it together with the corpus files (refresh --write
// --record) in one corpus.Apply.
func UpkeepRecorded(corpusDir string, set func(*Upkeep)) ([]byte, error) {
	u, err := ReadUpkeep(corpusDir)
	if err != nil {
		return nil, err
	}
	set(&u)
	return yaml.Marshal(u)
}

// IsDate reports whether s is a YYYY-MM-DD date.
func IsDate(s string) bool { return isoDate.MatchString(s) }
