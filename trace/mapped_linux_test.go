package trace

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeTrace writes a generated trace of the given events to a file of
// the test's and returns it open, with its bytes.
func writeTrace(t *testing.T, events int) (*os.File, []byte) {
	t.Helper()
	data := synthTrace(t, events, 5)
	name := filepath.Join(t.TempDir(), "t.json")
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f, data
}

// TestValidateFileMapped validates a file mapped into memory, several
// windows long, and requires the result of reading it.
func TestValidateFileMapped(t *testing.T) {
	f, data := writeTrace(t, 30000) // about 6 MB: three windows
	if len(data) < 2*mapWindow {
		t.Fatalf("%d bytes, want more than two windows", len(data))
	}
	opts := Options{FindingsOnly: true, SizeHint: int64(len(data))}
	got, err := NewValidator().validateFile(context.Background(), f, int64(len(data)), opts)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Validate(bytes.NewReader(data), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("mapped:\n%v %+v\nread:\n%v %+v", got.Findings, got.Report, want.Findings, want.Report)
	}
}

// TestValidateFileShrunk truncates a mapped file before it is read: the
// read of a page past the new end faults, and the fault is an error that
// says so, not the end of the process.
func TestValidateFileShrunk(t *testing.T) {
	f, data := writeTrace(t, 30000)
	mapped, err := mapFile(f, int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	defer unmapFile(mapped)
	// At a page's start: the bytes of a page cut short read as zeros, a
	// page past the end faults.
	if err := f.Truncate(int64(len(data) / 2 &^ (os.Getpagesize() - 1))); err != nil {
		t.Fatal(err)
	}
	m := &mappedInput{data: mapped, window: mapWindow, page: os.Getpagesize(), release: releaseMapped, cancelled: func() error { return nil }}
	res, err := NewValidator().validateMapped(m, Options{})
	if err == nil || !strings.Contains(err.Error(), "shrank while it was read") {
		t.Fatalf("got %v, %v; want the error of a file that shrank", res, err)
	}
}

// TestValidateFileCancelled cancels the context before a mapped file is
// validated: the validation stops at the first window's end with the
// context's error, as ContextReader stops a read one.
func TestValidateFileCancelled(t *testing.T) {
	f, data := writeTrace(t, 30000)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := NewValidator().validateFile(ctx, f, int64(len(data)), Options{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want %v", err, context.Canceled)
	}
}

// TestValidateBatchMapped validates a file larger than maxInPlace, which
// ValidateBatch maps, beside the same trace given on standard input,
// which it streams, and requires the same result.
func TestValidateBatchMapped(t *testing.T) {
	f, data := writeTrace(t, 90000) // about 18 MB
	if len(data) <= maxInPlace {
		t.Fatalf("%d bytes, want more than %d", len(data), maxInPlace)
	}
	in := OSBatchInput()
	in.Stdin = bytes.NewReader(data)
	var got []*BatchResult
	ValidateBatch(context.Background(), []string{f.Name(), "-"}, BatchOptions{Check: Options{FindingsOnly: true}}, in, func(r *BatchResult) { got = append(got, r) })
	if len(got) != 2 || got[0].Err != nil || got[1].Err != nil {
		t.Fatalf("got %d results, want 2 without errors: %+v", len(got), got)
	}
	if !reflect.DeepEqual(got[0].Result, got[1].Result) {
		t.Fatalf("mapped:\n%v %+v\nstreamed:\n%v %+v", got[0].Result.Findings, got[0].Result.Report, got[1].Result.Findings, got[1].Result.Report)
	}
}
