package site

import "strings"

// htmlBuf builds HTML by hand for the few pieces of the site that exist
// once per entry (its page and its list items): html/template spends most
// of a large build calling its escapers and looking up fields by
// reflection, about 90 µs for an entry page, which at 100,000 entries was
// more than half of the build's CPU time. The methods escape exactly as
// html/template does in the contexts these pieces use, so the output is
// byte for byte the templates' own: entryhtml_test.go renders every entry
// both ways and compares, and fuzzes the comparison. The templates stay
// the reference; change both together.
type htmlBuf []byte

// raw appends markup written by the site itself.
func (b *htmlBuf) raw(s string) { *b = append(*b, s...) }

// text appends s as text, RCDATA (a title) or a quoted attribute value
// whose attribute is not a URL: html/template's htmlEscaper and
// attrEscaper, which replace these bytes and pass every other byte,
// valid UTF-8 or not, as it is.
func (b *htmlBuf) text(s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var r string
		switch s[i] {
		case 0:
			r = "\uFFFD"
		case '"':
			r = "&#34;"
		case '&':
			r = "&amp;"
		case '\'':
			r = "&#39;"
		case '+':
			r = "&#43;"
		case '<':
			r = "&lt;"
		case '>':
			r = "&gt;"
		default:
			continue
		}
		*b = append(*b, s[last:i]...)
		*b = append(*b, r...)
		last = i + 1
	}
	*b = append(*b, s[last:]...)
}

// url appends s as the start of a quoted URL attribute's value: a URL
// whose scheme is not http, https or mailto becomes "#ZgotmplZ", as
// html/template's urlFilter makes it, and the rest is urlPart.
func (b *htmlBuf) url(s string) {
	if scheme, _, ok := strings.Cut(s, ":"); ok && !strings.Contains(scheme, "/") &&
		!strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") && !strings.EqualFold(scheme, "mailto") {
		s = "#ZgotmplZ"
	}
	b.urlPart(s)
}

// urlPart appends s as a later part of a quoted URL attribute's value,
// before any query: html/template's urlNormalizer (percent-encode every
// byte that is neither unreserved nor reserved in RFC 3986, keep existing
// escapes) followed by its attrEscaper.
func (b *htmlBuf) urlPart(s string) {
	const hex = "0123456789abcdef"
	last := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
			continue
		case strings.IndexByte("-._~!#$&*+,/:;=?@[]%", c) >= 0:
			continue // text escapes the & and + among them
		}
		b.text(s[last:i])
		*b = append(*b, '%', hex[c>>4], hex[c&15])
		last = i + 1
	}
	b.text(s[last:])
}
