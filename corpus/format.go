package corpus

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// The canonical form of the corpus files, written by masrl fmt and masrl
// add, so that a contributor's change is the lines it changes and nothing
// else:
//
//   - CSV files (papers.csv, excluded.csv, spotcheck.csv): the header first,
//     then the records sorted by their first column (the record id; the
//     key for papers.csv, wherever its header puts it) in byte order, records with the same first column keeping their
//     order; quoting as encoding/csv's Writer does it (only where a value
//     needs it); LF line ends, in values too; no byte-order mark, no blank
//     lines. Sorting
//     by key gives a new row one place to go, whoever adds it.
//   - papers.bib: see FormatBib.
//
// Every value survives: the records before and after are the same multiset,
// and no field is touched.

// FormatFiles are the corpus files masrl fmt rewrites, in the order it
// reports them.
var formatFiles = [...]string{PapersFile, ExcludedFile, BibFile, SpotcheckFile}

// FormatFiles returns the names of the corpus files that have a canonical
// form.
func FormatFiles() []string { return formatFiles[:] }

// Format returns src, the content of the corpus file called name (its base
// name decides the format), in canonical form. A file that cannot be
// parsed is returned unchanged with a *CheckError listing every syntax
// error with its position: fmt never guesses.
func Format(name string, src []byte) ([]byte, error) { return FormatWith(name, src, nil) }

// FormatWith is Format with a list's vocabulary, whose multi-valued fields
// have a canonical order of their values (FormatCSVWith).
func FormatWith(name string, src []byte, v *Vocabulary) ([]byte, error) {
	if filepath.Base(name) == BibFile {
		return FormatBib(name, src)
	}
	return FormatCSVWith(name, src, v)
}

// FormatCSV returns a CSV file in canonical form: header, then records
// sorted by their first field.
func FormatCSV(name string, src []byte) ([]byte, error) { return FormatCSVWith(name, src, nil) }

// FormatCSVWith is FormatCSV that also writes the cells of v's
// multi-valued fields of papers.csv in canonical form (Field.Canonical).
func FormatCSVWith(name string, src []byte, v *Vocabulary) ([]byte, error) {
	src = bytes.TrimPrefix(src, []byte(utf8BOM))
	r := csv.NewReader(bytes.NewReader(src))
	r.FieldsPerRecord = -1 // a short row is check's finding, not fmt's
	rows, err := r.ReadAll()
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			var ds Diagnostics
			ds.add(Error, Pos{File: name, Line: pe.Line, Col: pe.Column}, "", "", "CSV syntax: %v; fix it before formatting", pe.Err)
			return src, ds.Err()
		}
		return src, fmt.Errorf("%s: %w", name, err)
	}
	if len(rows) > 1 {
		// Rows sort by their first column; papers.csv by its key column
		// wherever a list puts it (the survey's is the first).
		col := 0
		if filepath.Base(name) == PapersFile {
			col = max(0, slices.Index(rows[0], "key"))
		}
		body := rows[1:]
		slices.SortStableFunc(body, func(a, b []string) int { return cmp.Compare(field(a, col), field(b, col)) })
	}
	if v != nil && len(rows) > 1 && filepath.Base(name) == PapersFile {
		for _, f := range v.FieldsOf(PapersFile) {
			if i := slices.Index(rows[0], f.Name); i >= 0 && f.Multiple {
				for _, rec := range rows[1:] {
					if i < len(rec) {
						rec[i] = f.Canonical(rec[i])
					}
				}
			}
		}
	}
	var out bytes.Buffer
	w := csv.NewWriter(&out)
	for _, rec := range rows {
		for i, v := range rec {
			rec[i] = lfLineEnds(v)
		}
		if len(rec) == 1 && rec[0] == "" {
			// encoding/csv writes a lone empty field as an empty line,
			// which its Reader skips: quote it so the record survives.
			out.WriteString("\"\"\n")
			continue
		}
		if err := w.Write(rec); err != nil {
			return src, fmt.Errorf("%s: %w", name, err)
		}
		w.Flush()
	}
	w.Flush()
	return out.Bytes(), w.Error()
}

// lfLineEnds turns the CR LF line ends inside a value into LF, as the
// Reader does for one CR: encoding/csv's Writer writes a CR as is, which the
// Reader would then drop before the LF, so a value keeps its form only
// without them.
func lfLineEnds(v string) string {
	for strings.Contains(v, "\r\n") {
		v = strings.ReplaceAll(v, "\r\n", "\n")
	}
	return v
}

// field returns rec[i], "" for a short record.
func field(rec []string, i int) string {
	if i >= len(rec) {
		return ""
	}
	return rec[i]
}
