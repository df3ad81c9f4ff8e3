package corpus

import (
	"net/url"
	"regexp"
	"strings"
)

// arxivIDPattern is a new-style arXiv identifier (since 2007): YYMM.NNNN or
// YYMM.NNNNN with an optional version. The row schema publishes it.
var arxivIDPattern = regexp.MustCompile(`^[0-9]{4}\.[0-9]{4,5}(v[0-9]+)?$`)

// arxivIDInText finds a new-style identifier inside free text or a URL.
var arxivIDInText = regexp.MustCompile(`(?:^|[^0-9.])([0-9]{4}\.[0-9]{4,5})(?:v[0-9]+)?(?:$|[^0-9])`)

// IsArxivID reports whether s is a new-style arXiv identifier, with or
// without version: the shape the arxiv_id column must have.
func IsArxivID(s string) bool { return arxivIDPattern.MatchString(s) }

// baseArxivID drops the version suffix: 2508.04652v2 -> 2508.04652.
func baseArxivID(s string) string {
	if i := strings.LastIndexByte(s, 'v'); i > 0 && IsArxivID(s) {
		return s[:i]
	}
	return s
}

// findArxivID returns the first new-style identifier in s that is preceded by
// an arXiv marker ("arXiv:" or an arxiv.org URL, in any case), without
// version, or "".
func findArxivID(s string) string {
	i := indexArxiv(s)
	if i < 0 {
		return ""
	}
	if m := arxivIDInText.FindStringSubmatch(s[i:]); m != nil {
		return m[1]
	}
	return ""
}

// indexArxiv returns the index of the first "arxiv" in s, in any ASCII
// case, or -1. No other character folds to these letters, so this is
// where a search in strings.ToLower(s) finds it, counted in s's own bytes
// (lowering can change a character's length: "Ⱥ" grows).
func indexArxiv(s string) int {
	const word = "arxiv"
	for i := 0; i+len(word) <= len(s); i++ {
		j := 0
		for j < len(word) && s[i+j]|0x20 == word[j] {
			j++
		}
		if j == len(word) {
			return i
		}
	}
	return -1
}

// arxivIDOfURL returns the identifier an arxiv.org URL points at
// (/abs/ID, /pdf/ID, /pdf/ID.pdf, /html/ID), without version, and whether
// the URL is on arxiv.org at all.
func arxivIDOfURL(u *url.URL) (id string, onArxiv bool) {
	host := strings.ToLower(u.Hostname())
	if host != "arxiv.org" && !strings.HasSuffix(host, ".arxiv.org") {
		return "", false
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if len(parts) == 2 && (parts[0] == "abs" || parts[0] == "pdf" || parts[0] == "html") {
		id := strings.TrimSuffix(parts[1], ".pdf")
		if IsArxivID(id) {
			return baseArxivID(id), true
		}
	}
	return "", true
}

// SplitURLs splits the url column: several URLs are separated by ';' (the
// real data writes " ; "). Empty pieces are dropped.
func SplitURLs(s string) []string {
	var out []string
	for part := range strings.SplitSeq(s, ";") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// IsWebURL reports whether s is an absolute http or https URL with a host
// and no user info (urlProblem says why): the only kind of link the site
// renders.
func IsWebURL(s string) bool {
	_, ok := webURL(s)
	return ok
}

// webURL is IsWebURL that also returns the parsed URL, for a caller that
// reads it further (the check looks for an arXiv id in it).
func webURL(s string) (*url.URL, bool) {
	u, err := url.Parse(s)
	return u, err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.User == nil && !strings.ContainsAny(s, " \t\n\"<>")
}
