package main

import (
	"strconv"
	"strings"
)

// annotation is a finding as a GitHub Actions workflow command
// (::error file=F,line=L,col=C,title=T::message), the one encoder of
// check's and trace validate's --format github.
type annotation struct {
	level     string // error or warning
	file      string
	line, col int // 0: not known, left out
	title     string
	message   string
}

// String formats the command, escaping the characters the runner
// interprets: '%', CR and LF everywhere, and ':' and ',' in properties.
func (a annotation) String() string {
	var b strings.Builder
	b.WriteString("::")
	b.WriteString(a.level)
	b.WriteString(" file=")
	b.WriteString(annotationProperty.Replace(a.file))
	if a.line > 0 {
		b.WriteString(",line=" + strconv.Itoa(a.line))
	}
	if a.col > 0 {
		b.WriteString(",col=" + strconv.Itoa(a.col))
	}
	if a.title != "" {
		b.WriteString(",title=" + annotationProperty.Replace(a.title))
	}
	b.WriteString("::")
	b.WriteString(annotationData.Replace(a.message))
	return b.String()
}

// The escapes of workflow-command data and properties. A strings.Replacer
// is safe for concurrent use and holds no state between calls.
var (
	annotationData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	annotationProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)
