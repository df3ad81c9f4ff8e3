package siteconfig

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseAllKeys(t *testing.T) {
	src := `# a list's configuration
title: My list
description: Papers on X.
language: en-GB
base_url: https://example.org/list/
repository:
  url: https://github.com/me/list
  branch: trunk
  corpus: data/list
release:
  url: https://github.com/masrl/masrl/releases/download/v1.0.0/
  sums: SHA256SUMS
license: CC0-1.0
traces: "false"
citation:
  authors: Zhang, Chenchen; Example Lab
  license: CC-BY-4.0
  doi: 10.5281/zenodo.1003150
profile: survey
templates: theme
assets: static
extra_css: theme.css
logo: img/logo.svg
favicon: icon.png
nav: [home, papers, coverage]
`
	c, err := Parse("masrl.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		Title: "My list", Description: "Papers on X.", Language: "en-GB", BaseURL: "https://example.org/list/",
		Repository: Repository{URL: "https://github.com/me/list", Branch: "trunk", Corpus: "data/list"},
		Release:    Release{URL: "https://github.com/masrl/masrl/releases/download/v1.0.0/", Sums: "SHA256SUMS"},
		Citation:   Citation{Authors: "Zhang, Chenchen; Example Lab", License: "CC-BY-4.0", DOI: "10.5281/zenodo.1003150"},
		Profile:    "survey",
		License:    "CC0-1.0", Traces: "false",
		Theme: Theme{Templates: "theme", Assets: "static", ExtraCSS: "theme.css", Logo: "img/logo.svg",
			Favicon: "icon.png", Nav: "home, papers, coverage"},
	}
	if *c != want {
		t.Errorf("got %+v\nwant %+v", *c, want)
	}
	// Every key of the table is set by the document above: a key added to
	// Keys must be added here too.
	for _, k := range Keys() {
		if *k.Field(c) == "" {
			t.Errorf("key %s: not set by the test document", k.Name)
		}
	}
}

// TestParseTheme checks the theme keys' values: nav as a list or a
// string, each page once; files inside their folder, never out of it.
func TestParseTheme(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"nav: home, papers\n", ""},
		{"nav:\n  - home\n  - papers\n", ""},
		{"nav: [home, home]\n", "masrl.yaml:1:6: nav: home is listed twice"},
		{"nav: [home, {a: b}]\n", "masrl.yaml:1:13: nav: want a page name"},
		{"nav: Papers!\n", `masrl.yaml:1:6: nav: "Papers!": want a page name such as papers or coverage`},
		{"extra_css: ../theme.css\n", `masrl.yaml:1:12: extra_css: "../theme.css": want a relative path inside the folder, with / and without . or .. parts`},
		{"logo: /etc/logo.svg\n", `masrl.yaml:1:7: logo: "/etc/logo.svg": want a relative path inside the folder, with / and without . or .. parts`},
		{"assets: a\\b\n", `masrl.yaml:1:9: assets: "a\\b": want a relative path inside the folder, with / and without . or .. parts`},
	} {
		c, err := Parse("masrl.yaml", []byte(tc.src))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%q: got error %q, want %q", tc.src, got, tc.want)
		}
		if err == nil && !slices.Equal(c.NavNames(), []string{"home", "papers"}) {
			t.Errorf("%q: nav %q, want home, papers", tc.src, c.NavNames())
		}
	}
}

func TestParseEmpty(t *testing.T) {
	for _, src := range []string{"", "# nothing yet\n"} {
		c, err := Parse("masrl.yaml", []byte(src))
		if err != nil || *c != (Config{}) {
			t.Errorf("%q: got %+v, %v; want an empty config", src, c, err)
		}
	}
}

// TestParseErrors checks that every problem of a file is reported, each
// with its file:line:col and what would be right.
func TestParseErrors(t *testing.T) {
	src := `titel: My list
base_url: http://
repository:
  url: javascript:alert(1)
  brnch: main
release: https://example.org/
language: not a tag
title: [a, b]
title: again
profile: surveys
`
	_, err := Parse("cfg/masrl.yaml", []byte(src))
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("got %v, want *Error", err)
	}
	want := []string{
		"cfg/masrl.yaml:1:1: unknown key titel; did you mean title?",
		"cfg/masrl.yaml:2:11: base_url: \"http://\": want an absolute http(s) URL",
		"cfg/masrl.yaml:4:8: repository.url: \"javascript:alert(1)\": want an absolute http(s) URL",
		"cfg/masrl.yaml:5:3: unknown key repository.brnch; did you mean repository.branch?",
		"cfg/masrl.yaml:6:10: release must be a mapping of keys (url, sums)",
		"cfg/masrl.yaml:7:11: language: \"not a tag\" is not a BCP 47 language tag",
		"cfg/masrl.yaml:8:8: title: want a string",
		"cfg/masrl.yaml:9:1: title is set twice (first at line 8)",
		"cfg/masrl.yaml:10:10: profile: unknown profile \"surveys\"; masrl knows survey",
	}
	if len(ce.Problems) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%s", len(ce.Problems), len(want), err)
	}
	for i, w := range want {
		if !strings.HasPrefix(ce.Problems[i], w) {
			t.Errorf("problem %d:\n got %s\nwant %s...", i, ce.Problems[i], w)
		}
	}
}

func TestParseUnknownFarKey(t *testing.T) {
	_, err := Parse("masrl.yaml", []byte("colour: blue\n"))
	if err == nil || !strings.Contains(err.Error(), "masrl.yaml:1:1: unknown key colour; known keys here: title, description, language, base_url, repository, release") {
		t.Errorf("got %v", err)
	}
}

func TestParseSyntaxError(t *testing.T) {
	_, err := Parse("masrl.yaml", []byte("title: a\n  b: c\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "masrl.yaml:2: ") {
		t.Errorf("got %v, want masrl.yaml:2: ...", err)
	}
	// Errors the YAML library gives no line for still say where.
	for src, want := range map[string]string{
		"title: a\nlanguage: \"en":       "masrl.yaml:2: ",
		"title: a\ndescription: b\xff\n": "masrl.yaml:2:15: ",
		"title: a\x01\n":                 "masrl.yaml:1:9: ",
	} {
		if _, err := Parse("masrl.yaml", []byte(src)); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: got %v, want %s...", src, err, want)
		}
	}
	_, err = Parse("masrl.yaml", []byte("- a\n- b\n"))
	if err == nil || !strings.Contains(err.Error(), "masrl.yaml:1:1: the file must be a mapping") {
		t.Errorf("got %v", err)
	}
}

func TestFindAndLoad(t *testing.T) {
	dir := t.TempDir()
	if p, err := Find("", dir); p != "" || err != nil {
		t.Errorf("no file: got %q, %v; want \"\", nil", p, err)
	}
	if _, err := Find(filepath.Join(dir, "nope.yaml"), dir); err == nil || !strings.Contains(err.Error(), "--config") {
		t.Errorf("missing --config file: got %v, want an error naming --config", err)
	}
	cfg := filepath.Join(dir, FileName)
	if err := os.WriteFile(cfg, []byte("release:\n  sums: sums/SHA256SUMS\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Find("", dir)
	if err != nil || p != cfg {
		t.Fatalf("got %q, %v; want %q", p, err, cfg)
	}
	c, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "sums", "SHA256SUMS"); c.Release.Sums != want {
		t.Errorf("release.sums = %q, want %q (relative to the file)", c.Release.Sums, want)
	}
}

func TestKeysUnique(t *testing.T) {
	names, flags := map[string]bool{}, map[string]bool{}
	for _, k := range Keys() {
		if names[k.Name] || flags[k.Flag] {
			t.Errorf("key %s or flag --%s defined twice", k.Name, k.Flag)
		}
		names[k.Name], flags[k.Flag] = true, true
		if k.Usage == "" {
			t.Errorf("key %s has no usage", k.Name)
		}
	}
}

// TestDocsDocumentEveryKey holds docs/publish.md, where a list's
// maintainer looks for masrl.yaml's keys, to Keys.
func TestDocsDocumentEveryKey(t *testing.T) {
	const doc = "docs/publish.md"
	b, err := os.ReadFile(filepath.Join("..", "..", doc))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Keys() {
		if !strings.Contains(string(b), "`"+k.Name+"`") {
			t.Errorf("%s does not document the key `%s`", doc, k.Name)
		}
		if !strings.Contains(string(b), "`--"+k.Flag+"`") {
			t.Errorf("%s does not document the flag `--%s`", doc, k.Flag)
		}
	}
}

func TestParseSums(t *testing.T) {
	a := strings.Repeat("a", 64)
	b := strings.Repeat("B", 64)
	sums, err := ParseSums("SHA256SUMS", []byte(a+"  masrl-linux-amd64\n"+b+" *masrl-windows-amd64.exe\n\n"))
	if err != nil {
		t.Fatal(err)
	}
	if sums["masrl-linux-amd64"] != a || sums["masrl-windows-amd64.exe"] != strings.ToLower(b) || len(sums) != 2 {
		t.Errorf("got %v", sums)
	}
	_, err = ParseSums("SHA256SUMS", []byte("abc  x\n"+a+"  ../etc\n"+a+"  y\n"+a+"  y\n"))
	want := "SHA256SUMS:1: want a line of sha256sum's output: 64 hex digits, two spaces and a file name\n" +
		"SHA256SUMS:2: want a line of sha256sum's output: 64 hex digits, two spaces and a file name\n" +
		"SHA256SUMS:4: y is listed twice"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// TestLicenseAndTraces: citation.license defaults to the list's license,
// and the traces page follows traces, else the survey profile.
func TestLicenseAndTraces(t *testing.T) {
	if got := (Config{License: "MIT"}).CitationLicense(); got != "MIT" {
		t.Errorf("CitationLicense without citation.license = %q, want the list's MIT", got)
	}
	if got := (Config{License: "MIT", Citation: Citation{License: "CC-BY-4.0"}}).CitationLicense(); got != "CC-BY-4.0" {
		t.Errorf("CitationLicense = %q, want citation.license's CC-BY-4.0", got)
	}
	for _, c := range []struct {
		traces string
		survey bool
		want   bool
	}{{"", true, true}, {"", false, false}, {"true", false, true}, {"false", true, false}} {
		if got := (Config{Traces: c.traces}).TracesPage(c.survey); got != c.want {
			t.Errorf("traces %q, survey %v: TracesPage = %v, want %v", c.traces, c.survey, got, c.want)
		}
	}
}
