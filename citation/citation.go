// Package citation writes the files that make a release of the list
// citable: CITATION.cff (Citation File Format 1.2.0, which GitHub shows as
// "Cite this repository") and .zenodo.json (the metadata Zenodo's GitHub
// integration gives the DOI it mints for a release). Both come from
// masrl.yaml and the corpus; a content hash of the corpus files names the
// exact snapshot a version cites.
package citation

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/siteconfig"
	"go.yaml.in/yaml/v3"
)

// Input is what the files are made of.
type Input struct {
	Title       string // the list's title (masrl.yaml's, or the site's default)
	Description string
	Config      *siteconfig.Config
	Papers      int    // retained entries
	Exclusions  int    // excluded records
	Hash        string // "sha256:…" of the corpus files (CorpusHash)
	Version     string // the release, e.g. v3; empty for a snapshot between releases
	Date        string // YYYY-MM-DD the release was made; empty leaves it out
}

// CorpusHash hashes the corpus files in a fixed order, each with its name
// and length, so a version names its snapshot: the same files give the
// same hash on any machine, and any change gives another. A missing
// optional file counts as absent, which is different from empty. The
// files are read as corpus.Load reads them: a link out of the corpus
// directory is an error, never hashed or copied into a release.
func CorpusHash(dir string) (string, error) {
	h := sha256.New()
	for _, name := range []string{corpus.PapersFile, corpus.ExcludedFile, corpus.BibFile, corpus.SpotcheckFile} {
		b, err := corpus.ReadFile(dir, name)
		if errors.Is(err, os.ErrNotExist) {
			if name == corpus.PapersFile {
				return "", err
			}
			fmt.Fprintf(h, "%s absent\n", name)
			continue
		}
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", name, len(b))
		h.Write(b)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// cffPerson is a CFF person or entity; empty fields are left out.
type cffPerson struct {
	FamilyNames string `yaml:"family-names,omitempty" json:"family-names,omitempty"`
	GivenNames  string `yaml:"given-names,omitempty" json:"given-names,omitempty"`
	Name        string `yaml:"name,omitempty" json:"name,omitempty"`
}

type cffIdentifier struct {
	Type        string `yaml:"type" json:"type"`
	Value       string `yaml:"value" json:"value"`
	Description string `yaml:"description,omitempty" json:"description,omitempty"`
}

// cff is CITATION.cff in the order its readers expect the keys.
type cff struct {
	CFFVersion     string          `yaml:"cff-version"`
	Message        string          `yaml:"message"`
	Type           string          `yaml:"type"`
	Title          string          `yaml:"title"`
	Abstract       string          `yaml:"abstract,omitempty"`
	Authors        []cffPerson     `yaml:"authors"`
	Version        string          `yaml:"version,omitempty"`
	DateReleased   string          `yaml:"date-released,omitempty"`
	DOI            string          `yaml:"doi,omitempty"`
	License        string          `yaml:"license,omitempty"`
	URL            string          `yaml:"url,omitempty"`
	RepositoryCode string          `yaml:"repository-code,omitempty"`
	Identifiers    []cffIdentifier `yaml:"identifiers,omitempty"`
	Keywords       []string        `yaml:"keywords,omitempty"`
}

// ErrNoAuthors is returned when masrl.yaml names no authors: CFF and
// Zenodo both require at least one.
var ErrNoAuthors = errors.New("masrl.yaml has no citation.authors: CITATION.cff and .zenodo.json need at least one (citation.authors: \"Family, Given; ...\")")

func (in *Input) people() ([]cffPerson, error) {
	var out []cffPerson
	for _, n := range in.Config.Citation.AuthorNames() {
		if fam, given, ok := strings.Cut(n, ","); ok {
			out = append(out, cffPerson{FamilyNames: strings.TrimSpace(fam), GivenNames: strings.TrimSpace(given)})
		} else {
			out = append(out, cffPerson{Name: n})
		}
	}
	if len(out) == 0 {
		return nil, ErrNoAuthors
	}
	return out, nil
}

func (in *Input) abstract() string {
	a := fmt.Sprintf("%d papers, tagged with a controlled taxonomy, and %d screened-out records with their exclusion reasons.", in.Papers, in.Exclusions)
	if d := strings.TrimSpace(in.Description); d != "" {
		a = d + " " + a
	}
	return a
}

// CFF returns CITATION.cff.
func CFF(in *Input) ([]byte, error) {
	authors, err := in.people()
	if err != nil {
		return nil, err
	}
	c := cff{
		CFFVersion: "1.2.0",
		Message:    "If you use this list, please cite it as below.",
		Type:       "dataset",
		Title:      in.Title,
		Abstract:   in.abstract(),
		Authors:    authors,
		Version:    in.Version, DateReleased: in.Date,
		DOI: in.Config.Citation.DOI, License: in.Config.CitationLicense(),
		URL: in.Config.BaseURL, RepositoryCode: in.Config.Repository.URL,
		Keywords: []string{"reinforcement learning", "large language models", "multi-agent systems", "survey", "awesome list"},
	}
	if in.Hash != "" {
		c.Identifiers = append(c.Identifiers, cffIdentifier{Type: "other", Value: in.Hash,
			Description: "Content hash of the corpus files (papers.csv, excluded.csv, papers.bib, spotcheck.csv) of this version, as masrl cite computes it."})
	}
	var b bytes.Buffer
	b.WriteString("# Generated by masrl cite from masrl.yaml and the corpus; edit those, not this file.\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(c); err != nil {
		return nil, err
	}
	return b.Bytes(), enc.Close()
}

type zenodoCreator struct {
	Name string `json:"name"`
}

type zenodoRelated struct {
	Identifier string `json:"identifier"`
	Relation   string `json:"relation"`
	Scheme     string `json:"scheme"`
}

type zenodo struct {
	Title              string          `json:"title"`
	Description        string          `json:"description"`
	UploadType         string          `json:"upload_type"`
	Creators           []zenodoCreator `json:"creators"`
	Version            string          `json:"version,omitempty"`
	PublicationDate    string          `json:"publication_date,omitempty"`
	License            string          `json:"license,omitempty"`
	Keywords           []string        `json:"keywords"`
	Notes              string          `json:"notes,omitempty"`
	RelatedIdentifiers []zenodoRelated `json:"related_identifiers,omitempty"`
}

// Zenodo returns .zenodo.json. Zenodo takes the names as "Family, Given"
// and the license id in lower case.
func Zenodo(in *Input) ([]byte, error) {
	people, err := in.people()
	if err != nil {
		return nil, err
	}
	z := zenodo{
		Title: in.Title, Description: in.abstract(), UploadType: "dataset",
		Version: in.Version, PublicationDate: in.Date,
		License:  strings.ToLower(in.Config.CitationLicense()),
		Keywords: []string{"reinforcement learning", "large language models", "multi-agent systems", "survey", "awesome list"},
	}
	for _, p := range people {
		n := p.Name
		if n == "" {
			n = p.FamilyNames + ", " + p.GivenNames
		}
		z.Creators = append(z.Creators, zenodoCreator{Name: n})
	}
	if in.Hash != "" {
		z.Notes = "Corpus content hash: " + in.Hash
	}
	for _, u := range []string{in.Config.Repository.URL, in.Config.BaseURL} {
		if u != "" {
			z.RelatedIdentifiers = append(z.RelatedIdentifiers, zenodoRelated{Identifier: u, Relation: "isSupplementTo", Scheme: "url"})
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(z); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
