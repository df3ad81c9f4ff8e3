package data_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/data"
)

// TestFactsOnce holds the module's Go code and templates to the rule that
// a fact data/ holds is said there alone: no Go string literal or template
// repeats the survey's title, arXiv id or the list's title, and no Go list
// of string literals spells out a controlled field's values or the
// controlled fields themselves (the order of a list belongs in
// vocab.yaml). It also keeps the rules that have one home from growing a
// second: slugs (corpus/slug.go), the atomic writer (internal/atomicfile) and
// the GitHub annotation encoder (internal/diag/words.go).
func TestFactsOnce(t *testing.T) {
	d, err := corpus.LoadData(nil, data.SurveyProfile, "")
	if err != nil {
		t.Fatal(err)
	}
	facts := map[string]string{
		"the survey's title (survey-pool.yaml title)":    d.Survey.Title,
		"the list's title (survey-pool.yaml list_title)": d.Survey.ListTitle,
		"the survey's arXiv id (survey-pool.yaml paper)": d.Survey.ArxivID(),
	}
	for what, s := range facts {
		if s == "" {
			t.Fatalf("%s is empty", what)
		}
	}
	fieldNames := map[string]bool{}
	for _, f := range d.Vocabulary.Fields {
		fieldNames[f.Name] = true
	}
	root := filepath.Join("..")
	fset := token.NewFileSet()
	var slugFuncs []string
	err = filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := e.Name()
		if e.IsDir() {
			// bench/ holds other tools' reproductions of the site (Hugo,
			// templ) for the benchmarks, which copy it on purpose.
			if path != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata" || name == "bench" || name == "public" || name == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		switch {
		case strings.HasPrefix(rel, "templates/") && strings.HasSuffix(name, ".html"):
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for what, s := range facts {
				if strings.Contains(string(b), s) {
					t.Errorf("%s repeats %s: %q", rel, what, s)
				}
			}
		case strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go"):
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			checkGo(t, fset, rel, f, facts, d.Vocabulary, fieldNames)
			for _, decl := range f.Decls {
				if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv == nil && strings.Contains(strings.ToLower(fn.Name.Name), "slug") {
					slugFuncs = append(slugFuncs, rel+":"+fn.Name.Name)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// corpus/slug.go's rule; awesome's is GitHub's anchor rule, which the
	// list's contents links must match; synth's makes fake titles' keys.
	want := []string{"corpus/slug.go:AnchorSlug", "corpus/slug.go:Slug", "corpus/slug.go:slug", "internal/synth/corpus.go:slugWord", "site/awesome/list.go:headingSlug"}
	slices.Sort(slugFuncs)
	if !slices.Equal(slugFuncs, want) {
		t.Errorf("slug functions %v, want only %v: use corpus.Slug or corpus.AnchorSlug", slugFuncs, want)
	}
}

// checkGo reports string literals that repeat a fact, lists of string
// literals that spell out a controlled field's values or the controlled
// fields, a second atomic writer and a second annotation encoder.
func checkGo(t *testing.T, fset *token.FileSet, rel string, f *ast.File, facts map[string]string, v *corpus.Vocabulary, fieldNames map[string]bool) {
	t.Helper()
	usesCreateTemp, usesRename := false, false
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			if n.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(n.Value)
			if err != nil {
				return true
			}
			for what, fact := range facts {
				if strings.Contains(s, fact) {
					t.Errorf("%s: a string literal repeats %s: %q", fset.Position(n.Pos()), what, fact)
				}
			}
			if strings.Contains(s, "%0A") && rel != "internal/diag/words.go" {
				t.Errorf("%s: a second workflow-command encoder; use diag.Annotation", fset.Position(n.Pos()))
			}
		case *ast.CompositeLit:
			var strs []string
			for _, e := range n.Elts {
				lit, ok := e.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, _ := strconv.Unquote(lit.Value)
				strs = append(strs, s)
			}
			if len(strs) < 3 {
				return true
			}
			allFields := true
			for _, s := range strs {
				allFields = allFields && fieldNames[s]
			}
			// spotcheck.csv's audited columns are the audit file's own
			// format (orig_* columns), not a list the vocabulary orders.
			if allFields && rel != "corpus/entry.go" {
				t.Errorf("%s: a list of controlled fields %v; take them from the vocabulary (FieldsOf)", fset.Position(n.Pos()), strs)
			}
			// synth's trace topologies are trace.schema.json's, which
			// share names with orchestration_form's values.
			if rel == "internal/synth/tracelines.go" {
				return true
			}
			for _, fd := range v.Fields {
				all := true
				for _, s := range strs {
					all = all && fd.Term(s) != nil
				}
				if all {
					t.Errorf("%s: a list of %s values %v; its order belongs in data/vocab.yaml", fset.Position(n.Pos()), fd.Name, strs)
				}
			}
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok && id.Name == "os" {
				usesCreateTemp = usesCreateTemp || n.Sel.Name == "CreateTemp"
				usesRename = usesRename || n.Sel.Name == "Rename"
			}
		}
		return true
	})
	if usesCreateTemp && usesRename && rel != "internal/atomicfile/atomicfile.go" {
		t.Errorf("%s: writes a temporary file and renames it: a second atomic writer; use internal/atomicfile (corpus.WriteFiles for several files)", rel)
	}
}
