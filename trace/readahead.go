package trace

import (
	"bytes"
	"errors"
	"io"
	"strings"
)

// readaheadChunk is the unit the readahead goroutine reads, and
// readaheadChunks how many circulate: 2 MB in flight, so that the scanner
// does not wait when the reading goroutine is briefly off the CPU.
// readaheadPad is the room left in front of each chunk's data, where the
// scanner puts the unread end of the previous chunk (a token cut in two).
const (
	readaheadChunk  = 256 << 10
	readaheadChunks = 8
	readaheadPad    = 4 << 10
)

// readahead reads its source on a goroutine of its own, a few chunks ahead
// of the scanner, so that the time spent in read system calls (a tenth of
// the total on a 200 MB file) overlaps with scanning instead of adding to
// it. The scanner scans the chunks in place (take and giveBack) rather
// than copying them into a buffer of its own. readaheadChunks chunks
// circulate; nothing else is allocated.
type readahead struct {
	full chan readaheadResult
	free chan []byte
	done chan struct{}
	err  error
}

type readaheadResult struct {
	data []byte // readaheadPad bytes of room, then the data
	err  error
}

// newReadahead wraps r, unless r already holds its data in memory; it
// returns nil then, and the scanner reads r directly.
func newReadahead(r io.Reader) (*readahead, func()) {
	switch r.(type) {
	case *bytes.Reader, *strings.Reader, *bytes.Buffer:
		return nil, func() {}
	}
	ra := &readahead{
		full: make(chan readaheadResult, readaheadChunks),
		free: make(chan []byte, readaheadChunks),
		done: make(chan struct{}),
	}
	for range readaheadChunks {
		ra.free <- make([]byte, readaheadPad+readaheadChunk)
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
		n, err := io.ReadFull(r, buf[readaheadPad:])
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = io.EOF
		}
		if n > 0 {
			select {
			case ra.full <- readaheadResult{data: buf[:readaheadPad+n]}:
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

// take returns the next chunk: readaheadPad bytes of room, then at least
// one byte of data. After the last chunk it returns the source's error
// (io.EOF at the end). The caller hands the chunk back with giveBack.
func (ra *readahead) take() ([]byte, error) {
	if ra.err != nil {
		return nil, ra.err
	}
	res := <-ra.full
	if res.err != nil {
		ra.err = res.err
		return nil, res.err
	}
	return res.data, nil
}

// giveBack returns a chunk from take for reuse.
func (ra *readahead) giveBack(chunk []byte) { ra.free <- chunk[:cap(chunk)] }
