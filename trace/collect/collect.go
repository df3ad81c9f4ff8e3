// Package collect is the server of masrl trace serve: an OTLP/HTTP
// receiver (POST /v1/traces, protobuf or JSON, perhaps gzip-compressed)
// that assembles the spans any framework exports into orchestration
// traces, as trace import does from a file of them, writes each to a
// directory, and serves a page that lists them and updates as they
// arrive. The command (cmd/masrl) holds only its flags and listeners.
package collect

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/masrl/masrl/internal/atomicfile"
	"html/template"
	"io"
	"math"
	"mime"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/masrl/masrl/internal/diag"
	"github.com/masrl/masrl/internal/sse"
	"github.com/masrl/masrl/trace"
	"github.com/masrl/masrl/trace/otlp"
	"github.com/masrl/masrl/trace/viewer"
)

// maxOTLPBody is the largest request body, decompressed, the receiver
// reads: the importer's default limit of a protobuf request. A larger
// body is answered 413 without being read further.
const maxOTLPBody = 64 << 20

// serveDirMark is the file trace serve leaves in a DIR it made, so that
// it writes again into its own directory and never into a foreign one.
const serveDirMark = ".masrl-trace-serve"

// Server holds the requests received and the traces written.
type Server struct {
	dir       string
	log       io.Writer              // a line per trace written or failed
	checklist []viewer.ChecklistItem // the viewer pages' reporting checklist
	quit      chan struct{}
	list      *template.Template // listPage

	mu      sync.Mutex
	reqs    []otlpRequest            // every accepted request, in arrival order
	pending map[string]*pendingTrace // by trace id
	traces  []*servedTrace           // in the order first written
	byID    map[string]*servedTrace
	version int
	changed chan struct{} // closed and replaced at every change
}

// otlpRequest is one accepted request body, decompressed.
type otlpRequest struct {
	body   []byte
	format otlp.Format
}

// pendingTrace is a trace whose spans are in reqs.
type pendingTrace struct {
	reqs  []int     // indexes into Server.reqs
	last  time.Time // when its last span arrived
	dirty bool      // spans arrived since it was last written
	// rooted says that its root span arrived: an exporter sends a span
	// when it ends, so the trace is complete once no span came for
	// --idle after.
	rooted bool
}

// servedTrace is a trace written to DIR, as the page shows it.
type servedTrace struct {
	ID       string   `json:"id"`
	Task     string   `json:"task"`
	Spans    int      `json:"spans"`
	Valid    bool     `json:"valid"`
	Errors   int      `json:"errors"`
	Warnings int      `json:"warnings"`
	Findings []string `json:"findings"`
	page     []byte   // the viewer's page of the trace
}

// New prepares dir: made when missing, taken when empty or made by
// trace serve before, refused otherwise. Each trace's viewer page shows
// checklist (the command passes site.TraceChecklist: a trace package
// knows nothing of the site); log gets a line per trace written.
func New(dir string, checklist []viewer.ChecklistItem, log io.Writer) (*Server, error) {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, err
	case len(entries) > 0 && !slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.Name() == serveDirMark }):
		return nil, fmt.Errorf("--out %s holds files trace serve did not write: name a new or empty directory", dir)
	}
	if err := os.WriteFile(filepath.Join(dir, serveDirMark), []byte("traces written by masrl trace serve\n"), 0o644); err != nil {
		return nil, err
	}
	list, err := template.New("list").Parse(listPage)
	if err != nil {
		return nil, err
	}
	return &Server{dir: dir, log: log, checklist: checklist, quit: make(chan struct{}), list: list, pending: map[string]*pendingTrace{}, byID: map[string]*servedTrace{}, changed: make(chan struct{})}, nil
}

// Run serves the OTLP endpoint on otlpLn and the page on pageLn until
// ctx is done or a listener fails, writing each trace once its root span
// arrived and no span of it came for idle; at the end it writes every
// trace with spans not yet written, so that what arrived is kept. Both
// listeners are closed when it returns; a Server runs once.
func (s *Server) Run(ctx context.Context, otlpLn, pageLn net.Listener, idle time.Duration) error {
	osrv := &http.Server{Handler: http.HandlerFunc(s.receive), ReadHeaderTimeout: 10 * time.Second}
	psrv := &http.Server{Handler: s.pageHandler(), ReadHeaderTimeout: 10 * time.Second}
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for _, p := range []struct {
		srv *http.Server
		ln  net.Listener
	}{{osrv, otlpLn}, {psrv, pageLn}} {
		wg.Go(func() {
			if err := p.srv.Serve(p.ln); !errors.Is(err, http.ErrServerClosed) {
				errs <- err
			}
		})
	}
	tick := time.NewTicker(max(idle/4, 10*time.Millisecond))
	defer tick.Stop()
	var failed error
loop:
	for {
		select {
		case now := <-tick.C:
			s.flush(now.Add(-idle), false)
		case failed = <-errs:
			break loop
		case <-ctx.Done():
			break loop
		}
	}
	close(s.quit)
	osrv.Close()
	psrv.Close()
	wg.Wait()
	s.flush(time.Now(), true) // what arrived is written
	return failed
}

// receive is POST /v1/traces: an ExportTraceServiceRequest in protobuf or
// JSON, perhaps gzip-compressed, answered with an
// ExportTraceServiceResponse in the same encoding, with partial_success
// when spans were rejected.
func (s *Server) receive(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/traces" {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST an ExportTraceServiceRequest to /v1/traces", http.StatusMethodNotAllowed)
		return
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var format otlp.Format
	switch mt {
	case "application/x-protobuf":
		format = otlp.FormatProtoBody
	case "application/json":
		format = otlp.FormatJSON
	default:
		http.Error(w, fmt.Sprintf("Content-Type %q: want application/x-protobuf or application/json", mt), http.StatusUnsupportedMediaType)
		return
	}
	var body io.Reader = http.MaxBytesReader(w, r.Body, maxOTLPBody)
	switch enc := strings.ToLower(r.Header.Get("Content-Encoding")); enc {
	case "", "identity":
	case "gzip":
		gz, err := gzip.NewReader(body)
		if err != nil {
			s.answerError(w, format, http.StatusBadRequest, "the body is not gzip: "+err.Error())
			return
		}
		body = gz
	default:
		http.Error(w, fmt.Sprintf("Content-Encoding %q: want gzip or none", enc), http.StatusUnsupportedMediaType)
		return
	}
	data, err := io.ReadAll(io.LimitReader(body, maxOTLPBody+1))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig) || len(data) > maxOTLPBody:
		s.answerError(w, format, http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is larger than %s (decompressed)", trace.FormatSize(maxOTLPBody)))
		return
	case err != nil:
		s.answerError(w, format, http.StatusBadRequest, "reading the body: "+err.Error())
		return
	}
	rejected, diags := scanRequest(data, format)
	spans, err := requestSpans(data, format)
	if err != nil || len(spans) == 0 && rejected > 0 {
		if err != nil {
			diags = append(diags, err.Error())
		}
		s.answerError(w, format, http.StatusBadRequest, strings.Join(diags, "; "))
		return
	}
	if len(spans) > 0 {
		s.mu.Lock()
		s.reqs = append(s.reqs, otlpRequest{body: data, format: format})
		now := time.Now()
		for _, sp := range spans {
			p := s.pending[sp.trace]
			if p == nil {
				p = &pendingTrace{}
				s.pending[sp.trace] = p
			}
			if k, n := len(s.reqs)-1, len(p.reqs); n == 0 || p.reqs[n-1] != k {
				p.reqs = append(p.reqs, k)
			}
			p.last, p.dirty = now, true
			p.rooted = p.rooted || sp.root
		}
		s.mu.Unlock()
	}
	msg := ""
	if rejected > 0 {
		msg = strings.Join(diags, "; ")
	}
	writeExportResponse(w, format, http.StatusOK, int64(rejected), msg)
}

// answerError answers a request that could not be taken: the status, and
// an ExportTraceServiceResponse saying why.
func (s *Server) answerError(w http.ResponseWriter, format otlp.Format, status int, msg string) {
	writeExportResponse(w, format, status, 0, msg)
}

// scanRequest imports one request alone to count the spans the importer
// rejects (its error diagnostics) and say why.
func scanRequest(data []byte, format otlp.Format) (rejected int, diags []string) {
	im := otlp.NewImporter(otlp.Options{Format: format, Window: math.MaxInt32, Workers: 1}, func(*otlp.Trace) error { return nil }, func(d otlp.Diagnostic) {
		if d.Severity == otlp.Error {
			diags = append(diags, d.String())
		}
	})
	if err := im.Read("request", bytes.NewReader(data)); err != nil {
		return 1, []string{err.Error()}
	}
	if err := im.Close(); err != nil {
		return 1, []string{err.Error()}
	}
	return im.Errors(), diags
}

// spanKey is what the receiver keeps of a span: its trace, and whether it
// is a root (no parent), whose end completes the trace.
type spanKey struct {
	trace string
	root  bool
}

// requestSpans lists the spans of a request body with a valid trace id
// (32 hex digits, or 16 bytes in base64 as a plain protobuf-JSON encoder
// writes them); the importer reports the others.
func requestSpans(data []byte, format otlp.Format) ([]spanKey, error) {
	var keys []spanKey
	if format == otlp.FormatProtoBody {
		var td tracepb.TracesData // ExportTraceServiceRequest on the wire
		if err := proto.Unmarshal(data, &td); err != nil {
			return nil, fmt.Errorf("the body is not an ExportTraceServiceRequest: %w", err)
		}
		for _, rs := range td.GetResourceSpans() {
			for _, ss := range rs.GetScopeSpans() {
				for _, sp := range ss.GetSpans() {
					if id := sp.GetTraceId(); len(id) == 16 {
						keys = append(keys, spanKey{trace: hex.EncodeToString(id), root: len(sp.GetParentSpanId()) == 0})
					}
				}
			}
		}
		return keys, nil
	}
	var req struct {
		ResourceSpans []struct {
			ScopeSpans []struct {
				Spans []struct {
					TraceID      string `json:"traceId"`
					ParentSpanID string `json:"parentSpanId"`
				} `json:"spans"`
			} `json:"scopeSpans"`
		} `json:"resourceSpans"`
	}
	if err := json.Unmarshal(data, &req); err != nil {
		return nil, fmt.Errorf("the body is not OTLP/JSON: %w", err)
	}
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			for _, sp := range ss.Spans {
				id := strings.ToLower(sp.TraceID)
				if otlp.ParseTraceID(id) != nil {
					b, err := base64.StdEncoding.DecodeString(sp.TraceID)
					if err != nil || len(b) != 16 {
						continue
					}
					id = hex.EncodeToString(b)
				}
				keys = append(keys, spanKey{trace: id, root: sp.ParentSpanID == ""})
			}
		}
	}
	return keys, nil
}

// writeExportResponse writes an ExportTraceServiceResponse in the
// request's encoding; partial_success is set when msg or rejected is.
func writeExportResponse(w http.ResponseWriter, format otlp.Format, status int, rejected int64, msg string) {
	if format == otlp.FormatJSON {
		resp := map[string]any{}
		if rejected > 0 || msg != "" {
			ps := map[string]any{}
			if rejected > 0 {
				ps["rejectedSpans"] = strconv.FormatInt(rejected, 10)
			}
			if msg != "" {
				ps["errorMessage"] = msg
			}
			resp["partialSuccess"] = ps
		}
		b, _ := json.Marshal(resp)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(b)
		return
	}
	var b []byte
	if rejected > 0 || msg != "" {
		var ps []byte
		if rejected > 0 {
			ps = protowire.AppendTag(ps, 1, protowire.VarintType)
			ps = protowire.AppendVarint(ps, uint64(rejected))
		}
		if msg != "" {
			ps = protowire.AppendTag(ps, 2, protowire.BytesType)
			ps = protowire.AppendString(ps, strings.ToValidUTF8(msg, "\uFFFD"))
		}
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, ps)
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.WriteHeader(status)
	w.Write(b)
}

// flush writes every trace whose root arrived, that has new spans, and
// none since before; all with new spans when all is set (at the end).
func (s *Server) flush(before time.Time, all bool) {
	s.mu.Lock()
	var due []string
	for id, p := range s.pending {
		if p.dirty && (all || p.rooted && !p.last.After(before)) {
			due = append(due, id)
		}
	}
	slices.Sort(due)
	type job struct {
		id   string
		reqs []otlpRequest
	}
	jobs := make([]job, len(due))
	for i, id := range due {
		p := s.pending[id]
		p.dirty = false
		jobs[i].id = id
		for _, k := range p.reqs {
			jobs[i].reqs = append(jobs[i].reqs, s.reqs[k])
		}
	}
	s.mu.Unlock()
	for _, j := range jobs {
		if err := s.write(j.id, j.reqs); err != nil {
			fmt.Fprintf(s.log, "masrl trace serve: trace %s: %v\n", j.id, err)
		}
	}
}

// write imports the trace id from the requests that hold its spans, as
// trace import would from a file of them, writes it to DIR and updates
// the page.
func (s *Server) write(id string, reqs []otlpRequest) error {
	if err := otlp.ParseTraceID(id); err != nil {
		return err
	}
	var got *otlp.Trace
	im := otlp.NewImporter(otlp.Options{Window: math.MaxInt32}, func(t *otlp.Trace) error {
		if t.ID == id {
			got = t
		}
		return nil
	}, func(otlp.Diagnostic) {})
	for i, r := range reqs {
		if err := im.Read(fmt.Sprintf("request %d", i+1), bytes.NewReader(r.body)); err != nil {
			return err
		}
	}
	if err := im.Close(); err != nil {
		return err
	}
	if got == nil {
		return errors.New("no trace imported")
	}
	if err := atomicfile.Write(s.dir, id+".json", got.JSON); err != nil {
		return err
	}
	units, err := viewer.Read(bytes.NewReader(got.JSON), id+".json", false, trace.Options{}, trace.Limits{})
	if err != nil {
		return err
	}
	var page bytes.Buffer
	if err := viewer.Write(&page, viewer.Page{Title: id, Units: units, Checklist: s.checklist}); err != nil {
		return err
	}
	st := &servedTrace{ID: id, Spans: got.Spans, Valid: true, Findings: []string{}, page: page.Bytes()}
	for _, u := range units {
		st.Valid = st.Valid && u.Report.Valid
		st.Errors += u.Report.Errors
		st.Warnings += u.Report.Warnings
		for _, f := range u.Report.Findings {
			st.Findings = append(st.Findings, f.String())
		}
	}
	var head struct {
		Task string `json:"task_id"`
	}
	json.Unmarshal(got.JSON, &head)
	st.Task = head.Task
	s.mu.Lock()
	if old, ok := s.byID[id]; ok {
		*old = *st
	} else {
		s.byID[id] = st
		s.traces = append(s.traces, st)
	}
	s.version++
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
	fmt.Fprintf(s.log, "masrl trace serve: wrote %s (%s, %s, %s)\n", filepath.Join(s.dir, id+".json"), diag.Count(got.Spans, "span"), diag.Count(st.Errors, "error"), diag.Count(st.Warnings, "warning"))
	return nil
}

// pageHandler serves the list of traces (/), each trace's viewer page
// (/trace/ID), the list as JSON (/traces.json) and its changes as
// Server-Sent Events (/events).
func (s *Server) pageHandler() http.Handler {
	mux := http.NewServeMux()
	get := func(h http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet && r.Method != http.MethodHead {
				w.Header().Set("Allow", "GET, HEAD")
				http.Error(w, "GET or HEAD only", http.StatusMethodNotAllowed)
				return
			}
			h(w, r)
		}
	}
	mux.HandleFunc("/{$}", get(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		rows := slices.Clone(s.traces)
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'")
		s.list.Execute(w, rows)
	}))
	mux.HandleFunc("/list.js", get(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		io.WriteString(w, listScript)
	}))
	mux.HandleFunc("/traces.json", get(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		b, _ := json.Marshal(append([]*servedTrace{}, s.traces...)) // [] before the first
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(b)
	}))
	mux.HandleFunc("/trace/{id}", get(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		st := s.byID[r.PathValue("id")]
		var page []byte
		if st != nil {
			page = st.page
		}
		s.mu.Unlock()
		if page == nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", viewer.Policy())
		w.Write(page)
	}))
	mux.HandleFunc("/events", get(s.serveEvents))
	return mux
}

// serveEvents streams the list's version, as masrl serve's live reload
// does (internal/sse): at once, then after every trace written; the page
// fetches /traces.json when it changes.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	sse.StreamVersions(w, r, s.quit, func() (int, <-chan struct{}) {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.version, s.changed
	})
}

// listPage is the list of traces; html/template escapes what the spans
// said. It is parsed by New, so the package holds no template.
const listPage = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>masrl trace serve</title></head>
<body><h1>Traces received</h1>
<p>Point an OpenTelemetry exporter at this server's OTLP endpoint; each trace appears here once written.</p>
<ul id="traces">{{range .}}<li data-id="{{.ID}}"><a href="/trace/{{.ID}}">{{.ID}}</a> {{.Task}}: {{.Spans}} spans, {{.Errors}} errors, {{.Warnings}} warnings{{range .Findings}}<br><code>{{.}}</code>{{end}}</li>{{end}}</ul>
<script src="/list.js"></script>
</body></html>
`

// listScript redraws the list from /traces.json whenever the server's
// version changes, with text nodes only.
const listScript = `(() => {
  const list = document.getElementById("traces");
  const draw = (traces) => {
    list.replaceChildren(...traces.map((t) => {
      const li = document.createElement("li");
      li.dataset.id = t.id;
      const a = document.createElement("a");
      a.href = "/trace/" + encodeURIComponent(t.id);
      a.textContent = t.id;
      li.append(a, " " + t.task + ": " + t.spans + " spans, " + t.errors + " errors, " + t.warnings + " warnings");
      for (const f of t.findings) {
        const c = document.createElement("code");
        c.textContent = f;
        li.append(document.createElement("br"), c);
      }
      return li;
    }));
  };
  const events = new EventSource("/events");
  events.addEventListener("version", () => {
    fetch("/traces.json").then((r) => r.json()).then(draw);
  });
  addEventListener("pagehide", () => events.close());
})();
`
