package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/trace"
	"github.com/masrl/masrl/trace/viewer"
	"go.yaml.in/yaml/v3"
)

// Where the traces page publishes its files, from the site root.
const (
	tracesDir       = "traces/"
	schemaDownload  = "downloads/trace.schema.json"
	exampleDownload = "downloads/example-trace.json"
	sumsDownload    = "downloads/SHA256SUMS"
	validatorDir    = "traces/validator/"
	viewerDir       = "traces/viewer/"
)

// validatorFiles are what the in-browser validator needs from the
// downloads directory (make wasm): the Go module, Go's loader for it and
// the page snippet. validator.js fetches masrl.wasm from its own
// directory, so the three are published side by side.
func validatorFiles() []string { return []string{"masrl.wasm", "wasm_exec.js", "validator.js"} }

// Platform is one operating system and architecture the validator binary
// is built for.
type Platform struct{ OS, Arch string }

// BinaryName is the file name of the masrl binary for the platform, as
// make site cross-compiles it: masrl-OS-ARCH, with .exe on Windows.
func (p Platform) BinaryName() string {
	name := "masrl-" + p.OS + "-" + p.Arch
	if p.OS == "windows" {
		name += ".exe"
	}
	return name
}

// Platforms returns the platforms the traces page offers binaries for, in
// the order the page lists them. make site builds exactly these.
func Platforms() []Platform {
	var out []Platform
	for _, os := range []string{"linux", "darwin", "windows"} {
		for _, arch := range []string{"amd64", "arm64"} {
			out = append(out, Platform{os, arch})
		}
	}
	return out
}

// SchemaField is one member of the trace, an event or an edge, as the
// schema defines it; package trace reads it from the schema.
type SchemaField = trace.SchemaField

// TypeView is one event or edge type with its meaning and how often the
// example trace uses it.
type TypeView struct {
	Name, Description string
	Example           int
}

// ChecklistItem is one row of the survey's reporting checklist (Table 14).
// The trace viewer fills it with each trace's measures, so it is defined
// there.
type ChecklistItem = viewer.ChecklistItem

// BinaryView is one downloadable validator binary.
type BinaryView struct {
	Platform
	Name   string
	Href   string // the link as the page writes it: under the root, or the release's
	SHA256 string // "" when a release's sums are not known
	Size   int    // 0 when the binary is linked from a release
}

type tracesPage struct {
	Page
	Trace, Event, Edge    []SchemaField
	EventTypes, EdgeTypes []TypeView
	Checklist             []ChecklistItem
	Schema                string // download paths from the root; "" when absent
	Example               string
	ExampleStats          *trace.Report
	Binaries              []BinaryView
	Sums                  string // the link to SHA256SUMS as the page writes it
	Release               string // the release the binaries are linked from; "" when published here
	Validator             bool   // the in-browser validator is published
	// ChecklistJSON is Checklist for the trace viewer, escaped for a
	// <script type="application/json"> island.
	ChecklistJSON template.JS
	// ViewerScript is the trace viewer's script from the root, which the
	// page's picker (validator.js) loads once a file is chosen.
	ViewerScript string
}

// tracesData is data/traces.yaml.
type tracesData struct {
	EventTypes map[string]string `yaml:"event_types"`
	EdgeTypes  map[string]string `yaml:"edge_types"`
	Checklist  []ChecklistItem   `yaml:"checklist"`
}

// traces renders the traces page and publishes its downloads: the schema,
// the example trace and, when opt.Downloads names a directory, the
// WebAssembly validator and the six binaries it holds with their SHA-256
// sums. Without binaries, opt.Release's are linked.
func (r *renderer) traces() error {
	if !r.site.Traces {
		// What only the traces page publishes, asked for by name, is said
		// to be left out rather than dropped in silence.
		if r.opt.TraceExample != "" || r.opt.Downloads != "" {
			r.warnings = append(r.warnings, corpus.Diagnostic{
				Severity: corpus.Warning, Pos: corpus.Pos{File: "masrl.yaml"}, Field: "traces",
				Message: "the list publishes no traces page, so the trace example and downloads given are left out; traces: true (or --traces true) publishes one",
			})
		}
		return nil
	}
	tp := &tracesPage{Page: r.newPage(tracesDir, "Orchestration traces", "traces")}
	tp.Description = "The orchestration-trace JSON Schema of the survey: fields, event and edge types, the reporting checklist, downloads and a validator that runs in the browser."
	if !r.site.Survey {
		tp.Description = "The orchestration-trace JSON Schema: fields, event and edge types, the reporting checklist, downloads and a validator that runs in the browser."
	}
	td, err := loadTracesData(r.data)
	if err != nil {
		return err
	}
	raw := trace.SchemaJSON()
	doc, err := trace.DescribeSchema()
	if err != nil {
		return fmt.Errorf("trace/trace.schema.json: %w", err)
	}
	tp.Trace, tp.Event, tp.Edge = doc.Trace, doc.Event, doc.Edge
	if tp.EventTypes, err = typeViews("event type", doc.EventTypes, td.EventTypes); err != nil {
		return err
	}
	if tp.EdgeTypes, err = typeViews("edge type", doc.EdgeTypes, td.EdgeTypes); err != nil {
		return err
	}
	if err := checkMeasures(td.Checklist); err != nil {
		return err
	}
	tp.Checklist = td.Checklist
	cj, err := json.Marshal(tp.Checklist)
	if err != nil {
		return err
	}
	var esc bytes.Buffer
	json.HTMLEscape(&esc, cj)
	tp.ChecklistJSON = template.JS(esc.String())
	if err := r.files.Add(schemaDownload, raw); err != nil {
		return err
	}
	tp.Schema = schemaDownload

	rep, b, err := readExample(r.opt.TraceExample)
	if err != nil {
		return err
	}
	if err := r.files.Add(exampleDownload, b); err != nil {
		return err
	}
	tp.Example, tp.ExampleStats = exampleDownload, rep
	for i := range tp.EventTypes {
		tp.EventTypes[i].Example = countOf(rep.EventTypes, tp.EventTypes[i].Name)
	}
	for i := range tp.EdgeTypes {
		tp.EdgeTypes[i].Example = countOf(rep.EdgeTypes, tp.EdgeTypes[i].Name)
	}

	if r.opt.Downloads != "" {
		if err := r.publishDownloads(tp); err != nil {
			return fmt.Errorf("downloads %s: %w", r.opt.Downloads, err)
		}
		for name, b := range map[string][]byte{viewerDir + "viewer.js": viewer.Script(), viewerDir + "viewer.css": viewer.Style()} {
			if err := r.files.Add(name, b); err != nil {
				return err
			}
		}
		tp.Scripts = []string{validatorDir + "wasm_exec.js", validatorDir + "validator.js"}
		tp.ViewerScript = viewerDir + "viewer.js"
		tp.Styles = []string{viewerDir + "viewer.css"}
	}
	if len(tp.Binaries) == 0 && r.opt.Release.URL != "" {
		if err := releaseBinaries(tp, r.opt.Release); err != nil {
			return err
		}
	}
	return r.render("traces", &tp.Page, tp)
}

// TraceChecklist returns the reporting checklist of data/traces.yaml in
// dfs (nil: the embedded data), its measures checked against trace.Report:
// what the traces page lists and `masrl trace view` fills in.
func TraceChecklist(dfs fs.FS) ([]ChecklistItem, error) {
	if dfs == nil {
		dfs = data.FS
	}
	td, err := loadTracesData(dfs)
	if err != nil {
		return nil, err
	}
	if err := checkMeasures(td.Checklist); err != nil {
		return nil, err
	}
	return td.Checklist, nil
}

// loadTracesData parses data/traces.yaml; unknown keys are an error.
func loadTracesData(dfs fs.FS) (*tracesData, error) {
	const name = "traces.yaml"
	b, err := fs.ReadFile(dfs, name)
	if err != nil {
		return nil, err
	}
	var td tracesData
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&td); err != nil {
		return nil, fmt.Errorf("data/%s: %w", name, err)
	}
	return &td, nil
}

// typeViews pairs the schema's types, in the schema's order, with their
// descriptions. A type without a description, or a description of a type
// the schema does not have, is an error: the page must describe exactly
// the schema it publishes.
func typeViews(kind string, types []string, desc map[string]string) ([]TypeView, error) {
	var out []TypeView
	var errs []error
	for _, t := range types {
		d := strings.TrimSpace(desc[t])
		if d == "" {
			errs = append(errs, fmt.Errorf("data/traces.yaml: %s %q of the schema has no description", kind, t))
		}
		out = append(out, TypeView{Name: t, Description: d})
	}
	extra := make([]string, 0, len(desc))
	for t := range desc {
		if !slices.Contains(types, t) {
			extra = append(extra, t)
		}
	}
	slices.Sort(extra)
	for _, t := range extra {
		errs = append(errs, fmt.Errorf("data/traces.yaml: %s %q is not in the schema (it has %s)", kind, t, strings.Join(types, ", ")))
	}
	return out, errors.Join(errs...)
}

// checkMeasures makes sure that every measure the checklist names is a
// member of the report masrl trace stats prints, so that a renamed field
// of trace.Report fails the build instead of leaving a dead name on the
// page (trace.IsMeasure).
func checkMeasures(items []ChecklistItem) error {
	var errs []error
	for _, it := range items {
		for _, m := range it.Measures {
			if !trace.IsMeasure(m) {
				errs = append(errs, fmt.Errorf("data/traces.yaml: checklist item %q: %q is not a member of the trace report (trace.Report)", it.Item, m))
			}
		}
	}
	return errors.Join(errs...)
}

// readExample reads the example trace at path, or takes the embedded one
// when path is empty, and refuses an invalid one: the site must not offer
// as an example what its own validator rejects.
func readExample(path string) (*trace.Report, []byte, error) {
	var b []byte
	if path == "" {
		path, b = "(embedded example)", trace.ExampleJSON()
	} else {
		var err error
		if b, err = os.ReadFile(path); err != nil {
			return nil, nil, fmt.Errorf("example trace: %w", err)
		}
	}
	res, err := trace.Validate(bytes.NewReader(b), trace.Options{Strict: true})
	if err != nil {
		return nil, nil, fmt.Errorf("example trace %s: %w", path, err)
	}
	if !res.Valid() || res.Warnings > 0 {
		var msgs []string
		for _, f := range res.Findings {
			msgs = append(msgs, path+":"+f.String())
		}
		return nil, nil, fmt.Errorf("example trace %s is not valid:\n%s", path, strings.Join(msgs, "\n"))
	}
	return &res.Report, b, nil
}

func countOf(cs []trace.Count, name string) int {
	for _, c := range cs {
		if c.Name == name {
			return c.Count
		}
	}
	return 0
}

// publishDownloads copies the WebAssembly validator from opt.Downloads
// and, when the directory holds them, the binaries for every platform,
// writing SHA256SUMS for them (the format sha256sum -c reads, sorted by
// name). The validator's three files must be there, and the binaries all or
// none: a page that offers five of six binaries is a broken build.
func (r *renderer) publishDownloads(tp *tracesPage) error {
	dir := r.opt.Downloads
	var missing, found []string
	var bins []BinaryView
	for _, p := range Platforms() {
		name := p.BinaryName()
		b, err := os.ReadFile(filepath.Join(dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			missing = append(missing, name)
			continue
		}
		if err != nil {
			return err
		}
		found = append(found, name)
		sum := sha256.Sum256(b)
		bv := BinaryView{Platform: p, Name: name, Href: tp.Root + "downloads/" + name, SHA256: hex.EncodeToString(sum[:]), Size: len(b)}
		if err := r.files.Add("downloads/"+name, b); err != nil {
			return err
		}
		bins = append(bins, bv)
	}
	if len(found) == 0 {
		missing = nil // no binaries: the validator alone, as make site builds it
	}
	files := map[string][]byte{}
	for _, name := range validatorFiles() {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			missing = append(missing, name)
			continue
		}
		if err != nil {
			return err
		}
		files[name] = b
	}
	if len(missing) > 0 {
		return fmt.Errorf("missing %s (make site builds the validator, make dist the binaries too; or build without --downloads)", strings.Join(missing, ", "))
	}
	for _, name := range validatorFiles() {
		if err := r.files.Add(validatorDir+name, files[name]); err != nil {
			return err
		}
	}
	tp.Validator = true
	if len(bins) == 0 {
		return nil
	}
	tp.Binaries = bins
	var sums strings.Builder
	byName := slices.Clone(tp.Binaries)
	slices.SortFunc(byName, func(a, b BinaryView) int { return strings.Compare(a.Name, b.Name) })
	for _, bv := range byName {
		fmt.Fprintf(&sums, "%s  %s\n", bv.SHA256, bv.Name)
	}
	if err := r.files.Add(sumsDownload, []byte(sums.String())); err != nil {
		return err
	}
	tp.Sums = tp.Root + sumsDownload
	return nil
}

// releaseBinaries links the binaries of a published release: each at the
// release's URL under its make dist name, with its SHA-256 from the
// release's SHA256SUMS when rel.Sums names a copy of it (nothing is
// fetched at build time), and the release's SHA256SUMS itself.
func releaseBinaries(tp *tracesPage, rel siteconfig.Release) error {
	base, err := url.Parse(rel.URL)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return fmt.Errorf("release URL %q: want an absolute http(s) URL", rel.URL)
	}
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
		base.RawPath = ""
	}
	var sums map[string]string
	if rel.Sums != "" {
		if sums, err = siteconfig.ReadSums(rel.Sums); err != nil {
			return err
		}
	}
	var missing []string
	for _, p := range Platforms() {
		name := p.BinaryName()
		bv := BinaryView{Platform: p, Name: name, Href: base.JoinPath(name).String()}
		if sums != nil {
			if bv.SHA256 = sums[name]; bv.SHA256 == "" {
				missing = append(missing, name)
			}
		}
		tp.Binaries = append(tp.Binaries, bv)
	}
	if len(missing) > 0 {
		return fmt.Errorf("release sums %s: no sum for %s (want the SHA256SUMS of the release at %s)", rel.Sums, strings.Join(missing, ", "), rel.URL)
	}
	tp.Sums = base.JoinPath("SHA256SUMS").String()
	tp.Release = base.String()
	return nil
}

type fieldTableArgs struct {
	Caption, ID string
	Fields      []SchemaField
}

// inlineCode renders text in which `backticks` mark code, as data files
// write it: everything is escaped, and only the code spans become markup.
func inlineCode(s string) template.HTML {
	var b strings.Builder
	for i, part := range strings.Split(s, "`") {
		if i%2 == 1 {
			b.WriteString("<code>" + template.HTMLEscapeString(part) + "</code>")
		} else {
			b.WriteString(template.HTMLEscapeString(part))
		}
	}
	return template.HTML(b.String())
}

// osLabel names an operating system as readers know it.
func osLabel(goos string) string {
	switch goos {
	case "linux":
		return "Linux"
	case "darwin":
		return "macOS"
	case "windows":
		return "Windows"
	}
	return goos
}
