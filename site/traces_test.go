package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/trace"
)

// exampleTrace is the project's example, which the traces page publishes.
const exampleTrace = "../trace/testdata/example.json"

// fakeDownloads writes a downloads directory of small stand-ins: what the
// page does with the files does not depend on their being real binaries.
func fakeDownloads(t *testing.T) (dir string, sums map[string]string) {
	t.Helper()
	dir = t.TempDir()
	sums = map[string]string{}
	for _, p := range Platforms() {
		b := []byte("masrl for " + p.OS + "/" + p.Arch + "\n")
		if err := os.WriteFile(filepath.Join(dir, p.BinaryName()), b, 0o755); err != nil {
			t.Fatal(err)
		}
		s := sha256.Sum256(b)
		sums[p.BinaryName()] = hex.EncodeToString(s[:])
	}
	for _, name := range validatorFiles() {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("/* "+name+" */\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, sums
}

func TestTracesPage(t *testing.T) {
	dir := corpusFromTxtar(t, "tiny.txtar")
	dl, sums := fakeDownloads(t)
	files := mustLoad(t, openCorpus(t, dir, nil), Options{TraceExample: exampleTrace, Downloads: dl})
	html := page(t, files, "traces/index.html")

	t.Run("every type of the schema is described", func(t *testing.T) {
		for _, ty := range trace.EventTypes() {
			if !strings.Contains(html, `<tr><th scope="row"><code>`+ty+`</code></th>`) {
				t.Errorf("event type %s has no row", ty)
			}
		}
		for _, ty := range trace.EdgeTypes() {
			if !strings.Contains(html, `<tr><th scope="row"><code>`+ty+`</code></th>`) {
				t.Errorf("edge type %s has no row", ty)
			}
		}
		for _, f := range []string{"trace_id", "costs.wall_clock_s", "content_ref", "src"} {
			if !strings.Contains(html, `<th scope="row"><code>`+f+`</code></th>`) {
				t.Errorf("field %s has no row", f)
			}
		}
	})

	t.Run("the example is published with its counts", func(t *testing.T) {
		want, err := os.ReadFile(exampleTrace)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := files.Get("downloads/example-trace.json"); string(got) != string(want) {
			t.Error("downloads/example-trace.json is not the example")
		}
		f, err := os.Open(exampleTrace)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		rep, err := trace.Measure(f)
		if err != nil {
			t.Fatal(err)
		}
		if s := fmt.Sprintf("a valid example of %d events and %d edges", rep.Events, rep.Edges); !strings.Contains(html, s) {
			t.Errorf("page lacks %q", s)
		}
		for _, c := range rep.EventTypes {
			if s := fmt.Sprintf("<code>%s</code></th><td>", c.Name); !strings.Contains(html, s) {
				t.Fatalf("no row for %s", c.Name)
			}
			row := html[strings.Index(html, fmt.Sprintf("<code>%s</code></th><td>", c.Name)):]
			row = row[:strings.Index(row, "</tr>")]
			if !strings.HasSuffix(row, fmt.Sprintf("<td>%d</td>", c.Count)) {
				t.Errorf("row of %s: %s, want the example's count %d", c.Name, row, c.Count)
			}
		}
		if schemaJSON, _ := files.Get("downloads/trace.schema.json"); string(schemaJSON) != string(trace.SchemaJSON()) {
			t.Error("downloads/trace.schema.json is not the embedded schema")
		}
	})

	t.Run("binaries with their sums", func(t *testing.T) {
		var lines []string
		for name, sum := range sums {
			lines = append(lines, sum+"  "+name+"\n")
			if !strings.Contains(html, `<code class="sha256">`+sum+`</code>`) {
				t.Errorf("page does not show the sum of %s", name)
			}
			if _, ok := files.Get("downloads/" + name); !ok {
				t.Errorf("downloads/%s not published", name)
			}
		}
		slices.SortFunc(lines, func(a, b string) int { return strings.Compare(a[66:], b[66:]) })
		got, _ := files.Get("downloads/SHA256SUMS")
		if want := strings.Join(lines, ""); string(got) != want {
			t.Errorf("SHA256SUMS:\n%s\nwant:\n%s", got, want)
		}
		if len(sums) != 6 {
			t.Errorf("%d platforms, want 6", len(sums))
		}
	})

	t.Run("only the traces page loads the validator", func(t *testing.T) {
		for _, name := range validatorFiles() {
			if _, ok := files.Get("traces/validator/" + name); !ok {
				t.Errorf("traces/validator/%s not published", name)
			}
		}
		for _, s := range []string{`<script src="../traces/validator/wasm_exec.js" defer>`, `<script src="../traces/validator/validator.js" defer>`, `<div id="masrl-validator">`} {
			if !strings.Contains(html, s) {
				t.Errorf("traces page lacks %s", s)
			}
		}
		for _, name := range files.Names() {
			if strings.HasSuffix(name, ".html") && name != "traces/index.html" && strings.Contains(page(t, files, name), "validator.js") {
				t.Errorf("%s loads the validator", name)
			}
		}
	})
}

func TestTracesPageWithoutDownloads(t *testing.T) {
	dir := corpusFromTxtar(t, "tiny.txtar")
	files := mustLoad(t, openCorpus(t, dir, nil), Options{})
	html := page(t, files, "traces/index.html")
	for _, s := range []string{"This build of the site carries no binaries", "carries no in-browser validator", `href="../downloads/trace.schema.json"`, `href="../downloads/example-trace.json"`} {
		if !strings.Contains(html, s) {
			t.Errorf("page lacks %q", s)
		}
	}
	for _, s := range []string{"<script", "masrl-validator", "sha256"} {
		if strings.Contains(html, s) {
			t.Errorf("page without downloads has %q", s)
		}
	}
	for _, name := range []string{"downloads/SHA256SUMS", "traces/validator/masrl.wasm"} {
		if _, ok := files.Get(name); ok {
			t.Errorf("%s published without downloads", name)
		}
	}
	// Without --trace-example the page offers the example built into masrl.
	if got, _ := files.Get("downloads/example-trace.json"); !bytes.Equal(got, trace.ExampleJSON()) {
		t.Error("downloads/example-trace.json is not the embedded example")
	}
}

// TestTracesPageValidatorOnly: the validator alone (what make site builds)
// gives the in-browser validator and no binaries.
func TestTracesPageValidatorOnly(t *testing.T) {
	dir := corpusFromTxtar(t, "tiny.txtar")
	dl, _ := fakeDownloads(t)
	for _, p := range Platforms() {
		if err := os.Remove(filepath.Join(dl, p.BinaryName())); err != nil {
			t.Fatal(err)
		}
	}
	files := mustLoad(t, openCorpus(t, dir, nil), Options{Downloads: dl})
	html := page(t, files, "traces/index.html")
	if !strings.Contains(html, `<div id="masrl-validator">`) || !strings.Contains(html, "This build of the site carries no binaries") {
		t.Error("want the validator and the note that there are no binaries")
	}
	if _, ok := files.Get("downloads/SHA256SUMS"); ok {
		t.Error("SHA256SUMS published without binaries")
	}
}

// TestTracesPageRelease: without binaries of its own, the page links the
// release's, with the sums of its SHA256SUMS when the configuration has a
// copy, and its SHA256SUMS.
func TestTracesPageRelease(t *testing.T) {
	dir := corpusFromTxtar(t, "tiny.txtar")
	const rel = "https://github.com/masrl/masrl/releases/download/v1.0.0"
	sumsFile := filepath.Join(t.TempDir(), "SHA256SUMS")
	var lines strings.Builder
	want := map[string]string{}
	for i, p := range Platforms() {
		sum := fmt.Sprintf("%064x", i+1)
		want[p.BinaryName()] = sum
		fmt.Fprintf(&lines, "%s  %s\n", sum, p.BinaryName())
	}
	if err := os.WriteFile(sumsFile, []byte(lines.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	files := mustLoad(t, openCorpus(t, dir, nil), Options{Config: siteconfig.Config{Release: siteconfig.Release{URL: rel, Sums: sumsFile}}})
	html := page(t, files, "traces/index.html")
	for name, sum := range want {
		row := `<a href="` + rel + `/` + name + `" download>` + name + `</a></td><td><code class="sha256">` + sum + `</code>`
		if !strings.Contains(html, row) {
			t.Errorf("page lacks the row of %s: %s", name, row)
		}
		if _, ok := files.Get("downloads/" + name); ok {
			t.Errorf("downloads/%s published from a release link", name)
		}
	}
	if !strings.Contains(html, `(<a href="`+rel+`/SHA256SUMS">SHA256SUMS</a>)`) {
		t.Error("page does not link the release's SHA256SUMS")
	}

	// Without a copy of the sums the page sends the reader to the release's.
	files = mustLoad(t, openCorpus(t, dir, nil), Options{Config: siteconfig.Config{Release: siteconfig.Release{URL: rel + "/"}}})
	html = page(t, files, "traces/index.html")
	if strings.Contains(html, `class="sha256"`) || !strings.Contains(html, `<td>in <a href="`+rel+`/SHA256SUMS">SHA256SUMS</a></td>`) {
		t.Error("without sums, each row should point at the release's SHA256SUMS")
	}

	// Binaries of the build's own win over the release.
	dl, sums := fakeDownloads(t)
	files = mustLoad(t, openCorpus(t, dir, nil), Options{Config: siteconfig.Config{Release: siteconfig.Release{URL: rel}}, Downloads: dl})
	html = page(t, files, "traces/index.html")
	if strings.Contains(html, rel) || !strings.Contains(html, sums["masrl-linux-amd64"]) {
		t.Error("with binaries in Downloads the page should offer those, not the release's")
	}

	// A sums file that lacks a binary fails the build.
	if err := os.WriteFile(sumsFile, []byte(strings.SplitAfter(lines.String(), "\n")[0]), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(openCorpus(t, dir, nil), Options{Config: siteconfig.Config{Release: siteconfig.Release{URL: rel, Sums: sumsFile}}}); err == nil || !strings.Contains(err.Error(), "no sum for masrl-linux-arm64") {
		t.Errorf("Load with incomplete sums: %v", err)
	}
}

// TestTracesRefusals: what would make the page wrong fails the build.
func TestTracesRefusals(t *testing.T) {
	dir := corpusFromTxtar(t, "tiny.txtar")
	orig, err := data.FS.ReadFile("traces.yaml")
	if err != nil {
		t.Fatal(err)
	}
	withTraces := func(yaml string) fs.FS {
		return data.Overlay(fstest.MapFS{"traces.yaml": {Data: []byte(yaml)}}, data.FS)
	}
	partial, _ := fakeDownloads(t)
	if err := os.Remove(filepath.Join(partial, "masrl.wasm")); err != nil {
		t.Fatal(err)
	}
	fiveOfSix, _ := fakeDownloads(t)
	if err := os.Remove(filepath.Join(fiveOfSix, "masrl-darwin-arm64")); err != nil {
		t.Fatal(err)
	}
	badExample := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(badExample, []byte(`{"trace_id": "t", "task_id": "k", "events": [], "edges": [], "rewards": {}, "costs": {"tokens": 1, "wall_clock_s": 1}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data fs.FS
		opt  Options
		want string
	}{
		{"undescribed event type", withTraces(strings.Replace(string(orig), "  safety_event:", "  safety_evnt:", 1)), Options{},
			`event type "safety_event" of the schema has no description`},
		{"described type not in the schema", withTraces(strings.Replace(string(orig), "  safety_event:", "  safety_evnt:", 1)), Options{},
			`event type "safety_evnt" is not in the schema`},
		{"edge type", withTraces(strings.Replace(string(orig), "  temporal:", "  timely:", 1)), Options{},
			`edge type "temporal" of the schema has no description`},
		{"unknown measure", withTraces(strings.Replace(string(orig), "costs.tokens]", "costs.token]", 1)), Options{},
			`"costs.token" is not a member of the trace report`},
		{"unknown key", withTraces(string(orig) + "extra: 1\n"), Options{}, "field extra not found"},
		{"incomplete downloads", nil, Options{Downloads: partial}, "missing masrl.wasm"},
		{"five of six binaries", nil, Options{Downloads: fiveOfSix}, "missing masrl-darwin-arm64"},
		{"invalid example", nil, Options{TraceExample: badExample}, "/events"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Build(openCorpus(t, dir, tc.data), tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Build: %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestInlineCode(t *testing.T) {
	got := string(inlineCode("a `<b>` & <i>c</i> `d`"))
	want := "a <code>&lt;b&gt;</code> &amp; &lt;i&gt;c&lt;/i&gt; <code>d</code>"
	if got != want {
		t.Errorf("inlineCode = %q, want %q", got, want)
	}
}

// TestMakefilePlatforms keeps make dist building exactly the binaries the
// traces page requires: a platform added on one side only would fail every
// make site, or never be offered.
func TestMakefilePlatforms(t *testing.T) {
	b, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "PLATFORMS :="); ok {
			got = strings.Fields(rest)
		}
	}
	var want []string
	for _, p := range Platforms() {
		want = append(want, p.OS+"/"+p.Arch)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("Makefile PLATFORMS = %v, site.Platforms() = %v", got, want)
	}
}
