package diag

import (
	"fmt"
	"strconv"
	"strings"
)

// Count says how many of noun there are, in words: "1 error", "2
// errors", "0 entries" (the nouns it is given take -s, or -ies for a final
// y). Every summary line of the trace commands counts this way, so that
// a report reads the same whichever package printed it.
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if stem, ok := strings.CutSuffix(noun, "y"); ok {
		return fmt.Sprintf("%d %sies", n, stem)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Annotation is a finding as a GitHub Actions workflow command
// (::error file=F,line=L,col=C,title=T::message): what --format github
// prints, so that a workflow run marks the finding on the file's line.
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
