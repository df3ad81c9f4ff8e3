package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/data"
)

func diffCommand() command {
	return command{summary: "compare two corpus versions: entries, moved counts, claims", run: runDiff}
}

func runDiff(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fail := failer(stderr, "diff")
	fs := newFlagSet("diff", "diff [--format markdown|json] [--data DIR] [--profile survey] OLD NEW  (corpus directories or papers.csv files)", stderr)
	format := fs.String("format", "markdown", "output `format`: markdown (a pull-request comment) or json")
	dataDir := dataFlag(fs)
	profile := profileFlag(fs)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 2 || !oneOf(*format, "markdown", "json") {
		fs.Usage()
		return exitUsage
	}
	older, err := loadEither(fs.Arg(0))
	if err != nil {
		return refuseUnread("diff", err, stderr)
	}
	newer, err := loadEither(fs.Arg(1))
	if err != nil {
		return refuseUnread("diff", err, stderr)
	}
	// The claims are the new corpus's (its profile, or its own claims.yaml).
	newDir := corpusDirOf(fs.Arg(1))
	prof, err := listProfile(*profile, "", newDir)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	dd, err := corpus.LoadData(data.Dir(*dataDir), prof, newDir)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	d := corpus.DiffCorpora(older, newer, dd.Vocabulary, dd.Claims)
	d.Old, d.New = fs.Arg(0), fs.Arg(1)
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(d); err != nil {
			return fail(exitUsage, "%v", err)
		}
		return exitOK
	}
	io.WriteString(stdout, diffMarkdown(&d, len(older.Papers), len(newer.Papers)))
	return exitOK
}

// loadEither loads a corpus directory, or a single papers.csv (the history
// folder holds bare papers.csv versions). A corpus whose CSV files do not
// read is refused with their errors (a *corpus.CheckError): the diff of
// what was left of a file is what the pull-request workflow would post.
func loadEither(path string) (*corpus.Corpus, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	var c *corpus.Corpus
	if fi.IsDir() {
		c, err = corpus.Load(path)
	} else {
		c, err = corpus.LoadPapersFile(path)
	}
	if err != nil {
		return nil, err
	}
	if err := c.ReadErrors().Err(); err != nil {
		return nil, err
	}
	return c, nil
}

// corpusDirOf is the corpus directory of a diff argument: the directory
// itself, or the one that holds the papers.csv file named.
func corpusDirOf(path string) string {
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
		return filepath.Dir(path)
	}
	return path
}

// diffMarkdown renders a diff as a pull-request comment.
func diffMarkdown(d *corpus.Diff, oldN, newN int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Corpus diff\n\n`%s` → `%s`: %d → %d entries; %d added, %d removed, %d changed; %d counts move",
		mdCode(d.Old), mdCode(d.New), oldN, newN, len(d.Added), len(d.Removed), len(d.Changed), len(d.Moves))
	if d.HasClaims {
		fmt.Fprintf(&b, "; %d claims change", len(d.Claims))
	}
	b.WriteString(".\n")
	if d.Empty() {
		b.WriteString("\nNo differences.\n")
		return b.String()
	}
	refs := func(title string, rs []corpus.EntryRef) {
		if len(rs) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n### %s (%d)\n\n| key | title |\n| --- | --- |\n", title, len(rs))
		for _, r := range rs {
			fmt.Fprintf(&b, "| `%s` | %s |\n", mdCode(r.Key), mdCell(r.Title))
		}
	}
	refs("Added", d.Added)
	refs("Removed", d.Removed)
	if len(d.Changed) > 0 {
		fmt.Fprintf(&b, "\n### Changed (%d)\n\n| key | field | old | new |\n| --- | --- | --- | --- |\n", len(d.Changed))
		for _, c := range d.Changed {
			for _, f := range c.Fields {
				fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", mdCode(c.Key), f.Field, mdCell(f.Old), mdCell(f.New))
			}
		}
	}
	if len(d.Moves) > 0 {
		fmt.Fprintf(&b, "\n### Counts that move (%d)\n\n| table | value | old → new | entered | left |\n| --- | --- | ---: | --- | --- |\n", len(d.Moves))
		for _, m := range d.Moves {
			val := m.Row
			if m.Col != "" {
				val += " / " + m.Col
			}
			fmt.Fprintf(&b, "| %s | %s | %d → %d | %s | %s |\n", mdCell(m.Table), mdCell(val), m.Old, m.New,
				keyList(m.Entered), keyList(m.Left))
		}
	}
	if len(d.Claims) > 0 {
		fmt.Fprintf(&b, "\n### Paper claims that change (%d)\n\n| claim | source | paper | old | new |\n| --- | --- | --- | --- | --- |\n", len(d.Claims))
		for _, c := range d.Claims {
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s (%s) | %s (%s) |\n", mdCode(c.ID), mdCell(c.Source), mdCell(c.Expected),
				mdCell(c.OldActual), c.OldStatus, mdCell(c.NewActual), c.NewStatus)
		}
	}
	return b.String()
}

func keyList(keys []string) string {
	if len(keys) == 0 {
		return ""
	}
	return mdCell(strings.Join(keys, ", "))
}

// mdCode makes text safe inside a code span in a table cell.
func mdCode(s string) string {
	return strings.NewReplacer("`", "'", "|", `\|`, "\n", " ", "\r", " ").Replace(s)
}
