package corpus

import (
	"net/url"
	"regexp"
	"strings"
)

// arxivIDPattern is a new-style arXiv identifier (since 2007): YYMM.NNNN or
// YYMM.NNNNN with an optional version.
var arxivIDPattern = regexp.MustCompile(`^[0-9]{4}\.[0-9]{4,5}(v[0-9]+)?$`)

// arxivIDInText finds a new-style identifier inside free text or a URL.
var arxivIDInText = regexp.MustCompile(`(?:^|[^0-9.])([0-9]{4}\.[0-9]{4,5})(?:v[0-9]+)?(?:$|[^0-9])`)

// IsArxivID reports whether s is a new-style arXiv identifier, with or
// without version: the shape the arxiv_id column must have.
func IsArxivID(s string) bool { return arxivIDPattern.MatchString(s) }

// baseArxivID drops the version suffix: 2508.04652v2 -> 2508.04652.
func baseArxivID(s string) string {
	if i := strings.LastIndexByte(s, 'v'); i > 0 && arxivIDPattern.MatchString(s) {
		return s[:i]
	}
	return s
}

// findArxivID returns the first new-style identifier in s that is preceded by
// an arXiv marker ("arXiv:" or an arxiv.org URL), without version, or "".
func findArxivID(s string) string {
	ls := strings.ToLower(s)
	i := strings.Index(ls, "arxiv")
	if i < 0 {
		return ""
	}
	if m := arxivIDInText.FindStringSubmatch(s[i:]); m != nil {
		return m[1]
	}
	return ""
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
	for _, part := range strings.Split(s, ";") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// IsWebURL reports whether s is an absolute http or https URL with a host:
// the only kind of link the site renders.
func IsWebURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && !strings.ContainsAny(s, " \t\n\"<>")
}
