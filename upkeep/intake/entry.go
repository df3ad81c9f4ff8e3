package intake

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/masrl/masrl/corpus"
)

// This file is masrl add's workflow short of its flags and its output:
// the tags and settings it is given, read against the vocabulary and the
// header; the key of the new entry; and the files with the draft added,
// which the command proposes (corpus.Propose) and never writes itself.

// ErrKeyTaken is the error of EntryKey for a key (or its BibTeX key) that
// the corpus already has.
var ErrKeyTaken = errors.New("already used")

// EntryKey is the key a new entry of m gets in c: key when given, else
// one derived from m (DeriveKey). The error says why it cannot be used:
// not a lowercase slug, or taken (ErrKeyTaken).
func EntryKey(c *corpus.Corpus, m *Metadata, key string) (string, error) {
	if key == "" {
		key = DeriveKey(m, c.KeyTaken)
	}
	switch {
	case !corpus.IsKey(key):
		return "", fmt.Errorf("%q is not a lowercase slug [a-z0-9][a-z0-9-]* (try %q)", key, corpus.Slug(key))
	case c.KeyTaken(key) || c.KeyTaken(BibKey(key, m.Year)):
		return "", fmt.Errorf("key %q (BibTeX %s) is %w", key, BibKey(key, m.Year), ErrKeyTaken)
	}
	return key, nil
}

// Candidate is m as a possible duplicate of an entry (corpus.Duplicates):
// its ids, URL and title.
func (m *Metadata) Candidate() corpus.Candidate {
	return corpus.Candidate{ArxivID: m.ArxivID, DOI: m.DOI, URLs: []string{m.URL}, Title: m.Title}
}

// ParseTags reads tags FIELD=VALUE (masrl add's --tag flags) against the vocabulary of
// papers.csv, reporting every bad one with the allowed values. A
// multi-valued field takes --tag once per value (or "V1; V2"); its cell
// is written in canonical order (corpus.Field.Canonical).
func ParseTags(v *corpus.Vocabulary, flags []string) (map[string]string, []string) {
	tags := map[string]string{}
	var errs []string
	for _, s := range flags {
		name, val, ok := strings.Cut(s, "=")
		f := v.Field(name)
		if ok && f != nil && f.File == corpus.PapersFile && f.Multiple {
			have := f.Split(tags[name])
			for _, one := range f.Split(val) {
				switch {
				case f.Term(one) == nil:
					msg := fmt.Sprintf("%q: %q is not a value of %s; allowed: %s", s, one, name, strings.Join(f.Allowed(), ", "))
					if n := f.Nearest(one); n != "" {
						msg += fmt.Sprintf("; did you mean %q?", n)
					}
					errs = append(errs, msg)
				case !slices.Contains(have, one):
					have = append(have, one)
				}
			}
			tags[name] = f.Canonical(f.Join(have))
			continue
		}
		switch {
		case !ok:
			errs = append(errs, fmt.Sprintf("%q: want FIELD=VALUE", s))
		case f == nil || f.File != corpus.PapersFile:
			var names []string
			for _, f := range v.FieldsOf(corpus.PapersFile) {
				names = append(names, f.Name)
			}
			errs = append(errs, fmt.Sprintf("%q: %q is not a controlled field of papers.csv; fields: %s", s, name, strings.Join(names, ", ")))
		case f.Term(val) == nil:
			msg := fmt.Sprintf("%q: %q is not a value of %s; allowed: %s", s, val, name, strings.Join(f.Allowed(), ", "))
			if n := f.Nearest(val); n != "" {
				msg += fmt.Sprintf("; did you mean %q?", n)
			}
			errs = append(errs, msg)
		case tags[name] != "" && tags[name] != val:
			errs = append(errs, fmt.Sprintf("%q: %s is already %s", s, name, tags[name]))
		default:
			tags[name] = val
		}
	}
	return tags, errs
}

// MissingTags are the controlled fields of papers.csv without a value.
func MissingTags(v *corpus.Vocabulary, tags map[string]string) []*corpus.Field {
	var out []*corpus.Field
	for _, f := range v.FieldsOf(corpus.PapersFile) {
		if tags[f.Name] == "" {
			out = append(out, f)
		}
	}
	return out
}

// PapersHeader reads the header of dir's papers.csv: the columns a new
// row fills.
func PapersHeader(dir string) ([]string, error) {
	papers, err := corpus.ReadFile(dir, corpus.PapersFile)
	if err != nil {
		return nil, err
	}
	header, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(papers, []byte("\xEF\xBB\xBF")))).Read()
	if err != nil {
		return nil, fmt.Errorf("%s: reading the header: %w", filepath.Join(dir, corpus.PapersFile), err)
	}
	return header, nil
}

// ParseSets reads COLUMN=VALUE settings (masrl add's --set flags): each names a column of header
// that is neither the key (--key) nor a controlled field (--tag), once.
func ParseSets(v *corpus.Vocabulary, header, sets []string) (map[string]string, []string) {
	out := map[string]string{}
	var errs []string
	for _, s := range sets {
		col, val, ok := strings.Cut(s, "=")
		switch {
		case !ok || col == "":
			errs = append(errs, fmt.Sprintf("%q: want COLUMN=VALUE", s))
		case col == "key":
			errs = append(errs, fmt.Sprintf("%q: the key is set with --key", s))
		case v.Field(col) != nil:
			errs = append(errs, fmt.Sprintf("%q: %s is a controlled field: use --tag %s=VALUE", s, col, col))
		case !slices.Contains(header, col):
			errs = append(errs, fmt.Sprintf("%q: papers.csv has no column %s (it has %s)", s, col, strings.Join(header, ", ")))
		case out[col] != "":
			errs = append(errs, fmt.Sprintf("%q: %s is set twice", s, col))
		default:
			out[col] = val
		}
	}
	return out, errs
}

// DraftFiles returns papers.csv and papers.bib with the draft added, in
// canonical form.
func DraftFiles(dir string, d *Draft) (map[string][]byte, error) {
	papers, err := corpus.ReadFile(dir, corpus.PapersFile)
	if err != nil {
		return nil, err
	}
	header, err := PapersHeader(dir)
	if err != nil {
		return nil, err
	}
	var row bytes.Buffer
	w := csv.NewWriter(&row)
	w.Write(d.Record(header))
	w.Flush()
	if len(papers) > 0 && papers[len(papers)-1] != '\n' {
		papers = append(papers, '\n')
	}
	newPapers, err := corpus.FormatCSV(corpus.PapersFile, append(papers, row.Bytes()...))
	if err != nil {
		return nil, err
	}
	bib, err := corpus.ReadFile(dir, corpus.BibFile)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	newBib, err := corpus.FormatBib(corpus.BibFile, append(append(bib, '\n'), d.BibText...))
	if err != nil {
		return nil, err
	}
	return map[string][]byte{corpus.PapersFile: newPapers, corpus.BibFile: newBib}, nil
}
