package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/data"
)

func statsCommand() command {
	return command{summary: "print coverage statistics (histograms, cross-tabs, exclusion log)", run: runStats}
}

// crosstabFlags collects repeated --crosstab FIELD,FIELD flags.
type crosstabFlags [][2]string

func (c *crosstabFlags) String() string {
	var parts []string
	for _, p := range *c {
		parts = append(parts, p[0]+","+p[1])
	}
	return strings.Join(parts, " ")
}

func (c *crosstabFlags) Set(s string) error {
	rows, cols, ok := strings.Cut(s, ",")
	if !ok || rows == "" || cols == "" || strings.Contains(cols, ",") {
		return fmt.Errorf("want FIELD,FIELD, got %q", s)
	}
	*c = append(*c, [2]string{strings.TrimSpace(rows), strings.TrimSpace(cols)})
	return nil
}

func runStats(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fail := failer(stderr, "stats")
	fs := newFlagSet("stats", "stats [--corpus DIR] [--data DIR] [--profile survey] [--format markdown|json|csv] [--crosstab FIELD,FIELD]... [--present-only] [--survey]", stderr)
	dir := corpusFlag(fs)
	dataDir := dataFlag(fs)
	profile := profileFlag(fs)
	format := fs.String("format", "markdown", "output `format`: markdown, json or csv")
	presentOnly := fs.Bool("present-only", false, "leave out values no row uses")
	survey := fs.Bool("survey", false, "count the survey's pool only ("+corpus.PoolFile+"): the records of the paper's version, not those added since")
	var extra crosstabFlags
	fs.Var(&extra, "crosstab", "add a cross-tab of two controlled fields of one file, as `ROWS,COLS` (repeatable)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 || !oneOf(*format, "markdown", "json", "csv") {
		fs.Usage()
		return exitUsage
	}
	if err := needCorpus(*dir); err != nil {
		return fail(exitUsage, "%v", err)
	}
	// The corpus is streamed, not opened (corpus.Open holds every row):
	// the data is read as Open reads it.
	prof, err := listProfile(*profile, "", *dir)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	d, err := corpus.LoadData(data.Dir(*dataDir), prof, *dir)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	v := d.Vocabulary
	for _, p := range extra {
		if f := v.Field(p[0]); f == nil || f.File != corpus.PapersFile || v.Field(p[1]) == nil || v.Field(p[1]).File != corpus.PapersFile {
			return fail(exitUsage, "--crosstab %s,%s: not two controlled fields of one file", p[0], p[1])
		}
	}
	// Streamed: the rows are counted as they are read, so a corpus of
	// millions of rows needs memory for its keys only, and none when the
	// markdown tables, which print counts, are all that is asked for.
	opt := corpus.StatsOptions{Extra: extra, CountsOnly: *format == "markdown", PresentOnly: *presentOnly}
	if *survey {
		if opt.Pool = d.Pool; opt.Pool == nil {
			if prof == "" {
				fmt.Fprintf(stderr, "masrl stats: --survey: the list has no survey pool: give --profile survey (or a claims.yaml beside papers.csv that names a pool file)\n")
			} else {
				fmt.Fprintf(stderr, "masrl stats: --survey: the data directory's claims.yaml names no pool file\n")
			}
			return exitUsage
		}
	}
	s, err := corpus.StreamStats(*dir, v, opt)
	if err != nil {
		return refuseUnread("stats", err, stderr)
	}
	switch *format {
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(s); err != nil {
			return fail(exitUsage, "%v", err)
		}
	case "csv":
		if err := writeStatsCSV(stdout, s); err != nil {
			return fail(exitUsage, "%v", err)
		}
	default:
		io.WriteString(stdout, statsMarkdown(s, v))
	}
	return exitOK
}

// refuseUnread reports err of command cmd: the positioned errors of a
// corpus whose CSV files do not read (a *corpus.CheckError), with exit
// code 1 and no numbers, or any other failure with exit code 2.
func refuseUnread(cmd string, err error, stderr io.Writer) int {
	var ce *corpus.CheckError
	if !errors.As(err, &ce) {
		fmt.Fprintf(stderr, "masrl %s: %v\n", cmd, err)
		return exitUsage
	}
	for _, d := range ce.Diagnostics {
		fmt.Fprintln(stderr, d.String())
	}
	fmt.Fprintf(stderr, "masrl %s: the corpus does not read (%d errors); nothing counted\n", cmd, ce.Diagnostics.Count(corpus.Error))
	return exitFindings
}

// statsMarkdown renders the report as markdown tables a maintainer can
// paste into the paper's sources or a pull request.
func statsMarkdown(s corpus.Stats, v *corpus.Vocabulary) string {
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
		writeHistogram(&b, heading(v, h.Field), h.Field, h.Cells, h.Other, h.Total)
		if h.Multiple {
			b.WriteString("\n" + corpus.MultipleNote + "\n")
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

func heading(v *corpus.Vocabulary, field string) string {
	if f := v.Field(field); f != nil && f.Label != "" {
		return fmt.Sprintf("## %s (`%s`)", mdCell(f.Label), field)
	}
	return "## `" + field + "`"
}

func writeHistogram(b *strings.Builder, title, field string, cells, other []corpus.Cell, total int) {
	fmt.Fprintf(b, "\n%s\n\n| %s | count |\n| --- | ---: |\n", title, mdCell(field))
	for _, c := range cells {
		fmt.Fprintf(b, "| %s | %d |\n", mdCell(c.Value), c.Count)
	}
	for _, c := range other {
		fmt.Fprintf(b, "| %s (not in vocabulary) | %d |\n", mdCell(c.Value), c.Count)
	}
	fmt.Fprintf(b, "| **total** | **%d** |\n", total)
}

func writeCrossTab(b *strings.Builder, x *corpus.CrossTab) {
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
		b.WriteString("\n" + corpus.MultipleNote + "\n")
	}
}

// mdCell makes CSV text safe inside a markdown table cell: a pipe would end
// the cell and a newline the row; HTML is escaped so a pasted report cannot
// inject markup.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\r", " ", "\n", " ", "<", "&lt;", ">", "&gt;", "&", "&amp;").Replace(s)
}

// writeStatsCSV writes the report in long form, one count per record:
// table, row, column, count, keys.
func writeStatsCSV(w io.Writer, s corpus.Stats) error {
	cw := csv.NewWriter(w)
	// A value outside the vocabulary is the corpus's text: defused, as
	// every CSV masrl writes for a spreadsheet is.
	rec := func(table, row, col string, n int, keys []string) {
		cw.Write([]string{table, corpus.DefuseFormula(row), corpus.DefuseFormula(col), strconv.Itoa(n), strings.Join(keys, " ")})
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
	hist := func(table string, cells []corpus.Cell) {
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
