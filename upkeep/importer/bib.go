package importer

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/masrl/masrl/corpus"
	"golang.org/x/text/unicode/norm"
)

// readBib reads a BibTeX file: each entry an Entry, its keywords (or
// opt.TagField) the values of Field. A syntax error is a problem at its
// position, and parsing resumes at the next entry.
func (r *Result) readBib(name string, src []byte, opt Options) error {
	entries, diags := corpus.ParseBib(name, src)
	for _, d := range diags {
		r.Problems = append(r.Problems, Problem{Pos: fmt.Sprintf("%s:%d", name, d.Pos.Line), Msg: d.Message})
	}
	tagField := strings.ToLower(opt.TagField)
	if tagField == "" {
		tagField = "keywords"
	}
	for i := range entries {
		b := &entries[i]
		f := b.Fields
		e := &Entry{
			format:  BibTeX,
			Pos:     fmt.Sprintf("%s:%d", name, b.Pos.Line),
			Title:   oneLine(texText(f["title"])),
			ArxivID: b.ArxivID(),
			URL:     strings.TrimSpace(corpus.BibText(f["url"])),
			Code:    strings.TrimSpace(corpus.BibText(f["code"])),
			Project: strings.TrimSpace(corpus.BibText(f["project"])),
		}
		if doi, ok := corpus.ParseDOI(corpus.BibText(f["doi"])); ok {
			e.DOI = doi
		}
		if e.URL != "" {
			takeIDs(e, e.URL)
		}
		names, _ := corpus.BibAuthors(texText(f["author"]))
		for _, n := range names {
			e.Authors = append(e.Authors, personName(n))
		}
		for _, v := range []string{"booktitle", "journal"} {
			if s := oneLine(texText(f[v])); s != "" && !strings.HasPrefix(strings.ToLower(s), "arxiv") {
				e.Venue, e.venueField = s, v
				break
			}
		}
		if y, err := strconv.Atoi(strings.TrimSpace(corpus.BibText(f["year"]))); err == nil && y > 1000 && y < 10000 {
			e.Year = y
			e.Date = strconv.Itoa(y)
			if m := month(f["month"]); m != "" {
				e.Date += "-" + m
			}
		}
		for t := range strings.FieldsFuncSeq(texText(f[tagField]), func(r rune) bool { return r == ',' || r == ';' }) {
			if t = oneLine(t); t != "" {
				if v := r.addValue(t, ""); !slices.Contains(e.Values, v) {
					e.Values = append(e.Values, v)
				}
			}
		}
		r.finish(e)
	}
	if len(entries) == 0 && len(diags) == 0 {
		return fmt.Errorf("%s: no BibTeX entry (@article{...}) found", name)
	}
	return nil
}

// month reads a BibTeX month (5, may, May, {May}) as MM.
func month(s string) string {
	s = strings.ToLower(strings.TrimSpace(corpus.BibText(s)))
	if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= 12 {
		return fmt.Sprintf("%02d", n)
	}
	for i, m := range []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"} {
		if strings.HasPrefix(s, m) {
			return fmt.Sprintf("%02d", i+1)
		}
	}
	return ""
}

// texAccents are LaTeX's accent commands and the combining marks they
// stand for.
var texAccents = map[byte]rune{'"': '\u0308', '\'': '\u0301', '`': '\u0300', '^': '\u0302', '~': '\u0303', '=': '\u0304', '.': '\u0307', 'c': '\u0327', 'v': '\u030c', 'u': '\u0306', 'H': '\u030b', 'k': '\u0328'}

// texText unescapes the LaTeX of a BibTeX value into plain text: accents
// ({\"o}, \'{e}) become letters, \& \% \_ \$ \# their characters, --- and
// -- dashes, ~ a space, and grouping braces go.
func texText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			n := s[i+1]
			if mark, ok := texAccents[n]; ok && (n < 'a' || n > 'z' || i+2 < len(s) && (s[i+2] == '{' || s[i+2] == ' ')) {
				j := i + 2
				for j < len(s) && (s[j] == '{' || s[j] == ' ') {
					j++
				}
				if j < len(s) {
					if s[j] == '\\' && j+1 < len(s) && (s[j+1] == 'i' || s[j+1] == 'j') {
						j++ // \i, \j: dotless i and j
					}
					b.WriteByte(s[j])
					b.WriteRune(mark)
					i = j
					continue
				}
			}
			switch n {
			case '&', '%', '_', '$', '#', '{', '}':
				b.WriteByte(n)
				i++
				continue
			}
			// Another command (\emph, \textbf): drop its name, keep its argument.
			j := i + 1
			for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z') {
				j++
			}
			if word := s[i+1 : j]; word == "ss" {
				b.WriteString("ß")
			} else if word == "o" {
				b.WriteString("ø")
			} else if word == "ae" {
				b.WriteString("æ")
			} else if word == "l" {
				b.WriteString("ł")
			}
			i = j - 1
		case c == '{' || c == '}' || c == '$':
		case c == '~':
			b.WriteByte(' ')
		case c == '-' && strings.HasPrefix(s[i:], "---"):
			b.WriteString("—")
			i += 2
		case c == '-' && strings.HasPrefix(s[i:], "--"):
			b.WriteString("–")
			i++
		default:
			b.WriteByte(c)
		}
	}
	return norm.NFC.String(b.String())
}
