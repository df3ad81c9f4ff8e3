// Package data holds the project's own data, embedded into the binary: the
// controlled vocabularies, the paper's claims, the orchestration
// sub-decisions, prose pages and site settings. Packages that interpret the
// files (corpus, site) parse them; this package only carries the bytes, so
// that one copy of each file drives every consumer.
package data

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
)

// SurveyProfile names the survey's list (arXiv:2605.02801): its claims
// (claims.yaml), pinned pool (survey-pool.yaml), orchestration
// sub-decisions (orchestration.yaml) and prose pages (pages/) are data of
// that list alone, read only when a command is given this profile
// (--profile survey, or profile: survey in masrl.yaml). Every other list
// shares only the vocabulary (vocab.yaml) and the trace types
// (traces.yaml) with it.
const SurveyProfile = "survey"

// Profiles returns the profile names masrl knows; "" (no profile) is not
// one of them.
func Profiles() []string { return []string{SurveyProfile} }

// CheckProfile accepts the names of Profiles and says which there are
// otherwise: the one rule masrl.yaml's profile key, --profile and
// corpus.LoadData apply.
func CheckProfile(name string) error {
	if !slices.Contains(Profiles(), name) {
		return fmt.Errorf("unknown profile %q; masrl knows %s (or no profile: leave it out)", name, strings.Join(Profiles(), ", "))
	}
	return nil
}

// FS is the embedded data directory. An embed.FS is read-only.
//
//go:embed *.yaml pages/*.md
var FS embed.FS

// Dir returns the data directory a command reads: the embedded one, with
// the files of dir laid over it when dir is not "" (--data). Every command
// takes its data from here, so that one flag swaps the vocabulary, the
// claims and the pool for all of them alike.
func Dir(dir string) fs.FS {
	if dir == "" {
		return FS
	}
	return Overlay(os.DirFS(dir), FS)
}

// Overlay returns a file system that reads from top and falls back to
// bottom for the files top lacks: a directory of a few edited files then
// overrides the embedded ones of the same name and keeps the rest.
func Overlay(top, bottom fs.FS) fs.FS { return overlayFS{top: top, bottom: bottom} }

// overlayFS reads from top and falls back to bottom for missing files.
type overlayFS struct{ top, bottom fs.FS }

func (o overlayFS) Open(name string) (fs.File, error) {
	f, err := o.top.Open(name)
	if err == nil {
		return f, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return o.bottom.Open(name)
}

// ReadDir lists a directory of either layer, top entries replacing bottom
// ones of the same name, sorted by name; fs.Glob uses it.
func (o overlayFS) ReadDir(name string) ([]fs.DirEntry, error) {
	top, terr := fs.ReadDir(o.top, name)
	bottom, berr := fs.ReadDir(o.bottom, name)
	if terr != nil && berr != nil {
		return nil, terr
	}
	seen := map[string]bool{}
	var out []fs.DirEntry
	for _, e := range top {
		seen[e.Name()] = true
		out = append(out, e)
	}
	for _, e := range bottom {
		if !seen[e.Name()] {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}
