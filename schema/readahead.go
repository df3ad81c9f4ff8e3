package schema

import (
	"bytes"
	"errors"
	"io"
	"strings"
)

// readaheadChunk is the unit the readahead goroutine reads, and
// readaheadChunks how many circulate: 2 MB in flight, so that the scanner
// does not wait when the reading goroutine is briefly off the CPU.
const (
	readaheadChunk  = 256 << 10
	readaheadChunks = 8
)

// readahead reads its source on a goroutine of its own, a few chunks ahead
// of the scanner, so that the time spent in read system calls (a tenth of
// the total on a 200 MB file) overlaps with scanning instead of adding to
// it. readaheadChunks chunks circulate; nothing else is allocated.
type readahead struct {
	full chan readaheadResult
	free chan []byte
	done chan struct{}
	cur  []byte // unread part of the chunk being consumed
	buf  []byte // that chunk, to hand back
	err  error
}

type readaheadResult struct {
	data []byte
	err  error
}

// newReadahead wraps r, unless r already holds its data in memory.
func newReadahead(r io.Reader) (io.Reader, func()) {
	switch r.(type) {
	case *bytes.Reader, *strings.Reader, *bytes.Buffer:
		return r, func() {}
	}
	ra := &readahead{
		full: make(chan readaheadResult, readaheadChunks),
		free: make(chan []byte, readaheadChunks),
		done: make(chan struct{}),
	}
	for i := 0; i < readaheadChunks; i++ {
		ra.free <- make([]byte, readaheadChunk)
	}
	go ra.run(r)
	return ra, func() { close(ra.done) }
}

func (ra *readahead) run(r io.Reader) {
	for {
		var buf []byte
		select {
		case buf = <-ra.free:
		case <-ra.done:
			return
		}
		n, err := io.ReadFull(r, buf)
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = io.EOF
		}
		if n > 0 {
			select {
			case ra.full <- readaheadResult{data: buf[:n]}:
			case <-ra.done:
				return
			}
		}
		if err != nil {
			select {
			case ra.full <- readaheadResult{err: err}:
			case <-ra.done:
			}
			return
		}
	}
}

func (ra *readahead) Read(p []byte) (int, error) {
	for len(ra.cur) == 0 {
		if ra.err != nil {
			return 0, ra.err
		}
		if ra.buf != nil {
			ra.free <- ra.buf[:cap(ra.buf)]
			ra.buf = nil
		}
		res := <-ra.full
		if res.err != nil {
			ra.err = res.err
			return 0, res.err
		}
		ra.cur, ra.buf = res.data, res.data
	}
	n := copy(p, ra.cur)
	ra.cur = ra.cur[n:]
	return n, nil
}
