package corpus

import (
	"strings"
	"unicode"
)

// The project has one slug rule: text lowercased, its letters and digits
// kept, every run of anything else turned into one '-', none at either
// end. Keys and heading IDs differ only in which letters count: a key is
// a URL path segment and must be ASCII (IsKey), while a heading ID keeps
// letters and digits of any script, so that a heading in another script
// still gets a readable ID. (The awesome list's contents link GitHub's
// own anchors, which follow GitHub's rule, not this one.)

// Slug turns free text into a key candidate: the slug rule over ASCII
// letters and digits, anything else a separator ("Müller" gives
// "m-ller").
func Slug(s string) string {
	return slug(s, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' })
}

// AnchorSlug is the slug rule over letters and digits of any script: the
// site's heading IDs.
func AnchorSlug(s string) string {
	return slug(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
}

func slug(s string, keep func(rune) bool) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case keep(r):
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
