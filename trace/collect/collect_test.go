// trace serve listens on TCP, which js/wasm does not have: make test's
// WebAssembly run of ./trace/... would wait on these tests until its
// timeout.
//go:build !js

package collect

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/masrl/masrl/trace/otlp"
)

// otlpFixtures holds the span files of trace/otlp's tests.
const otlpFixtures = "../otlp/testdata"

// otlpBodies cuts a span fixture into the requests an exporter would
// post: the lines of OTLP/JSON, or the framed protobuf records.
func otlpBodies(t *testing.T, file string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var bodies [][]byte
	if strings.HasSuffix(file, ".jsonl") {
		for line := range bytes.Lines(data) {
			if len(bytes.TrimSpace(line)) > 0 {
				bodies = append(bodies, line)
			}
		}
		return bodies
	}
	for len(data) >= 4 {
		n := binary.BigEndian.Uint32(data)
		bodies = append(bodies, data[4:4+n])
		data = data[4+n:]
	}
	return bodies
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

func post(t *testing.T, url, contentType, encoding string, body []byte) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	if encoding != "" {
		req.Header.Set("Content-Encoding", encoding)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// importAll imports a span file whole as trace import --out does (the
// importer with its default options) and returns each trace by id.
func importAll(t *testing.T, file, name string) map[string][]byte {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	traces := map[string][]byte{}
	im := otlp.NewImporter(otlp.Options{Window: otlp.DefaultWindow}, func(tr *otlp.Trace) error {
		traces[tr.ID] = tr.JSON
		return nil
	}, func(otlp.Diagnostic) {})
	if err := im.Read(name, f); err != nil {
		t.Fatal(err)
	}
	if err := im.Close(); err != nil {
		t.Fatal(err)
	}
	return traces
}

// TestTraceServeWritesWhatImportWrites posts every framework fixture's
// spans to the receiver, one request per line or record, last first,
// plain and gzip-compressed, and compares each trace written with what
// trace import --out writes of the file (the importer over the whole
// file), byte for byte.
func TestTraceServeWritesWhatImportWrites(t *testing.T) {
	runs := filepath.Join(otlpFixtures, "frameworks", "runs")
	jsonl, _ := filepath.Glob(filepath.Join(runs, "*.otlp.jsonl"))
	binpb, _ := filepath.Glob(filepath.Join(runs, "*.otlp.binpb"))
	files := append(jsonl, binpb...)
	if len(jsonl) == 0 || len(binpb) == 0 {
		t.Fatalf("no span files in %s", runs)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			dir := t.TempDir()
			want := importAll(t, f, filepath.Join(dir, "import"))
			out := filepath.Join(dir, "serve")
			var log bytes.Buffer
			s, err := New(out, nil, &log)
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(http.HandlerFunc(s.receive))
			defer srv.Close()
			ct := "application/x-protobuf"
			if strings.HasSuffix(f, ".jsonl") {
				ct = "application/json"
			}
			bodies := otlpBodies(t, f)
			slices.Reverse(bodies)
			for i, b := range bodies {
				enc := ""
				if i%2 == 1 {
					enc, b = "gzip", gzipped(b)
				}
				resp, answer := post(t, srv.URL+"/v1/traces", ct, enc, b)
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("request %d: %s: %s", i+1, resp.Status, answer)
				}
				if resp.Header.Get("Content-Type") != ct {
					t.Errorf("request %d answered as %s", i+1, resp.Header.Get("Content-Type"))
				}
			}
			s.flush(time.Now().Add(time.Hour), false)
			if len(want) == 0 {
				t.Fatal("the importer imported nothing")
			}
			for id, wb := range want {
				gb, err := os.ReadFile(filepath.Join(out, id+".json"))
				if err != nil {
					t.Fatalf("%v\n%s", err, log.String())
				}
				if testing.Verbose() {
					t.Log(log.String())
				}
				if !bytes.Equal(gb, wb) {
					t.Errorf("%s.json differs from trace import's:\n%s\nwant:\n%s", id, gb, wb)
				}
			}
		})
	}
}

// zeros is an endless body of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestTraceServeRefuses answers what the receiver does not take: a body
// of 100 MB (413, plain or a gzip bomb) after which it goes on taking
// spans, a method other than POST (405), a content type or encoding it
// does not read (415), and spans it rejects (partial success).
func TestTraceServeRefuses(t *testing.T) {
	s, err := New(filepath.Join(t.TempDir(), "out"), nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(s.receive))
	defer srv.Close()
	url := srv.URL + "/v1/traces"
	body := otlpBodies(t, filepath.Join(otlpFixtures, "frameworks", "runs", "langgraph.otlp.jsonl"))[0]

	req, _ := http.NewRequest(http.MethodPost, url, io.LimitReader(zeros{}, 100<<20))
	req.ContentLength = 100 << 20
	req.Header.Set("Content-Type", "application/x-protobuf")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("100 MB body: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("100 MB body: %s, want 413", resp.Status)
	}
	var bomb bytes.Buffer
	zw := gzip.NewWriter(&bomb)
	io.Copy(zw, io.LimitReader(zeros{}, 100<<20))
	zw.Close()
	if resp, _ := post(t, url, "application/json", "gzip", bomb.Bytes()); resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("gzip body of 100 MB: %s, want 413", resp.Status)
	}
	if resp, answer := post(t, url, "application/json", "", body); resp.StatusCode != http.StatusOK || string(answer) != "{}" {
		t.Errorf("spans after the 413s: %s %s", resp.Status, answer)
	}

	for _, method := range []string{http.MethodGet, http.MethodPut} {
		req, _ := http.NewRequest(method, url, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" {
			t.Errorf("%s: %s, Allow %q; want 405, Allow POST", method, resp.Status, resp.Header.Get("Allow"))
		}
	}
	for _, tc := range []struct{ ct, enc string }{{"text/plain", ""}, {"", ""}, {"application/json", "br"}} {
		if resp, _ := post(t, url, tc.ct, tc.enc, body); resp.StatusCode != http.StatusUnsupportedMediaType {
			t.Errorf("Content-Type %q, Content-Encoding %q: %s, want 415", tc.ct, tc.enc, resp.Status)
		}
	}

	// A span with a 3-byte trace id is rejected, the others are taken.
	bad := bytes.Replace(body, []byte(`"traceId":"16a90000000000000000000000000001"`), []byte(`"traceId":"16a900"`), 1)
	resp, answer := post(t, url, "application/json", "", bad)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(answer), `"partialSuccess":{"errorMessage":`) || !strings.Contains(string(answer), `"rejectedSpans":"1"`) {
		t.Errorf("a rejected span: %s %s", resp.Status, answer)
	}
	if resp, answer := post(t, url, "application/json", "", []byte("{not json")); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("malformed JSON: %s %s", resp.Status, answer)
	}
}

// TestTraceServePage follows the page's stream of events while a trace
// arrives: the list, its JSON and the trace's viewer page show it, and the
// stream says the list changed (the page then redraws without a reload).
func TestTraceServePage(t *testing.T) {
	s, err := New(filepath.Join(t.TempDir(), "out"), nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	page := httptest.NewServer(s.pageHandler())
	defer page.Close()
	otlpSrv := httptest.NewServer(http.HandlerFunc(s.receive))
	defer otlpSrv.Close()
	events, err := http.Get(page.URL + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer events.Body.Close()
	lines := bufio.NewReader(events.Body)
	event := func() string {
		var ev strings.Builder
		for {
			line, err := lines.ReadString('\n')
			if err != nil {
				t.Fatalf("events: %v", err)
			}
			if line == "\n" {
				return ev.String()
			}
			ev.WriteString(line)
		}
	}
	if got := event(); got != "event: version\ndata: 0\n" {
		t.Fatalf("first event %q", got)
	}
	get := func(path, want string) *http.Response {
		t.Helper()
		resp, err := http.Get(page.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), want) {
			t.Errorf("GET %s: %s, no %q in\n%.400s", path, resp.Status, want, b)
		}
		return resp
	}
	get("/traces.json", "[]")
	for _, b := range otlpBodies(t, filepath.Join(otlpFixtures, "frameworks", "runs", "langgraph.otlp.binpb")) {
		if resp, answer := post(t, otlpSrv.URL+"/v1/traces", "application/x-protobuf", "", b); resp.StatusCode != http.StatusOK {
			t.Fatalf("%s %s", resp.Status, answer)
		}
	}
	s.flush(time.Now().Add(time.Hour), false)
	if got := event(); got != "event: version\ndata: 1\n" {
		t.Fatalf("event after a trace %q", got)
	}
	const id = "16a90000000000000000000000000001"
	get("/", `<a href="/trace/`+id+`">`+id+`</a>`)
	get("/traces.json", `"id":"`+id+`"`)
	if resp := get("/trace/"+id, `<html`); resp.Header.Get("Content-Security-Policy") == "" {
		t.Error("the viewer page is served without its Content-Security-Policy")
	}
	if resp, _ := post(t, page.URL+"/", "text/plain", "", nil); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /: %s, want 405", resp.Status)
	}
	resp, err := http.Get(page.URL + "/trace/nope")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown trace: %s, want 404", resp.Status)
	}
}

// TestTraceServeOutDir refuses a DIR that holds files trace serve did
// not write, and takes its own again.
func TestTraceServeOutDir(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)
	if _, err := New(dir, nil, io.Discard); err == nil || !strings.Contains(err.Error(), "did not write") {
		t.Errorf("a foreign directory: %v", err)
	}
	own := filepath.Join(t.TempDir(), "out")
	for range 2 {
		if _, err := New(own, nil, io.Discard); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTraceServeWaitsForRoot writes a trace once its root span arrived
// and, at the end, one whose root never came; span text reaches the page
// escaped; a rejected span is answered in protobuf as in JSON.
func TestTraceServeWaitsForRoot(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	s, err := New(out, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(s.receive))
	defer srv.Close()
	page := httptest.NewServer(s.pageHandler())
	defer page.Close()
	bodies := otlpBodies(t, filepath.Join(otlpFixtures, "frameworks", "runs", "langgraph.otlp.jsonl"))
	const id = "16a90000000000000000000000000001"
	file := filepath.Join(out, id+".json")
	// Every span but the root's, whose name is markup.
	last := bytes.Replace(bodies[len(bodies)-1], []byte(`"name":"newsroom"`), []byte(`"name":"<img src=x onerror=alert(1)>"`), 1)
	if bytes.Equal(last, bodies[len(bodies)-1]) {
		t.Fatal("the fixture's root span is not named newsroom")
	}
	for _, b := range bodies[:len(bodies)-1] {
		post(t, srv.URL+"/v1/traces", "application/json", "", b)
	}
	s.flush(time.Now().Add(time.Hour), false)
	if _, err := os.Stat(file); err == nil {
		t.Fatal("a trace was written before its root span arrived")
	}
	post(t, srv.URL+"/v1/traces", "application/json", "", last)
	s.flush(time.Now().Add(time.Hour), false)
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("the trace is not written once its root arrived: %v", err)
	}
	resp, err := http.Get(page.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	html, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if bytes.Contains(html, []byte("<img")) || !bytes.Contains(html, []byte("&lt;img src=x onerror=alert(1)&gt;")) {
		t.Errorf("the span's name is not escaped on the page:\n%s", html)
	}

	// A trace without its root is written at the end only.
	other := bytes.ReplaceAll(bodies[0], []byte(id), []byte("16a90000000000000000000000000002"))
	post(t, srv.URL+"/v1/traces", "application/json", "", other)
	rootless := filepath.Join(out, "16a90000000000000000000000000002.json")
	s.flush(time.Now().Add(time.Hour), false)
	if _, err := os.Stat(rootless); err == nil {
		t.Fatal("a rootless trace was written before the end")
	}
	s.flush(time.Now(), true)
	if _, err := os.Stat(rootless); err != nil {
		t.Fatalf("a rootless trace is not written at the end: %v", err)
	}

	// The protobuf answer: ExportTraceServiceResponse.partial_success
	// (1) holding rejected_spans (1) and error_message (2).
	rec := httptest.NewRecorder()
	writeExportResponse(rec, otlp.FormatProtoBody, http.StatusOK, 2, "why")
	want := []byte{0x0a, 7, 0x08, 2, 0x12, 3, 'w', 'h', 'y'}
	if got := rec.Body.Bytes(); !bytes.Equal(got, want) || rec.Header().Get("Content-Type") != "application/x-protobuf" {
		t.Errorf("protobuf partial success: % x (%s), want % x", got, rec.Header().Get("Content-Type"), want)
	}
}
