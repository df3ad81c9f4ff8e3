package masrl

import (
	"bufio"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestAllowedImports holds every package of the module to the table of
// allowed imports in ARCHITECTURE.md, the one place the layering is
// written down: a package importing a module package its row does not
// name, a package without a row, and a row for a package that is gone all
// fail. Only non-test files count.
func TestAllowedImports(t *testing.T) {
	module := modulePath(t)
	allowed := allowedImports(t, "ARCHITECTURE.md")
	found := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules" || name == "public" || name == "bin") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != "." {
				return filepath.SkipDir // a module of its own (bench/templ)
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		found[pkg] = true
		if strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rule, ok := allowed[pkg]
		if !ok {
			return nil // reported once below
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			var rel string
			switch {
			case p == module:
				rel = "."
			case strings.HasPrefix(p, module+"/"):
				rel = strings.TrimPrefix(p, module+"/")
			default:
				continue
			}
			if !slices.Contains(rule, rel) {
				t.Errorf("%s imports %s, which ARCHITECTURE.md does not allow for %s (allowed: %s)", path, rel, pkg, strings.Join(rule, ", "))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for pkg := range found {
		if _, ok := allowed[pkg]; !ok {
			t.Errorf("package %s has no row in ARCHITECTURE.md's allowed imports: add one naming what it may import", pkg)
		}
	}
	for pkg := range allowed {
		if !found[pkg] {
			t.Errorf("ARCHITECTURE.md's allowed imports name %s, which is no longer a package: remove its row", pkg)
		}
	}
}

// allowedImports reads the table under "## Allowed imports": each row
// names a package and, comma-separated in backquotes, what it may import
// ("—" for nothing).
func allowedImports(t *testing.T, path string) map[string][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rules := map[string][]string{}
	in := false
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if strings.HasPrefix(text, "## ") {
			in = text == "## Allowed imports"
			continue
		}
		if !in || !strings.HasPrefix(text, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(text, "|"), "|")
		if len(cells) != 2 {
			t.Fatalf("%s:%d: a row of the allowed imports has two cells, package and imports", path, line)
		}
		pkg := strings.Trim(strings.TrimSpace(cells[0]), "`")
		if _, dup := rules[pkg]; dup {
			t.Fatalf("%s:%d: %s has a second row", path, line, pkg)
		}
		rules[pkg] = []string{}
		for imp := range strings.SplitSeq(cells[1], ",") {
			imp = strings.TrimSpace(imp)
			if imp == "—" {
				continue
			}
			rules[pkg] = append(rules[pkg], strings.Trim(imp, "`"))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rules) == 0 {
		t.Fatalf("%s: no table under \"## Allowed imports\"", path)
	}
	return rules
}

// modulePath reads the module's path from go.mod.
func modulePath(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "module "); ok {
			return strings.TrimSpace(rest)
		}
	}
	t.Fatal("go.mod names no module")
	return ""
}
