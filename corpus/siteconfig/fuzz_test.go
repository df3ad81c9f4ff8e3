package siteconfig

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// addSeeds adds every file of testdata matching pattern to the corpus.
func addSeeds(f *testing.F, pattern string) {
	names, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil || len(names) == 0 {
		f.Fatalf("no seeds %s: %v", pattern, err)
	}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// position is what every problem of a configuration starts with.
var position = regexp.MustCompile(`^masrl\.yaml:\d+(:\d+)?: `)

// FuzzParse: no input panics, a failure is an *Error whose every problem
// says where, and a success holds only values the keys' checks accept.
func FuzzParse(f *testing.F) {
	addSeeds(f, "*.yaml")
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Parse("masrl.yaml", b)
		if err != nil {
			e, ok := err.(*Error)
			if !ok || len(e.Problems) == 0 {
				t.Fatalf("error %T %v, want *Error with problems", err, err)
			}
			for _, p := range e.Problems {
				if !position.MatchString(p) {
					t.Errorf("problem without a position: %q", p)
				}
			}
			return
		}
		for _, k := range Keys() {
			if v := *k.Field(c); v != "" {
				if err := k.check(v); err != nil {
					t.Errorf("%s = %q accepted, but its check says %v", k.Name, v, err)
				}
			}
		}
	})
}

// FuzzParseSums: no input panics; every sum returned is 64 lowercase hex
// digits for a plain file name.
func FuzzParseSums(f *testing.F) {
	addSeeds(f, "SHA256SUMS")
	f.Fuzz(func(t *testing.T, b []byte) {
		sums, err := ParseSums("SHA256SUMS", b)
		if err != nil {
			for _, p := range err.(*Error).Problems {
				if !strings.HasPrefix(p, "SHA256SUMS:") {
					t.Errorf("problem without a position: %q", p)
				}
			}
			return
		}
		for name, sum := range sums {
			if name == "" || strings.ContainsAny(name, "/\\") || !isHexSum(sum) || strings.ToLower(sum) != sum {
				t.Errorf("accepted %q for %q", sum, name)
			}
		}
	})
}
