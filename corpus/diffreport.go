package corpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Write writes the diff in format, as masrl diff prints it: "json"
// (indented) or "markdown" (Markdown, a pull-request comment, with the
// two sides' entry counts oldN and newN).
func (d *Diff) Write(w io.Writer, format string, oldN, newN int) error {
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(d)
	}
	_, err := io.WriteString(w, d.Markdown(oldN, newN))
	return err
}

// LoadVersion loads one side of a diff: a corpus directory (Load), or a
// single papers.csv (LoadPapersFile; the history folder holds bare
// papers.csv versions). A corpus whose CSV files do not read is refused
// with their errors (a *CheckError): the diff of what was left of a file
// is what the pull-request workflow would post.
func LoadVersion(path string) (*Corpus, error) {
	fi, err := os.Stat(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is said once, without the system call's name
		}
		return nil, fmt.Errorf("%s: %w (want a corpus directory or a papers.csv file)", path, err)
	}
	var c *Corpus
	if fi.IsDir() {
		c, err = Load(path)
	} else {
		c, err = LoadPapersFile(path)
	}
	if err != nil {
		return nil, err
	}
	if err := c.ReadErrors().Err(); err != nil {
		return nil, err
	}
	return c, nil
}

// VersionDir is the corpus directory of a LoadVersion path: the directory
// itself, or the one that holds the papers.csv file named. Its profile and
// claims.yaml are the ones a diff compares the claims by.
func VersionDir(path string) string {
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
		return filepath.Dir(path)
	}
	return path
}

// Markdown renders the diff as a pull-request comment (masrl diff, and
// what add, import and refresh propose); oldN and newN are the entries of
// the two versions.
func (d *Diff) Markdown(oldN, newN int) string {
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
	refs := func(title string, rs []EntryRef) {
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

// keyList is a table cell of entry keys, comma-separated.
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
