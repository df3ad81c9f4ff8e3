package corpus

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/url"
	"unicode/utf8"
)

// This file is the one definition of what text from a contributor may hold
// before masrl publishes it in CSV, BibTeX, JSON and HTML. Every cell of
// every corpus CSV (csvStream.step) and every line of papers.bib
// (parseBibText) passes through textProblems; every CSV masrl writes for
// people to open in a spreadsheet passes its cells through DefuseFormula.

// textProblem is one thing wrong with a piece of text: at is the byte
// offset in the text where it starts, what names the character (state,
// when set, says what is wrong with it) and fix says what would be right.
type textProblem struct {
	at               int
	what, state, fix string
}

// message renders the problem after where, the position in words ("at
// byte 3 of the field"), or with where empty when the position says it.
func (tp textProblem) message(where string) string {
	m := tp.what
	if where != "" {
		m += " " + where
	}
	if tp.state != "" {
		m += " " + tp.state
	}
	return m + "; " + tp.fix
}

// bidiName names the bidirectional formatting characters. The openers
// (embeddings, overrides, isolates) change the direction of every
// character after them until their closer; left open in a title they
// reverse the year, venue and authors printed after it on a list page.
var bidiName = map[rune]string{
	'\u202A': "LEFT-TO-RIGHT EMBEDDING",
	'\u202B': "RIGHT-TO-LEFT EMBEDDING",
	'\u202C': "POP DIRECTIONAL FORMATTING",
	'\u202D': "LEFT-TO-RIGHT OVERRIDE",
	'\u202E': "RIGHT-TO-LEFT OVERRIDE",
	'\u2066': "LEFT-TO-RIGHT ISOLATE",
	'\u2067': "RIGHT-TO-LEFT ISOLATE",
	'\u2068': "FIRST STRONG ISOLATE",
	'\u2069': "POP DIRECTIONAL ISOLATE",
}

// c0Name names the C0 control characters by their ASCII abbreviations.
var c0Name = [32]string{"NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF", "CR", "SO", "SI",
	"DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US"}

// textProblems returns what makes s unsafe to publish, each an error:
// invalid UTF-8; a control character (C0 but tab, line feed and carriage
// return; DEL; C1), which a terminal, a CSV reader or an XML feed
// interprets or rejects; and a bidirectional embedding, override or
// isolate left open at the end of s, or a closer with nothing to close.
// Balanced bidi controls, and the marks U+200E/U+200F, are legitimate in
// right-to-left text and pass. s is one unit of display: a CSV cell, a
// line of BibTeX. At most one problem of each kind is reported per unit.
func textProblems(s string) []textProblem {
	if isPlainText(s) {
		return nil
	}
	var out []textProblem
	var badUTF8, control bool
	type open struct {
		r  rune
		at int
	}
	var embeds, isolates []open
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			if !badUTF8 {
				badUTF8 = true
				out = append(out, textProblem{i, "invalid UTF-8", "", "save the file as UTF-8"})
			}
		case r < 0x20 && r != '\t' && r != '\n' && r != '\r', r == 0x7F, r >= 0x80 && r <= 0x9F:
			if !control {
				control = true
				out = append(out, textProblem{i, "control character " + controlName(r), "", "remove it (it is invisible on the page and breaks CSV, JSON and feed readers)"})
			}
		case r >= '\u202A' && r <= '\u202E' && r != '\u202C':
			embeds = append(embeds, open{r, i})
		case r >= '\u2066' && r <= '\u2068':
			isolates = append(isolates, open{r, i})
		case r == '\u202C' || r == '\u2069':
			stack := &embeds
			if r == '\u2069' {
				stack = &isolates
			}
			if len(*stack) == 0 {
				out = append(out, textProblem{i, fmt.Sprintf("U+%04X %s", r, bidiName[r]), "closes nothing", "remove it"})
			} else {
				*stack = (*stack)[:len(*stack)-1]
			}
		}
		i += size
	}
	// One unclosed opener is reported per unit: the first.
	unclosed, closer := embeds, '\u202C'
	if len(isolates) > 0 && (len(embeds) == 0 || isolates[0].at < embeds[0].at) {
		unclosed, closer = isolates, '\u2069'
	}
	if len(unclosed) > 0 {
		o := unclosed[0]
		out = append(out, textProblem{o.at, fmt.Sprintf("U+%04X %s", o.r, bidiName[o.r]), "is never closed",
			fmt.Sprintf("it reverses or reorders everything printed after the text; close it with U+%04X or remove it", closer)})
	}
	return out
}

// isPlainText reports whether s is printable ASCII, with tab, LF and
// CR: the common case, decided byte by byte without decoding runes.
func isPlainText(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c >= 0x7F {
			return false
		}
	}
	return true
}

func controlName(r rune) string {
	switch {
	case r < 0x20:
		return fmt.Sprintf("U+%04X (%s)", r, c0Name[r])
	case r == 0x7F:
		return "U+007F (DEL)"
	}
	return fmt.Sprintf("U+%04X (C1)", r)
}

// crOnlyMessage is the one finding about a file saved with CR-only line
// ends (classic Mac OS), said at its line 1.
const crOnlyMessage = "the file uses CR-only line ends (classic Mac OS); save it with LF (Unix) or CRLF (Windows) line ends"

// FormulaLeading reports whether a spreadsheet opening a CSV would take
// the cell s as a formula: it starts with =, +, -, @, a tab or a carriage
// return (OWASP's list, and the one the papers page's own CSV export,
// search.js's csvCell, uses). A title may legitimately start so (a dash),
// so check reports it as a warning; the downloads defuse it.
func FormulaLeading(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return true
	}
	return false
}

// DefuseFormula returns s with a leading apostrophe when FormulaLeading(s):
// a spreadsheet then shows the cell as text and does not run it. It is
// what search.js's csvCell does in the browser; a cell defused once is not
// changed again.
func DefuseFormula(s string) string {
	if FormulaLeading(s) {
		return "'" + s
	}
	return s
}

// formulaWarning is the finding about a cell that FormulaLeading.
func formulaWarning(s string) string {
	return fmt.Sprintf("starts with %q, which a spreadsheet runs as a formula; masrl's CSV downloads prefix such a cell with an apostrophe (rephrase it if it is not meant to start so)", s[:1])
}

// DefuseCSV returns the CSV file src with every FormulaLeading cell
// prefixed with an apostrophe (inside its quotes when quoted) and every
// other byte as it was, so that a published download differs from the
// corpus file only where a spreadsheet would have run a cell. A file that
// does not parse as CSV is returned unchanged with the parse error: check
// refuses it before anything is published.
func DefuseCSV(src []byte) ([]byte, error) {
	if !mayHaveFormula(src) {
		return src, nil
	}
	r := csv.NewReader(bytes.NewReader(src))
	r.FieldsPerRecord = -1
	// lineStart[i] is the offset of line i+1.
	lineStart := []int{0}
	for i, c := range src {
		if c == '\n' {
			lineStart = append(lineStart, i+1)
		}
	}
	var at []int // offsets where an apostrophe goes
	for {
		rec, err := r.Read()
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return src, err
		}
		for i, f := range rec {
			if !FormulaLeading(f) {
				continue
			}
			line, col := r.FieldPos(i)
			off := lineStart[line-1] + col - 1
			if off < len(src) && src[off] == '"' {
				off++
			}
			at = append(at, off)
		}
	}
	if len(at) == 0 {
		return src, nil
	}
	out := make([]byte, 0, len(src)+len(at))
	prev := 0
	for _, off := range at {
		out = append(out, src[prev:off]...)
		out = append(out, '\'')
		prev = off
	}
	return append(out, src[prev:]...), nil
}

// mayHaveFormula reports whether a FormulaLeading byte of src may start
// a field: it follows the file's start, a comma or a line end, directly or
// after an opening quote. Most files have none (a date's or an arXiv id's
// dash is inside a field), and are then not parsed at all.
func mayHaveFormula(src []byte) bool {
	fieldStart := func(i int) bool { return i == 0 || src[i-1] == ',' || src[i-1] == '\n' }
	for i, c := range src {
		switch c {
		case '=', '+', '-', '@', '\t', '\r':
			if fieldStart(i) || (i > 0 && src[i-1] == '"' && fieldStart(i-1)) {
				return true
			}
		}
	}
	return false
}

// urlProblem says why s is not a link the site renders, or "" when it is
// one (IsWebURL). A URL with user info before an @ names its real host
// after it: https://arxiv.org@evil.example/ goes to evil.example.
func urlProblem(s string) string {
	u, err := url.Parse(s)
	if err == nil && u.User != nil && (u.Scheme == "http" || u.Scheme == "https") {
		return fmt.Sprintf("%q has user info %q before @, so the link goes to %s; remove %q", s, u.User.String()+"@", u.Hostname(), u.User.String()+"@")
	}
	if IsWebURL(s) {
		return ""
	}
	return fmt.Sprintf("%q is not an absolute http or https URL", s)
}
