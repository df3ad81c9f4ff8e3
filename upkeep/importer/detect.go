package importer

import (
	"bytes"
	"regexp"
)

// Detect names the format of src from its content, not its name: JSON
// (an array or object) is CSL JSON; a file with a BibTeX entry
// ("@article{") at the start of a line outside fenced code blocks is
// BibTeX unless that text also has a Markdown link (a README that cites
// itself); anything else is Markdown. Headings alone do not make a
// README: real .bib files group their entries under "# Topic" lines.
func Detect(src []byte) Format {
	t := bytes.TrimSpace(bytes.TrimPrefix(src, []byte("\xef\xbb\xbf")))
	switch {
	case len(t) > 0 && (t[0] == '[' || t[0] == '{') && jsonish(t):
		return CSLJSON
	}
	if out := outsideFences(t); bibStart.Match(out) && !mdLink.Match(out) {
		return BibTeX
	}
	return Markdown
}

// outsideFences is t without the lines of its fenced code blocks (```
// or ~~~), where READMEs show the BibTeX to cite them by.
func outsideFences(t []byte) []byte {
	var b bytes.Buffer
	var fence []byte
	for line := range bytes.Lines(t) {
		trimmed := bytes.TrimLeft(line, " ")
		if fence == nil && (bytes.HasPrefix(trimmed, []byte("```")) || bytes.HasPrefix(trimmed, []byte("~~~"))) {
			fence = trimmed[:3]
			continue
		}
		if fence != nil {
			if bytes.HasPrefix(trimmed, fence) {
				fence = nil
			}
			continue
		}
		b.Write(line)
	}
	return b.Bytes()
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
	// mdLink is a Markdown link or badge, which no BibTeX file has.
	mdLink = regexp.MustCompile(`\]\([^)\s]+\)`)
)
