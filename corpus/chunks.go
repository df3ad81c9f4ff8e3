package corpus

import (
	"bufio"
	"bytes"
	"io"
	"math"
)

// statsChunkSize is how many bytes of papers.csv one goroutine counts at a
// time: large enough that a chunk's setup (a csv.Reader, an empty tally)
// is negligible, small enough that both cores stay busy to the end of a
// 343 MB file and that the buffers in flight stay a few tens of MB.
const statsChunkSize = 2 << 20

// countPapers counts the records of the papers.csv in ra into t and
// returns what the sequential csvStream reports about them, the same
// findings at the same positions in file order.
//
// gocsv's per-row reflection was most of masrl stats' CPU, so the counted
// columns are read by their index in the header instead, and the file is
// cut into chunks of about chunkSize bytes that workers goroutines parse
// with encoding/csv at once. A chunk ends after a newline at which the
// number of quotes since the chunk's start is even: outside a quoted field
// when the chunk's records are well formed. When they are not, the cut may
// fall inside a record; the chunk's reader then fails on its last record,
// and that record is read again by one reader running on from it until a
// record ends exactly at the end of a chunk, so the result never depends on
// where the cuts fell.
func countPapers(file string, ra io.ReaderAt, t *statsTally, chunkSize, workers int) (*table, Diagnostics) {
	// The header is the first well-formed record, read as decodeCSV reads
	// it (BOM, syntax errors before it).
	hs := newCSVStream(file, io.NewSectionReader(ra, 0, math.MaxInt64))
	header, _, ok := hs.next()
	tbl := &table{file: file, header: header}
	if !ok || hs.crOnly {
		// The chunks are cut at LFs, which a file with CR-only line
		// ends lacks: its one finding is enough, and stats refuses it.
		return tbl, hs.diags
	}
	diags := hs.diags
	from := int64(hs.bomShift) + hs.r.InputOffset()
	lines, err := countLines(ra, from)
	if err != nil {
		diags.add(Error, Pos{File: file}, "", "", "%v", err)
		return tbl, diags
	}

	workers = max(1, workers)
	pool := make(chan []byte, workers+2)
	for range cap(pool) {
		pool <- nil
	}
	jobs := make(chan paperChunk, workers)
	done := make(chan chunkCount, workers)
	var readErr error
	go func() {
		defer close(jobs)
		readErr = splitChunks(ra, from, lines+1, chunkSize, pool, jobs)
	}()
	// Workers fork an empty tally of their own from shape, which nothing
	// writes, while the merger adds to t.
	shape := t.fork()
	finished := make(chan struct{})
	for range workers {
		go func() {
			defer func() { finished <- struct{}{} }()
			for ch := range jobs {
				done <- ch.count(file, header, shape.fork())
				pool <- ch.data
			}
		}()
	}
	go func() {
		for range workers {
			<-finished
		}
		close(done)
	}()

	m := chunkMerge{file: file, ra: ra, header: header, t: t, diags: diags, pos: from, line: lines + 1}
	pending := map[int]chunkCount{}
	next := 0
	for c := range done {
		pending[c.seq] = c
		for c, ok := pending[next]; ok; c, ok = pending[next] {
			delete(pending, next)
			next++
			m.add(c)
		}
	}
	if readErr != nil {
		m.diags.add(Error, Pos{File: file}, "", "", "%v", readErr)
	}
	return tbl, m.diags
}

// countLines counts the newlines in the first n bytes of ra: the lines
// before the first chunk, which the header reader does not tell.
func countLines(ra io.ReaderAt, n int64) (int, error) {
	buf := make([]byte, min(n, 1<<16))
	lines := 0
	for off := int64(0); off < n; {
		k, err := ra.ReadAt(buf[:min(int64(len(buf)), n-off)], off)
		lines += bytes.Count(buf[:k], []byte{'\n'})
		off += int64(k)
		if err != nil && off < n {
			return 0, err
		}
	}
	return lines, nil
}

// paperChunk is a run of whole lines of papers.csv.
type paperChunk struct {
	seq   int
	data  []byte
	start int64 // file offset of data[0]
	line  int   // file line of data[0]
	last  bool  // data runs to the end of the file
}

// splitChunks reads ra from offset from (on file line line) to its end and
// sends it to jobs in chunks of about chunkSize bytes cut after newlines,
// in buffers taken from pool. It returns the read error that ended the
// input early, if any.
func splitChunks(ra io.ReaderAt, from int64, line, chunkSize int, pool chan []byte, jobs chan<- paperChunk) error {
	chunkSize = max(1, chunkSize)
	var carry []byte // the bytes after the last cut, not yet sent
	off := from
	for seq := 0; ; seq++ {
		buf := <-pool
		if cap(buf) < chunkSize+len(carry) {
			buf = make([]byte, 0, chunkSize+chunkSize/8+len(carry))
		}
		buf = append(buf[:0], carry...)
		start := off - int64(len(carry))
		for {
			buf = growLen(buf, chunkSize)
			fresh := buf[len(buf)-chunkSize:]
			n, err := ra.ReadAt(fresh, off)
			buf = buf[:len(buf)-chunkSize+n]
			off += int64(n)
			if err != nil {
				if len(buf) > 0 {
					jobs <- paperChunk{seq: seq, data: buf, start: start, line: line, last: true}
				}
				if err == io.EOF {
					err = nil
				}
				return err
			}
			// Until a newline arrives there is nothing to cut: only the
			// fresh bytes are searched, so a long line is not rescanned.
			if bytes.IndexByte(fresh[:n], '\n') < 0 && bytes.IndexByte(buf[:len(buf)-n], '\n') < 0 {
				continue
			}
			if cut := chunkCut(buf); cut > 0 {
				carry = append(carry[:0], buf[cut:]...)
				buf = buf[:cut]
				break
			}
		}
		jobs <- paperChunk{seq: seq, data: buf, start: start, line: line}
		line += bytes.Count(buf, []byte{'\n'})
	}
}

// growLen extends b by n bytes, reallocating when its capacity is short.
func growLen(b []byte, n int) []byte {
	if cap(b)-len(b) < n {
		b = append(b[:cap(b)], make([]byte, n+cap(b)-len(b))...)[:len(b)]
	}
	return b[:len(b)+n]
}

// chunkCut returns where to cut b, which starts at a record start: after
// its last newline with an even number of quotes before it, outside any
// well-formed quoted field; after its last newline when there is no such
// newline (the chunk's reader then finds out); 0 when b has no newline.
func chunkCut(b []byte) int {
	quotes := bytes.Count(b, []byte{'"'})
	last := -1
	for end := len(b); ; {
		i := bytes.LastIndexByte(b[:end], '\n')
		if i < 0 {
			return last + 1
		}
		if last < 0 {
			last = i
		}
		quotes -= bytes.Count(b[i+1:end], []byte{'"'})
		if quotes%2 == 0 {
			return i + 1
		}
		end = i
	}
}

// chunkCount is what a worker found in one chunk.
type chunkCount struct {
	seq        int
	start, end int64 // file offsets of the chunk
	t          *statsTally
	diags      Diagnostics
	// cut is set when the chunk's last record failed to parse: the chunk
	// may end inside it. resume and resumeLine are where that record
	// starts, and its finding is not in diags.
	cut        bool
	resume     int64
	resumeLine int
}

// count parses the chunk into t, a fork of the file's tally.
func (ch paperChunk) count(file string, header []string, t *statsTally) chunkCount {
	s := newChunkStream(file, bytes.NewReader(ch.data), ch.line-1, header)
	rc := newRecordCounter(t, header)
	failed := false
	var failedAt int64  // chunk offset where the failed record's lines start
	var failedDiags int // findings before the failed record's
	for {
		at, nd := s.r.InputOffset(), len(s.diags)
		rec, more := s.step()
		if !more {
			break
		}
		if failed = rec == nil; failed {
			failedAt, failedDiags = at, nd
		} else {
			rc.add(rec)
		}
	}
	c := chunkCount{seq: ch.seq, start: ch.start, end: ch.start + int64(len(ch.data)), t: t, diags: s.diags}
	if failed && !ch.last {
		// The reader skips empty lines before a record, and so will the
		// sequential reader that reads it again from failedAt.
		c.cut, c.resume = true, ch.start+failedAt
		c.resumeLine = ch.line + bytes.Count(ch.data[:failedAt], []byte{'\n'})
		c.diags = c.diags[:failedDiags]
	}
	return c
}

// chunkMerge adds chunk counts to the file's tally in file order. pos is
// a file offset known to start a record, on line line: the end of the last
// chunk added, or where seq, a sequential reader started after a chunk
// that may have been cut inside a record, has read to. Chunks that start
// before pos were not cut at record starts and are read by seq instead.
type chunkMerge struct {
	file   string
	ra     io.ReaderAt
	header []string
	t      *statsTally
	diags  Diagnostics

	pos     int64
	line    int
	seq     *seqStream
	stopped bool // seq met the end of the input or a read error
}

func (m *chunkMerge) add(c chunkCount) {
	if m.stopped || c.end <= m.pos {
		return // seq has read past this chunk
	}
	if c.start == m.pos {
		m.t.merge(c.t)
		m.diags = append(m.diags, c.diags...)
		if !c.cut {
			m.pos = c.end
			return
		}
		m.pos, m.line = c.resume, c.resumeLine
		m.seq = newSeqStream(m.file, m.ra, m.pos, m.line, m.header, m.t)
	}
	var more bool
	m.pos, more = m.seq.readUntil(c.end)
	m.diags = append(m.diags, m.seq.s.diags...)
	m.seq.s.diags = nil
	switch {
	case !more:
		m.stopped = true
	case m.pos == c.end:
		m.seq = nil // a record ended where the next chunk starts
	}
}

// seqStream reads papers.csv from a record start as the sequential
// reader would, counting into the file's tally.
type seqStream struct {
	s    *csvStream
	rc   *recordCounter
	base int64
}

func newSeqStream(file string, ra io.ReaderAt, pos int64, line int, header []string, t *statsTally) *seqStream {
	r := bufio.NewReaderSize(io.NewSectionReader(ra, pos, math.MaxInt64-pos), 1<<16)
	return &seqStream{s: newChunkStream(file, r, line-1, header), rc: newRecordCounter(t, header), base: pos}
}

// readUntil reads records until one ends at or after file offset end and
// returns the offset reached; more is false when the input ended first.
func (q *seqStream) readUntil(end int64) (pos int64, more bool) {
	for q.base+q.s.r.InputOffset() < end {
		rec, more := q.s.step()
		if !more {
			return q.base + q.s.r.InputOffset(), false
		}
		if rec != nil {
			q.rc.add(rec)
		}
	}
	return q.base + q.s.r.InputOffset(), true
}
