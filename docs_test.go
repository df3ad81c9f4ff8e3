package masrl

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// TestDocLinks holds every relative link of the manual (README.md,
// docs/, ARCHITECTURE.md, CONTRIBUTING.md, DEVELOPERS.md) to a file that
// exists and, for a #fragment into a Markdown file, to one of its
// headings as GitHub names them: a page moved or a heading renamed cannot
// leave a dead link behind.
func TestDocLinks(t *testing.T) {
	files, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "README.md", "ARCHITECTURE.md", "CONTRIBUTING.md", "DEVELOPERS.md")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	code := regexp.MustCompile("`[^`]*`") // a link inside a code span is text
	anchors := map[string]map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fence := false
		for i, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "```") {
				fence = !fence
			}
			if fence {
				continue
			}
			for _, m := range link.FindAllStringSubmatch(code.ReplaceAllString(line, ""), -1) {
				if err := checkLink(f, m[1], anchors); err != nil {
					t.Errorf("%s:%d: %s: %v", f, i+1, m[1], err)
				}
			}
		}
	}
}

// checkLink resolves target, a link written in file.
func checkLink(file, target string, anchors map[string]map[string]bool) error {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return nil
	}
	path, frag, _ := strings.Cut(target, "#")
	if path == "" {
		path = file
	} else {
		path = filepath.Join(filepath.Dir(file), path)
	}
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("no such file %s", path)
	}
	if frag == "" || !strings.HasSuffix(path, ".md") {
		return nil
	}
	if anchors[path] == nil {
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		anchors[path] = headingAnchors(string(b))
	}
	if !anchors[path][frag] {
		return fmt.Errorf("%s has no heading #%s", path, frag)
	}
	return nil
}

// headingAnchors returns the fragments GitHub gives a Markdown file's
// headings: lower case, punctuation dropped, spaces as hyphens, a repeat
// numbered -1, -2.
func headingAnchors(md string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	fence := false
	for line := range strings.SplitSeq(md, "\n") {
		if strings.HasPrefix(line, "```") {
			fence = !fence
		}
		if fence || !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}
