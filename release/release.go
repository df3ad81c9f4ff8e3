// Package release keeps the citable releases of a list and the dates its
// upkeep last ran, both as files in the corpus directory, so that a static
// build reads them like the rest of the corpus and two builds of the same
// folder are byte-identical (no git, no clock at build time).
//
// A release is a folder releases/vN/ holding a copy of the corpus files
// as they were when tag vN was made, and release.yaml naming the version,
// the date and the content hash citation.CorpusHash gives those files
// (the hash CITATION.cff cites). Snapshot writes it; Load reads every
// release back in version order and refuses one whose files no longer
// hash to what release.yaml recorded, so a page never shows a snapshot
// under the wrong name.
package release

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"

	"github.com/masrl/masrl/citation"
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
// citation.CorpusHash hashes, so the copy hashes as the corpus did.
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
	if err := CanSnapshot(corpusDir, version, date); err != nil {
		return nil, err
	}
	dir := filepath.Join(corpusDir, Dir, version)
	hash, err := citation.CorpusHash(corpusDir)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(filepath.Join(corpusDir), ".release-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	for _, name := range snapshotFiles {
		b, err := os.ReadFile(filepath.Join(corpusDir, name))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(tmp, name), b, 0o644); err != nil {
			return nil, err
		}
	}
	m := &Meta{Version: version, Date: date, Hash: hash}
	b, err := yaml.Marshal(m)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(tmp, MetaFile), b, 0o644); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(corpusDir, Dir), 0o755); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return nil, err
	}
	return m, nil
}

// Load reads every release of the corpus in corpusDir, oldest first.
// Without a releases folder there are none. Every problem is reported,
// each at its file: a folder that is not a version, a release.yaml that
// does not parse or disagrees with its folder, and files whose hash is
// not the recorded one.
func Load(corpusDir string) ([]Release, error) {
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
	hash, err := citation.CorpusHash(dir)
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
