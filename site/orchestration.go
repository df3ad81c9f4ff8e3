package site

import (
	"bytes"
	"fmt"
	"io/fs"

	"go.yaml.in/yaml/v3"
)

// subdecisions is data/orchestration.yaml: the survey's orchestration
// sub-decisions O1-O5 and the entries it names for each.
type subdecisions struct {
	Subdecisions []subdecision `yaml:"subdecisions"`
}

type subdecision struct {
	ID         string `yaml:"id"`
	Slug       string `yaml:"slug"`
	Label      string `yaml:"label"`
	Source     string `yaml:"source"`
	Definition string `yaml:"definition"`
	Gap        string `yaml:"gap"`
	Entries    []struct {
		Key    string `yaml:"key"`
		Source string `yaml:"source"`
		Note   string `yaml:"note"`
	} `yaml:"entries"`
	Unlisted []struct {
		Name   string `yaml:"name"`
		Source string `yaml:"source"`
		Note   string `yaml:"note"`
	} `yaml:"unlisted"`
}

// loadSubdecisions parses the orchestration file of the data directory.
// Unknown keys are an error, so that a renamed field is noticed here.
func loadSubdecisions(dfs fs.FS) (*subdecisions, error) {
	const name = "orchestration.yaml"
	b, err := fs.ReadFile(dfs, name)
	if err != nil {
		return nil, err
	}
	var s subdecisions
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("data/%s: %w", name, err)
	}
	seen := map[string]bool{}
	for _, sd := range s.Subdecisions {
		if !segmentPattern.MatchString(sd.Slug) || seen[sd.Slug] {
			return nil, fmt.Errorf("data/%s: sub-decision %s: slug %q is not a unique path segment", name, sd.ID, sd.Slug)
		}
		seen[sd.Slug] = true
	}
	return &s, nil
}
