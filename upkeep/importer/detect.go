package importer

import (
	"bytes"
	"regexp"
)

// jsonish reports whether t looks like JSON rather than a Markdown link
// or heading starting with a bracket.
func jsonish(t []byte) bool {
	t = bytes.TrimLeft(t[1:], " \t\r\n")
	return len(t) > 0 && (t[0] == '{' || t[0] == '"' || t[0] == ']' || t[0] == '}')
}

var bibStart = regexp.MustCompile(`(?m)^\s*@[A-Za-z]+\s*\{`)

func bibEntryStart(t []byte) bool { return bibStart.Match(t) && !bytes.Contains(t, []byte("\n# ")) }
