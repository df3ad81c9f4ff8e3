package site

import (
	"encoding/hex"
	"regexp"
	"strings"

	"github.com/masrl/masrl/corpus"
)

// segmentPattern is a path segment the site writes for field names,
// vocabulary values and sub-decision slugs.
var segmentPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// isSafeKey reports whether key can be used as a directory name: a key
// as corpus.Check requires it (corpus.IsKey), which the site asks again
// rather than rely on the caller having checked, since a key is a path
// component here, and short enough for any file system's names.
func isSafeKey(key string) bool { return len(key) <= 200 && corpus.IsKey(key) }

// valueSegments returns one path segment per vocabulary value, in order.
// A value becomes its lowercase form when that is a plain segment and no
// other value of the field maps to it ("NA" -> "na"); anything else (a
// value with a slash, dots or a case collision) becomes "v-" and its hex
// bytes, which can never be "." or ".." or contain a separator, and is the
// same on every build.
func valueSegments(values []string) []string {
	lower := make(map[string]int, len(values))
	for _, v := range values {
		lower[strings.ToLower(v)]++
	}
	out := make([]string, len(values))
	used := make(map[string]bool, len(values))
	for i, v := range values {
		s := strings.ToLower(v)
		if !segmentPattern.MatchString(s) || lower[s] > 1 || strings.HasPrefix(s, "v-") || used[s] {
			s = "v-" + hex.EncodeToString([]byte(v))
		}
		used[s] = true
		out[i] = s
	}
	return out
}

// rootFor returns the relative prefix from the page written at file (a
// slash-separated path inside the output directory) back to the site root:
// "./" for index.html, "../../" for papers/KEY/index.html. Relative links
// keep the site working under any sub-path and from a file browser.
func rootFor(file string) string {
	n := strings.Count(file, "/")
	if n == 0 {
		return "./"
	}
	return strings.Repeat("../", n)
}

// pageFile turns a directory URL ("papers/magrpo/") into the file that
// serves it ("papers/magrpo/index.html").
func pageFile(dir string) string {
	if dir == "" {
		return "index.html"
	}
	return dir + "index.html"
}
