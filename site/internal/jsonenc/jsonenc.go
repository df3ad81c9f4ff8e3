// Package jsonenc writes the JSON strings of the site's data files
// (papers.json, excluded.json, the search index) as encoding/json does,
// without its reflection: those files' rows are written field by field,
// since json.Marshal's reflection and map sorting per row were a
// twentieth of a 10,000-entry build's CPU (bench/profile/build-10k-5.md).
package jsonenc

import "encoding/json"

// AppendString appends s as json.Marshal encodes a string. A string of
// printable ASCII without ", \, <, > and & (almost every value) is
// quoted as it is; any other goes through json.Marshal, whose escapes
// (HTML characters, control characters, U+2028 and U+2029, invalid
// UTF-8) are then the encoding's own.
func AppendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
