package importer

import (
	"bytes"
	"regexp"
)

// Detect names the format of src from its content, not its name: JSON
// (an array or object) is CSL JSON; a file with a BibTeX entry
// ("@article{") at the start of a line and no Markdown heading is
// BibTeX; anything else is Markdown.
func Detect(src []byte) Format {
	t := bytes.TrimSpace(bytes.TrimPrefix(src, []byte("\xef\xbb\xbf")))
	switch {
	case len(t) > 0 && (t[0] == '[' || t[0] == '{') && jsonish(t):
		return CSLJSON
	case bibStart.Match(t) && !mdHeadingLine.Match(t):
		return BibTeX
	}
	return Markdown
}

// jsonish reports whether t, which starts with a bracket, goes on as
// JSON does rather than as a Markdown link ("[Title](url)") or badge.
func jsonish(t []byte) bool {
	t = bytes.TrimLeft(t[1:], " \t\r\n")
	return len(t) > 0 && (t[0] == '{' || t[0] == '"' || t[0] == ']' || t[0] == '}')
}

var (
	// bibStart is an entry's start at the beginning of a line.
	bibStart = regexp.MustCompile(`(?m)^[ \t]*@[A-Za-z]+[ \t]*\{`)
	// mdHeadingLine is an ATX heading: a README that shows BibTeX in a
	// code block is still a README.
	mdHeadingLine = regexp.MustCompile(`(?m)^#{1,6}[ \t]`)
)
