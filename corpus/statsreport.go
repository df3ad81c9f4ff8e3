package corpus

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Write writes the report in format, as masrl stats prints it: "json"
// (indented), "csv" (WriteCSV) or "markdown" (Markdown, headed by the
// labels of v).
func (s Stats) Write(w io.Writer, format string, v *Vocabulary) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	case "csv":
		return s.WriteCSV(w)
	}
	_, err := io.WriteString(w, s.Markdown(v))
	return err
}

// Markdown renders the report as markdown tables a maintainer can paste
// into the paper's sources or a pull request (masrl stats): the totals, a
// histogram per field headed by its label in v, the cross-tabs and, for a
// list that keeps one, the exclusion log.
func (s Stats) Markdown(v *Vocabulary) string {
	var b strings.Builder
	b.WriteString("# Corpus statistics\n\n")
	b.WriteString("| total | records |\n| --- | ---: |\n")
	if s.Screened {
		fmt.Fprintf(&b, "| retained | %d |\n| excluded | %d |\n| audited | %d |\n| spot-checked | %d |\n",
			s.Retained, s.Excluded, s.Audited, s.SpotChecked)
	} else {
		// A list without an exclusion log counts its entries, as its
		// stats.json does.
		fmt.Fprintf(&b, "| entries | %d |\n", s.Retained)
		if s.SpotChecked > 0 {
			fmt.Fprintf(&b, "| spot-checked | %d |\n", s.SpotChecked)
		}
	}
	for _, h := range s.Histograms {
		writeHistogram(&b, fieldHeading(v, h.Field), h.Field, h.Cells, h.Other, h.Total)
		if h.Multiple {
			b.WriteString("\n" + MultipleNote + "\n")
		}
	}
	for _, x := range s.CrossTabs {
		writeCrossTab(&b, x)
	}
	// A list without an exclusion log, that declares no field of one,
	// gets no section of empty tables.
	if s.Excluded == 0 && s.Exclusions.ByStage == nil {
		return b.String()
	}
	b.WriteString("\n## Exclusion log\n")
	if h := s.Exclusions.ByStage; h != nil {
		writeHistogram(&b, "### by stage", "stage", h.Cells, h.Other, h.Total)
	}
	writeHistogram(&b, "### by source", "source", s.Exclusions.BySource, nil, s.Excluded)
	writeHistogram(&b, "### by query family", "query_family", s.Exclusions.ByQueryFamily, nil, s.Excluded)
	return b.String()
}

// fieldHeading is a histogram's heading: the field's label in v and its
// name, or the name alone.
func fieldHeading(v *Vocabulary, field string) string {
	if f := v.Field(field); f != nil && f.Label != "" {
		return fmt.Sprintf("## %s (`%s`)", mdCell(f.Label), field)
	}
	return "## `" + field + "`"
}

func writeHistogram(b *strings.Builder, title, field string, cells, other []Cell, total int) {
	fmt.Fprintf(b, "\n%s\n\n| %s | count |\n| --- | ---: |\n", title, mdCell(field))
	for _, c := range cells {
		fmt.Fprintf(b, "| %s | %d |\n", mdCell(c.Value), c.Count)
	}
	for _, c := range other {
		fmt.Fprintf(b, "| %s (not in vocabulary) | %d |\n", mdCell(c.Value), c.Count)
	}
	fmt.Fprintf(b, "| **total** | **%d** |\n", total)
}

func writeCrossTab(b *strings.Builder, x *CrossTab) {
	fmt.Fprintf(b, "\n## `%s` × `%s`\n\n| %s \\ %s |", x.Rows, x.Cols, x.Rows, x.Cols)
	for _, c := range x.ColValues {
		fmt.Fprintf(b, " %s |", mdCell(c))
	}
	b.WriteString(" total |\n| --- |")
	b.WriteString(strings.Repeat(" ---: |", len(x.ColValues)+1))
	b.WriteString("\n")
	for i, r := range x.RowValues {
		fmt.Fprintf(b, "| %s |", mdCell(r))
		for j := range x.ColValues {
			fmt.Fprintf(b, " %d |", x.Cells[i][j].Count)
		}
		fmt.Fprintf(b, " %d |\n", x.RowTotals[i])
	}
	b.WriteString("| **total** |")
	for _, t := range x.ColTotals {
		fmt.Fprintf(b, " %d |", t)
	}
	fmt.Fprintf(b, " **%d** |\n", x.Total)
	if len(x.Outside) > 0 {
		fmt.Fprintf(b, "\n%d rows outside the vocabulary: %s\n", len(x.Outside), mdCell(strings.Join(x.Outside, ", ")))
	}
	if x.Multiple {
		b.WriteString("\n" + MultipleNote + "\n")
	}
}

// mdCell makes CSV text safe inside a markdown table cell: a pipe would end
// the cell and a newline the row; HTML is escaped so a pasted report cannot
// inject markup.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\r", " ", "\n", " ", "<", "&lt;", ">", "&gt;", "&", "&amp;").Replace(s)
}

// WriteCSV writes the report in long form, one count per record: table,
// row, column, count, keys (masrl stats --format csv).
func (s Stats) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	// A value outside the vocabulary is the corpus's text: defused, as
	// every CSV masrl writes for a spreadsheet is.
	rec := func(table, row, col string, n int, keys []string) {
		cw.Write([]string{table, DefuseFormula(row), DefuseFormula(col), strconv.Itoa(n), strings.Join(keys, " ")})
	}
	cw.Write([]string{"table", "row", "column", "count", "keys"})
	if s.Screened {
		rec("totals", "retained", "", s.Retained, nil)
		rec("totals", "excluded", "", s.Excluded, nil)
		rec("totals", "audited", "", s.Audited, nil)
		rec("totals", "spot_checked", "", s.SpotChecked, nil)
	} else {
		rec("totals", "entries", "", s.Retained, nil)
		if s.SpotChecked > 0 {
			rec("totals", "spot_checked", "", s.SpotChecked, nil)
		}
	}
	hist := func(table string, cells []Cell) {
		for _, c := range cells {
			rec(table, c.Value, "", c.Count, c.Keys)
		}
	}
	for _, h := range s.Histograms {
		hist(h.Field, h.Cells)
		hist(h.Field, h.Other)
	}
	for _, x := range s.CrossTabs {
		for i, r := range x.RowValues {
			for j, c := range x.ColValues {
				rec(x.Rows+"×"+x.Cols, r, c, x.Cells[i][j].Count, x.Cells[i][j].Keys)
			}
		}
	}
	if s.Exclusions.ByStage != nil {
		hist("excluded.stage", s.Exclusions.ByStage.Cells)
	}
	hist("excluded.source", s.Exclusions.BySource)
	hist("excluded.query_family", s.Exclusions.ByQueryFamily)
	cw.Flush()
	return cw.Error()
}

// CrossTabs are cross-tabs asked for by field names, each given as
// "ROWS,COLS" (masrl stats --crosstab, repeatable, is one): a flag.Value
// whose pairs are StatsOptions.Extra once Check accepts them.
type CrossTabs [][2]string

// String is the pairs as they are given, space-separated.
func (c *CrossTabs) String() string {
	var parts []string
	for _, p := range *c {
		parts = append(parts, p[0]+","+p[1])
	}
	return strings.Join(parts, " ")
}

// Set adds one pair, "ROWS,COLS".
func (c *CrossTabs) Set(s string) error {
	rows, cols, ok := strings.Cut(s, ",")
	if !ok || rows == "" || cols == "" || strings.Contains(cols, ",") {
		return fmt.Errorf("want FIELD,FIELD, got %q", s)
	}
	*c = append(*c, [2]string{strings.TrimSpace(rows), strings.TrimSpace(cols)})
	return nil
}

// Check returns an error naming the first pair that is not two
// controlled fields of papers.csv in v, which the report counts.
func (c CrossTabs) Check(v *Vocabulary) error {
	for _, p := range c {
		if f := v.Field(p[0]); f == nil || f.File != PapersFile || v.Field(p[1]) == nil || v.Field(p[1]).File != PapersFile {
			return fmt.Errorf("%s,%s: not two controlled fields of one file", p[0], p[1])
		}
	}
	return nil
}

// SurveyPool returns the pool a count of the survey's records alone
// (masrl stats --survey, StatsOptions.Pool) restricts to, or an error
// saying what the list lacks for one: the survey's profile (or a
// claims.yaml of its own that names a pool file), or, with the profile, a
// pool file in the data directory's claims.yaml.
func (d *Data) SurveyPool() (*Pool, error) {
	switch {
	case d.Pool != nil:
		return d.Pool, nil
	case d.Profile == "":
		return nil, errors.New("the list has no survey pool: give --profile survey (or a claims.yaml beside papers.csv that names a pool file)")
	default:
		return nil, errors.New("the data directory's claims.yaml names no pool file")
	}
}
