package trace

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/masrl/masrl/internal/diag"
)

// Error and Warning are the severities of a finding (diag.Severity,
// shared with the corpus check and the OTLP importer). Error findings make
// the trace invalid; Warning findings point at something suspicious that a
// trace may still legitimately contain (an edge back in time, a cycle),
// which Options.Strict turns into errors.
const (
	Error   = diag.Error
	Warning = diag.Warning
)

// Rules name the check behind a finding, so that tools can filter on them.
const (
	RuleSyntax    = "syntax"    // malformed JSON; the scan stops there
	RuleDuplicate = "duplicate" // an object key given twice
	RuleUTF8      = "utf8"      // a string that is not valid UTF-8
	RuleRange     = "range"     // a number beyond the range of a float64
	RuleSchema    = "schema"    // a violation of trace.schema.json
	RuleUniqueID  = "unique-id" // two events with the same id
	RuleEdgeRef   = "edge-ref"  // an edge naming an event that does not exist
	RuleEdgeTime  = "edge-time" // an edge whose dst happens before its src
	RuleCycle     = "cycle"     // a cycle in the event graph
	RuleTruncated = "truncated" // summary of findings left out of the report
)

// Finding is one problem in a trace, located by the JSON Pointer of the
// failing value (RFC 6901; "" is the whole document) and by line and byte
// column, both 1-based.
type Finding struct {
	Pointer  string        `json:"pointer"`
	Line     int           `json:"line"`
	Col      int           `json:"col"`
	Severity diag.Severity `json:"severity"`
	Rule     string        `json:"rule"`
	Message  string        `json:"message"`
}

// String formats a finding the way the text report prints it after the
// file name: "line:col: error: /events/3/type: message".
func (f Finding) String() string {
	p := f.Pointer
	if p == "" {
		p = "(root)"
	}
	return fmt.Sprintf("%d:%d: %s: %s: %s", f.Line, f.Col, f.Severity, p, f.Message)
}

// sortFindings orders findings by position, then pointer and message, so
// that reports are deterministic and read top to bottom.
func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		if a.Pointer != b.Pointer {
			return a.Pointer < b.Pointer
		}
		return a.Message < b.Message
	})
}

// pathElem is one reference token of a JSON Pointer under construction:
// an object key, or an array index when idx >= 0.
type pathElem struct {
	key string
	idx int
}

// pointerOf renders a path as a JSON Pointer, escaping '~' and '/'.
func pointerOf(path []pathElem) string {
	var b strings.Builder
	for _, e := range path {
		b.WriteByte('/')
		if e.idx >= 0 {
			b.WriteString(strconv.Itoa(e.idx))
			continue
		}
		if strings.ContainsAny(e.key, "~/") {
			b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(e.key))
		} else {
			b.WriteString(e.key)
		}
	}
	return b.String()
}

// quoteList renders allowed values as ["a", "b"] for messages.
func quoteList(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = strconv.Quote(v)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
