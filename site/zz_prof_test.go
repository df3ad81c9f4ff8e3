package site

import (
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/masrl/masrl/corpus"
)

func TestZZProf(t *testing.T) {
	dir := os.Getenv("PROF_CORPUS")
	if dir == "" {
		t.Skip()
	}
	out := filepath.Join(t.TempDir(), "public")
	if os.Getenv("PROF_MEM") != "" {
		out = ""
	}
	c := NewCache()
	csv := filepath.Join(dir, "papers.csv")
	orig, _ := os.ReadFile(csv)
	defer os.WriteFile(csv, orig, 0o644)
	var pf *os.File
	for i := range 7 {
		if i == 2 && os.Getenv("PROF_OUT") != "" {
			pf, _ = os.Create(os.Getenv("PROF_OUT"))
			pprof.StartCPUProfile(pf)
			defer pprof.StopCPUProfile()
		}
		if i >= 2 {
			b := strings.Replace(string(orig), "Learning", "Learnin"+strings.Repeat("g", i), 1)
			os.WriteFile(csv, []byte(b), 0o644)
		}
		t0 := time.Now()
		ck, err := corpus.OpenWith(dir, nil, corpus.CheckOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t1 := time.Now()
		if _, err := Build(ck, Options{Out: out, Cache: c}); err != nil {
			t.Fatal(err)
		}
		t.Logf("open %v build %v rendered %d reused %d", t1.Sub(t0), time.Since(t1), c.Rendered, c.Reused)
	}
}
