package corpus

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"unicode/utf8"

	"github.com/gocarina/gocsv"
)

// table is a CSV file read with encoding/csv, keeping the start of every
// field. gocsv alone only knows record numbers, which drift from file lines
// as soon as a quoted field spans lines; table maps them back.
type table struct {
	file      string
	header    []string
	headerPos []fieldPos
	records   [][]string
	pos       [][]fieldPos
	diags     Diagnostics // syntax errors and invalid UTF-8, with positions
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// readTable parses b (the contents of file). It never fails: syntax errors
// become diagnostics and reading resumes at the next record, so that every
// problem in the file is reported at once. A leading BOM is dropped and CRLF
// line ends are accepted.
func readTable(file string, b []byte) *table {
	t := &table{file: file}
	bomShift := 0
	if bytes.HasPrefix(b, utf8BOM) {
		b = b[len(utf8BOM):]
		bomShift = len(utf8BOM)
	}
	r := csv.NewReader(bytes.NewReader(b))
	r.FieldsPerRecord = -1 // field counts are checked against the header, with positions
	r.ReuseRecord = false
	first := true
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line, col := pe.Line, pe.Column
				if line == 1 {
					col += bomShift
				}
				t.diags.add(Error, Pos{File: file, Line: line, Col: col}, "", "", "CSV syntax: %v", pe.Err)
				continue // the reader has consumed the bad record; go on with the next
			}
			t.diags.add(Error, Pos{File: file}, "", "", "%v", err)
			break
		}
		pos := make([]fieldPos, len(rec))
		for i := range rec {
			line, col := r.FieldPos(i)
			if line == 1 {
				col += bomShift
			}
			pos[i] = fieldPos{int32(line), int32(col)}
			if !utf8.ValidString(rec[i]) {
				bad := 0
				for bad < len(rec[i]) {
					c, size := utf8.DecodeRuneInString(rec[i][bad:])
					if c == utf8.RuneError && size == 1 {
						break
					}
					bad += size
				}
				field := ""
				if !first && i < len(t.header) {
					field = t.header[i]
				}
				t.diags.add(Error, Pos{File: file, Line: line, Col: col}, field, "",
					"invalid UTF-8 at byte %d of the field; save the file as UTF-8", bad+1)
				rec[i] = string(bytes.ToValidUTF8([]byte(rec[i]), []byte("\uFFFD")))
			}
		}
		if first {
			t.header, t.headerPos = rec, pos
			first = false
			continue
		}
		t.records = append(t.records, rec)
		t.pos = append(t.pos, pos)
	}
	return t
}

// recordLine returns the line on which record i starts.
func (t *table) recordLine(i int) int {
	if len(t.pos[i]) == 0 {
		return 0
	}
	return int(t.pos[i][0].line)
}

// rowsReader feeds the already-parsed header and records to gocsv, which
// maps columns to struct fields by header name.
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

// decode unmarshals the table's records into out (a pointer to a slice of
// structs with csv tags) with gocsv. Every target field is a string kind, so
// decoding cannot fail on content; values are checked later, with positions.
func (t *table) decode(out any) error {
	if t.header == nil {
		return nil
	}
	rows := make([][]string, 0, len(t.records)+1)
	rows = append(rows, t.header)
	rows = append(rows, t.records...)
	return gocsv.UnmarshalCSV(&rowsReader{rows: rows}, out)
}

// columnPositions maps every column of cols to its position in record i, by
// header name. Columns the header lacks keep a zero position.
func (t *table) columnPositions(i int, cols []string, dst []fieldPos) {
	for j, name := range t.header {
		if j >= len(t.pos[i]) {
			break
		}
		if k := columnIndex(cols, name); k >= 0 && dst[k].line == 0 {
			dst[k] = t.pos[i][j]
		}
	}
}
