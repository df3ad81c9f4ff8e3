package site

import (
	"bytes"
	"html/template"
	"strconv"
	"strings"

	"github.com/masrl/masrl/corpus"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
)

// newMarkdown returns the goldmark converter for the prose pages. Raw HTML
// stays off (goldmark's default), so a page's markdown cannot inject markup.
func newMarkdown() goldmark.Markdown {
	return goldmark.New(goldmark.WithParserOptions(parser.WithAutoHeadingID()))
}

// renderMarkdown converts one prose page. Its output is the only text the
// site marks as template.HTML: goldmark escapes everything it copies from
// the source. prefix keeps heading IDs apart when several fragments share
// a page.
func renderMarkdown(md goldmark.Markdown, src []byte, prefix string) (template.HTML, error) {
	var buf bytes.Buffer
	ctx := parser.NewContext(parser.WithIDs(newHeadingIDs(prefix)))
	if err := md.Convert(src, &buf, parser.WithContext(ctx)); err != nil {
		return "", err
	}
	return template.HTML(buf.String()), nil
}

// headingIDs generates heading anchors. goldmark's own generator drops
// every non-ASCII letter (a heading in another script becomes "heading")
// and numbers collisions only within one document; this one keeps letters
// and digits of any script, lowercased, joins the rest with hyphens, and
// numbers repeats ("tagging", "tagging-2").
type headingIDs struct {
	prefix string
	used   map[string]bool
}

func newHeadingIDs(prefix string) *headingIDs {
	return &headingIDs{prefix: prefix, used: map[string]bool{}}
}

// Generate returns a fresh ID for a heading's text.
func (h *headingIDs) Generate(value []byte, kind ast.NodeKind) []byte {
	base := h.prefix + corpus.AnchorSlug(string(value))
	if base == h.prefix {
		base = h.prefix + "section"
	}
	id := base
	for n := 2; h.used[id]; n++ {
		id = base + "-" + strconv.Itoa(n)
	}
	h.used[id] = true
	return []byte(id)
}

// Put records an ID given explicitly in the source.
func (h *headingIDs) Put(value []byte) { h.used[string(value)] = true }

// markdownTitle returns the text of the first level-one heading, the page's
// title, or fallback.
func markdownTitle(src []byte, fallback string) string {
	for line := range strings.SplitSeq(string(src), "\n") {
		if t, ok := strings.CutPrefix(line, "# "); ok {
			return strings.TrimSpace(t)
		}
	}
	return fallback
}
