package viewer

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"html/template"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/masrl/masrl/trace"
)

//go:embed viewer.js
var script []byte

//go:embed viewer.css
var style []byte

//go:embed view.html
var pageTemplate string

// Script returns viewer.js, which the site publishes beside the validator.
func Script() []byte { return bytes.Clone(script) }

// Style returns viewer.css.
func Style() []byte { return bytes.Clone(style) }

// ChecklistItem is one row of the survey's reporting checklist (Table 14)
// as data/traces.yaml states it; Measures are members of trace.Report
// (trace.IsMeasure), which the viewer looks up in each trace's report.
type ChecklistItem struct {
	Item     string   `yaml:"item" json:"item"`
	Minimum  string   `yaml:"minimum" json:"minimum"`
	Measures []string `yaml:"measures" json:"measures,omitempty"`
	Note     string   `yaml:"note" json:"note,omitempty"`
}

// Report is what the viewer reads of a validation: every finding and the
// trace's measures, or the error that stopped the validator. The
// WebAssembly module returns it from masrlValidate; `masrl trace view`
// embeds it.
type Report struct {
	Valid    bool            `json:"valid"`
	Errors   int             `json:"errors"`
	Warnings int             `json:"warnings"`
	Omitted  int             `json:"omitted"`
	Findings []trace.Finding `json:"findings"`
	Stats    *trace.Report   `json:"stats,omitempty"`
	Error    string          `json:"error,omitempty"`
}

// NewReport makes the report of one validation (err: the validator
// failed, res is then ignored).
func NewReport(res *trace.Result, err error) Report {
	rep := Report{Findings: []trace.Finding{}}
	if err != nil {
		rep.Error = err.Error()
		return rep
	}
	rep.Valid, rep.Errors, rep.Warnings, rep.Omitted = res.Valid(), res.Errors, res.Warnings, res.Omitted
	rep.Findings = append(rep.Findings, res.Findings...)
	rep.Stats = &res.Report
	return rep
}

// Unit is one trace of a file: where it was read, its text and its report.
type Unit struct {
	Name   string // the file, as given
	Line   int    // the line of a JSON Lines trace; 0 for a whole file
	JSON   []byte // the trace's text
	Report Report
}

// StaticRows is how many events of each trace the file lists as plain
// HTML, the view without JavaScript; the script shows them all.
const StaticRows = 1000

// Page is the self-contained file of a batch of traces.
type Page struct {
	Title     string
	Units     []Unit
	Checklist []ChecklistItem
}

// unitJSON is one trace as the file embeds it. Trace is the trace's own
// text when it is JSON, and null otherwise (the findings say why).
type unitJSON struct {
	Name   string          `json:"name"`
	Line   int             `json:"line,omitempty"`
	Report Report          `json:"report"`
	Trace  json.RawMessage `json:"trace,omitempty"`
	// Lite is the trace reduced to what the first frame needs (lite.go);
	// the whole trace is then in the second island, read after it.
	Lite json.RawMessage `json:"lite,omitempty"`
}

type dataJSON struct {
	Checklist []ChecklistItem `json:"checklist"`
	Traces    []unitJSON      `json:"traces"`
}

// staticEvent is one row of the plain HTML event table.
type staticEvent struct {
	Index                 int
	T                     string
	Agent, Type, Relation string
}

type staticUnit struct {
	Caption string
	Events  []staticEvent
	Total   int
	Shown   int
}

// Write renders the page: the viewer's script and style inlined, every
// trace and report embedded as one JSON island escaped for HTML (so no
// text in a trace can end the script element), the first StaticRows events
// of each trace as a table for readers without JavaScript (inside
// noscript: a browser that runs the script neither builds nor lays out
// those rows, which cost a 100,000-event file a third of a second of
// layout before its script ran; the script's own paged table serves
// screen readers), and a content
// security policy that allows the inlined script and style (by hash) and
// nothing else, so the file can make no request. The first data island
// and the script come right after the viewer's element, before the plain
// table and the whole traces, so that the browser runs the script as
// soon as it has them. The output depends on the input alone.
func Write(w io.Writer, p Page) error {
	data := dataJSON{Checklist: p.Checklist, Traces: make([]unitJSON, len(p.Units))}
	if data.Checklist == nil {
		data.Checklist = []ChecklistItem{}
	}
	statics := make([]staticUnit, len(p.Units))
	lite := len(p.Units) > 0
	for i, u := range p.Units {
		uj := unitJSON{Name: u.Name, Line: u.Line, Report: u.Report, Trace: json.RawMessage("null")}
		// json.Compact fails where json.Valid would (one pass, not two).
		if c := new(bytes.Buffer); json.Compact(c, u.JSON) == nil {
			// Invalid UTF-8 (a finding of its own) becomes U+FFFD, so the
			// page is valid UTF-8 and reads the same in every browser.
			uj.Trace = bytes.ToValidUTF8(c.Bytes(), []byte("\uFFFD"))
		} else {
			lite = false
		}
		for _, f := range u.Report.Findings {
			// The page places a finding on an edge at the edge's event,
			// which needs the whole trace before the first frame.
			lite = lite && !strings.HasPrefix(f.Pointer, "/edges/")
		}
		data.Traces[i] = uj
		statics[i] = staticRows(u)
	}
	// The page opens with the lite traces (lite.go) while the browser is
	// still receiving the whole ones, which follow the script in a second
	// island: the first frame need not wait for the whole file.
	var traces []json.RawMessage
	if lite {
		traces = make([]json.RawMessage, len(data.Traces))
		for i := range data.Traces {
			traces[i] = data.Traces[i].Trace
			data.Traces[i].Lite = liteTrace(traces[i])
			data.Traces[i].Trace = nil
		}
	}
	island, err := islandJSON(data)
	if err != nil {
		return err
	}
	var rest string
	if lite {
		rest = tracesIsland(traces)
	}
	t, err := template.New("view").Parse(pageTemplate)
	if err != nil {
		return err
	}
	return t.Execute(w, map[string]any{
		"Title":  strings.ToValidUTF8(p.Title, "\uFFFD"),
		"Script": template.JS(script),
		"Style":  template.CSS(style),
		"Data":   template.JS(island),
		"Traces": template.JS(rest),
		"Units":  statics,
		"Policy": Policy(),
	})
}

// islandJSON is v as the text of an inert script element: <, >, &, U+2028
// and U+2029 become \u escapes.
func islandJSON(v any) (string, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	var island bytes.Buffer
	json.HTMLEscape(&island, raw)
	return island.String(), nil
}

// tracesIsland is islandJSON(traces) for traces that are compact, valid
// JSON, written without json.Marshal's second pass over each (it
// validates and compacts a json.RawMessage again): the array of them, HTML
// escaped as json.Marshal and islandJSON escape it.
func tracesIsland(traces []json.RawMessage) string {
	var raw bytes.Buffer
	raw.WriteByte('[')
	for i, tr := range traces {
		if i > 0 {
			raw.WriteByte(',')
		}
		raw.Write(tr)
	}
	raw.WriteByte(']')
	var island bytes.Buffer
	json.HTMLEscape(&island, raw.Bytes())
	return island.String()
}

// Policy is the content security policy of the written file: the inlined
// script and style sheet by their SHA-256, and the viewer's worker, which
// the script starts from a Blob of its own text (a blob: URL is made in
// the page and names no place to fetch from); nothing else from anywhere.
func Policy() string {
	return "default-src 'none'; script-src " + hashSource(script) + "; style-src " + hashSource(style) + "; img-src data: blob:; worker-src blob:"
}

func hashSource(b []byte) string {
	sum := sha256.Sum256(b)
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// staticRows lists the first StaticRows events of a trace. It reads only
// what a row shows and ignores what does not decode: the findings say what
// is wrong with the trace, the table only shows what is there.
func staticRows(u Unit) staticUnit {
	su := staticUnit{Caption: strings.ToValidUTF8(u.Name, "\uFFFD")}
	if u.Line > 0 {
		su.Caption += " line " + strconv.Itoa(u.Line)
	}
	if u.Report.Stats != nil && u.Report.Stats.TraceID != "" {
		su.Caption += ", trace " + u.Report.Stats.TraceID
	}
	var tr struct {
		Events staticEvents `json:"events"`
	}
	if json.Unmarshal(u.JSON, &tr) != nil {
		return su
	}
	su.Total = tr.Events.total
	for i, ev := range tr.Events.first[:min(tr.Events.total, StaticRows)] {
		se := staticEvent{Index: i, Agent: str(ev["agent"]), Type: str(ev["type"])}
		if f, ok := ev["t"].(float64); ok {
			se.T = strconv.FormatFloat(f, 'g', -1, 64)
		}
		var rel []string
		for _, k := range []string{"from", "to", "tool"} {
			if s := str(ev[k]); s != "" {
				rel = append(rel, k+" "+s)
			}
		}
		se.Relation = strings.Join(rel, ", ")
		su.Events = append(su.Events, se)
	}
	su.Shown = len(su.Events)
	return su
}

// staticEvents decodes a trace's events as a []map[string]any would, and
// fails where that fails, but keeps only the first StaticRows as maps and
// counts the rest: decoding a million events into maps took 3.3 s of
// Write's CPU for the thousand rows shown. Each element is checked as
// that decoding checks it: an object or null, with every number fitting
// a float64. Like encoding/json decoding into a slice, a second "events"
// member decodes its first elements into the maps the first one left
// (merging their keys), so the rows are those the slice of maps had.
type staticEvents struct {
	first []map[string]any // the first StaticRows, as decoded so far
	total int              // the elements of the last "events" member
}

// errNotEvents fails the decoding of events that are not an array of
// objects, as a []map[string]any's would fail.
var errNotEvents = &json.UnmarshalTypeError{Value: "events", Type: reflect.TypeFor[[]map[string]any]()}

func (s *staticEvents) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		s.total = 0
		return nil
	}
	if !isArray(b) {
		return errNotEvents
	}
	var err error
	total := 0
	eachElement(b, func(i int, ev []byte) {
		total++
		if err != nil {
			return
		}
		if i < StaticRows {
			if i == len(s.first) {
				s.first = append(s.first, nil)
			}
			err = json.Unmarshal(ev, &s.first[i])
			return
		}
		if string(ev) != "null" && (!isObject(ev) || !numbersFit(ev)) {
			err = errNotEvents
		}
	})
	s.total = total
	return err
}

// str is a JSON string value, or "".
func str(v any) string {
	s, _ := v.(string)
	return s
}
