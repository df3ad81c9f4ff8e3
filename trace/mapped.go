package trace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"unsafe"
)

// mapWindow is how much of a mapped file the scanner is shown at a time.
// At each window the pages behind the scanner are released, so that the
// mapping adds about two windows to the process's resident memory instead
// of the whole file, and cancellation is checked.
const mapWindow = 2 << 20

// mappedInput is a trace file mapped into memory (mapFile): the scanner
// scans it in place, as it scans a line of a batch, without the copy from
// the page cache that reading costs (a tenth of the CPU time of `trace
// validate` on a 200 MB file; bench/trace/RESULTS.md, issue 38's fourth
// round).
type mappedInput struct {
	data []byte
	// window is how many more bytes each fill shows, page the granularity
	// of release: mapWindow and the system's page size, or a few bytes in
	// tests, which end a window inside every kind of token.
	window, page int
	// released is how much of data, from its start, has been handed to
	// release.
	released int
	// release gives back the memory of pages the scanner has left behind;
	// a page released and read again reads the file again (and tests
	// overwrite released bytes, so that reading them fails).
	release func(b []byte)
	// cancelled is checked at every window, as ContextReader checks its
	// context at every read.
	cancelled func() error
}

// newMappedScanner returns a scanner of m.data that shows it window by
// window.
func newMappedScanner(m *mappedInput) *scanner {
	end := min(len(m.data), m.window)
	return &scanner{m: m, buf: m.data[:end:end], n: end, eof: end == len(m.data), line: 1}
}

// fillMapped shows the next window of the mapping. The bytes never move,
// so a capture stays where it is; the last string is copied, like a
// capture kept in place, only so that the pages under it may be released.
func (s *scanner) fillMapped() bool {
	m := s.m
	if err := m.cancelled(); err != nil {
		s.rerr = err
		return false
	}
	if s.strView {
		s.own = append(s.own[:0], s.str...)
		s.str = s.own
		s.strView = false
	}
	low := s.i
	if s.capture != nil {
		low = min(low, s.capFrom)
	}
	low -= low % m.page
	if low > m.released {
		m.release(m.data[m.released:low])
		m.released = low
	}
	end := min(len(m.data), s.n+m.window)
	s.buf, s.n = m.data[:end:end], end
	s.eof = end == len(m.data)
	return true
}

// errNotMapped is validateFile's answer for a file it could not map.
var errNotMapped = errors.New("not mapped")

// validateFile validates the size bytes of f (a regular file, as opened)
// mapped into memory. Where the file cannot be mapped (a system without
// mapFile, or a file mmap refuses) it returns errNotMapped, having read
// nothing, and the caller reads the file instead.
func (v *Validator) validateFile(ctx context.Context, f *os.File, size int64, opts Options) (*Result, error) {
	data, err := mapFile(f, size)
	if err != nil {
		return nil, errNotMapped
	}
	m := &mappedInput{data: data, window: mapWindow, page: os.Getpagesize(), release: releaseMapped, cancelled: ctx.Err}
	res, err := v.validateMapped(m, opts)
	if uerr := unmapFile(data); uerr != nil && err == nil {
		err = uerr
	}
	return res, err
}

// validateMapped validates m.data. A file that shrinks while it is mapped
// (another process truncates it) makes a read of a page past its new end
// fault; the fault is turned into an error here instead of ending the
// process.
func (v *Validator) validateMapped(m *mappedInput, opts Options) (res *Result, err error) {
	c := newChecker(v, opts)
	c.s = newMappedScanner(m)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		fault, ok := r.(interface{ Addr() uintptr })
		if !ok || len(m.data) == 0 {
			panic(r)
		}
		start := uintptr(unsafe.Pointer(unsafe.SliceData(m.data)))
		if fault.Addr() < start || fault.Addr()-start >= uintptr(len(m.data)) {
			panic(r)
		}
		if c.feed != nil {
			c.feed.stop()
		}
		res, err = nil, fmt.Errorf("byte %d: the file shrank while it was read (it had %d bytes when opened); check it again once nothing writes to it", fault.Addr()-start, len(m.data))
	}()
	res, err = c.run()
	c.s = nil
	v.release(c)
	return res, err
}
