package awesome

import (
	"bytes"
	"errors"
)

// The markers around the generated list in a README. Everything between
// them belongs to masrl readme; everything outside is left alone.
const (
	BeginMarker = "<!-- BEGIN GENERATED PAPER LIST -->"
	EndMarker   = "<!-- END GENERATED PAPER LIST -->"
)

// ErrNoMarkers is returned when a file lacks the generated-list markers.
var ErrNoMarkers = errors.New("no " + BeginMarker + " ... " + EndMarker + " block")

// ReplaceBlock returns doc with the text between the markers replaced by
// list. The markers stay; the rest of doc is unchanged.
func ReplaceBlock(doc, list []byte) ([]byte, error) {
	i := bytes.Index(doc, []byte(BeginMarker))
	if i < 0 {
		return nil, ErrNoMarkers
	}
	start := i + len(BeginMarker)
	j := bytes.Index(doc[start:], []byte(EndMarker))
	if j < 0 {
		return nil, ErrNoMarkers
	}
	end := start + j
	var out bytes.Buffer
	out.Write(doc[:start])
	out.WriteString("\n")
	out.Write(list)
	if len(list) > 0 && list[len(list)-1] != '\n' {
		out.WriteByte('\n')
	}
	out.Write(doc[end:])
	return out.Bytes(), nil
}
