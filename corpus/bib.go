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
func parseBib(file string, src []byte) ([]BibEntry, Diagnostics) {
	p := &bibParser{file: file, src: src, line: 1, col: 1}
	var entries []BibEntry
	for {
		if !p.skipTo('@') {
			break
		}
		startOff, startLine, startCol := p.off, p.line, p.col
		e, err := p.entry()
		if err != nil {
			p.diags.add(Error, err.pos, "", "", "BibTeX syntax: %s", err.msg)
			continue
		}
		if e == nil {
			continue // comment, preamble or string block
		}
		e.Raw = string(src[startOff:p.off])
		e.Pos = Pos{File: file, Line: startLine, Col: startCol}
		entries = append(entries, *e)
	}
	return entries, p.diags
}

type bibParser struct {
	file      string
	src       []byte
	off       int
	line, col int
	diags     Diagnostics
}

type bibError struct {
	pos Pos
	msg string
}

func (p *bibParser) errorf(format string, args ...any) *bibError {
	return &bibError{Pos{File: p.file, Line: p.line, Col: p.col}, fmt.Sprintf(format, args...)}
}

func (p *bibParser) peek() byte {
	if p.off < len(p.src) {
		return p.src[p.off]
	}
	return 0
}

func (p *bibParser) advance() {
	if p.off >= len(p.src) {
		return
	}
	if p.src[p.off] == '\n' {
		p.line++
		p.col = 1
	} else {
		p.col++
	}
	p.off++
}

// skipTo moves to the next c outside an entry; it reports whether one was found.
func (p *bibParser) skipTo(c byte) bool {
	for p.off < len(p.src) {
		if p.src[p.off] == c {
			return true
		}
		p.advance()
	}
	return false
}

func (p *bibParser) skipSpace() {
	for p.off < len(p.src) {
		switch p.src[p.off] {
		case ' ', '\t', '\r', '\n':
			p.advance()
		case '%': // a comment to the end of the line, as biber accepts
			for p.off < len(p.src) && p.src[p.off] != '\n' {
				p.advance()
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
		p.advance()
	}
	return string(p.src[start:p.off])
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
		p.advance()
	}
	e := &BibEntry{Type: typ, Key: string(p.src[keyStart:p.off]), Fields: map[string]string{}}
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
		val, err := p.value(closeCh)
		if err != nil {
			return nil, err
		}
		if _, dup := e.Fields[name]; dup {
			p.diags.add(Warning, Pos{File: p.file, Line: p.line, Col: p.col}, name, "", "@%s{%s: field %q repeated; the last value is used", typ, e.Key, name)
		}
		e.Fields[name] = val
	}
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// value parses a field value: braced, quoted, a number or a macro name,
// possibly concatenated with '#'.
func (p *bibParser) value(closeCh byte) (string, *bibError) {
	var b strings.Builder
	for {
		p.skipSpace()
		switch c := p.peek(); {
		case c == '{':
			s, err := p.braced('{', '}')
			if err != nil {
				return "", err
			}
			b.WriteString(s)
		case c == '"':
			s, err := p.quoted()
			if err != nil {
				return "", err
			}
			b.WriteString(s)
		case isBibIdentByte(c):
			b.WriteString(p.ident())
		default:
			return "", p.errorf("expected a value, found %q", string(rune(c)))
		}
		p.skipSpace()
		if p.peek() != '#' {
			return collapseSpace(b.String()), nil
		}
		p.advance()
	}
}

// braced reads a group opened by open and closed by the matching closeCh
// (braces inside are balanced) and returns its inside.
func (p *bibParser) braced(open, closeCh byte) (string, *bibError) {
	startLine, startCol := p.line, p.col
	p.advance()
	start := p.off
	depth := 0 // brace depth inside the group
	for p.off < len(p.src) {
		c := p.src[p.off]
		if c == closeCh && depth == 0 {
			s := string(p.src[start:p.off])
			p.advance()
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
		p.advance()
	}
	return "", &bibError{Pos{File: p.file, Line: startLine, Col: startCol}, fmt.Sprintf("%q opened here is never closed", open)}
}

// quoted reads a "..." value; braces inside protect quotes.
func (p *bibParser) quoted() (string, *bibError) {
	startLine, startCol := p.line, p.col
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
				s := string(p.src[start:p.off])
				p.advance()
				return s, nil
			}
		}
		p.advance()
	}
	return "", &bibError{Pos{File: p.file, Line: startLine, Col: startCol}, "quoted value is never closed"}
}

// collapseSpace joins runs of white space into one space, as BibTeX does.
func collapseSpace(s string) string {
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
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
