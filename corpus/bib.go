package corpus

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// BibEntry is one entry of papers.bib.
type BibEntry struct {
	Type   string            `json:"type"` // lowercased, e.g. "article"
	Key    string            `json:"key"`
	Fields map[string]string `json:"fields"` // lowercased names; values with outer braces or quotes removed
	Raw    string            `json:"-"`      // the entry's exact source text, for copying and download
	Pos    Pos               `json:"-"`
}

// ArxivID returns the arXiv identifier the entry cites, from eprint,
// journal ("arXiv preprint arXiv:…"), url or note, without version.
func (b *BibEntry) ArxivID() string {
	if id := baseArxivID(strings.TrimSpace(b.Fields["eprint"])); IsArxivID(id) {
		return id
	}
	for _, f := range []string{"journal", "url", "note", "howpublished"} {
		if id := findArxivID(b.Fields[f]); id != "" {
			return id
		}
	}
	return ""
}

// parseBib reads a BibTeX database. It is a small parser of its own
// because the format is simple and positions matter: each entry keeps its
// line, and every syntax error is reported with line and column, after which
// parsing resumes at the next '@'. @comment, @preamble and @string blocks
// are skipped (string macros stay unexpanded).
//
// The source is copied into one string and every key, name, value and Raw
// is a piece of it, so that an entry costs its map and little else; lines
// and columns are counted only where a position is kept (bibParser.posAt),
// not byte by byte: at 10,000 entries this made parsing four times faster.
func parseBib(file string, src []byte) ([]BibEntry, Diagnostics) {
	return parseBibText(file, string(src))
}

// ParseBib reads a BibTeX file of any name (masrl import's sources) as
// papers.bib is read: its entries, and every syntax error at its
// file:line:col.
func ParseBib(file string, src []byte) ([]BibEntry, Diagnostics) {
	return parseBib(file, src)
}

// parseBibText is parseBib of a text already a string.
func parseBibText(file, src string) ([]BibEntry, Diagnostics) {
	p := &bibParser{file: file, src: src, line: 1}
	var entries []BibEntry
	for {
		if !p.skipTo('@') {
			break
		}
		startOff := p.off
		start := p.posAt(startOff)
		e, err := p.entry()
		if err != nil {
			p.diags.add(Error, err.pos, "", "", "BibTeX syntax: %s", err.msg)
			continue
		}
		if e == nil {
			continue // comment, preamble or string block
		}
		e.Raw = p.src[startOff:p.off]
		e.Pos = start
		entries = append(entries, *e)
	}
	bibTextProblems(file, src, &p.diags)
	return entries, p.diags
}

// bibTextProblems reports what textProblems finds in each line of src, at
// its exact line and column: papers.bib is published as it is and its
// fields are shown on the entry pages. A line is the unit because a line
// end closes every bidi embedding in the <pre> the site shows it in.
func bibTextProblems(file, src string, ds *Diagnostics) {
	if crOnly([]byte(src[:min(len(src), 1<<16)])) {
		// The parser reads CRs as white space, so the entries still
		// parse, but every position would be on line 1.
		ds.add(Error, Pos{File: file, Line: 1, Col: 1}, "", "", "%s", crOnlyMessage)
	}
	line := 1
	for rest := src; rest != ""; line++ {
		text, next, _ := strings.Cut(rest, "\n")
		for _, tp := range textProblems(text) {
			ds.add(Error, Pos{File: file, Line: line, Col: tp.at + 1}, "bib", "", "%s", tp.message(""))
		}
		rest = next
	}
}

type bibParser struct {
	file  string
	src   string
	off   int
	diags Diagnostics
	// line is the line of the byte at lineOff, and lineStart the offset
	// at which that line starts: the cursor posAt moves forward.
	line, lineOff, lineStart int
}

type bibError struct {
	pos Pos
	msg string
}

// posAt returns the position of the byte at offset off: its line, and its
// column counted in bytes from 1. Positions are asked for in increasing
// order, so the cursor only moves forward and counting stays linear; an
// earlier offset counts again from the start.
func (p *bibParser) posAt(off int) Pos {
	if off < p.lineOff {
		p.line, p.lineOff, p.lineStart = 1, 0, 0
	}
	if seg := p.src[p.lineOff:off]; len(seg) > 0 {
		if n := strings.Count(seg, "\n"); n > 0 {
			p.line += n
			p.lineStart = p.lineOff + strings.LastIndexByte(seg, '\n') + 1
		}
		p.lineOff = off
	}
	return Pos{File: p.file, Line: p.line, Col: off - p.lineStart + 1}
}

func (p *bibParser) errorf(format string, args ...any) *bibError {
	return &bibError{p.posAt(p.off), fmt.Sprintf(format, args...)}
}

func (p *bibParser) peek() byte {
	if p.off < len(p.src) {
		return p.src[p.off]
	}
	return 0
}

// advance moves past one byte, never beyond the end.
func (p *bibParser) advance() {
	if p.off < len(p.src) {
		p.off++
	}
}

// skipTo moves to the next c outside an entry; it reports whether one was found.
func (p *bibParser) skipTo(c byte) bool {
	if i := strings.IndexByte(p.src[p.off:], c); i >= 0 {
		p.off += i
		return true
	}
	p.off = len(p.src)
	return false
}

func (p *bibParser) skipSpace() {
	for p.off < len(p.src) {
		switch p.src[p.off] {
		case ' ', '\t', '\r', '\n':
			p.off++
		case '%': // a comment to the end of the line, as biber accepts
			if i := strings.IndexByte(p.src[p.off:], '\n'); i >= 0 {
				p.off += i
			} else {
				p.off = len(p.src)
			}
		default:
			return
		}
	}
}

func isBibIdentByte(c byte) bool {
	return c > ' ' && c < 0x7f && !strings.ContainsRune(`{}(),="#%'@`, rune(c))
}

func (p *bibParser) ident() string {
	start := p.off
	for p.off < len(p.src) && isBibIdentByte(p.src[p.off]) {
		p.off++
	}
	return p.src[start:p.off]
}

// entry parses one @type{key, field = value, ...} starting at '@'.
func (p *bibParser) entry() (*BibEntry, *bibError) {
	p.advance() // '@'
	typ := strings.ToLower(p.ident())
	if typ == "" {
		return nil, p.errorf("expected an entry type after '@'")
	}
	p.skipSpace()
	open := p.peek()
	if open != '{' && open != '(' {
		return nil, p.errorf("expected '{' after @%s", typ)
	}
	closeCh := byte('}')
	if open == '(' {
		closeCh = ')'
	}
	if typ == "comment" || typ == "preamble" || typ == "string" {
		if _, err := p.braced(open, closeCh); err != nil {
			return nil, err
		}
		return nil, nil
	}
	p.advance()
	p.skipSpace()
	keyStart := p.off
	for p.off < len(p.src) && p.src[p.off] != ',' && p.src[p.off] != closeCh && !isSpaceByte(p.src[p.off]) {
		p.off++
	}
	e := &BibEntry{Type: typ, Key: p.src[keyStart:p.off], Fields: map[string]string{}}
	if e.Key == "" {
		return nil, p.errorf("@%s has no key", typ)
	}
	for {
		p.skipSpace()
		switch p.peek() {
		case ',':
			p.advance()
			continue
		case closeCh:
			p.advance()
			return e, nil
		case 0:
			return nil, p.errorf("@%s{%s: end of file before the closing %q", typ, e.Key, closeCh)
		}
		name := strings.ToLower(p.ident())
		if name == "" {
			return nil, p.errorf("@%s{%s: expected a field name, found %q", typ, e.Key, p.peek())
		}
		p.skipSpace()
		if p.peek() != '=' {
			return nil, p.errorf("@%s{%s: expected '=' after field %q", typ, e.Key, name)
		}
		p.advance()
		val, err := p.value()
		if err != nil {
			return nil, err
		}
		if _, dup := e.Fields[name]; dup {
			p.diags.add(Warning, p.posAt(p.off), name, "", "@%s{%s: field %q repeated; the last value is used", typ, e.Key, name)
		}
		e.Fields[name] = val
	}
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// value parses a field value: braced, quoted, a number or a macro name,
// possibly concatenated with '#'.
func (p *bibParser) value() (string, *bibError) {
	var first string
	var b strings.Builder // the pieces after the first, when there are several
	for n := 0; ; n++ {
		p.skipSpace()
		var s string
		switch c := p.peek(); {
		case c == '{':
			var err *bibError
			if s, err = p.braced('{', '}'); err != nil {
				return "", err
			}
		case c == '"':
			var err *bibError
			if s, err = p.quoted(); err != nil {
				return "", err
			}
		case isBibIdentByte(c):
			s = p.ident()
		default:
			return "", p.errorf("expected a value, found %q", string(rune(c)))
		}
		switch n {
		case 0:
			first = s
		case 1:
			b.WriteString(first)
			fallthrough
		default:
			b.WriteString(s)
		}
		p.skipSpace()
		if p.peek() != '#' {
			if n == 0 {
				return collapseSpace(first), nil
			}
			return collapseSpace(b.String()), nil
		}
		p.advance()
	}
}

// braced reads a group opened by open and closed by the matching closeCh
// (braces inside are balanced) and returns its inside.
func (p *bibParser) braced(open, closeCh byte) (string, *bibError) {
	openOff := p.off
	p.advance()
	start := p.off
	// Most groups hold no brace before their end: two byte searches find
	// that end without the loop below.
	if i := strings.IndexByte(p.src[start:], closeCh); i >= 0 && strings.IndexByte(p.src[start:start+i], '{') < 0 &&
		(closeCh == '}' || strings.IndexByte(p.src[start:start+i], '}') < 0) {
		p.off = start + i + 1
		return p.src[start : start+i], nil
	}
	depth := 0 // brace depth inside the group
	for p.off < len(p.src) {
		c := p.src[p.off]
		if c == closeCh && depth == 0 {
			s := p.src[start:p.off]
			p.off++
			return s, nil
		}
		switch c {
		case '{':
			depth++
		case '}':
			depth--
			if depth < 0 {
				return "", p.errorf("unbalanced '}'")
			}
		}
		p.off++
	}
	return "", &bibError{p.posAt(openOff), fmt.Sprintf("%q opened here is never closed", open)}
}

// quoted reads a "..." value; braces inside protect quotes.
func (p *bibParser) quoted() (string, *bibError) {
	openOff := p.off
	p.advance()
	start := p.off
	depth := 0
	for p.off < len(p.src) {
		switch p.src[p.off] {
		case '{':
			depth++
		case '}':
			depth--
		case '"':
			if depth == 0 {
				s := p.src[start:p.off]
				p.off++
				return s, nil
			}
		}
		p.off++
	}
	return "", &bibError{p.posAt(openOff), "quoted value is never closed"}
}

// collapseSpace joins runs of white space into one space, as BibTeX does.
// A value already in that form, the common case, is returned as it is.
func collapseSpace(s string) string {
	collapsed := true
	for i := 0; i < len(s) && collapsed; i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf, c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			collapsed = false // non-ASCII may hold white space of its own (U+00A0)
		case c == ' ':
			collapsed = i > 0 && i < len(s)-1 && s[i-1] != ' '
		}
	}
	if collapsed {
		return s
	}
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

// BibAuthors splits a BibTeX author list ("Liu, Shuo and Amato,
// Christopher and others") into names, without TeX braces and without
// BibTeX's "others", which names nobody: etAl reports that it was there,
// so that a display can say "et al." instead of showing an author named
// "others".
func BibAuthors(field string) (names []string, etAl bool) {
	for a := range strings.SplitSeq(BibText(field), " and ") {
		a = strings.Join(strings.Fields(a), " ")
		switch a {
		case "":
		case "others":
			etAl = true
		default:
			names = append(names, a)
		}
	}
	return names, etAl
}

// BibText returns a field's value with TeX grouping braces removed, for display.
func BibText(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return strings.Map(func(r rune) rune {
		if r == '{' || r == '}' {
			return -1
		}
		return r
	}, s)
}
