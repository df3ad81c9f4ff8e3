package corpus

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"unicode/utf8"

	"github.com/gocarina/gocsv"
)

// table is what Check needs of a CSV file once its rows are decoded: the
// header as written, with positions.
type table struct {
	file      string
	header    []string
	headerPos []fieldPos
}

const utf8BOM = "\xEF\xBB\xBF"

// csvStream reads a CSV file record by record with encoding/csv, keeping the
// start of every field. gocsv alone only knows record numbers, which drift
// from file lines as soon as a quoted field spans lines; the positions kept
// here map them back. Reading never stops at a problem: syntax errors,
// what textProblems finds in a cell (invalid UTF-8, control characters,
// unbalanced bidi controls), cells a spreadsheet would run as formulas
// (warnings) and records whose length differs from the header become
// diagnostics, and reading resumes at the next record, so that every
// problem in the file is reported at once. A leading BOM is dropped and CRLF
// line ends are accepted.
type csvStream struct {
	file     string
	r        *csv.Reader
	bomShift int
	// lineBase is the number of file lines before the stream's first
	// line: a chunk of a file is read by its own csv.Reader, whose lines
	// count from 1.
	lineBase int
	header   []string
	diags    Diagnostics
	// crOnly is set when the file's line ends are CRs alone.
	crOnly bool
	// posBlock is the block positions cuts the records' field starts from.
	posBlock []fieldPos
}

func newCSVStream(file string, rd io.Reader) *csvStream {
	br := bufio.NewReaderSize(rd, 1<<16)
	s := &csvStream{file: file}
	if b, _ := br.Peek(len(utf8BOM)); string(b) == utf8BOM {
		br.Discard(len(utf8BOM))
		s.bomShift = len(utf8BOM)
	}
	var in io.Reader = br
	if b, _ := br.Peek(br.Size()); crOnly(b) {
		// encoding/csv would read the whole file as one record, and
		// every cell would become a finding of its own: one finding
		// says what is wrong, and the file is read with its CRs as line
		// ends so that the other findings keep their lines.
		s.crOnly = true
		s.diags.add(Error, Pos{File: file, Line: 1, Col: 1}, "", "",
			"%s", crOnlyMessage)
		in = crToLF{br}
	}
	s.r = csv.NewReader(in)
	s.r.FieldsPerRecord = -1 // field counts are checked against the header, with positions
	return s
}

// crOnly reports whether b, the start of a file, ends its first line with
// a CR that no LF follows: a file saved with classic Mac OS line ends.
func crOnly(b []byte) bool {
	i := bytes.IndexAny(b, "\r\n")
	return i >= 0 && b[i] == '\r' && i+1 < len(b) && b[i+1] != '\n'
}

// crToLF reads r with every CR turned into an LF.
type crToLF struct{ r io.Reader }

func (c crToLF) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i, b := range p[:n] {
		if b == '\r' {
			p[i] = '\n'
		}
	}
	return n, err
}

// newChunkStream reads part of a CSV file that starts at a record start on
// line lineBase+1 (never the file's first line, so there is no BOM), with
// the file's header already known.
func newChunkStream(file string, rd io.Reader, lineBase int, header []string) *csvStream {
	s := &csvStream{file: file, lineBase: lineBase, header: header}
	s.r = csv.NewReader(rd)
	s.r.FieldsPerRecord = -1
	s.r.ReuseRecord = true // the caller keeps no record past the next read
	return s
}

// next returns the next well-formed record and its field positions; ok is
// false at the end of the input.
func (s *csvStream) next() (rec []string, pos []fieldPos, ok bool) {
	for {
		rec, more := s.step()
		if !more {
			return nil, nil, false
		}
		if rec == nil {
			continue // the reader has consumed the bad record; go on with the next
		}
		pos = s.positions(len(rec))
		for i := range rec {
			line, col := s.r.FieldPos(i)
			p := s.pos(line, col)
			pos[i] = fieldPos{int32(p.Line), int32(p.Col)}
		}
		return rec, pos, true
	}
}

// positions returns room for the field starts of a record of n fields,
// cut from a block shared by the records around it: one allocation per
// few thousand records instead of one per record.
func (s *csvStream) positions(n int) []fieldPos {
	if len(s.posBlock)+n > cap(s.posBlock) {
		s.posBlock = make([]fieldPos, 0, max(n, 1<<14))
	}
	start := len(s.posBlock)
	s.posBlock = s.posBlock[:start+n]
	return s.posBlock[start : start+n : start+n]
}

// step reads one record and reports its problems: invalid UTF-8 (replaced
// in rec) and a field count that differs from the header's. rec is nil
// when the record had a CSV syntax error (the reader has skipped it); more
// is false at the end of the input or after a read error.
func (s *csvStream) step() (rec []string, more bool) {
	rec, err := s.r.Read()
	if err == io.EOF {
		return nil, false
	}
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			s.diags.add(Error, s.pos(pe.Line, pe.Column), "", "", "CSV syntax: %v", pe.Err)
			return nil, true
		}
		s.diags.add(Error, Pos{File: s.file}, "", "", "%v", err)
		return nil, false
	}
	for i := range rec {
		if FormulaLeading(rec[i]) {
			s.diags.add(Warning, s.pos(s.r.FieldPos(i)), s.fieldName(i), rec[i], "%s", formulaWarning(rec[i]))
		}
		if ps := textProblems(rec[i]); ps != nil {
			s.textProblems(s.pos(s.r.FieldPos(i)), i, rec, ps)
		}
	}
	if s.header != nil && len(rec) != len(s.header) {
		line, _ := s.r.FieldPos(0)
		s.diags.add(Error, Pos{File: s.file, Line: s.pos(line, 1).Line, Col: 1}, "", "",
			"record has %d fields, want %d (a missing or extra comma, or an unquoted comma inside a field?)", len(rec), len(s.header))
	}
	return rec, true
}

// pos turns a reader position into a file position: on line 1 the BOM
// that was dropped still counts.
func (s *csvStream) pos(line, col int) Pos {
	line += s.lineBase
	if line == 1 {
		col += s.bomShift
	}
	return Pos{File: s.file, Line: line, Col: col}
}

// textProblems reports the problems ps of field i of rec, which starts at
// p, and replaces its invalid UTF-8, so that nothing downstream (HTML,
// JSON) sees it.
func (s *csvStream) textProblems(p Pos, i int, rec []string, ps []textProblem) {
	for _, tp := range ps {
		s.diags.add(Error, p, s.fieldName(i), "", "%s", tp.message(fmt.Sprintf("at byte %d of the field", tp.at+1)))
	}
	if !utf8.ValidString(rec[i]) {
		rec[i] = strings.ToValidUTF8(rec[i], "\uFFFD")
	}
}

// fieldName is the header's name of field i, once the header is known.
func (s *csvStream) fieldName(i int) string {
	if s.header != nil && i < len(s.header) {
		return s.header[i]
	}
	return ""
}

// placer is implemented by the row types: it records where the row and
// each of its fields start, and derives what the row computes from its text.
type placer[T any] interface {
	*T
	place(file string, cols *rowColumns, rec []string, pos []fieldPos)
}

// chunkRows is how many records one gocsv call decodes. Chunks let reading
// and decoding overlap and keep only a few thousand raw records alive at a
// time instead of the whole file.
const chunkRows = 4096

type csvChunk[T any] struct {
	seq  int
	end  int64 // input offset after the chunk's last record
	ends []int64
	recs [][]string
	pos  [][]fieldPos
	rows []T
	err  error
}

// decodeCSV reads a whole CSV stream into rows of T. encoding/csv reads on
// one goroutine; gocsv decodes chunks on the others (its reflection is the
// dominant cost: about 7 s of a 1,000,000-row file read sequentially), and
// the chunks are put back in file order. sizeHint, the input's size in
// bytes when known, lets the result be allocated once. When each is set,
// rows go to it in file order instead of into the result. When only is
// set, gocsv decodes just those columns (positions are kept for all).
// When ends is set, it receives where the header and each row end.
func decodeCSV[T any, P placer[T]](file string, rd io.Reader, sizeHint int64, each func(*T), only []string, ends *recordEnds) (*table, []T, Diagnostics, error) {
	s := newCSVStream(file, rd)
	t := &table{file: file}
	hdr, hdrPos, ok := s.next()
	if !ok {
		return t, nil, s.diags, nil
	}
	t.header, t.headerPos = hdr, hdrPos
	s.header = hdr
	if ends != nil {
		ends.header = int64(s.bomShift) + s.r.InputOffset()
	}
	cols := newRowColumns(hdr)
	decodeHeader, keep := projection(hdr, only)

	workers := max(1, runtime.GOMAXPROCS(0))
	jobs := make(chan *csvChunk[T], workers)
	done := make(chan *csvChunk[T], workers)
	go func() {
		defer close(jobs)
		for seq := 0; ; seq++ {
			ch := &csvChunk[T]{seq: seq}
			for len(ch.recs) < chunkRows {
				rec, pos, ok := s.next()
				if !ok {
					break
				}
				ch.recs = append(ch.recs, rec)
				ch.pos = append(ch.pos, pos)
				if ends != nil {
					ch.ends = append(ch.ends, int64(s.bomShift)+s.r.InputOffset())
				}
			}
			if len(ch.recs) == 0 {
				return
			}
			ch.end = s.r.InputOffset()
			jobs <- ch
		}
	}()
	finished := make(chan struct{})
	for range workers {
		go func() {
			defer func() { finished <- struct{}{} }()
			for ch := range jobs {
				ch.rows, ch.err = decodeRecords[T, P](file, cols, decodeHeader, keep, ch.recs, ch.pos)
				ch.recs, ch.pos = nil, nil
				done <- ch
			}
		}()
	}
	go func() {
		for range workers {
			<-finished
		}
		close(done)
	}()

	var out []T
	var firstErr error
	pending := map[int]*csvChunk[T]{}
	next := 0
	for ch := range done {
		pending[ch.seq] = ch
		for c, ok := pending[next]; ok; c, ok = pending[next] {
			delete(pending, next)
			next++
			if c.err != nil && firstErr == nil {
				firstErr = c.err
			}
			if ends != nil {
				ends.rows = append(ends.rows, c.ends...)
			}
			if each != nil {
				for i := range c.rows {
					each(&c.rows[i])
				}
				continue
			}
			if out == nil && sizeHint > 0 {
				out = make([]T, 0, estimateRows(sizeHint, c.end, len(c.rows)))
			}
			out = append(out, c.rows...)
		}
	}
	return t, out, s.diags, firstErr
}

// recordEnds is where records end in a CSV file, as byte offsets from
// its start: the header's, and each row's (decodeCSV's rows, in order).
type recordEnds struct {
	header int64
	rows   []int64
}

// decodeRecords decodes records of a file with gocsv (the columns of
// decodeHeader, at keep in each record) and places each row.
func decodeRecords[T any, P placer[T]](file string, cols *rowColumns, decodeHeader []string, keep []int, recs [][]string, pos [][]fieldPos) ([]T, error) {
	rows := make([][]string, 0, len(recs)+1)
	rows = append(rows, decodeHeader)
	for _, rec := range recs {
		rows = append(rows, project(rec, keep))
	}
	var out []T
	err := gocsv.UnmarshalCSV(&rowsReader{rows: rows}, &out)
	for i := range out {
		P(&out[i]).place(file, cols, recs[i], pos[i])
	}
	return out, err
}

// projection returns the header gocsv decodes and the indexes of its
// columns in the file's records: all of them, or those named in only.
func projection(header, only []string) ([]string, []int) {
	if only == nil {
		return header, nil
	}
	var h []string
	var keep []int
	for i, name := range header {
		if columnIndex(only, name) >= 0 {
			h = append(h, name)
			keep = append(keep, i)
		}
	}
	return h, keep
}

// project returns the fields of rec at keep (all of rec for nil keep).
func project(rec []string, keep []int) []string {
	if keep == nil {
		return rec
	}
	out := make([]string, len(keep))
	for j, i := range keep {
		if i < len(rec) {
			out[j] = rec[i]
		}
	}
	return out
}

// estimateRows guesses the number of rows of a file of size bytes from
// the first chunk (rows rows in about readSoFar bytes), with some slack.
func estimateRows(size, readSoFar int64, rows int) int {
	if readSoFar <= 0 || rows == 0 {
		return rows
	}
	est := size / max(1, readSoFar/int64(rows))
	return int(min(est+est/16+int64(rows), 1<<31-1))
}

// rowsReader feeds already-parsed records to gocsv, which maps columns to
// struct fields by header name.
type rowsReader struct {
	rows [][]string
	next int
}

func (r *rowsReader) Read() ([]string, error) {
	if r.next >= len(r.rows) {
		return nil, io.EOF
	}
	r.next++
	return r.rows[r.next-1], nil
}

func (r *rowsReader) ReadAll() ([][]string, error) {
	rows := r.rows[r.next:]
	r.next = len(r.rows)
	return rows, nil
}

// columnPositions maps the positions of a record, in header order, onto
// cols (the canonical column order). Columns the header lacks keep a zero
// position.
func columnPositions(header []string, pos []fieldPos, cols []string, dst []fieldPos) {
	for j, name := range header {
		if j >= len(pos) {
			break
		}
		if k := columnIndex(cols, name); k >= 0 && dst[k].line == 0 {
			dst[k] = pos[j]
		}
	}
}
