package watch

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/masrl/masrl/corpus"
)

// Decision is one decided row of a triage file.
type Decision struct {
	Line   int
	Add    bool   // "add": masrl add takes it
	Stage  string // "exclude STAGE: reason"
	Reason string
	Title  string
	ID     string // arXiv id or DOI
	URL    string
}

var excludeDecision = regexp.MustCompile(`^exclude ([a-z_]+): *(\S.*)$`)

// ReadTriage reads the decided rows of a triage file; rows with an empty
// decision are skipped. Every bad decision is reported with its
// file:line:col and the allowed forms; stages are checked against the
// vocabulary of excluded.csv's stage column.
func ReadTriage(name string, src []byte, v *corpus.Vocabulary) ([]Decision, error) {
	r := csv.NewReader(bytes.NewReader(src))
	r.FieldsPerRecord = -1
	var out []Decision
	var errs []string
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if strings.Join(header, ",") != strings.Join(TriageColumns, ",") {
		return nil, fmt.Errorf("%s:1:1: header %q: want %s", name, strings.Join(header, ","), strings.Join(TriageColumns, ","))
	}
	var stages []string
	if f := v.Field("stage"); f != nil {
		stages = f.Allowed()
	}
	for {
		rec, err := r.Read()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				errs = append(errs, fmt.Sprintf("%s: %v", name, err))
			}
			break
		}
		line, col := r.FieldPos(0)
		if len(rec) != len(TriageColumns) {
			errs = append(errs, fmt.Sprintf("%s:%d:%d: %d fields, want %d", name, line, col, len(rec), len(TriageColumns)))
			continue
		}
		dec := strings.TrimSpace(rec[0])
		if dec == "" {
			continue
		}
		d := Decision{Line: line, Title: rec[2], ID: cmp.Or(strings.TrimSpace(rec[4]), strings.TrimSpace(rec[5])), URL: rec[6]}
		if d.ID == "" {
			errs = append(errs, fmt.Sprintf("%s:%d:%d: the row has neither arxiv_id nor doi", name, line, col))
			continue
		}
		if dec == "add" {
			d.Add = true
			out = append(out, d)
			continue
		}
		m := excludeDecision.FindStringSubmatch(dec)
		if m == nil {
			errs = append(errs, fmt.Sprintf("%s:%d:%d: decision %q: want add, or exclude STAGE: reason (STAGE one of %s)", name, line, col, dec, strings.Join(stages, ", ")))
			continue
		}
		if !slices.Contains(stages, m[1]) {
			errs = append(errs, fmt.Sprintf("%s:%d:%d: stage %q: want one of %s", name, line, col, m[1], strings.Join(stages, ", ")))
			continue
		}
		d.Stage, d.Reason = m[1], strings.TrimSpace(m[2])
		out = append(out, d)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return out, nil
}

var recordNumber = regexp.MustCompile(`^([A-Za-z]*)([0-9]+)$`)

// ExcludedRecords turns the rejected decisions into excluded.csv records,
// numbered after the corpus's highest record id (E032 → E033) and dated
// date (YYYY-MM-DD). Their cells are defused: a spreadsheet may have saved
// the triage file's titles without the apostrophe WriteTriage gave them.
func ExcludedRecords(c *corpus.Corpus, ds []Decision, date string) [][]string {
	prefix, width, next := "E", 3, 1
	for _, x := range c.Excluded {
		if m := recordNumber.FindStringSubmatch(x.RecordID); m != nil {
			if n, _ := strconv.Atoi(m[2]); n >= next {
				prefix, width, next = m[1], len(m[2]), n+1
			}
		}
	}
	var out [][]string
	for _, d := range ds {
		if d.Add {
			continue
		}
		ident := "doi:" + d.ID
		if corpus.IsArxivID(d.ID) {
			ident = "arXiv:" + d.ID
		}
		out = append(out, defused([]string{
			fmt.Sprintf("%s%0*d", prefix, width, next), "Semantic Scholar", "citation watch", d.Title, ident, d.URL, date, d.Stage, d.Reason,
		}))
		next++
	}
	return out
}

// Exclusion is the change the rejected decisions of a triage file make:
// their excluded.csv records (ExcludedRecords) and excluded.csv with
// them appended, in canonical form, for corpus.Edit to judge and write.
type Exclusion struct {
	Records [][]string
	Changes map[string][]byte
}

// WriteReport writes what masrl watch --apply prints once the
// exclusion is written: a line per excluded.csv record, with its record
// id, the paper's identifier, and the stage and reason of its exclusion.
func (x *Exclusion) WriteReport(w io.Writer) {
	for _, r := range x.Records {
		fmt.Fprintf(w, "excluded %s %s (%s: %s)\n", r[0], r[4], r[7], r[8])
	}
}

// WriteAddCommands writes the masrl add command of each accepted
// decision, with --corpus dir, for the maintainer to run: masrl watch
// never adds a paper itself.
func WriteAddCommands(w io.Writer, ds []Decision, dir string) {
	for _, d := range ds {
		if d.Add {
			fmt.Fprintf(w, "masrl add %s --corpus %s\n", d.ID, dir)
		}
	}
}

// Exclude turns the rejected decisions into an Exclusion of the corpus c
// as it stands, dated date (YYYY-MM-DD); a corpus without excluded.csv
// gets one with its header. Nothing is written; without a rejected
// decision the Exclusion has no records and no changes.
func Exclude(c *corpus.Corpus, ds []Decision, date string) (*Exclusion, error) {
	x := &Exclusion{Records: ExcludedRecords(c, ds, date)}
	if len(x.Records) == 0 {
		return x, nil
	}
	old, err := corpus.ReadFile(c.Dir, corpus.ExcludedFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var b bytes.Buffer
	b.Write(old)
	if len(old) > 0 && old[len(old)-1] != '\n' {
		b.WriteByte('\n')
	}
	w := csv.NewWriter(&b)
	if len(old) == 0 {
		w.Write(corpus.ExcludedColumns())
	}
	w.WriteAll(x.Records) // flushes the header too
	out, err := corpus.FormatCSV(filepath.Join(c.Dir, corpus.ExcludedFile), b.Bytes())
	if err != nil {
		return nil, err
	}
	x.Changes = map[string][]byte{corpus.ExcludedFile: out}
	return x, nil
}

// defused applies corpus.DefuseFormula to every cell of rec: the triage
// file and the excluded.csv rows made from it carry remote titles that a
// spreadsheet would otherwise run as formulas.
func defused(rec []string) []string {
	for i := range rec {
		rec[i] = corpus.DefuseFormula(rec[i])
	}
	return rec
}
