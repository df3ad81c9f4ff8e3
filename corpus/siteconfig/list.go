package siteconfig

import (
	"io/fs"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/data"
)

// Read reads the list's masrl.yaml (config when given, else the one in
// the corpus directory dir); a list without one has the zero Config, so
// that a command reads a list's settings the same way whether it has a
// masrl.yaml or not.
func Read(config, dir string) (Config, error) {
	path, err := Find(config, dir)
	if err != nil || path == "" {
		return Config{}, err
	}
	cfg, err := Load(path)
	if err != nil {
		return Config{}, err
	}
	return *cfg, nil
}

// Profile returns the profile a command applies to the corpus of dir:
// flagValue (--profile) when given, else the profile of masrl.yaml
// (config, or the corpus directory's), else none. It is here, not in
// corpus, because masrl.yaml is read here; every command that reads a
// corpus asks it, so that --profile means the same everywhere.
func Profile(flagValue, config, dir string) (string, error) {
	if flagValue != "" {
		return flagValue, data.CheckProfile(flagValue)
	}
	cfg, err := Read(config, dir)
	return cfg.Profile, err
}

// LoadData is corpus.LoadData with the list's profile (Profile): the
// data a command reads beside the corpus of dir when it streams the
// corpus or reads only its vocabulary instead of opening it.
func LoadData(dataFS fs.FS, profileFlag, dir string) (*corpus.Data, error) {
	prof, err := Profile(profileFlag, "", dir)
	if err != nil {
		return nil, err
	}
	return corpus.LoadData(dataFS, prof, dir)
}

// OpenOptions say how Open opens a list's corpus.
type OpenOptions struct {
	// ForEdit refuses, first, a corpus that holds the journal of an
	// interrupted edit (corpus.Interrupted): a command that means to
	// change the corpus must not read files that may not agree.
	ForEdit bool
	// Check are the options of the check corpus.OpenWith starts.
	Check corpus.CheckOptions
}

// Open opens the corpus of the list in dir as masrl check and the upkeep
// commands do: a directory without papers.csv is refused with the flag
// that names it (corpus.NeedPapers), and the corpus is opened with the
// data of dataFS (nil: the embedded one) under the list's profile
// (Profile), so that --data and --profile are honoured the same way by
// every command.
func Open(dir string, dataFS fs.FS, profileFlag string, opt OpenOptions) (*corpus.Checked, error) {
	if opt.ForEdit {
		if err := corpus.Interrupted(dir); err != nil {
			return nil, err
		}
	}
	if err := corpus.NeedPapers(dir); err != nil {
		return nil, err
	}
	prof, err := Profile(profileFlag, "", dir)
	if err != nil {
		return nil, err
	}
	return corpus.OpenWith(dir, dataFS, prof, opt.Check)
}
