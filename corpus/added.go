package corpus

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"os/exec"
	"slices"
	"strings"
)

// AddedFromHistory returns the day each row joined the list, by key, when
// the list has no added column: the committer day (YYYY-MM-DD) of the
// first commit of the git repository holding dir whose papers.csv has a
// row with the key. It reads `git log -p` of papers.csv once, oldest
// first; a row whose key changed counts from its new key's commit. It
// returns nil without an error when dir is in no repository or git is
// missing: the feed then dates rows as before. keyCol is the key's column
// in papers.csv's header.
func AddedFromHistory(ctx context.Context, dir string, keyCol int) (map[string]string, error) {
	if _, err := exec.LookPath("git"); err != nil || keyCol < 0 {
		return nil, nil
	}
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "log", "--reverse", "--no-renames", "--format=commit %cs", "--unified=0", "-p", "--", PapersFile)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if strings.Contains(stderr.String(), "not a git repository") {
			return nil, nil
		}
		return nil, fmt.Errorf("%s: git log of %s: %v: %s", dir, PapersFile, err, strings.TrimSpace(stderr.String()))
	}
	added := map[string]string{}
	day := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		line := sc.Text()
		if d, ok := strings.CutPrefix(line, "commit "); ok {
			day = d
			continue
		}
		if !strings.HasPrefix(line, "+") || strings.HasPrefix(line, "+++") || day == "" {
			continue
		}
		// One added line of the CSV: a row, or part of one whose
		// quoted cell holds a line break (then it does not parse, or
		// its key column is not a key, and it is skipped).
		r := csv.NewReader(strings.NewReader(line[1:]))
		r.FieldsPerRecord = -1
		rec, err := r.Read()
		if err != nil || keyCol >= len(rec) || !IsKey(rec[keyCol]) {
			continue
		}
		if _, seen := added[rec[keyCol]]; !seen {
			added[rec[keyCol]] = day
		}
	}
	return added, sc.Err()
}

// KeyColumn returns the index of the key column in the header of the
// corpus's papers.csv, or -1.
func (c *Corpus) KeyColumn() int {
	if c.papers == nil {
		return -1
	}
	return slices.Index(c.papers.header, "key")
}
