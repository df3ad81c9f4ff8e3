package browsertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/masrl/masrl/internal/synth"
	"github.com/masrl/masrl/site"
	"github.com/masrl/masrl/trace"
	"github.com/masrl/masrl/trace/otlp"
	"github.com/masrl/masrl/trace/viewer"
)

// viewerState is what MasrlViewer.state returns about the trace shown.
type viewerState struct {
	Events int `json:"events"`
	Lanes  []struct {
		Name   string `json:"name"`
		Depth  int    `json:"depth"`
		Parent string `json:"parent"`
		Tool   bool   `json:"tool"`
	} `json:"lanes"`
	LanesInView      [2]int         `json:"lanesInView"`
	LaneHeight       int            `json:"laneHeight"`
	AxisHeight       int            `json:"axisHeight"`
	LabelWidth       int            `json:"labelWidth"`
	EdgesDrawn       map[string]int `json:"edgesDrawn"`
	EdgeCount        map[string]int `json:"edgeCount"`
	FindingsOnEvents []int          `json:"findingsOnEvents"`
	TraceFindings    int            `json:"traceFindings"`
	InView           int            `json:"inView"`
	Dense            int            `json:"dense"`
	Note             string         `json:"note"`
	Current          int            `json:"current"`
	Window           [2]float64     `json:"window"`
}

func (s viewerState) laneNames() []string {
	var out []string
	for _, l := range s.Lanes {
		out = append(out, l.Name)
	}
	return out
}

// fileReady holds once the written file has drawn its first frame (or
// listed its batch).
const fileReady = `document.getElementById("masrl-viewer").dataset.ready === "true"`

// viewerState reads the viewer's state once the frame asked for is drawn:
// what it reports is then what the canvas shows.
func (p *page) viewerState(t *testing.T) viewerState {
	t.Helper()
	p.waitFor(t, `!!MasrlViewer.state() && MasrlViewer.state().settled`)
	var st *viewerState
	p.eval(t, `MasrlViewer.state()`, &st)
	if st == nil {
		t.Fatal("the viewer shows no trace")
	}
	return *st
}

// viewUnits validates each trace text as masrl trace view does.
func viewUnits(name string, texts ...[]byte) []viewer.Unit {
	var units []viewer.Unit
	for i, b := range texts {
		res, err := trace.Validate(bytes.NewReader(b), trace.Options{})
		line := 0
		if len(texts) > 1 {
			line = i + 1
		}
		units = append(units, viewer.Unit{Name: name, Line: line, JSON: b, Report: viewer.NewReport(res, err)})
	}
	return units
}

// writeView writes the self-contained file of units into dir.
func writeView(t *testing.T, dir, file string, units []viewer.Unit) {
	t.Helper()
	checklist, err := site.TraceChecklist(nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := viewer.Write(&b, viewer.Page{Title: file, Units: units, Checklist: checklist}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, file), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// importFixture imports an OTLP fixture of trace/otlp/testdata with the Go
// importer, as masrl trace import does.
func importFixture(t *testing.T, name string) []*otlp.Trace {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(repoRoot(t), "trace", "otlp", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var traces []*otlp.Trace
	im := otlp.NewImporter(otlp.Options{}, func(tr *otlp.Trace) error { traces = append(traces, tr); return nil }, func(otlp.Diagnostic) {})
	if err := im.Read(name, bytes.NewReader(src)); err != nil {
		t.Fatal(err)
	}
	if err := im.Close(); err != nil || len(traces) == 0 {
		t.Fatalf("importing %s: %d traces, %v", name, len(traces), err)
	}
	return traces
}

// plainTrace is what the tests read of a trace to know what the viewer
// must show: its agents, spawns and edges by type.
type plainTrace struct {
	Events []struct {
		ID    string  `json:"id"`
		T     float64 `json:"t"`
		Type  string  `json:"type"`
		Agent string  `json:"agent"`
		To    string  `json:"to"`
		Tool  string  `json:"tool"`
	} `json:"events"`
	Edges []struct {
		Src  string `json:"src"`
		Dst  string `json:"dst"`
		Type string `json:"type"`
	} `json:"edges"`
}

// importOTLP imports OTLP/JSON text with the Go importer as the
// WebAssembly module does (one worker, JSON): its traces and diagnostics.
func importOTLP(t *testing.T, name string, src []byte) ([]*otlp.Trace, []otlp.Diagnostic) {
	t.Helper()
	var traces []*otlp.Trace
	var diags []otlp.Diagnostic
	im := otlp.NewImporter(otlp.Options{Workers: 1, Format: otlp.FormatJSON},
		func(tr *otlp.Trace) error { traces = append(traces, tr); return nil },
		func(d otlp.Diagnostic) { diags = append(diags, d) })
	if err := im.Read(name, bytes.NewReader(src)); err != nil {
		t.Fatal(err)
	}
	if err := im.Close(); err != nil || len(traces) == 0 {
		t.Fatalf("importing %s: %d traces, %v", name, len(traces), err)
	}
	return traces, diags
}

// drop drops a file of the text src on the viewer's drop zone, as a
// reader's drag and drop does (a DragEvent carrying the File), and waits
// for the viewer to show it.
func drop(t *testing.T, p *page, name string, src []byte) {
	t.Helper()
	text, err := json.Marshal(string(src))
	if err != nil {
		t.Fatal(err)
	}
	fname, _ := json.Marshal(name)
	var ok bool
	p.eval(t, `(() => { const s = document.querySelector("#masrl-viewer .mv-stage"); s.dataset.ready = "";
	  const dt = new DataTransfer(); dt.items.add(new File([`+string(text)+`], `+string(fname)+`, {type: "application/json"}));
	  document.querySelector("#masrl-viewer .mv-drop").dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
	  return true; })()`, &ok)
	p.waitFor(t, `document.querySelector("#masrl-viewer .mv-stage").dataset.ready === "true"`)
}

func readPlain(t *testing.T, b []byte) plainTrace {
	t.Helper()
	var p plainTrace
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkLanes asserts one lane per agent, the orchestrator (the agent of
// the first orchestrator_decision, else of the first spawn) first, every
// spawned agent below its parent and named with it, tools after agents.
func checkLanes(t *testing.T, where string, st viewerState, tr plainTrace) {
	t.Helper()
	agents := map[string]bool{}
	parent := map[string]string{}
	tools := map[string]bool{}
	root := ""
	for _, e := range tr.Events {
		agents[e.Agent] = true
		if e.Type == "spawn" && e.To != "" {
			agents[e.To] = true
			if _, ok := parent[e.To]; !ok && e.To != e.Agent {
				parent[e.To] = e.Agent
			}
		}
		if e.Type == "tool_result" && e.Tool == e.Agent {
			tools[e.Agent] = true
		}
	}
	for _, e := range tr.Events {
		if e.Type == "orchestrator_decision" {
			root = e.Agent
			break
		}
	}
	if root == "" {
		for _, e := range tr.Events {
			if e.Type == "spawn" {
				root = e.Agent
				break
			}
		}
	}
	names := st.laneNames()
	if len(names) != len(agents) {
		t.Errorf("%s: %d lanes, want one per agent (%d): %q", where, len(names), len(agents), names)
	}
	if root != "" && (len(names) == 0 || names[0] != root) {
		t.Errorf("%s: first lane %q, want the orchestrator %q", where, names[0], root)
	}
	pos := map[string]int{}
	for i, n := range names {
		pos[n] = i
	}
	seenTool := false
	for i, l := range st.Lanes {
		if p, ok := parent[l.Name]; ok && !tools[l.Name] {
			if l.Parent != p || pos[p] >= i {
				t.Errorf("%s: lane %d %q has parent %q at lane %d, want %q above it", where, i, l.Name, l.Parent, pos[l.Parent], p)
			}
		}
		if l.Tool != tools[l.Name] {
			t.Errorf("%s: lane %q tool=%v, want %v", where, l.Name, l.Tool, tools[l.Name])
		}
		if l.Tool {
			seenTool = true
		} else if seenTool {
			t.Errorf("%s: agent lane %q after a tool lane: %q", where, l.Name, names)
		}
	}
}

// edgesInView counts, by type, the edges of tr whose ends are resolvable
// and one of which lies in the lanes [l0, l1), within the time window: the
// edges the viewer must draw.
func edgesInView(tr plainTrace, st viewerState, t0, t1 float64) map[string]int {
	lane := map[string]int{}
	for i, l := range st.Lanes {
		lane[l.Name] = i
	}
	type ev struct {
		t    float64
		lane int
	}
	byID := map[string]ev{}
	for _, e := range tr.Events {
		if _, ok := byID[e.ID]; !ok {
			byID[e.ID] = ev{e.T, lane[e.Agent]}
		}
	}
	in := func(l int) bool { return l >= st.LanesInView[0] && l < st.LanesInView[1] }
	out := map[string]int{}
	for _, e := range tr.Edges {
		s, ok1 := byID[e.Src]
		d, ok2 := byID[e.Dst]
		if !ok1 || !ok2 || (!in(s.lane) && !in(d.lane)) || max(s.t, d.t) < t0 || min(s.t, d.t) > t1 {
			continue
		}
		out[e.Type]++
	}
	return out
}

// findingEvents lists, in order, the events the viewer must place the Go
// validator's findings on: the event of an /events/N pointer, the source
// event of an /edges/N one.
func findingEvents(t *testing.T, src []byte, want *trace.Result) []int {
	t.Helper()
	var out []int
	plain := readPlain(t, src)
	for _, f := range want.Findings {
		var i int
		if _, err := fmt.Sscanf(f.Pointer, "/events/%d", &i); err == nil {
			out = append(out, i)
		} else if _, err := fmt.Sscanf(f.Pointer, "/edges/%d", &i); err == nil && i < len(plain.Edges) {
			for k, ev := range plain.Events {
				if ev.ID == plain.Edges[i].Src {
					out = append(out, k)
					break
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// canvasShot takes a PNG of the timeline's canvas.
func canvasShot(t *testing.T, p *page, name string) image.Image {
	t.Helper()
	buf, err := chromedp.Run(p.ctx, chromedp.Screenshot(chromedp.CSS("canvas.mv-canvas"), chromedp.NodeVisible))
	if err != nil {
		t.Fatalf("screenshot of the timeline: %v", err)
	}
	dir := filepath.Join("testdata", "screenshots")
	if err := os.MkdirAll(dir, 0o755); err == nil {
		os.WriteFile(filepath.Join(dir, name+".png"), buf, 0o644)
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// checkShot asserts the timeline is drawn: more than a few colours, and in
// the plot part of every lane in view that has events in the window, some
// pixels that differ from the lane's own background (its most common
// colour), while the label column of each lane holds its name.
func checkShot(t *testing.T, where string, img image.Image, st viewerState, busy func(lane int) bool) {
	t.Helper()
	b := img.Bounds()
	colors := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			colors[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	if len(colors) < 5 {
		t.Errorf("%s: the timeline is blank (%d colours)", where, len(colors))
	}
	for l := st.LanesInView[0]; l < st.LanesInView[1]; l++ {
		top := st.AxisHeight + (l-st.LanesInView[0])*st.LaneHeight
		if top+st.LaneHeight > b.Max.Y {
			break
		}
		band := func(x0, x1 int) (marks int) {
			count := map[color.RGBA]int{}
			for y := top + 2; y < top+st.LaneHeight-2; y++ {
				for x := x0; x < x1; x++ {
					count[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
				}
			}
			bg, most := color.RGBA{}, -1
			for c, n := range count {
				if n > most {
					bg, most = c, n
				}
			}
			for c, n := range count {
				if c != bg {
					marks += n
				}
			}
			return marks
		}
		if band(4, st.LabelWidth-4) == 0 {
			t.Errorf("%s: lane %d (%s) has no label", where, l, st.Lanes[l].Name)
		}
		if busy(l) && band(st.LabelWidth, b.Max.X) == 0 {
			t.Errorf("%s: lane %d (%s) has events in view but nothing is drawn in it", where, l, st.Lanes[l].Name)
		}
	}
}

// interceptRequests pauses every request of the page in the Fetch domain
// (request interception), records its URL and lets it go on: the written
// file must make none but its own load. It returns the URLs so far.
func interceptRequests(t *testing.T, p *page) func() []string {
	t.Helper()
	var mu sync.Mutex
	var urls []string
	err := chromedp.Listen(p.ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			mu.Lock()
			urls = append(urls, e.Request.URL)
			mu.Unlock()
			go chromedp.Call(p.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: e.RequestID})
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(p.ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*"}}}); err != nil {
		t.Fatal(err)
	}
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(urls)
	}
}

// TestViewerFile opens the files masrl trace view writes (package
// trace/viewer) in Chromium: imported OpenTelemetry fixtures as a batch,
// an invalid trace, hostile text and a synthetic trace of 100,000 events.
// The lanes, edges and findings are checked through MasrlViewer.state and
// against the trace itself, the canvas through a screenshot, and the file
// makes no request.
func TestViewerFile(t *testing.T) {
	parallel(t)
	dir := t.TempDir()
	b := startBrowser(t, dir)

	// The imported fixtures: a batch of the traces of each, opened from
	// the list.
	for _, fixture := range []string{"genai.otlp.jsonl", "openinference.otlp.jsonl", "legacy.otlp.jsonl"} {
		t.Run(fixture, func(t *testing.T) {
			traces := importFixture(t, fixture)
			var texts [][]byte
			for _, tr := range traces {
				texts = append(texts, tr.JSON)
			}
			file := strings.TrimSuffix(fixture, ".otlp.jsonl") + ".html"
			writeView(t, dir, file, viewUnits(fixture, texts...))
			p := b.newPage(t)
			requests := interceptRequests(t, p)
			p.open(t, file)
			p.waitFor(t, fileReady)
			var rows int
			p.eval(t, `document.querySelectorAll("#masrl-viewer .mv-batch tbody tr").length`, &rows)
			if len(traces) > 1 && rows != len(traces) {
				t.Fatalf("the batch lists %d traces, want %d", rows, len(traces))
			}
			for k, tr := range traces {
				if len(traces) > 1 {
					var ok bool
					p.eval(t, `(() => { const r = document.getElementById("masrl-viewer"); r.dataset.ready = "";
					  document.querySelectorAll("#masrl-viewer .mv-open")[`+strconv.Itoa(k)+`].click(); return true; })()`, &ok)
					p.waitFor(t, fileReady)
				}
				st := p.viewerState(t)
				plain := readPlain(t, tr.JSON)
				where := fmt.Sprintf("%s trace %s", fixture, tr.ID)
				if st.Events != len(plain.Events) {
					t.Errorf("%s: %d events, want %d", where, st.Events, len(plain.Events))
				}
				checkLanes(t, where, st, plain)
				want := edgesInView(plain, st, st.Window[0], st.Window[1])
				if !maps.Equal(st.EdgesDrawn, want) {
					t.Errorf("%s: edges drawn %v, want %v", where, st.EdgesDrawn, want)
				}
				for _, ty := range []string{"spawn", "aggregate", "tool_dependency"} {
					if want[ty] == 0 && fixture == "genai.otlp.jsonl" && k == 0 {
						t.Errorf("%s: the fixture should have %s edges to draw: %v", where, ty, want)
					}
				}
				img := canvasShot(t, p, "viewer-"+strings.TrimSuffix(file, ".html")+"-"+strconv.Itoa(k))
				lanesBusy := map[int]bool{}
				for i, l := range st.Lanes {
					for _, e := range plain.Events {
						if e.Agent == l.Name {
							lanesBusy[i] = true
						}
					}
				}
				checkShot(t, where, img, st, func(l int) bool { return lanesBusy[l] })
				if len(traces) > 1 {
					var ok bool
					p.eval(t, `(() => { document.querySelector("#masrl-viewer .mv-back").click(); return true; })()`, &ok)
					p.waitFor(t, `!!document.querySelector("#masrl-viewer .mv-batch")`)
				}
			}
			if got := slices.DeleteFunc(requests(), func(u string) bool { return strings.HasPrefix(u, "data:") }); len(got) != 1 || !strings.HasSuffix(got[0], "/"+file) {
				t.Errorf("the file made requests besides its own load: %q", got)
			}
			p.check(t, file)
		})
	}

	t.Run("findings on their events", func(t *testing.T) {
		for _, name := range []string{"event-bad-type.json", "edge-dangling.json", "duplicate-event-id.json"} {
			src := schemaFile(t, "invalid/"+name)
			want := goResult(t, src)
			file := strings.TrimSuffix(name, ".json") + ".html"
			writeView(t, dir, file, viewUnits(name, src))
			p := b.newPage(t)
			p.open(t, file)
			p.waitFor(t, fileReady)
			st := p.viewerState(t)
			wantEvents := findingEvents(t, src, want)
			if len(wantEvents) == 0 || !slices.Equal(st.FindingsOnEvents, wantEvents) {
				t.Errorf("%s: findings placed on events %v, want %v (from %+v)", name, st.FindingsOnEvents, wantEvents, want.Findings)
			}
			var listed int
			p.eval(t, `document.querySelectorAll("#masrl-viewer .mv-findings li").length`, &listed)
			if listed != len(want.Findings) {
				t.Errorf("%s: %d findings listed, Go finds %d", name, listed, len(want.Findings))
			}
			// The finding's button selects its event and describes it
			// with its pointer.
			var details string
			p.eval(t, `(() => { document.querySelector("#masrl-viewer .mv-findings .mv-goto").click();
			  return document.querySelector("#masrl-viewer .mv-details").textContent; })()`, &details)
			if !strings.Contains(details, fmt.Sprintf("/events/%d", wantEvents[0])) {
				t.Errorf("%s: the finding's event is described as %q, want its pointer /events/%d", name, details, wantEvents[0])
			}
			p.check(t, name)
		}
	})

	t.Run("hostile text stays text", func(t *testing.T) {
		src := []byte(`{"trace_id": "</script><script>window.__hostile=1</script>", "task_id": "<!--",
		  "events": [{"id": "e1", "t": 0, "type": "orchestrator_decision", "agent": "</SCRIPT><img src=x onerror=window.__hostile=2>"},
		    {"id": "e2", "t": 1, "type": "spawn", "agent": "</SCRIPT><img src=x onerror=window.__hostile=2>", "to": "<b>bold</b>\u2028"}],
		  "edges": [{"src": "e1", "dst": "e2", "type": "causal"}], "rewards": {"<i>r</i>": 1}, "costs": {"tokens": 1, "wall_clock_s": 1}}`)
		writeView(t, dir, "hostile.html", viewUnits("<hostile>.json", src))
		p := b.newPage(t)
		p.open(t, "hostile.html")
		p.waitFor(t, fileReady)
		st := p.viewerState(t)
		if len(st.Lanes) != 2 || st.Lanes[0].Name != "</SCRIPT><img src=x onerror=window.__hostile=2>" || st.Lanes[1].Name != "<b>bold</b>\u2028" {
			t.Errorf("lanes %q, want the agents' names as text", st.laneNames())
		}
		var hostile struct {
			Flag any `json:"flag"`
			Tags int `json:"tags"`
		}
		p.eval(t, `({flag: window.__hostile === undefined ? null : window.__hostile,
		  tags: document.querySelectorAll("main img, main b, main i, body > script:not([id]) ~ script:not(#masrl-viewer-traces)").length})`, &hostile)
		if hostile.Flag != nil || hostile.Tags != 0 {
			t.Errorf("trace text became markup: flag %v, %d elements", hostile.Flag, hostile.Tags)
		}
		p.check(t, "hostile")
	})

	// A synthetic trace of 100,000 events: it opens, draws its dense lanes
	// as density with a note, draws edges once zoomed in, and answers the
	// keyboard.
	t.Run("100k events", func(t *testing.T) {
		var src bytes.Buffer
		if err := synth.WriteTrace(&src, synth.TraceOptions{Events: 100000, Seed: 1}); err != nil {
			t.Fatal(err)
		}
		writeView(t, dir, "synth100k.html", viewUnits("synth100k.json", src.Bytes()))
		p := b.newPage(t)
		requests := interceptRequests(t, p)
		p.open(t, "synth100k.html")
		p.waitFor(t, fileReady)
		st := p.viewerState(t)
		plain := readPlain(t, src.Bytes())
		if st.Events != 100000 {
			t.Errorf("%d events shown, want 100000", st.Events)
		}
		checkLanes(t, "100k", st, plain)
		if st.Dense == 0 || !strings.Contains(st.Note, "density") {
			t.Errorf("the whole 100k trace shows %d dense lanes with note %q, want the busiest drawn as density and said so", st.Dense, st.Note)
		}
		img := canvasShot(t, p, "viewer-synth100k")
		checkShot(t, "100k", img, st, func(l int) bool { return true })
		// Keyboard: focus the timeline, move to the first event, then
		// through the lane and zoom in until edges are drawn.
		if err := chromedp.Do(p.ctx, chromedp.Focus(chromedp.CSS("canvas.mv-canvas")), chromedp.KeyEvent(kb.Home)); err != nil {
			t.Fatal(err)
		}
		p.waitFor(t, `MasrlViewer.state().current === 0`)
		if err := chromedp.Do(p.ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
			t.Fatal(err)
		}
		p.waitFor(t, `MasrlViewer.state().current > 0`)
		for range 12 {
			if err := chromedp.Do(p.ctx, chromedp.KeyEvent("+")); err != nil {
				t.Fatal(err)
			}
		}
		p.waitFor(t, `MasrlViewer.state().settled && Object.keys(MasrlViewer.state().edgesDrawn).length > 0`)
		st = p.viewerState(t)
		if want := edgesInView(plain, st, st.Window[0], st.Window[1]); !maps.Equal(st.EdgesDrawn, want) {
			t.Errorf("zoomed in: edges drawn %v, want %v", st.EdgesDrawn, want)
		}
		var details string
		p.eval(t, `document.querySelector("#masrl-viewer .mv-details").textContent`, &details)
		if !strings.Contains(details, fmt.Sprintf("/events/%d", st.Current)) {
			t.Errorf("the current event %d is described as %q, without its pointer", st.Current, details)
		}
		if got := slices.DeleteFunc(requests(), func(u string) bool { return strings.HasPrefix(u, "data:") }); len(got) != 1 {
			t.Errorf("the file made requests besides its own load: %q", got)
		}
		p.check(t, "100k")
	})

	// A million events: the worker reads them while the page keeps
	// answering (a key is handled and a frame drawn before the worker is
	// done), then the trace opens whole, its busy lanes as density.
	t.Run("1M events stay responsive", func(t *testing.T) {
		const n = 1000000
		var src bytes.Buffer
		if err := synth.WriteTrace(&src, synth.TraceOptions{Events: n, Seed: 1}); err != nil {
			t.Fatal(err)
		}
		writeView(t, dir, "synth1m.html", viewUnits("synth1m.json", src.Bytes()))
		src = bytes.Buffer{}
		p := b.newPage(t)
		ctx, cancel := untilTestDeadline(t, p.ctx)
		defer cancel()
		if err := chromedp.Do(ctx, chromedp.Navigate(b.base+"synth1m.html")); err != nil {
			t.Fatal(err)
		}
		// Record, on the clock the worker reports its parse on, every key
		// the page handles and every frame it draws, and press keys until
		// the parse is over.
		var ok bool
		p.eval(t, `(() => { const now = () => performance.timeOrigin + performance.now();
		  window.__keys = []; window.__frames = [];
		  document.addEventListener("keydown", () => window.__keys.push(now()));
		  const tick = () => { window.__frames.push(now()); if (!document.getElementById("masrl-viewer").dataset.parseSpan) requestAnimationFrame(tick); };
		  requestAnimationFrame(tick); return true; })()`, &ok)
		for {
			if err := chromedp.Do(ctx, chromedp.KeyEvent("x")); err != nil {
				t.Fatal(err)
			}
			var done bool
			// The span is of the whole trace's parse, which follows the
			// first frame (drawn from the lite trace, trace/viewer/lite.go).
			p.eval(t, `!!document.getElementById("masrl-viewer").dataset.parseSpan`, &done)
			if done {
				break
			}
		}
		var seen struct {
			Keys, Frames []float64
			Span         string
		}
		p.eval(t, `({keys: window.__keys, frames: window.__frames, span: document.getElementById("masrl-viewer").dataset.parseSpan || ""})`, &seen)
		var from, to float64
		if _, err := fmt.Sscanf(seen.Span, "%f %f", &from, &to); err != nil {
			t.Fatalf("no parse span from the worker (%q): the trace was not parsed in a worker", seen.Span)
		}
		during := func(ts []float64) (k int) {
			for _, x := range ts {
				if x > from && x < to {
					k++
				}
			}
			return k
		}
		if during(seen.Keys) == 0 || during(seen.Frames) == 0 {
			t.Errorf("while the worker parsed the JSON (%.0f ms), the page handled %d of %d keys and drew %d of %d frames; want some of each",
				to-from, during(seen.Keys), len(seen.Keys), during(seen.Frames), len(seen.Frames))
		}
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fileReady, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
			t.Fatalf("the 1M trace never opened: %v", err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`!!MasrlViewer.state() && MasrlViewer.state().settled`, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
			t.Fatal(err)
		}
		var st struct {
			viewerState
			Worker bool `json:"worker"`
		}
		p.eval(t, `MasrlViewer.state()`, &st)
		if st.Events != n || !st.Worker {
			t.Errorf("%d events shown, read in a worker: %v; want %d, true", st.Events, st.Worker, n)
		}
		if st.Dense == 0 || !strings.Contains(st.Note, "density") {
			t.Errorf("the 1M trace shows %d dense lanes with note %q, want its busy lanes as density, said so", st.Dense, st.Note)
		}
		p.check(t, "1M")
	})

	t.Run("axe and dark mode", func(t *testing.T) {
		p := b.newPage(t)
		p.open(t, "edge-dangling.html")
		p.waitFor(t, fileReady)
		for _, scheme := range []string{"light", "dark"} {
			if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
				t.Fatal(err)
			}
			var bg string
			p.waitFor(t, `matchMedia("(prefers-color-scheme: `+scheme+`)").matches`)
			p.eval(t, `getComputedStyle(document.body).backgroundColor`, &bg)
			if (scheme == "dark") != (bg == "rgb(21, 24, 30)") {
				t.Errorf("%s: page background %s", scheme, bg)
			}
			checkAxe(t, p, "trace view file ("+scheme+")")
		}
		p.check(t, "axe")
	})
}

// TestViewerPage drives the viewer on the traces page: a picked OTLP file
// is imported by the WebAssembly module and listed, a trace opened from the
// list; a JSON Lines batch is listed and sorted; nothing is uploaded.
func TestViewerPage(t *testing.T) {
	parallel(t)
	dir := publicDir(t)
	_, err := os.Stat(filepath.Join(dir, "traces", "viewer", "viewer.js"))
	need(t, err == nil, "site built without the viewer: %v (run make site)", err)
	b := startBrowser(t, dir)
	p := b.newPage(t)
	p.open(t, "traces/")
	p.waitFor(t, `!!document.querySelector("#masrl-viewer .mv-drop")`)
	p.mu.Lock()
	before := maps.Clone(p.requests)
	p.mu.Unlock()
	// The viewer's script is loaded only once a file is chosen.
	var loaded bool
	p.eval(t, `typeof MasrlViewer !== "undefined"`, &loaded)
	for _, u := range before {
		loaded = loaded || strings.HasSuffix(u, "/viewer.js")
	}
	if loaded {
		t.Error("the traces page loaded the viewer before a file was chosen")
	}

	pick := func(t *testing.T, path string) {
		t.Helper()
		var ok bool
		p.eval(t, `(() => { const s = document.querySelector("#masrl-viewer .mv-stage"); s.dataset.ready = ""; return true; })()`, &ok)
		if err := chromedp.Do(p.ctx, chromedp.SetUploadFiles(chromedp.CSS("#masrl-viewer-file"), []string{path})); err != nil {
			t.Fatal(err)
		}
		p.waitFor(t, `document.querySelector("#masrl-viewer .mv-stage").dataset.ready === "true"`)
	}

	t.Run("OTLP picked", func(t *testing.T) {
		traces := importFixture(t, "genai.otlp.jsonl")
		pick(t, filepath.Join(repoRoot(t), "trace", "otlp", "testdata", "genai.otlp.jsonl"))
		var rows int
		p.eval(t, `document.querySelectorAll("#masrl-viewer .mv-batch tbody tr").length`, &rows)
		if rows != len(traces) {
			t.Fatalf("the page lists %d traces, the Go importer finds %d", rows, len(traces))
		}
		var ok bool
		p.eval(t, `(() => { const s = document.querySelector("#masrl-viewer .mv-stage"); s.dataset.ready = "";
		  document.querySelector("#masrl-viewer .mv-open").click(); return true; })()`, &ok)
		p.waitFor(t, `document.querySelector("#masrl-viewer .mv-stage").dataset.ready === "true"`)
		st := p.viewerState(t)
		plain := readPlain(t, traces[0].JSON)
		checkLanes(t, "page: "+traces[0].ID, st, plain)
		if want := edgesInView(plain, st, st.Window[0], st.Window[1]); !maps.Equal(st.EdgesDrawn, want) {
			t.Errorf("edges drawn %v, want %v", st.EdgesDrawn, want)
		}
		var checklist string
		p.eval(t, `document.querySelector("#masrl-viewer .mv-checklist").textContent`, &checklist)
		rep, err := trace.Measure(bytes.NewReader(traces[0].JSON))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(checklist, "events: "+strconv.Itoa(rep.Events)) || !strings.Contains(checklist, "tool_calls: "+strconv.Itoa(rep.ToolCalls)) {
			t.Errorf("the checklist %q does not show trace.Measure's events %d and tool calls %d", checklist, rep.Events, rep.ToolCalls)
		}
		p.check(t, "OTLP picked")
	})

	t.Run("JSON Lines batch sorted", func(t *testing.T) {
		var src bytes.Buffer
		if err := synth.WriteTraceLines(&src, synth.TraceLinesOptions{Traces: 6, Events: 40, Seed: 3}); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "batch.jsonl")
		if err := os.WriteFile(path, src.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		pick(t, path)
		var events []string
		p.eval(t, `(() => { document.querySelectorAll("#masrl-viewer .mv-batch thead button")[1].click();
		  document.querySelectorAll("#masrl-viewer .mv-batch thead button")[1].click();
		  return Array.from(document.querySelectorAll("#masrl-viewer .mv-batch tbody tr"), r => r.children[1].textContent); })()`, &events)
		var want []int
		for line := range bytes.SplitSeq(bytes.TrimSpace(src.Bytes()), []byte("\n")) {
			want = append(want, len(readPlain(t, line).Events))
		}
		slices.Sort(want)
		slices.Reverse(want)
		var got []int
		for _, e := range events {
			n, _ := strconv.Atoi(strings.ReplaceAll(e, ",", ""))
			got = append(got, n)
		}
		if !slices.Equal(got, want) {
			t.Errorf("sorted by events, descending: %v, want %v", got, want)
		}
		var sort string
		p.eval(t, `document.querySelectorAll("#masrl-viewer .mv-batch thead th")[1].getAttribute("aria-sort")`, &sort)
		if sort != "descending" {
			t.Errorf("aria-sort %q, want descending", sort)
		}
		p.check(t, "batch")
	})

	// The framework runs (trace/otlp/testdata/frameworks/runs, recorded
	// from the real SDKs by make otel-fixtures), dropped on the page as a
	// reader drops a file: the WebAssembly module imports each, and every
	// trace the viewer shows must agree with what the Go importer (the
	// library of masrl trace import) makes of the same file: the traces,
	// the import's diagnostics, each trace's lanes, its edges by type (all
	// of them, and those drawn), and the Go validator's findings on their
	// events.
	t.Run("framework runs dropped", func(t *testing.T) {
		runs, err := filepath.Glob(filepath.Join(repoRoot(t), "trace", "otlp", "testdata", "frameworks", "runs", "*.otlp.jsonl"))
		if err != nil || len(runs) < 4 {
			t.Fatalf("framework runs: %q, %v", runs, err)
		}
		edgeTypes := map[string]bool{}
		for _, path := range runs {
			name := filepath.Base(path)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			traces, diags := importOTLP(t, name, src)
			drop(t, p, name, src)
			var listed struct {
				Rows, Diagnostics int
			}
			p.eval(t, `({rows: document.querySelectorAll("#masrl-viewer .mv-batch tbody tr").length,
			  diagnostics: document.querySelectorAll("#masrl-viewer .mv-import-findings li").length})`, &listed)
			if len(traces) > 1 && listed.Rows != len(traces) {
				t.Fatalf("%s: the page lists %d traces, the Go importer makes %d", name, listed.Rows, len(traces))
			}
			if listed.Diagnostics != min(len(diags), 1000) {
				t.Errorf("%s: the page lists %d import diagnostics, the Go importer reports %d", name, listed.Diagnostics, len(diags))
			}
			for k, tr := range traces {
				where := fmt.Sprintf("%s trace %s", name, tr.ID)
				if len(traces) > 1 {
					var ok bool
					p.eval(t, `(() => { const s = document.querySelector("#masrl-viewer .mv-stage"); s.dataset.ready = "";
					  document.querySelectorAll("#masrl-viewer .mv-open")[`+strconv.Itoa(k)+`].click(); return true; })()`, &ok)
					p.waitFor(t, `document.querySelector("#masrl-viewer .mv-stage").dataset.ready === "true"`)
				}
				st := p.viewerState(t)
				plain := readPlain(t, tr.JSON)
				if st.Events != len(plain.Events) {
					t.Errorf("%s: %d events, the Go import has %d", where, st.Events, len(plain.Events))
				}
				checkLanes(t, where, st, plain)
				all := map[string]int{}
				for _, e := range plain.Edges {
					all[e.Type]++
					edgeTypes[e.Type] = true
				}
				if !maps.Equal(st.EdgeCount, all) {
					t.Errorf("%s: edges by type %v, the Go import has %v", where, st.EdgeCount, all)
				}
				if want := edgesInView(plain, st, st.Window[0], st.Window[1]); !maps.Equal(st.EdgesDrawn, want) {
					t.Errorf("%s: edges drawn %v, want %v", where, st.EdgesDrawn, want)
				}
				want := goResult(t, tr.JSON)
				if got := findingEvents(t, tr.JSON, want); !slices.Equal(st.FindingsOnEvents, got) {
					t.Errorf("%s: findings on events %v, the Go validator's are on %v", where, st.FindingsOnEvents, got)
				}
				var findings int
				p.eval(t, `document.querySelectorAll("#masrl-viewer .mv-findings li").length`, &findings)
				if findings != len(want.Findings) {
					t.Errorf("%s: %d findings listed, the Go validator finds %d", where, findings, len(want.Findings))
				}
				if len(traces) > 1 {
					var ok bool
					p.eval(t, `(() => { document.querySelector("#masrl-viewer .mv-back").click(); return true; })()`, &ok)
					p.waitFor(t, `!!document.querySelector("#masrl-viewer .mv-batch")`)
				}
			}
			p.check(t, name)
		}
		// The runs hold the orchestration the viewer must draw: spawns,
		// handoffs (messages), returns and tool dependencies.
		for _, ty := range []string{"spawn", "message", "return", "tool_dependency"} {
			if !edgeTypes[ty] {
				t.Errorf("no framework run has %s edges: %v", ty, edgeTypes)
			}
		}
	})

	// Reading, importing and checking the files fetched the module and
	// the viewer's script, loaded when the first file was chosen, and
	// nothing else: no upload, no request for the data.
	t.Run("nothing uploaded", func(t *testing.T) {
		p.mu.Lock()
		var extra []string
		for id, u := range p.requests {
			if _, ok := before[id]; !ok && !strings.HasSuffix(u, "/traces/validator/masrl.wasm") && !strings.HasSuffix(u, "/traces/viewer/viewer.js") && !strings.HasSuffix(u, "/favicon.svg") {
				extra = append(extra, u)
			}
		}
		p.mu.Unlock()
		if len(extra) > 0 {
			t.Errorf("viewing made requests beyond the WebAssembly module: %q", extra)
		}
	})

	t.Run("axe", func(t *testing.T) {
		var ok bool
		p.eval(t, `(() => { const b = document.querySelector("#masrl-viewer .mv-open"); if (b) b.click(); return true; })()`, &ok)
		p.waitFor(t, `!!MasrlViewer.state()`)
		checkAxe(t, p, "/traces/ with a trace in the viewer")
		p.check(t, "axe")
	})
}

// viewerTimingJS reads how long the written file took to open: from the
// start of navigation to the first frame drawn (readyAt), the parse of the
// embedded JSON, the model and first frame after it (openMs); then it
// presses "+" on the timeline and resolves with the time to the frame
// that shows the zoom.
const viewerTimingJS = `new Promise(resolve => {
  const root = document.getElementById("masrl-viewer");
  const canvas = root.querySelector("canvas.mv-canvas");
  const t0 = performance.now();
  canvas.dispatchEvent(new KeyboardEvent("keydown", {key: "+", bubbles: true}));
  requestAnimationFrame(() => requestAnimationFrame(() => resolve({
    ready: Number(root.dataset.readyAt), parse: Number(root.dataset.parseMs), open: Number(root.dataset.openMs), model: Number(root.dataset.modelMs),
    zoom: performance.now() - t0, events: MasrlViewer.state().events, draw: MasrlViewer.state().drawMs,
    response: performance.getEntriesByType("navigation")[0].responseEnd,
    dom: performance.getEntriesByType("navigation")[0].domInteractive,
    longest: Math.max(0, ...window.__longTasks)})));
})`

// longTasksJS records the duration of every long task of the page from
// its start (added before the page's own scripts run).
const longTasksJS = `window.__longTasks = [];
new PerformanceObserver(l => { for (const e of l.getEntries()) window.__longTasks.push(e.duration); }).observe({type: "longtask", buffered: true});`

// TestViewerOpenTime measures how long a file of masrl trace view takes to
// become interactive in Chromium, for synthetic traces (cmd/synth) of the
// sizes MASRL_VIEWER_EVENTS lists (default 100000), MASRL_VIEWER_RUNS
// times each (default 1), and logs the times; make bench-viewer runs it
// for BENCHMARKS.md. It asserts only that the trace opened whole: times
// depend on the machine's load. MASRL_VIEWER_COMPARE, a comma-separated
// list of files masrl trace view wrote, compares them instead
// (compareViewerFiles).
func TestViewerOpenTime(t *testing.T) {
	sizes := os.Getenv("MASRL_VIEWER_EVENTS")
	if sizes == "" {
		sizes = "100000"
	}
	runs := 1
	if r := os.Getenv("MASRL_VIEWER_RUNS"); r != "" {
		var err error
		if runs, err = strconv.Atoi(r); err != nil || runs < 1 {
			t.Fatalf("MASRL_VIEWER_RUNS: %q is not a count", r)
		}
	}
	dir := t.TempDir()
	b := startBrowser(t, dir)
	if files := os.Getenv("MASRL_VIEWER_COMPARE"); files != "" {
		compareViewerFiles(t, b, dir, strings.Split(files, ","), runs)
		return
	}
	for s := range strings.SplitSeq(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			t.Fatalf("MASRL_VIEWER_EVENTS: %q is not a size", s)
		}
		var src bytes.Buffer
		if err := synth.WriteTrace(&src, synth.TraceOptions{Events: n, Seed: 1}); err != nil {
			t.Fatal(err)
		}
		file := fmt.Sprintf("synth%d.html", n)
		writeView(t, dir, file, viewUnits(file, src.Bytes()))
		st, err := os.Stat(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		src = bytes.Buffer{}
		type timing struct {
			Ready, Parse, Open, Zoom float64
			Response, DOM, Draw      float64
			Model, Longest           float64
			Events                   int
		}
		var all []timing
		for range runs {
			p := b.newPage(t)
			// A reader's browser has no DevTools attached: without the
			// network domain chromedp enables, Chromium need not copy the
			// 20 MB response for the inspector. The harness' request
			// checks need it, so they are left to the other tests.
			for _, cmd := range []cdp.Command[cdp.Empty, cdp.Empty]{network.Disable} {
				if _, err := chromedp.Call(p.ctx, cmd, cdp.Empty{}); err != nil {
					t.Fatal(err)
				}
			}
			// The longest task tells how long the tab was unresponsive.
			if _, err := chromedp.Call(p.ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: longTasksJS}); err != nil {
				t.Fatal(err)
			}
			// A million events take longer than open and waitFor allow
			// under load.
			ctx, cancel := context.WithTimeout(p.ctx, 5*time.Minute)
			err := chromedp.Do(ctx, chromedp.Navigate(b.base+file))
			if err == nil {
				_, err = chromedp.Run(ctx, chromedp.Poll[bool](fileReady, chromedp.WithPollingInterval(50*time.Millisecond)))
			}
			cancel()
			if err != nil {
				t.Fatalf("%d events: waiting for the viewer: %v", n, err)
			}
			var tm timing
			p.eval(t, viewerTimingJS, &tm)
			if tm.Events != n {
				t.Errorf("%d events: the viewer shows %d", n, tm.Events)
			}
			all = append(all, tm)
			p.check(t, file)
			p.cancel()
		}
		slices.SortFunc(all, func(a, b timing) int { return int(a.Ready - b.Ready) })
		med := all[len(all)/2]
		t.Logf("%d events (%.1f MB file), median of %d: interactive %.0f ms after navigation start (file received at %.0f ms, parsed at %.0f ms; JSON.parse %.0f ms, model %.0f ms, model to first frame %.0f ms), zoom to the next frame %.1f ms (drawing %.1f ms), longest task %.0f ms",
			n, float64(st.Size())/1e6, runs, med.Ready, med.Response, med.DOM, med.Parse, med.Model, med.Open, med.Zoom, med.Draw, med.Longest)
	}
}

// compareViewerFiles opens files written by masrl trace view (by two
// builds of it, say) in turn, runs times each, at the same moment and so
// under the same load, and logs the median time to interactive of each:
// a change's effect, which timings taken minutes apart on a shared machine
// cannot show.
func compareViewerFiles(t *testing.T, b *browser, dir string, files []string, runs int) {
	t.Helper()
	ready := make([][]float64, len(files))
	for k, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("compare%d.html", k)), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for range runs {
		for k := range files {
			p := b.newPage(t)
			if _, err := chromedp.Call(p.ctx, network.Disable, cdp.Empty{}); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(p.ctx, 5*time.Minute)
			err := chromedp.Do(ctx, chromedp.Navigate(b.base+fmt.Sprintf("compare%d.html", k)))
			if err == nil {
				_, err = chromedp.Run(ctx, chromedp.Poll[bool](fileReady, chromedp.WithPollingInterval(50*time.Millisecond)))
			}
			cancel()
			if err != nil {
				t.Fatalf("%s: waiting for the viewer: %v", files[k], err)
			}
			var r float64
			p.eval(t, `Number(document.getElementById("masrl-viewer").dataset.readyAt)`, &r)
			var dbg string
			p.eval(t, `(globalThis.__dbg||[]).join(" ")`, &dbg)
			t.Logf("dbg %d %s ready %v", k, dbg, r)
			ready[k] = append(ready[k], r)
			p.cancel()
		}
	}
	for k, f := range files {
		slices.Sort(ready[k])
		t.Logf("%s: interactive %.0f ms after navigation start, median of %d (all: %v)", f, ready[k][len(ready[k])/2], runs, ready[k])
	}
}
