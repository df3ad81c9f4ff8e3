package viewer

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/masrl/masrl/trace"
)

func unit(t *testing.T, name string, b []byte) Unit {
	t.Helper()
	res, err := trace.Validate(bytes.NewReader(b), trace.Options{})
	return Unit{Name: name, JSON: b, Report: NewReport(res, err)}
}

func write(t *testing.T, p Page) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, p); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// island returns the text of the embedded data: what lies between the
// data script's start tag and the first end tag after it, as an HTML
// parser would cut it.
func island(t *testing.T, page string) string {
	t.Helper()
	return islandOf(t, page, "masrl-viewer-data")
}

// islandOf returns the text of the data island with the id; "" if there
// is none.
func islandOf(t *testing.T, page, id string) string {
	t.Helper()
	open := `<script type="application/json" id="` + id + `"`
	_, after, ok := strings.Cut(page, open)
	if !ok {
		if id == "masrl-viewer-data" {
			t.Fatal("no data island")
		}
		return ""
	}
	_, rest, ok := strings.Cut(after, ">")
	if !ok {
		t.Fatal("the data island's start tag is not closed")
	}
	j := -1
	for k := 0; k+len("</script") <= len(rest); k++ {
		if strings.EqualFold(rest[k:k+len("</script")], "</script") {
			j = k
			break
		}
	}
	if j < 0 {
		t.Fatal("the data island is not closed")
	}
	return rest[:j]
}

// TestScriptAndStyleAreInlinable: the files are inlined raw into <script>
// and <style>, so they must not hold what ends or confuses those
// elements.
func TestScriptAndStyleAreInlinable(t *testing.T) {
	for name, b := range map[string][]byte{"viewer.js": script, "viewer.css": style} {
		low := strings.ToLower(string(b))
		for _, bad := range []string{"</script", "</style", "<!--", "<script"} {
			if strings.Contains(low, bad) {
				t.Errorf("%s contains %q, which would change how the inlined copy is parsed", name, bad)
			}
		}
	}
}

// TestWriteEscapes: text of the trace that would end the script element,
// open a comment or break a JavaScript string stays inside the data island
// as escapes, and decodes back to the same strings.
func TestWriteEscapes(t *testing.T) {
	hostile := "</script><script>alert(1)</script><!-- </SCRIPT & \u2028\u2029"
	tr := map[string]any{
		"trace_id": hostile, "task_id": "k",
		"events":  []any{map[string]any{"id": "e1", "t": 0, "type": "message", "agent": hostile}},
		"edges":   []any{},
		"rewards": map[string]any{hostile: 1}, "costs": map[string]any{"tokens": 1, "wall_clock_s": 1},
	}
	b, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	page := write(t, Page{Title: hostile, Units: []Unit{unit(t, "<x>.json", b)}})
	data := island(t, page)
	whole := islandOf(t, page, "masrl-viewer-traces")
	for _, bad := range []string{"<", ">", "&", "\u2028", "\u2029"} {
		if strings.Contains(data, bad) || strings.Contains(whole, bad) {
			t.Errorf("a data island holds %q unescaped", bad)
		}
	}
	type traceJSON struct {
		TraceID string `json:"trace_id"`
		Events  []struct{ Agent string }
	}
	var got struct {
		Traces []struct {
			Name   string
			Report Report
			Lite   struct{ Names []string }
		}
	}
	if err := json.Unmarshal([]byte(data), &got); err != nil {
		t.Fatalf("the island is not JSON: %v", err)
	}
	var traces []traceJSON
	if err := json.Unmarshal([]byte(whole), &traces); err != nil {
		t.Fatalf("the island of the whole traces is not JSON: %v", err)
	}
	if len(got.Traces) != 1 || len(traces) != 1 || traces[0].TraceID != hostile || traces[0].Events[0].Agent != hostile ||
		len(got.Traces[0].Lite.Names) != 1 || got.Traces[0].Lite.Names[0] != hostile ||
		got.Traces[0].Name != "<x>.json" || got.Traces[0].Report.Stats == nil || got.Traces[0].Report.Stats.TraceID != hostile {
		t.Errorf("the islands decode to %+v and %+v", got, traces)
	}
	// Outside the islands the hostile text appears only escaped: in the
	// title, the heading and the static table.
	outside := strings.Replace(strings.Replace(page, data, "", 1), whole, "", 1)
	if n := strings.Count(strings.ToLower(outside), "<script"); n != 3 {
		t.Errorf("%d script elements, want the two data islands and the viewer", n)
	}
	if strings.Contains(outside, "<x>") || strings.Contains(outside, "alert(1)</script>") {
		t.Error("trace text reached the page as markup")
	}
	if !strings.Contains(outside, "&lt;/script&gt;&lt;script&gt;alert(1)") {
		t.Error("the static table does not show the agent as text")
	}
}

// TestPolicyAllowsOnlyTheInlinedFiles: the content security policy names
// the SHA-256 of exactly the inlined script and style.
func TestPolicyAllowsOnlyTheInlinedFiles(t *testing.T) {
	ex, err := os.ReadFile(filepath.Join("..", "testdata", "example.json"))
	if err != nil {
		t.Fatal(err)
	}
	page := write(t, Page{Title: "example", Units: []Unit{unit(t, "example.json", ex)}})
	sum := func(s string) string {
		h := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
	}
	js := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindStringSubmatch(page)
	css := regexp.MustCompile(`(?s)<style>(.*?)</style>`).FindStringSubmatch(page)
	if js == nil || css == nil {
		t.Fatal("no inlined script or style")
	}
	want := "default-src 'none'; script-src " + sum(js[1]) + "; style-src " + sum(css[1]) + "; img-src data: blob:; worker-src blob:"
	meta := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(page)
	if meta == nil || html.UnescapeString(meta[1]) != want {
		t.Errorf("the policy is %q, want exactly the inlined files: %s", meta, want)
	}
	if js[1] != string(script) || css[1] != string(style) {
		t.Error("the inlined script or style differs from the embedded file")
	}
}

// TestWriteDeterministic: the same traces give the same bytes.
func TestWriteDeterministic(t *testing.T) {
	ex, err := os.ReadFile(filepath.Join("..", "testdata", "example.json"))
	if err != nil {
		t.Fatal(err)
	}
	bad, err := os.ReadFile(filepath.Join("..", "testdata", "invalid", "edge-dangling.json"))
	if err != nil {
		t.Fatal(err)
	}
	p := Page{Title: "batch", Units: []Unit{unit(t, "a", ex), unit(t, "b", bad), unit(t, "c", []byte(`{"trace_id": `))},
		Checklist: []ChecklistItem{{Item: "Trace scale", Measures: []string{"events"}}}}
	first := write(t, p)
	for range 3 {
		if write(t, p) != first {
			t.Fatal("two writes of the same traces differ")
		}
	}
	// Text that is not JSON is embedded as null, with its findings.
	var got struct {
		Traces []struct {
			Trace  json.RawMessage
			Report Report
		}
	}
	if err := json.Unmarshal([]byte(island(t, first)), &got); err != nil {
		t.Fatal(err)
	}
	if string(got.Traces[2].Trace) != "null" || got.Traces[2].Report.Valid || len(got.Traces[2].Report.Findings) == 0 {
		t.Errorf("malformed trace embedded as %s with %+v", got.Traces[2].Trace, got.Traces[2].Report)
	}
}

// TestStaticRows: without JavaScript the file lists the first StaticRows
// events and says how many there are.
func TestStaticRows(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"trace_id":"big","task_id":"k","events":[`)
	n := StaticRows + 5
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"id":"e` + strconv.Itoa(i) + `","t":` + strconv.Itoa(i) + `,"type":"message","agent":"a","to":"b"}`)
	}
	b.WriteString(`],"edges":[],"rewards":{},"costs":{"tokens":1,"wall_clock_s":1}}`)
	page := write(t, Page{Title: "big", Units: []Unit{unit(t, "big.json", []byte(b.String()))}})
	if got := strings.Count(page, "<tr><th scope=\"row\"><code>/events/"); got != StaticRows {
		t.Errorf("%d static rows, want %d", got, StaticRows)
	}
	if !strings.Contains(page, "the first 1000 of 1005 events") {
		t.Error("the static table does not say it is cut")
	}
}

// FuzzWrite: any text, as a trace, gives a page whose data island is JSON
// with nothing of the text unescaped that could end the element.
func FuzzWrite(f *testing.F) {
	f.Add([]byte(`{"trace_id":"</script>","task_id":"k","events":[],"edges":[],"rewards":{},"costs":{"tokens":1,"wall_clock_s":1}}`))
	f.Add([]byte(`{"events":[{"agent":"<!--","t":1e400}]}`))
	f.Add([]byte("\xff<\u2028"))
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := trace.Validate(bytes.NewReader(b), trace.Options{})
		page := write(t, Page{Title: string(b), Units: []Unit{{Name: string(b), JSON: b, Report: NewReport(res, err)}}})
		data := island(t, page)
		whole := islandOf(t, page, "masrl-viewer-traces")
		if !utf8.ValidString(page) {
			t.Fatal("the page is not valid UTF-8")
		}
		for _, d := range []string{data, whole} {
			if strings.ContainsAny(d, "<>&") {
				i := strings.IndexAny(d, "<>&")
				t.Fatalf("an island holds markup characters: %q", d[max(0, i-100):min(len(d), i+50)])
			}
		}
		var v struct{ Traces []json.RawMessage }
		if err := json.Unmarshal([]byte(data), &v); err != nil || len(v.Traces) != 1 {
			t.Fatalf("the island is not the one trace's JSON: %v", err)
		}
		if whole != "" {
			var w []json.RawMessage
			if err := json.Unmarshal([]byte(whole), &w); err != nil || len(w) != 1 {
				t.Fatalf("the island of the whole traces is not the one trace's JSON: %v", err)
			}
		}
	})
}
