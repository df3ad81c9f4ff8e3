package corpus

import (
	"bytes"
	"io/fs"
	"slices"

	"github.com/masrl/masrl/data"
	"go.yaml.in/yaml/v3"
)

// PoolFile is the name of the survey's pinned pool, used in positions.
const PoolFile = "data/survey-pool.yaml"

// Pool is the survey's pool as the paper describes it: the retained keys
// and excluded record ids of the paper's version. The paper's claims are
// about these records, not about whatever the corpus holds today, so the
// list can grow by contribution while the claims keep being checked
// against the records they describe.
type Pool struct {
	// Paper names the version of the paper the snapshot belongs to
	// (e.g. arXiv:2605.02801v1); CorpusVersion the papers.csv it was taken
	// from.
	Paper         string
	CorpusVersion string
	// Title is the paper's title; ListTitle the title of the list the
	// pool is published as (the site's default title, and that of the
	// standalone awesome list). The survey's facts are said here alone.
	Title, ListTitle string
	// License is the SPDX identifier of the pool's data licence (the
	// survey's corpus is CC0-1.0): the site names it unless masrl.yaml's
	// license says otherwise.
	License string
	// Retained and Excluded are sorted and free of repeats.
	Retained []string
	Excluded []string
}

// LoadPool parses the pool embedded from data/survey-pool.yaml.
func LoadPool() (*Pool, error) {
	b, err := fs.ReadFile(data.FS, "survey-pool.yaml")
	if err != nil {
		return nil, err
	}
	return ParsePool(PoolFile, b)
}

// ParsePool decodes a pool file. A key that is empty or repeated is an
// error at its line: a repeat would otherwise hide that the paper describes
// fewer records than the list suggests.
func ParsePool(name string, b []byte) (*Pool, error) {
	var doc struct {
		Paper         string    `yaml:"paper"`
		Title         string    `yaml:"title"`
		ListTitle     string    `yaml:"list_title"`
		License       string    `yaml:"license"`
		CorpusVersion string    `yaml:"corpus_version"`
		Retained      yaml.Node `yaml:"retained"`
		Excluded      yaml.Node `yaml:"excluded"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil {
		return nil, yamlProblems(name, b, err, 0).Err()
	}
	var ds Diagnostics
	errorf := func(line int, format string, args ...any) {
		ds.add(Error, Pos{File: name, Line: line}, "", "", format, args...)
	}
	if doc.Paper == "" {
		errorf(1, "the pool needs paper: the version of the paper it belongs to (arXiv:YYMM.NNNNNvN)")
	}
	keys := func(n *yaml.Node, what string) []string {
		if n.Kind != yaml.SequenceNode {
			errorf(max(n.Line, 1), "%s must be a list of keys", what)
			return nil
		}
		seen := map[string]int{}
		var out []string
		for _, k := range n.Content {
			switch {
			case k.Kind != yaml.ScalarNode || k.Value == "":
				errorf(k.Line, "%s: an item must be a non-empty key", what)
			case seen[k.Value] > 0:
				errorf(k.Line, "%s: %q repeats line %d", what, k.Value, seen[k.Value])
			default:
				seen[k.Value] = k.Line
				out = append(out, k.Value)
			}
		}
		slices.Sort(out)
		return out
	}
	p := &Pool{Paper: doc.Paper, CorpusVersion: doc.CorpusVersion, Title: doc.Title, ListTitle: doc.ListTitle, License: doc.License,
		Retained: keys(&doc.Retained, "retained"), Excluded: keys(&doc.Excluded, "excluded")}
	if len(ds) > 0 {
		ds.Sort()
		return nil, ds.Err()
	}
	return p, nil
}

// ArxivID returns the paper's arXiv identifier without its version
// (2605.02801 of arXiv:2605.02801v1), or "" when Paper names no arXiv
// version.
func (p *Pool) ArxivID() string {
	id, ok := ParseArxivID(p.Paper)
	if !ok {
		return ""
	}
	return id
}

// HasKey reports whether a retained key belongs to the survey's pool.
func (p *Pool) HasKey(key string) bool {
	_, ok := slices.BinarySearch(p.Retained, key)
	return ok
}

// hasRecord reports whether an excluded record belongs to the survey's pool.
func (p *Pool) hasRecord(id string) bool {
	_, ok := slices.BinarySearch(p.Excluded, id)
	return ok
}

// Restrict returns the corpus as the paper sees it: only the retained rows
// and excluded records of the pool, in the corpus' order, with their
// current tags. A pool record missing from the corpus is simply absent, so
// the claims it took part in fail. The result shares the rows' memory with
// c and is meant for counting only.
func (p *Pool) Restrict(c *Corpus) *Corpus {
	r := *c
	r.Papers = make([]*Entry, 0, len(p.Retained))
	for i := range c.Papers {
		if p.HasKey(c.Papers[i].Key) {
			r.Papers = append(r.Papers, c.Papers[i])
		}
	}
	r.Excluded = make([]Exclusion, 0, len(p.Excluded))
	for i := range c.Excluded {
		if p.hasRecord(c.Excluded[i].RecordID) {
			r.Excluded = append(r.Excluded, c.Excluded[i])
		}
	}
	return &r
}

// Added returns the keys of the corpus' retained rows that the survey's
// pool does not hold: the papers added since the survey, in corpus order.
func (p *Pool) Added(c *Corpus) []string {
	var out []string
	for i := range c.Papers {
		if !p.HasKey(c.Papers[i].Key) {
			out = append(out, c.Papers[i].Key)
		}
	}
	return out
}

// Missing returns the pool's retained keys that the corpus no longer has,
// sorted: the survey's entries removed or renamed since.
func (p *Pool) Missing(c *Corpus) []string {
	have := make(map[string]bool, len(c.Papers))
	for i := range c.Papers {
		have[c.Papers[i].Key] = true
	}
	var out []string
	for _, k := range p.Retained {
		if !have[k] {
			out = append(out, k)
		}
	}
	return out
}
