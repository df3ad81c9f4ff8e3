package viewer

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/masrl/masrl/trace"
)

// endless is an input that never ends: every read fills p with c.
type endless byte

func (c endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(c)
	}
	return len(p), nil
}

// endlessLines never ends either: it repeats one trace per line.
type endlessLines struct {
	line string
	i    int
}

func (e *endlessLines) Read(p []byte) (int, error) {
	for k := range p {
		p[k] = e.line[e.i%len(e.line)]
		e.i++
	}
	return len(p), nil
}

// TestReadLimits: trace view reads an endless input (one endless line, an
// endless whole document, endless lines of a trace each) up to its limit,
// stops with a LimitError naming the flag that raises it, and allocates a
// small multiple of the limit on the way, not what the input offers.
func TestReadLimits(t *testing.T) {
	const limit = 2 << 20
	lim := trace.Limits{MaxLine: limit, MaxDocument: 2 * limit}
	cases := []struct {
		name  string
		r     func() any
		lines bool
		want  string
	}{
		{"one endless line", func() any { return endless('x') }, true, "line 1 (from byte 0) is longer than 2 MiB, the most masrl reads (raise it with --max-line)"},
		{"endless blanks", func() any { return endless(' ') }, true, "line 1 (from byte 0) is longer than 2 MiB"},
		{"endless document", func() any { return endless('[') }, false, "the trace (from byte 0) is longer than 4 MiB, the most masrl reads (raise it with --max-document)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := c.r().(interface{ Read([]byte) (int, error) })
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			units, err := Read(r, "in", c.lines, trace.Options{}, lim)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, trace.ErrLimit) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("%d units, error %v; want one that says %q", len(units), err, c.want)
			}
			// Buffers grow by doubling: the input's bytes up to the
			// limit cost about twice the limit, read once.
			if d := after.TotalAlloc - before.TotalAlloc; d > 4*uint64(lim.MaxDocument) {
				t.Errorf("allocated %d MB reading to a limit of %d MB", d>>20, lim.MaxDocument>>20)
			}
		})
	}
	// Endless short traces: the page would hold them all, so the
	// document limit stops them, after a few dozen.
	line := `{"trace_id":"t","events":[],"pad":"` + strings.Repeat("p", 2000) + `"}` + "\n"
	units, err := Read(&endlessLines{line: line}, "in", true, trace.Options{}, trace.Limits{MaxDocument: 64 << 10})
	if !errors.Is(err, trace.ErrLimit) || !strings.Contains(err.Error(), "the traces up to line 33 (from byte 0) is longer than 64 KiB") {
		t.Fatalf("%d units, error %v", len(units), err)
	}
}

// FuzzRead: no input makes Read panic; an input within the limits gives
// one unit per non-blank line (or one for the whole input), one beyond
// them a LimitError; and reading allocates a bounded multiple of the
// limits, whatever the input.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"trace_id":"t","events":[]}`+"\n\n"+`{"trace_id":"u"`), true)
	f.Add([]byte(strings.Repeat(" ", 5000)), true)
	f.Add([]byte(strings.Repeat("[", 20000)), false)
	lim := trace.Limits{MaxLine: 4 << 10, MaxDocument: 16 << 10}
	f.Fuzz(func(t *testing.T, data []byte, lines bool) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		units, err := Read(strings.NewReader(string(data)), "f", lines, trace.Options{}, lim)
		runtime.ReadMemStats(&after)
		if err != nil && len(units) > 0 {
			t.Fatalf("units and an error: %v", err)
		}
		if !lines && err == nil && int64(len(data)) > lim.MaxDocument {
			t.Fatalf("%d bytes read whole, beyond the limit of %d", len(data), lim.MaxDocument)
		}
		// The read buffer, the traces kept (at most MaxDocument) and
		// their reports, and the validator's working memory per trace.
		if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
			t.Fatalf("reading %d bytes allocated %d MB", len(data), got>>20)
		}
	})
}
