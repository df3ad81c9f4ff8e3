package importer

import (
	"bytes"
	"cmp"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/upkeep/intake"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// skippedSections are headings whose contents are not papers.
// News sections ("🎉 News", "Updates") list the list's own events, in
// the shape of entries ("**[2025-09-18]** We updated…").
var skippedSections = regexp.MustCompile(`(?i)^(table of )?contents?$|^toc$|contribut|licen[cs]e|acknowledg|citation|^star history|^related|^other (awesome )?lists|^(latest )?news$|^updates?$|^change ?log$|^what'?s new`)

// datePattern is a date as lists write it: 2023, 2023-05, 2023.05,
// 2023/05/17, with the month and day optional.
var datePattern = regexp.MustCompile(`^\s*[\[(]?\s*((?:19|20)\d\d)(?:[-./](\d{1,2}))?(?:[-./](\d{1,2}))?\s*[\])]?\s*`)

// mdHeading is one open heading: its level and its value.
type mdHeading struct {
	level int
	value string // "" for a skipped section
	skip  bool
}

// readMarkdown reads an awesome README through goldmark's AST: headings
// become values of Field (nested by level), list items and table rows
// entries.
func (r *Result) readMarkdown(name string, src []byte) {
	md := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough))
	doc := md.Parser().Parse(text.NewReader(src))
	lines := newLineIndex(src)
	var stack []mdHeading
	seenTitle := false
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Heading:
			label := strings.TrimSpace(plainText(n, src))
			if n.Level == 1 && !seenTitle {
				seenTitle = true
				if r.Title == "" {
					r.Title = stripEmoji(label)
				}
				stack = stack[:0]
				continue
			}
			for len(stack) > 0 && stack[len(stack)-1].level >= n.Level {
				stack = stack[:len(stack)-1]
			}
			h := mdHeading{level: n.Level}
			parent, parentSkip := "", false
			if len(stack) > 0 {
				parent, parentSkip = stack[len(stack)-1].value, stack[len(stack)-1].skip
			}
			label = stripEmoji(label)
			if parentSkip || skippedSections.MatchString(label) || label == "" {
				h.skip = true
			} else {
				h.value = r.addValue(label, parent)
			}
			stack = append(stack, h)
		case *ast.List:
			if len(stack) > 0 && stack[len(stack)-1].skip || isTOC(n) {
				continue
			}
			r.readList(name, n, src, lines, currentValue(stack))
		case *east.Table:
			if len(stack) > 0 && stack[len(stack)-1].skip {
				continue
			}
			r.readTable(name, n, src, lines, currentValue(stack))
		}
	}
}

func currentValue(stack []mdHeading) string {
	if len(stack) == 0 {
		return ""
	}
	return stack[len(stack)-1].value
}

// readList reads each item of a list (and of lists nested in it, which
// lists use for sub-groups without a heading) as an entry.
func (r *Result) readList(name string, l *ast.List, src []byte, lines lineIndex, value string) {
	for it := l.FirstChild(); it != nil; it = it.NextSibling() {
		r.readListItem(name, it, src, lines, value)
	}
}

// readListItem reads one item. Its nested items are a group's papers
// when the item has no link ("- **Surveys**" over a list), else the
// entry's details when they read as details (detail), else entries.
func (r *Result) readListItem(name string, it ast.Node, src []byte, lines lineIndex, value string) {
	var inline ast.Node
	var sub []*ast.List
	for c := it.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.TextBlock, *ast.Paragraph:
			if inline == nil {
				inline = c
			}
		case *ast.List:
			sub = append(sub, c)
		}
	}
	// An item without a link of its own that holds a list is a group
	// ("- **Surveys**" over its papers): a value nested under the
	// heading, as a heading one level down would be.
	if len(sub) > 0 && (inline == nil || !hasLink(inline)) {
		v := value
		if inline != nil {
			if label := stripEmoji(strings.Trim(plainText(inline, src), " :")); label != "" {
				v = r.addValue(label, value)
			}
		}
		for _, l := range sub {
			r.readList(name, l, src, lines, v)
		}
		return
	}
	if inline == nil {
		for _, l := range sub {
			r.readList(name, l, src, lines, value)
		}
		return
	}
	pos := fmt.Sprintf("%s:%d", name, lines.lineOf(blockStart(inline)))
	e := &Entry{Pos: pos}
	if value != "" {
		e.Values = []string{value}
	}
	readItem(e, inline, src)
	var others []ast.Node
	for _, l := range sub {
		for s := l.FirstChild(); s != nil; s = s.NextSibling() {
			if !detail(e, s, src) {
				others = append(others, s)
			}
		}
	}
	if e.Title != "" || e.URL != "" || e.Code != "" || plainTextLen(inline, src) != 0 {
		r.finish(e)
	}
	for _, s := range others {
		r.readListItem(name, s, src, lines, value)
	}
}

// detailLabel is the "Code:" or "Keyword:" before an item's details: a
// few words of plain text and a colon.
var detailLabel = regexp.MustCompile(`^\s*([A-Za-z][A-Za-z .;/-]{0,30}?)\s*:\s*`)

// detail reads a nested item as a detail of e, as lists write them under
// an entry: "Code: [Official](…)", "Project page: …", "Keyword: …",
// a line of author names or a one-line summary. It reports false for an
// item that is an entry of its own (a link and no label).
func detail(e *Entry, it ast.Node, src []byte) bool {
	var block ast.Node
	for c := it.FirstChild(); c != nil; c = c.NextSibling() {
		switch c.(type) {
		case *ast.TextBlock, *ast.Paragraph:
			block = c
		case *ast.List:
			return false
		}
		if block != nil {
			break
		}
	}
	if block == nil {
		return false
	}
	text := oneLine(plainText(block, src))
	link := firstLinkDeep(block)
	dest := ""
	if link != nil {
		dest = string(link.Destination)
	}
	// The label must be the item's first text, not a link's title.
	if t, ok := block.FirstChild().(*ast.Text); ok {
		if m := detailLabel.FindStringSubmatch(string(t.Segment.Value(src))); m != nil {
			label := strings.ToLower(strings.TrimSpace(m[1]))
			_, rest, _ := strings.Cut(text, ":")
			rest = strings.TrimSpace(rest)
			switch {
			case strings.HasPrefix(label, "code") || label == "github" || strings.HasPrefix(label, "repo") || label == "official code" || label == "implementation":
				if dest != "" {
					e.Code = cmp.Or(e.Code, dest)
				}
			case strings.Contains(label, "project") || label == "homepage" || label == "website" || label == "page" || label == "blog" || label == "demo":
				if dest != "" {
					e.Project = cmp.Or(e.Project, dest)
				}
			case label == "paper" || label == "pdf" || label == "arxiv" || label == "link" || label == "doi":
				if dest != "" {
					takeIDs(e, dest)
					e.URL = cmp.Or(e.URL, dest)
				}
			case strings.HasPrefix(label, "author"):
				if len(e.Authors) == 0 {
					e.Authors, _ = authorsAndVenue(rest)
				}
			case label == "venue" || label == "conference" || strings.HasPrefix(label, "publi"):
				e.Venue = cmp.Or(e.Venue, rest)
			case label == "date" || label == "year" || label == "published":
				if d, _ := parseDate(rest); d != "" && e.Date == "" {
					e.Date = d
				}
			case label == "summary" || label == "tl;dr" || label == "tldr" || label == "note" || label == "abstract" || label == "description":
				e.OneLiner = cmp.Or(e.OneLiner, rest)
			}
			// Other labels (keywords, resources, …) are details that
			// no column holds.
			return true
		}
	}
	if link != nil {
		return false
	}
	if len(e.Authors) == 0 && looksLikeNames(text) {
		e.Authors, _ = authorsAndVenue(text)
		return true
	}
	if text != "" {
		e.OneLiner = cmp.Or(e.OneLiner, text)
	}
	return true
}

// looksLikeNames reports whether s is a list of names: several parts
// between commas or "and", nearly all of one to four words starting with
// a capital ("Hao liu", "Xianyu" and a stray "Kianté,Brantley" pass), or
// one part of two to four capitalised words (one word is more often a
// label: "Survey").
func looksLikeNames(s string) bool {
	s = strings.NewReplacer(" and ", ", ", "et al.", "", "et al", "").Replace(s)
	var parts [][]string
	for p := range strings.SplitSeq(s, ",") {
		if w := strings.Fields(p); len(w) > 0 {
			parts = append(parts, w)
		}
	}
	capital := func(x string) bool { return unicode.IsUpper([]rune(x)[0]) }
	if len(parts) == 1 {
		w := parts[0]
		if len(w) < 2 || len(w) > 4 {
			return false
		}
		for _, x := range w {
			if !capital(x) && x != "de" && x != "van" && x != "von" && x != "der" && x != "la" {
				return false
			}
		}
		return true
	}
	good := 0
	for _, w := range parts {
		if len(w) > 6 {
			return false
		}
		if len(w) <= 4 && capital(w[0]) && !strings.HasSuffix(w[len(w)-1], ".") {
			good++
		}
	}
	return len(parts) >= 2 && good*5 >= len(parts)*4
}

// links yields the links in n, badges included.
func links(n ast.Node) func(func(*ast.Link) bool) {
	return func(yield func(*ast.Link) bool) {
		_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
			if l, ok := c.(*ast.Link); ok && entering {
				if !yield(l) {
					return ast.WalkStop, nil
				}
				return ast.WalkSkipChildren, nil
			}
			return ast.WalkContinue, nil
		})
	}
}

func firstLinkDeep(n ast.Node) *ast.Link {
	var found *ast.Link
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if l, ok := c.(*ast.Link); ok && entering {
			found = l
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return found
}

// readTable reads each row of a table as an entry, its columns chosen by
// the header's words.
func (r *Result) readTable(name string, t *east.Table, src []byte, lines lineIndex, value string) {
	var roles []string
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		if h, ok := row.(*east.TableHeader); ok {
			for c := h.FirstChild(); c != nil; c = c.NextSibling() {
				roles = append(roles, columnRole(plainText(c, src)))
			}
			continue
		}
		e := &Entry{}
		if value != "" {
			e.Values = []string{value}
		}
		i := 0
		for c := row.FirstChild(); c != nil; c, i = c.NextSibling(), i+1 {
			if e.Pos == "" {
				if segs := c.Lines(); segs.Len() > 0 {
					e.Pos = fmt.Sprintf("%s:%d", name, lines.lineOf(segs.At(0).Start))
				}
			}
			role := ""
			if i < len(roles) {
				role = roles[i]
			}
			cellText := strings.TrimSpace(plainText(c, src))
			switch role {
			case "title":
				// A Title column holds the title, linked or plain.
				if hasLink(c) {
					readItem(e, c, src)
				} else if cellText != "" {
					e.Title = cellText
				}
			case "name":
				// A short name ("`R1`") is a title only when linked.
				if hasLink(c) {
					readItem(e, c, src)
				}
			case "paper", "code":
				for l := range links(c) {
					dest := string(l.Destination)
					takeIDs(e, dest)
					switch {
					case role == "code" || isRepo(dest) && e.Code == "":
						e.Code = cmp.Or(e.Code, dest)
					case e.URL == "":
						e.URL = dest
					}
				}
			case "date":
				if d, _ := parseDate(cellText); d != "" {
					e.Date = d
				}
			case "authors":
				e.Authors = authorList(cellText)
			case "venue":
				e.Venue = cellText
			case "summary":
				e.OneLiner = cellText
			default:
				readItem(e, c, src)
			}
		}
		if e.Pos == "" {
			e.Pos = fmt.Sprintf("%s:%d", name, lines.lineOf(blockStart(t)))
		}
		r.finish(e)
	}
}

// columnRole names what a table column holds from its header.
func columnRole(h string) string {
	h = strings.ToLower(h)
	switch {
	case strings.Contains(h, "date"), h == "year", strings.Contains(h, "time"):
		return "date"
	case strings.Contains(h, "author"):
		return "authors"
	case strings.Contains(h, "venue"), strings.Contains(h, "conference"), strings.Contains(h, "publication"), strings.Contains(h, "journal"):
		return "venue"
	case strings.Contains(h, "description"), strings.Contains(h, "summary"), strings.Contains(h, "note"), strings.Contains(h, "tl;dr"), strings.Contains(h, "comment"):
		return "summary"
	case strings.Contains(h, "title"):
		return "title"
	case h == "name", h == "short name", h == "abbr", h == "abbreviation":
		return "name"
	}
	switch linkRole(h) {
	case "paper":
		return "paper"
	case "code":
		return "code"
	}
	return ""
}

// readItem reads an item's inline nodes: the title link or bold title,
// the date before it, italic authors, links named paper, code, project,
// venue tags in brackets or code spans, and the text after a dash or
// colon as the one-liner.
func readItem(e *Entry, block ast.Node, src []byte) {
	var rest strings.Builder // the text after the title, for venue and one-liner
	before := true
	for n := block.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Link:
			label := strings.TrimSpace(plainText(n, src))
			dest := string(n.Destination)
			if hasImage(n) {
				// A badge: a code link when it points at a repository,
				// the paper's link when its image says paper, pdf or blog.
				if e.Code == "" && isRepo(dest) {
					e.Code = dest
				} else if role := linkRole(imageAlt(n, src)); e.URL == "" && (role == "paper" || role == "project") {
					e.URL = dest
				}
				takeIDs(e, dest)
				continue
			}
			switch linkRole(label) {
			case "paper":
				takeIDs(e, dest)
				if e.URL == "" || !isRepo(dest) {
					e.URL = dest
				}
			case "code":
				e.Code = dest
			case "project":
				e.Project = dest
			default:
				switch {
				case e.Title == "" && label != "":
					e.Title, e.URL, before = label, dest, false
				case e.Code == "" && isRepo(dest):
					e.Code = dest // a repository under its own name
				}
				takeIDs(e, dest)
			}
		case *ast.Emphasis:
			t := strings.TrimSpace(plainText(n, src))
			switch {
			case n.Level >= 2 && before && isDate(t):
				// "**[2023-10]**": a bold date before the title.
				e.Date, _ = parseDate(t)
			case n.Level >= 2 && e.Title == "" && !isVenueTag(t):
				e.Title, before = strings.Trim(t, " .:"), false
				if l := firstLink(n); l != nil {
					e.URL = string(l.Destination)
					takeIDs(e, e.URL)
				}
			case n.Level >= 2 && isVenueTag(t):
				e.Venue = strings.Trim(t, "[]() ")
			case n.Level == 1 && len(e.Authors) == 0 && !before:
				var venue string
				e.Authors, venue = authorsAndVenue(t)
				if e.Venue == "" && isVenueTag(venue) {
					e.Venue = venue
				}
			default:
				rest.WriteString(t)
			}
		case *ast.CodeSpan:
			t := strings.TrimSpace(plainText(n, src))
			if e.Venue == "" && isVenueTag(t) {
				e.Venue = t
			} else {
				rest.WriteString(t)
			}
		case *ast.Image, *ast.RawHTML:
		case *ast.Text, *ast.String:
			t := plainText(n, src)
			if s, ok := n.(*ast.Text); ok && (s.SoftLineBreak() || s.HardLineBreak()) {
				t += " "
			}
			if before && e.Date == "" {
				if d, m := parseDate(t); d != "" {
					e.Date = d
					t = t[m:]
				}
			} else if e.Date == "" {
				if loc := laterDate.FindStringIndex(t); loc != nil {
					e.Date, _ = parseDate(t[loc[0]:loc[1]])
					t = t[:loc[0]] + t[loc[1]:]
				}
			}
			rest.WriteString(t)
		default:
			rest.WriteString(plainText(n, src))
		}
	}
	venueAndSummary(e, rest.String())
}

// venueAndSummary reads the text around the links: a bracketed venue tag
// ("[NeurIPS 2023]", "(ICLR'24)") and a one-liner after a dash or colon.
func venueAndSummary(e *Entry, s string) {
	s = strings.Join(strings.Fields(s), " ")
	// Drop the empty brackets left by [[paper](…)] [[code](…)] links.
	s = emptyBrackets.ReplaceAllString(s, " ")
	if m := venueTag.FindStringSubmatch(s); m != nil && e.Venue == "" {
		e.Venue = strings.TrimSpace(m[1])
		s = strings.Replace(s, m[0], " ", 1)
	}
	s = strings.TrimSpace(s)
	if m := summary.FindStringSubmatch(s); m != nil && e.OneLiner == "" {
		e.OneLiner = strings.TrimSpace(m[1])
	}
}

var (
	emptyBrackets = regexp.MustCompile(`[\[(]\s*[\])]|\s\|\s|^[\s|,.]+`)
	venueTag      = regexp.MustCompile(`[\[(]((?:[A-Z][A-Za-z-]*[A-Z][A-Za-z-]*|arXiv)(?:\s?'?\d{2,4})?(?:\s[A-Za-z]+)?)[\])]`)
	summary       = regexp.MustCompile(`(?:^|\s)(?:-|–|—|:)\s+(.+)$`)
	laterDate     = regexp.MustCompile(`[\[(](?:19|20)\d\d(?:[-./]\d{1,2}){0,2}[\])]`)
	venueWord     = regexp.MustCompile(`^\[?\(?(?:[A-Z][A-Za-z-]*[A-Z][A-Za-z-]*|arXiv)(?:\s?'?\d{2,4})?\]?\)?$`)
)

func isVenueTag(s string) bool { return venueWord.MatchString(strings.TrimSpace(s)) }

// isDate reports whether s is a date and nothing else: "[2023-10]".
func isDate(s string) bool {
	d, n := parseDate(s)
	return d != "" && strings.TrimSpace(s[n:]) == ""
}

// imageAlt is the alternative text of the images in a link (a badge's
// "Paper" or "GitHub Stars").
func imageAlt(n ast.Node, src []byte) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if img, ok := c.(*ast.Image); ok {
			for t := img.FirstChild(); t != nil; t = t.NextSibling() {
				if s, ok := t.(*ast.Text); ok {
					b.Write(s.Segment.Value(src))
				}
			}
		}
	}
	return b.String()
}

// parseDate reads a date at the start of s and returns it as YYYY,
// YYYY-MM or YYYY-MM-DD, with the bytes it took.
func parseDate(s string) (string, int) {
	m := datePattern.FindStringSubmatchIndex(s)
	if m == nil {
		return "", 0
	}
	y := s[m[2]:m[3]]
	d := y
	if m[4] >= 0 {
		mo := s[m[4]:m[5]]
		if len(mo) == 1 {
			mo = "0" + mo
		}
		if mo < "01" || mo > "12" {
			return y, m[1]
		}
		d += "-" + mo
		if m[6] >= 0 {
			day := s[m[6]:m[7]]
			if len(day) == 1 {
				day = "0" + day
			}
			if _, ok := corpus.ParseDate(d + "-" + day); ok {
				d += "-" + day
			}
		}
	}
	return d, m[1]
}

// affiliation is a parenthesised affiliation after a name: "Akari Asai
// (University of Washington)".
var affiliation = regexp.MustCompile(`\s*\([^()]*\)`)

// authorsAndVenue splits "Akari Asai (University of Washington) et al.
// ICLR 2024." into the names (affiliations left out) and the venue that
// lists write after "et al.".
func authorsAndVenue(s string) ([]intake.Author, string) {
	s = affiliation.ReplaceAllString(s, "")
	venue := ""
	if i := strings.Index(s, "et al"); i >= 0 {
		s, venue = s[:i], strings.TrimPrefix(s[i:], "et al")
		venue = strings.Trim(venue, " .,;")
	}
	return authorList(s), venue
}

// authorList splits "Shunyu Yao, Jeffrey Zhao and Karthik Narasimhan,
// et al." into names.
func authorList(s string) (names []intake.Author) {
	s = strings.NewReplacer(" and ", ", ", "&", ",", "et al.", "", "et al", "").Replace(s)
	for p := range strings.SplitSeq(s, ",") {
		if p = strings.TrimSpace(strings.Trim(p, " .;*_")); p != "" {
			names = append(names, personName(p))
		}
	}
	return names
}

// linkRole names what a link's text says it is.
func linkRole(label string) string {
	switch strings.ToLower(strings.Trim(label, "[]() ")) {
	case "paper", "pdf", "arxiv", "link", "doi", "openreview":
		return "paper"
	case "code", "github", "repo", "repository", "official code", "src":
		return "code"
	case "project", "project page", "page", "website", "homepage", "home", "blog", "demo", "site":
		return "project"
	}
	return ""
}

// arxivMirrors are pages named by an arXiv id that lists link to instead
// of arXiv: Hugging Face's paper pages, alphaXiv.
var arxivMirrors = regexp.MustCompile(`^https?://(?:www\.)?(?:huggingface\.co/papers|alphaxiv\.org/(?:abs|overview))/(\d{4}\.\d{4,5})(?:v\d+)?(?:[/?#]|$)`)

// takeIDs takes the arXiv id and DOI of a URL.
func takeIDs(e *Entry, u string) {
	if id, ok := corpus.ParseArxivID(u); ok && e.ArxivID == "" {
		e.ArxivID = id
	}
	if m := arxivMirrors.FindStringSubmatch(u); m != nil && e.ArxivID == "" {
		if id, ok := corpus.ParseArxivID(m[1]); ok {
			e.ArxivID = id
		}
	}
	if doi, ok := corpus.ParseDOI(u); ok && e.DOI == "" {
		e.DOI = doi
	}
}

func isRepo(u string) bool {
	for _, h := range []string{"://github.com/", "://gitlab.com/", "://huggingface.co/", "://bitbucket.org/"} {
		if strings.Contains(u, h) {
			return true
		}
	}
	return false
}

func hasImage(n ast.Node) bool {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if _, ok := c.(*ast.Image); ok {
			return true
		}
	}
	return false
}

// hasLink reports whether a block holds a link anywhere in its inlines.
func hasLink(n ast.Node) bool {
	found := false
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if _, ok := c.(*ast.Link); ok && entering {
			found = true
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return found
}

func firstLink(n ast.Node) *ast.Link {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if l, ok := c.(*ast.Link); ok {
			return l
		}
	}
	return nil
}

// isTOC reports whether a list holds only links to anchors of the page
// (a table of contents).
func isTOC(l *ast.List) bool {
	anchors, other := 0, 0
	_ = ast.Walk(l, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if lk, ok := n.(*ast.Link); ok {
			if bytes.HasPrefix(lk.Destination, []byte("#")) {
				anchors++
			} else {
				other++
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return anchors > 0 && other == 0
}

// plainText is the text of a node and its children, without markup.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.CodeSpan:
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				if s, ok := t.(*ast.Text); ok {
					b.Write(s.Segment.Value(src))
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.Image, *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

func plainTextLen(n ast.Node, src []byte) int { return len(strings.TrimSpace(plainText(n, src))) }

// stripEmoji drops symbols and leading/trailing punctuation from a
// heading ("🤖 Agents" → "Agents").
func stripEmoji(s string) string {
	s = strings.Map(func(r rune) rune {
		if r > 0x2000 && !isLetterOrDigit(r) && r != '–' && r != '—' && r != '’' {
			return -1
		}
		return r
	}, s)
	return strings.Trim(strings.Join(strings.Fields(s), " "), " -:|")
}

// blockStart is the offset of a block's first line.
func blockStart(n ast.Node) int {
	for ; n != nil; n = n.FirstChild() {
		if segs := n.Lines(); segs != nil && segs.Len() > 0 {
			return segs.At(0).Start
		}
		if n.Type() != ast.TypeBlock {
			break
		}
	}
	return 0
}

// lineIndex turns byte offsets into 1-based line numbers.
type lineIndex []int

func newLineIndex(src []byte) lineIndex {
	idx := lineIndex{0}
	for i, c := range src {
		if c == '\n' {
			idx = append(idx, i+1)
		}
	}
	return idx
}

func (x lineIndex) lineOf(off int) int {
	lo, hi := 0, len(x)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if x[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + 1
}

func isLetterOrDigit(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
