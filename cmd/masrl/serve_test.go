package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/masrl/masrl/corpus"

	"github.com/masrl/masrl/internal/corpustest"
)

// TestReadmeCheckRealCorpus checks the committed README against the real
// corpus, and that any change to the corpus makes --check fail.
func TestReadmeCheckRealCorpus(t *testing.T) {
	dir := corpustest.Dir(t)
	readme := filepath.Join("..", "..", "README.md")
	if _, errs, code := runCmd(t, "readme", readme, "--check", "--corpus", dir, "--profile", "survey"); code != exitOK {
		t.Fatalf("committed README is stale (%d): %s", code, errs)
	}
	changed := corpustest.CopyCorpus(t, dir)
	papers := filepath.Join(changed, corpus.PapersFile)
	b, _ := os.ReadFile(papers)
	b = bytes.Replace(b, []byte("First systematic LaMAS RFT paradigm"), []byte("First systematic LaMAS RFT paradigm (edited)"), 1)
	os.WriteFile(papers, b, 0o644)
	_, errs, code := runCmd(t, "readme", readme, "--check", "--corpus", changed, "--profile", "survey")
	if code != exitFindings || !strings.Contains(errs, "out of date") {
		t.Errorf("after a corpus change: exit %d, %s", code, errs)
	}
}

// TestServeWatchesConfigFolders: a masrl.yaml outside the corpus
// directory (--config) names a templates: folder beside it; masrl serve
// watches that folder too, so that editing a template there rebuilds the
// site and the served page shows the edit. The wait is bounded by the
// test's deadline, not by a time.
func TestServeWatchesConfigFolders(t *testing.T) {
	dir := corpustest.CopyCorpus(t, corpustest.Dir(t))
	theme := t.TempDir()
	if err := os.Mkdir(filepath.Join(theme, "look"), 0o755); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(theme, "masrl.yaml")
	if err := os.WriteFile(config, []byte("title: Watched\ntemplates: look\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	home, err := os.ReadFile(filepath.Join("..", "..", "templates", "404.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(theme, "look", "404.html")
	write := func(mark string) {
		t.Helper()
		b := bytes.Replace(home, []byte(`{{define "content"}}`), []byte(`{{define "content"}}<p>`+mark+`</p>`), 1)
		if bytes.Equal(b, home) {
			t.Fatal("404.html has no content block")
		}
		corpustest.WriteLater(t, page, b)
	}
	write("first look")
	out := filepath.Join(t.TempDir(), "public")
	ctx, cancel := context.WithCancel(t.Context())
	stdout := &corpustest.LogBuffer{}
	done := make(chan int)
	go func() {
		done <- runServe(ctx, []string{"--corpus", dir, "--config", config, "--out", out, "--addr", "127.0.0.1:0", "--echarts="}, stdout, io.Discard)
	}()
	defer func() {
		cancel()
		<-done
	}()
	addrPattern := regexp.MustCompile(`at (http://[^ ]+/) `)
	var base string
	for base == "" {
		if m := addrPattern.FindStringSubmatch(stdout.String()); m != nil {
			base = m[1]
		}
		time.Sleep(10 * time.Millisecond)
	}
	body := func() string {
		resp, err := http.Get(base + "no/such/page/")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if b := body(); !strings.Contains(b, "first look") {
		t.Fatalf("the templates: folder of --config is not used: %.300s", b)
	}
	// The watcher may start after the first write: write until a build
	// shows it.
	for i := 0; ; i++ {
		write(fmt.Sprintf("second look %d", i))
		time.Sleep(50 * time.Millisecond)
		if strings.Contains(body(), "second look") {
			break
		}
	}
}
