package siteconfig

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/masrl/masrl/corpus"
)

// Resolve reads the configuration masrl build and masrl serve publish a
// list with: the file config names (--config), else masrl.yaml in the
// corpus directory, else none (the zero Config); then every override (a
// key's name, as in Keys, to the value its flag was given; "" leaves the
// key as the file says) replaces its key, checked as the flag's value
// (Key.Check). dir is the folder of the file read, "" without one: the
// folder the file's templates: is read inside (OpenTemplates).
func Resolve(config, corpusDir string, overrides map[string]string) (cfg *Config, dir string, err error) {
	cfg = &Config{}
	path, err := Find(config, corpusDir)
	if err != nil {
		return nil, "", err
	}
	if path != "" {
		dir = filepath.Dir(path)
		if cfg, err = Load(path); err != nil {
			return nil, "", err
		}
	}
	for _, k := range Keys() {
		v := overrides[k.Name]
		if v == "" {
			continue
		}
		if err := k.Check(v); err != nil {
			return nil, "", err
		}
		*k.Field(cfg) = v
		cfg.assetsFlag = cfg.assetsFlag || k.Name == "assets"
	}
	return cfg, dir, nil
}

// OpenTemplates opens the templates folder masrl.yaml names (c.Templates,
// joined to the file's folder dir by Load) through an os.Root of dir: a
// folder that a symbolic link leads out of it is refused with its name,
// and a link inside it cannot be followed out. nil without one (the
// embedded templates); the site lays the folder over them.
func (c *Config) OpenTemplates(dir string) (fs.FS, error) {
	if c.Templates == "" {
		return nil, nil
	}
	rel, err := filepath.Rel(dir, c.Templates)
	if err != nil || !fs.ValidPath(filepath.ToSlash(rel)) {
		return nil, fmt.Errorf("masrl.yaml: templates: %s: want a folder beside masrl.yaml", c.Templates)
	}
	rel = filepath.ToSlash(rel)
	if err := corpus.CheckInside(dir, rel); err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	if st, err := root.Stat(rel); err != nil || !st.IsDir() {
		root.Close()
		return nil, fmt.Errorf("masrl.yaml: templates: %s: want a folder beside masrl.yaml", c.Templates)
	}
	sub, err := fs.Sub(root.FS(), rel)
	if err != nil {
		root.Close()
		return nil, err
	}
	return sub, nil
}

// OpenAssets opens the list's assets folder (c.Assets, default "assets")
// inside the corpus directory corpusDir, through an os.Root of it: a
// folder, or a file in it, that a symbolic link leads out of the corpus
// is refused with its name, never published. nil without the folder,
// unless masrl.yaml names it.
func (c *Config) OpenAssets(corpusDir string) (fs.FS, error) {
	name := c.Assets
	named := name != ""
	if !named {
		name = "assets"
	}
	setting := "masrl.yaml: assets"
	if c.assetsFlag {
		setting = "--assets"
	}
	if !fs.ValidPath(name) || name == "." {
		return nil, fmt.Errorf("%s: %q: want a folder inside the corpus directory %s", setting, name, corpusDir)
	}
	if err := corpus.CheckInside(corpusDir, name); err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	root, err := os.OpenRoot(corpusDir)
	if err != nil {
		return nil, err
	}
	st, err := root.Stat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !named:
		root.Close()
		return nil, nil
	case err != nil:
		root.Close()
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is said once, without the system call's name
		}
		return nil, fmt.Errorf("%s: %s: %w (want a folder inside the corpus directory)", setting, filepath.Join(corpusDir, name), err)
	case !st.IsDir():
		root.Close()
		return nil, fmt.Errorf("%s: %s: not a folder (want a folder inside the corpus directory)", setting, filepath.Join(corpusDir, name))
	}
	sub, err := fs.Sub(root.FS(), name)
	if err != nil {
		root.Close()
		return nil, err
	}
	// Every file is checked now, so that a link out of the corpus deep in
	// the folder stops the build before it starts, with its name. The
	// root stays open for the build; it is closed when collected.
	err = fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return corpus.CheckInside(corpusDir, path.Join(name, p))
		}
		return nil
	})
	if err != nil {
		root.Close()
		return nil, fmt.Errorf("assets: %w", err)
	}
	return sub, nil
}

// Inputs are the files of the configuration a build reads besides the
// corpus directory corpusDir, for masrl serve to watch: the masrl.yaml
// Resolve reads (config, else the corpus directory's), its templates:
// folder (beside the file, as Load resolved it) and its assets: folder
// inside the corpus. None without a file, and the file alone when it
// does not read: the build reports why.
func Inputs(config, corpusDir string) []string {
	p, err := Find(config, corpusDir)
	if err != nil || p == "" {
		return nil
	}
	in := []string{p}
	c, err := Load(p)
	if err != nil {
		return in
	}
	if c.Templates != "" {
		in = append(in, c.Templates)
	}
	if c.Assets != "" {
		in = append(in, filepath.Join(corpusDir, c.Assets))
	}
	return in
}

// Flags are the flags of masrl.yaml's keys, one per Key and named by its
// Flag, by key name: masrl build and masrl serve declare them alike, and
// a flag given a value overrides its key (Resolve).
type Flags map[string]*string

// DeclareFlags declares a flag for every key on fs, with the key's usage
// and name; baseURLUsage is base_url's, which says what the command
// defaults it to.
func DeclareFlags(fs *flag.FlagSet, baseURLUsage string) Flags {
	f := Flags{}
	for _, k := range Keys() {
		usage := k.Usage + " (masrl.yaml: " + k.Name + ")"
		if k.Name == "base_url" {
			usage = baseURLUsage
		}
		f[k.Name] = fs.String(k.Flag, "", usage)
	}
	return f
}

// Overrides are the flags' values by key name, for Resolve.
func (f Flags) Overrides() map[string]string {
	o := make(map[string]string, len(f))
	for name, v := range f {
		o[name] = *v
	}
	return o
}
