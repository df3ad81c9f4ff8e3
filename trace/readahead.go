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
	// back holds chunks the scanner is done with until there are
	// readaheadRefill of them: the reading goroutine, which waits for a
	// free chunk whenever it is ahead, is then woken once per
	// readaheadRefill chunks instead of once per chunk (each wake-up is a
	// futex call and a thread switch, and on 210 MB there were 800).
	back [][]byte
}

// readaheadRefill is how many chunks the scanner hands back at once: half
// of them, so that the other half, read ahead, keeps the scanner busy
// while the reading goroutine refills.
const readaheadRefill = readaheadChunks / 2

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
		back: make([][]byte, 0, readaheadRefill),
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

// giveBack returns a chunk from take for reuse, readaheadRefill at a time.
// The scanner holds at most its current chunk and readaheadRefill-1 given
// back, so at least half are with the reading goroutine, queued full or
// free to read into: it never waits on chunks the scanner keeps back.
func (ra *readahead) giveBack(chunk []byte) {
	ra.back = append(ra.back, chunk[:cap(chunk)])
	if len(ra.back) < readaheadRefill {
		return
	}
	for _, c := range ra.back {
		ra.free <- c // never blocks: free has room for every chunk
	}
	clear(ra.back)
	ra.back = ra.back[:0]
}
