package corpus

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/masrl/masrl/internal/diag"
)

// Pos is a position in an input file. Line and Col are 1-based; Col counts
// bytes, as encoding/csv's FieldPos does. A zero Line means the whole file.
type Pos struct {
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
	Col  int    `json:"col,omitempty"`
}

func (p Pos) String() string {
	switch {
	case p.Line == 0:
		return p.File
	case p.Col == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Error and Warning are the severities of a diagnostic (diag.Severity,
// shared with the trace validator and the OTLP importer): an error fails
// the check.
const (
	Error   = diag.Error
	Warning = diag.Warning
)

// Diagnostic is one finding about the corpus: where, what, and what would be
// right.
type Diagnostic struct {
	Severity diag.Severity `json:"severity"`
	Pos      Pos           `json:"pos"`
	Field    string        `json:"field,omitempty"`   // column or claim the finding is about
	Value    string        `json:"value,omitempty"`   // the offending value, as read
	Message  string        `json:"message"`           // what is wrong
	Allowed  []string      `json:"allowed,omitempty"` // what would be right
	Nearest  string        `json:"nearest,omitempty"` // the allowed value a near miss probably meant
	Keys     []string      `json:"keys,omitempty"`    // entries involved, when the finding is about several
}

// String renders the diagnostic as one line: file:line:col: severity: field: message.
func (d Diagnostic) String() string {
	return fmt.Sprintf("%s: %s: %s", d.Pos, d.Severity, d.Detail())
}

// Detail is the diagnostic without position and severity: the field, the
// message, the allowed values and the nearest one.
func (d Diagnostic) Detail() string {
	var b strings.Builder
	if d.Field != "" {
		b.WriteString(d.Field)
		b.WriteString(": ")
	}
	b.WriteString(d.Message)
	if len(d.Allowed) > 0 {
		fmt.Fprintf(&b, "; allowed: %s", strings.Join(d.Allowed, ", "))
	}
	if d.Nearest != "" {
		fmt.Fprintf(&b, "; did you mean %q?", d.Nearest)
	}
	return b.String()
}

// Diagnostics is a list of findings.
type Diagnostics []Diagnostic

// add appends a finding.
func (ds *Diagnostics) add(sev diag.Severity, pos Pos, field, value, format string, args ...any) *Diagnostic {
	*ds = append(*ds, Diagnostic{Severity: sev, Pos: pos, Field: field, Value: value, Message: fmt.Sprintf(format, args...)})
	return &(*ds)[len(*ds)-1]
}

// Sort orders findings by file, line, column, then severity and message, so
// output is the same on every run.
func (ds Diagnostics) Sort() {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(
			cmp.Compare(a.Pos.File, b.Pos.File),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Col, b.Pos.Col),
			cmp.Compare(a.Severity, b.Severity),
			cmp.Compare(a.Field, b.Field),
			cmp.Compare(a.Message, b.Message),
		)
	})
}

// Count returns the number of findings of one severity.
func (ds Diagnostics) Count(s diag.Severity) int {
	n := 0
	for _, d := range ds {
		if d.Severity == s {
			n++
		}
	}
	return n
}

// Err returns ds as an error when it holds at least one error, else nil.
func (ds Diagnostics) Err() error {
	if ds.Count(Error) == 0 {
		return nil
	}
	return &CheckError{Diagnostics: ds}
}

// CheckError is returned by operations that refuse an invalid corpus; it
// carries every finding so that callers can print them all.
type CheckError struct {
	Diagnostics Diagnostics
}

func (e *CheckError) Error() string {
	n := e.Diagnostics.Count(Error)
	for _, d := range e.Diagnostics {
		if d.Severity == Error {
			if n == 1 {
				return d.String()
			}
			return fmt.Sprintf("%s (and %d more errors)", d, n-1)
		}
	}
	return "corpus check failed"
}

// WriteUnread writes, as prog (masrl stats, masrl diff: commands that
// read a corpus's files without checking it), why err stopped it: the
// positioned errors of a corpus whose files do not read (a *CheckError),
// then a line saying that nothing was counted, which unread is true for;
// any other error as one line "prog: err".
func WriteUnread(w io.Writer, prog string, err error) (unread bool) {
	var ce *CheckError
	if !errors.As(err, &ce) {
		fmt.Fprintf(w, "%s: %v\n", prog, err)
		return false
	}
	for _, d := range ce.Diagnostics {
		fmt.Fprintln(w, d.String())
	}
	fmt.Fprintf(w, "%s: the corpus does not read (%d errors); nothing counted\n", prog, ce.Diagnostics.Count(Error))
	return true
}

// MarshalJSON keeps an empty list as [] rather than null.
func (ds Diagnostics) MarshalJSON() ([]byte, error) {
	if ds == nil {
		return []byte("[]"), nil
	}
	return json.Marshal([]Diagnostic(ds))
}
