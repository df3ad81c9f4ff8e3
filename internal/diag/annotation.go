package diag

import (
	"strconv"
	"strings"
)

// Annotation is a finding as a GitHub Actions workflow command
// (::error file=F,line=L,col=C,title=T::message): the one encoder of the
// --format github reports (masrl check's and links' corpus findings,
// trace validate's trace findings), so that a workflow shows every kind
// of finding alike.
type Annotation struct {
	Severity  Severity
	File      string
	Line, Col int // 0: not known, left out
	Title     string
	Message   string
}

// String formats the command, escaping the characters the runner
// interprets: '%', CR and LF everywhere, and ':' and ',' in properties.
func (a Annotation) String() string {
	var b strings.Builder
	b.WriteString("::")
	b.WriteString(a.Severity.String())
	b.WriteString(" file=")
	b.WriteString(annotationProperty.Replace(a.File))
	if a.Line > 0 {
		b.WriteString(",line=" + strconv.Itoa(a.Line))
	}
	if a.Col > 0 {
		b.WriteString(",col=" + strconv.Itoa(a.Col))
	}
	if a.Title != "" {
		b.WriteString(",title=" + annotationProperty.Replace(a.Title))
	}
	b.WriteString("::")
	b.WriteString(annotationData.Replace(a.Message))
	return b.String()
}

// The escapes of workflow-command data and properties. A strings.Replacer
// is safe for concurrent use and holds no state between calls.
var (
	annotationData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	annotationProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)
