package trace

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/masrl/masrl/internal/golden"
)

// runReport runs ValidateFiles over names in format and returns the
// report, the log and the tally.
func runReport(t *testing.T, format string, jsonl bool, names ...string) (report, log string, tally Tally) {
	t.Helper()
	var out, logb bytes.Buffer
	tally, err := ValidateFiles(context.Background(), names, OSBatchInput(), ValidateOptions{
		BatchOptions: BatchOptions{Check: Options{FindingsOnly: true}, JSONLines: jsonl},
		Format:       format, Out: &out, Log: &logb, Command: "trace validate",
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), logb.String(), tally
}

// TestValidateFilesJSON: the JSON report holds one entry per trace with
// each finding's pointer, rule, severity and position in the file.
func TestValidateFilesJSON(t *testing.T) {
	report, _, tally := runReport(t, "json", false, filepath.Join("testdata", "invalid", "edge-dangling.json"))
	var rep struct {
		Valid bool
		Files []struct {
			File     string
			Findings []struct {
				Pointer, Rule, Severity string
				Line, Col               int
			}
		}
	}
	if err := json.Unmarshal([]byte(report), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Valid || len(rep.Files) != 1 || len(rep.Files[0].Findings) != 1 {
		t.Fatalf("report %+v", rep)
	}
	f := rep.Files[0].Findings[0]
	if f.Pointer != "/edges/0/dst" || f.Rule != "edge-ref" || f.Severity != "error" || f.Line != 1 {
		t.Errorf("finding %+v", f)
	}
	if tally.Traces != 1 || tally.Errors != 1 || tally.Lines {
		t.Errorf("tally %+v", tally)
	}
}

// TestValidateFilesLines: a finding of a JSON Lines trace is placed at
// the file's line and names the trace's id, in the text and the github
// formats alike; the summary counts traces, and an unreadable input is
// said on the log and counted apart from findings.
func TestValidateFilesLines(t *testing.T) {
	ex, err := os.ReadFile(filepath.Join("testdata", "example.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c bytes.Buffer
	if err := json.Compact(&c, ex); err != nil {
		t.Fatal(err)
	}
	one := c.String()
	bad := strings.Replace(one, `"type":"spawn"`, `"type":"spwan"`, 1)
	batch := filepath.Join(t.TempDir(), "runs.jsonl")
	if err := os.WriteFile(batch, []byte(one+"\n"+bad+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "missing.json")
	text, log, tally := runReport(t, "text", false, batch, missing)
	if !strings.HasPrefix(text, batch+":2:") || !strings.Contains(text, `: error: trace "masrl-example-001": /events/`) {
		t.Errorf("text report %q", text)
	}
	if !strings.HasPrefix(log, "masrl trace validate: "+missing+": ") || tally.Unreadable != 1 {
		t.Errorf("log %q, tally %+v", log, tally)
	}
	if got, want := tally.Summary(2), "1 error, 0 warnings in 2 traces"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	gh, _, _ := runReport(t, "github", false, batch)
	if !strings.HasPrefix(gh, "::error file="+batch+",line=2,col=") || !strings.Contains(gh, `,title=trace schema::trace "masrl-example-001": /events/`) {
		t.Errorf("github report %q", gh)
	}
	if got, want := (Tally{Errors: 2, Warnings: 1}).Summary(1), "2 errors, 1 warning in 1 file"; got != want {
		t.Errorf("summary of a file %q, want %q", got, want)
	}
}

// TestFindingsWriter: one line per trace with findings or an input
// error, with each finding placed in the file; a trace without findings
// gets none.
func TestFindingsWriter(t *testing.T) {
	dir := t.TempDir()
	batch := filepath.Join(dir, "shard.jsonl")
	lines := `{"trace_id":"ok","task_id":"k","events":[{"id":"a","t":0,"type":"spawn","agent":"x"}],"edges":[],"rewards":{},"costs":{"tokens":1,"wall_clock_s":1}}
{"trace_id":"bad","task_id":"k","events":[{"id":"a","t":0,"agent":"x","type":"spwan"}],"edges":[],"rewards":{},"costs":{"tokens":1,"wall_clock_s":1}}
{"trace_id":"dangling","task_id":"k","events":[{"id":"a","t":0,"type":"spawn","agent":"x"}],"edges":[{"src":"a","dst":"z","type":"causal"}],"rewards":{},"costs":{"tokens":1,"wall_clock_s":1}}
`
	if err := os.WriteFile(batch, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "findings.jsonl")
	fw, err := CreateFindings(out)
	if err != nil {
		t.Fatal(err)
	}
	ValidateBatch(context.Background(), []string{batch, filepath.Join(dir, "missing.json")}, BatchOptions{}, OSBatchInput(), fw.Add)
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for l := range strings.SplitSeq(strings.TrimSuffix(string(data), "\n"), "\n") {
		var r TraceReport
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		if r.Error != "" {
			got = append(got, filepath.Base(r.File)+" unreadable")
			continue
		}
		f := r.Findings[0]
		got = append(got, strings.Join([]string{filepath.Base(r.File), r.TraceID, f.Rule, f.Pointer, strconv.Itoa(r.Line), strconv.Itoa(f.Line) + ":" + strconv.Itoa(f.Col)}, " "))
	}
	want := []string{"shard.jsonl bad schema /events/0/type 2 2:78", "shard.jsonl dangling edge-ref /edges/0/dst 3 3:119", "missing.json unreadable"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings lines:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestReportWriteText holds the text report of the example trace, which
// trace stats prints, to its golden file.
func TestReportWriteText(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "example.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := Validate(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := res.Report.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "example.stats.txt"), b.Bytes())
}

// TestLimitsFlags: each flag sets its own field of Limits in ParseSize's
// units and is the flag a LimitError names.
func TestLimitsFlags(t *testing.T) {
	var l Limits
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	for _, f := range l.Flags("line", "record", "document", "decompressed") {
		fs.Var(f.Value, f.Name, f.Usage)
	}
	if err := fs.Parse([]string{"--max-line", "1KiB", "--max-record", "2MiB", "--max-document", "3", "--max-decompressed", "1GiB"}); err != nil {
		t.Fatal(err)
	}
	if l != (Limits{MaxLine: 1 << 10, MaxRecord: 2 << 20, MaxDocument: 3, MaxDecompressed: 1 << 30}) {
		t.Errorf("limits %+v", l)
	}
	if got := fs.Lookup("max-line").Value.String(); got != "1 KiB" {
		t.Errorf("max-line reads back as %q", got)
	}
	fs.SetOutput(new(bytes.Buffer))
	if err := fs.Parse([]string{"--max-line", "lots"}); err == nil || !strings.Contains(err.Error(), "want a positive number of bytes") {
		t.Errorf("--max-line lots: %v", err)
	}
	if got := l.Flags("line", "bogus"); len(got) != 1 || got[0].Name != "max-line" {
		t.Errorf("Flags(line, bogus) = %+v", got)
	}
}

// TestFormat: --format takes one of its choices and says it was given;
// another value is refused with the choices.
func TestFormat(t *testing.T) {
	f := &Format{Value: "text", Choices: ReportFormats()}
	if f.Given || f.String() != "text" {
		t.Fatalf("default %q, given %v", f, f.Given)
	}
	if err := f.Set("github"); err != nil || f.Value != "github" || !f.Given {
		t.Errorf("Set(github): %v, value %q, given %v", err, f.Value, f.Given)
	}
	if err := f.Set("xml"); err == nil || err.Error() != "must be one of text, json, github" || f.Value != "github" {
		t.Errorf("Set(xml): %v, value %q", err, f.Value)
	}
}
