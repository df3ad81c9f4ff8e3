package viewer

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/masrl/masrl/trace"
)

// Read reads and validates the traces of one input, named name in the
// units: the whole input, or each non-blank line of JSON Lines (lines).
// The page embeds each trace's text, so unlike the validator Read holds
// them all: at most lim.MaxDocument bytes of traces, each line at most
// lim.MaxLine bytes. An input with more stops with a trace.LimitError that
// says where, having read no more than the limit allows (an endless input
// costs a bounded amount of memory, then an error).
func Read(r io.Reader, name string, lines bool, opts trace.Options, lim trace.Limits) ([]Unit, error) {
	lim = lim.OrDefault()
	check := func(b []byte, line int) Unit {
		res, err := trace.Validate(bytes.NewReader(b), opts)
		return Unit{Name: name, Line: line, JSON: b, Report: NewReport(res, err)}
	}
	if !lines {
		b, err := trace.ReadAtMost(r, lim.MaxDocument)
		if errors.Is(err, trace.ErrLimit) {
			return nil, fmt.Errorf("%s: %w", name, &trace.LimitError{What: "the trace", Limit: lim.MaxDocument, Flag: "--max-document"})
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return []Unit{check(b, 0)}, nil
	}
	var units []Unit
	br := bufio.NewReaderSize(r, 64<<10)
	var scratch []byte
	var off, total int64
	for line := 1; ; line++ {
		b, n, err := trace.ReadLine(br, scratch, lim.MaxLine)
		scratch = b
		if errors.Is(err, trace.ErrLimit) {
			return nil, fmt.Errorf("%s: %w", name, &trace.LimitError{What: fmt.Sprintf("line %d", line), Limit: lim.MaxLine, Flag: "--max-line", Byte: off})
		}
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("%s: line %d: %w", name, line, err)
		}
		if t := bytes.TrimSpace(b); len(t) > 0 {
			if total += int64(len(t)); total > lim.MaxDocument {
				return nil, fmt.Errorf("%s: %w", name, &trace.LimitError{What: fmt.Sprintf("the traces up to line %d", line), Limit: lim.MaxDocument, Flag: "--max-document"})
			}
			units = append(units, check(bytes.Clone(t), line))
		}
		off += n
		if err == io.EOF {
			break
		}
	}
	if len(units) == 0 {
		return nil, fmt.Errorf("%s: no traces (every line is blank)", name)
	}
	return units, nil
}
