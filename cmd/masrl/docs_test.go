package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// docCommands lists every command line a user can ask -h of: each
// command, and each trace subcommand.
func docCommands() [][]string {
	var out [][]string
	for name := range commands() {
		if name == "trace" {
			for _, sub := range []string{"validate", "stats", "merge", "import", "view", "serve"} {
				out = append(out, []string{"trace", sub})
			}
			continue
		}
		out = append(out, []string{name})
	}
	sort.Slice(out, func(i, j int) bool { return strings.Join(out[i], " ") < strings.Join(out[j], " ") })
	return out
}

// helpFlags runs `masrl CMD -h` and returns the flags it prints.
func helpFlags(t *testing.T, cmd []string) []string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), append(slices.Clone(cmd), "-h"), &stdout, &stderr); code != exitOK {
		t.Fatalf("masrl %s -h: exit %d: %s", strings.Join(cmd, " "), code, stderr.String())
	}
	var flags []string
	for _, m := range regexp.MustCompile(`(?m)^  -([a-z0-9-]+)`).FindAllStringSubmatch(stderr.String(), -1) {
		flags = append(flags, m[1])
	}
	return flags
}

// docFiles reads the manual: README.md and every page of docs/, by name.
func docFiles(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no docs/*.md: %v", err)
	}
	files = append(files, filepath.Join("..", "..", "README.md"))
	docs := map[string]string{}
	for _, f := range files {
		s, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs[filepath.ToSlash(strings.TrimPrefix(f, filepath.Join("..", "..")+string(filepath.Separator)))] = string(s)
	}
	return docs
}

// TestDocsNameEveryFlag holds the manual and the commands' -h to the same
// flags: every flag a command's -h prints is named in docs/ (as
// `--flag`), and every `--flag` written after "masrl CMD" on one line of
// the manual is a flag of CMD, so a renamed or removed flag cannot live on
// in the docs.
func TestDocsNameEveryFlag(t *testing.T) {
	docs := docFiles(t)
	var all strings.Builder
	for _, s := range docs {
		all.WriteString(s)
	}
	known := map[string][]string{}
	for _, cmd := range docCommands() {
		name := strings.Join(cmd, " ")
		known[name] = helpFlags(t, cmd)
		for _, f := range known[name] {
			if !strings.Contains(all.String(), "--"+f) {
				t.Errorf("masrl %s -h prints -%s, which docs/ never names (as --%s)", name, f, f)
			}
		}
	}
	// A line naming "masrl CMD" (or "masrl trace SUB"): its --flags up to
	// the next "masrl " are CMD's.
	use := regexp.MustCompile(`masrl (trace [a-z]+|[a-z][a-z-]*)`)
	flag := regexp.MustCompile(`--([a-z][a-z0-9-]*)`)
	names := make([]string, 0, len(docs))
	for n := range docs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, file := range names {
		for i, line := range strings.Split(docs[file], "\n") {
			checkDocLine(t, file, i+1, line, use, flag, known)
		}
	}
}

// checkDocLine reports the --flags of line that follow "masrl CMD" and
// are not CMD's.
func checkDocLine(t *testing.T, file string, lineNo int, line string, use, flag *regexp.Regexp, known map[string][]string) {
	t.Helper()
	locs := use.FindAllStringSubmatchIndex(line, -1)
	for j, loc := range locs {
		name := line[loc[2]:loc[3]]
		flags, ok := known[name]
		if !ok {
			continue // "masrl's", "masrl binary", a list's name
		}
		end := len(line)
		if j+1 < len(locs) {
			end = locs[j+1][0]
		}
		// Inside a code span, the command ends with the span.
		if strings.Count(line[:loc[0]], "`")%2 == 1 {
			if k := strings.IndexByte(line[loc[1]:], '`'); k >= 0 {
				end = min(end, loc[1]+k)
			}
		}
		for _, m := range flag.FindAllStringSubmatch(line[loc[1]:end], -1) {
			if m[1] != "help" && !slices.Contains(flags, m[1]) {
				t.Errorf("%s:%d: masrl %s --%s: masrl %s -h has no such flag (it has %s)", file, lineNo, name, m[1], name, strings.Join(flags, ", "))
			}
		}
	}
}
