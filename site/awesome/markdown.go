package awesome

import (
	"fmt"
	"net/url"
	"strings"
)

// markdownText escapes text so that markdown shows it literally: every
// character with a meaning in CommonMark or GitHub's extensions gets a
// backslash, and line breaks become spaces so an entry stays one item.
func markdownText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	var b strings.Builder
	for i, r := range s {
		// ':' before "//" and '.' after "www" are escaped too, so that
		// GitHub does not turn a URL in the text into a link.
		if strings.ContainsRune("\\`*_[]<>!|~&$@", r) ||
			r == ':' && strings.HasPrefix(s[i+1:], "//") ||
			r == '.' && i >= 3 && strings.EqualFold(s[i-3:i], "www") {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// markdownLine escapes text that starts a line: besides markdownText's
// escapes, a leading character that would open a block (a list item,
// heading, quote or numbered item) is escaped too.
func markdownLine(s string) string {
	t := markdownText(s)
	if t == "" {
		return t
	}
	if strings.ContainsRune("-+#>=", rune(t[0])) {
		return "\\" + t
	}
	if n := len(t) - len(strings.TrimLeft(t, "0123456789")); n > 0 && n < len(t) && (t[n] == '.' || t[n] == ')') {
		return t[:n] + "\\" + t[n:]
	}
	return t
}

// markdownURL makes a web URL safe as a link destination: characters that
// would end or break the destination are percent-encoded.
func markdownURL(u string) string {
	var b strings.Builder
	for i := 0; i < len(u); i++ {
		c := u[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("()<>[]`\\\"'", c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	if _, err := url.Parse(b.String()); err != nil {
		return ""
	}
	return b.String()
}
