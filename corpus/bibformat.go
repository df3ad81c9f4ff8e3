package corpus

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
)

// FormatBib returns a BibTeX database in canonical form, as bibtex-tidy
// would align it:
//
//	@article{magrpo2025,
//	  title   = {{LLM} Collaboration With Multi-Agent Reinforcement Learning},
//	  author  = {Liu, Shuo and Amato, Christopher and others},
//	  journal = {arXiv preprint arXiv:2508.04652},
//	  year    = {2025},
//	}
//
// Entries keep their order (the file's section comments belong to the
// entries under them); the entry type and field names are lowercased; the
// fields follow bibFieldRank (the usual citation order, unknown fields last
// by name, a repeated field kept after its first); two spaces of indent,
// '=' aligned within the entry, a comma after every field. A value written
// in braces or quotes is written in braces with its runs of white space
// collapsed, as BibTeX reads it; a number is braced; a macro name or a '#'
// concatenation is kept as written. Text between entries (comments) is
// kept, trailing spaces trimmed, one blank line between items. @string,
// @preamble and @comment blocks, and an entry with a comment inside, are
// kept verbatim. A file with a syntax error is returned unchanged, with
// the errors.
func FormatBib(name string, src []byte) ([]byte, error) {
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	if _, ds := parseBib(name, src); ds.Count(Error) > 0 {
		ds.Sort()
		return src, ds.Err()
	}
	p := &bibParser{file: name, src: string(src), line: 1}
	var items []string
	for {
		start := p.off
		found := p.skipTo('@')
		if t := formatBibText(string(src[start:p.off])); t != "" {
			items = append(items, t)
		}
		if !found {
			break
		}
		entryStart := p.off
		s, ok := p.formatEntry()
		if !ok {
			s = string(src[entryStart:p.off])
		}
		items = append(items, s)
	}
	if len(items) == 0 {
		return nil, nil
	}
	return []byte(strings.Join(items, "\n\n") + "\n"), nil
}

// formatBibText normalises the text between entries: trailing spaces off,
// no leading or trailing blank lines, at most one blank line in a row.
func formatBibText(s string) string {
	var out []string
	blank := false
	for line := range strings.SplitSeq(s, "\n") {
		line = strings.TrimRight(line, " \t\r")
		if line == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// bibField is one field as written: its lowercased name and the pieces of
// its value ('#' joins several).
type bibField struct {
	name   string
	pieces []bibPiece
}

type bibPiece struct {
	delim byte // '{', '"' or 0 for a number or macro name
	text  string
}

// formatEntry reads the entry starting at '@' and returns it in canonical
// form; ok is false when it must be kept verbatim (a @string, @preamble or
// @comment block, or a comment inside the entry). FormatBib has parsed the
// file without error first, so the grammar holds here.
func (p *bibParser) formatEntry() (string, bool) {
	typ, key, fields, ok := p.readEntry()
	if !ok {
		return "", false
	}
	return formatBibEntry(typ, key, fields), true
}

// readEntry reads the entry starting at '@' into its lowercased type, its
// key and its fields as written; ok is false as for formatEntry, and the
// key is still returned for an entry with a comment inside. The source
// must parse without error.
func (p *bibParser) readEntry() (typ, key string, fields []bibField, ok bool) {
	p.advance() // '@'
	typ = strings.ToLower(p.ident())
	verbatim := p.skipSpaceSawComment()
	open := p.peek()
	closeCh := byte('}')
	if open == '(' {
		closeCh = ')'
	}
	if typ == "comment" || typ == "preamble" || typ == "string" {
		p.braced(open, closeCh)
		return typ, "", nil, false
	}
	p.advance()
	if p.skipSpaceSawComment() {
		verbatim = true
	}
	keyStart := p.off
	for p.off < len(p.src) && p.src[p.off] != ',' && p.src[p.off] != closeCh && !isSpaceByte(p.src[p.off]) {
		p.advance()
	}
	key = p.src[keyStart:p.off]
	// A key holding a delimiter or '%' is legal between parentheses but
	// would read differently in the canonical form: keep such an entry.
	verbatim = verbatim || strings.ContainsAny(key, "{}()%")
	for p.off < len(p.src) {
		if p.skipSpaceSawComment() {
			verbatim = true
		}
		switch p.peek() {
		case ',':
			p.advance()
			continue
		case closeCh:
			p.advance()
			return typ, key, fields, !verbatim
		}
		f := bibField{name: strings.ToLower(p.ident())}
		p.skipSpaceSawComment()
		p.advance() // '='
		for {
			if p.skipSpaceSawComment() {
				verbatim = true
			}
			switch c := p.peek(); {
			case c == '{':
				s, _ := p.braced('{', '}')
				f.pieces = append(f.pieces, bibPiece{'{', s})
			case c == '"':
				s, _ := p.quoted()
				f.pieces = append(f.pieces, bibPiece{'"', s})
			default:
				f.pieces = append(f.pieces, bibPiece{0, p.ident()})
			}
			if p.skipSpaceSawComment() {
				verbatim = true
			}
			if p.peek() != '#' {
				break
			}
			p.advance()
		}
		fields = append(fields, f)
	}
	return typ, key, fields, false
}

// skipSpaceSawComment skips white space and comments like skipSpace and
// reports whether it skipped a comment, which formatting would lose.
func (p *bibParser) skipSpaceSawComment() bool {
	start := p.off
	p.skipSpace()
	return strings.IndexByte(p.src[start:p.off], '%') >= 0
}

// compareBibFields orders field names as a formatted entry does: by
// bibFieldRank, unknown fields by name, a repeated field kept in place.
func compareBibFields(a, b string) int {
	ra, rb := bibFieldRank(a), bibFieldRank(b)
	if ra != rb {
		return cmp.Compare(ra, rb)
	}
	if ra == len(bibFieldOrder) {
		return cmp.Compare(a, b)
	}
	return 0
}

// SortBibFields sorts lowercase field names in the order FormatBib
// writes them, and returns them.
func SortBibFields(names []string) []string {
	slices.SortStableFunc(names, compareBibFields)
	return names
}

func formatBibEntry(typ, key string, fields []bibField) string {
	slices.SortStableFunc(fields, func(a, b bibField) int { return compareBibFields(a.name, b.name) })
	width := 0
	for _, f := range fields {
		width = max(width, len(f.name))
	}
	var b strings.Builder
	b.WriteString("@" + typ + "{" + key + ",\n")
	for _, f := range fields {
		b.WriteString("  " + f.name + strings.Repeat(" ", width-len(f.name)) + " = " + formatBibValue(f.pieces) + ",\n")
	}
	b.WriteString("}")
	return b.String()
}

// formatBibValue writes a value. A lone braced or quoted value is braced
// with its white space collapsed (the value BibTeX and parseBib read);
// a quoted value whose braces do not balance stays quoted. Pieces joined
// by '#' are kept as written, because collapsing each piece alone could
// join words across the '#'.
func formatBibValue(pieces []bibPiece) string {
	if len(pieces) == 1 {
		pc := pieces[0]
		switch {
		case pc.delim == '{' || (pc.delim == '"' && balancedBraces(pc.text)):
			return "{" + collapseSpace(pc.text) + "}"
		case pc.delim == '"':
			return `"` + collapseSpace(pc.text) + `"`
		case isDigits(pc.text):
			return "{" + pc.text + "}"
		}
		return pc.text
	}
	parts := make([]string, len(pieces))
	for i, pc := range pieces {
		switch pc.delim {
		case '{':
			parts[i] = "{" + pc.text + "}"
		case '"':
			parts[i] = `"` + pc.text + `"`
		default:
			parts[i] = pc.text
		}
	}
	return strings.Join(parts, " # ")
}

func balancedBraces(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// bibFieldOrder is the order of fields in a formatted entry: what a reader
// of a citation looks for first, then identifiers, then notes.
const bibFieldOrder = "title author editor booktitle journal series volume number pages year month publisher organization institution school address edition eprint archiveprefix primaryclass doi isbn issn url howpublished note"

// bibFieldRank is a field's place in bibFieldOrder; fields not listed
// rank after all of them (len(bibFieldOrder)).
func bibFieldRank(name string) int {
	for i, f := range strings.Fields(bibFieldOrder) {
		if f == name {
			return i
		}
	}
	return len(bibFieldOrder)
}
