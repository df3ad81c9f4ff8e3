package corpus

// A notice records, in an entry's notes column, what happened to a
// paper after the survey read it: the version of record a preprint was
// published as, and the retraction, withdrawal, correction or expression
// of concern a publisher issued. masrl refresh writes notices; the entry
// page shows them above everything else, so a reader sees a retraction
// before relying on the paper.
//
// A notice is one "; "-separated segment of the notes, in a fixed form
// that ParseNotices reads back:
//
//	published as doi:10.5555/tmlr.2026.17 (Transactions on Machine Learning Research, 2026)
//	retracted doi:10.5555/notice.3 (2026-03-02)
//	retracted (OpenAlex)
//
// Keeping notices in the notes leaves papers.csv at its 18 columns, and a
// corpus without notices publishes exactly as before.

import (
	"regexp"
	"strings"
)

// NoticeKind is what happened to the paper.
type NoticeKind string

// The kinds, as they are spelled in the notes.
const (
	NoticePublished NoticeKind = "published as"
	NoticeRetracted NoticeKind = "retracted"
	NoticeWithdrawn NoticeKind = "withdrawn"
	NoticeCorrected NoticeKind = "corrected"
	NoticeConcern   NoticeKind = "expression of concern"
	noticeSeparator            = "; "
)

// Notice is one recorded event.
type Notice struct {
	Kind NoticeKind
	// DOI is the published version's DOI, or the notice's own DOI.
	DOI string
	// Detail is what the parentheses hold: "Venue, Year" for a published
	// version, the notice's date or the source that reported it for the
	// others. It holds no parentheses.
	Detail string
}

// Warning reports whether the notice warns readers off the paper (every
// kind but Published).
func (n Notice) Warning() bool { return n.Kind != NoticePublished }

// String is the notes segment of the notice.
func (n Notice) String() string {
	var b strings.Builder
	b.WriteString(string(n.Kind))
	if n.DOI != "" {
		b.WriteString(" doi:" + n.DOI)
	}
	if d := cleanNoticeDetail(n.Detail); d != "" {
		b.WriteString(" (" + d + ")")
	}
	return b.String()
}

// cleanNoticeDetail keeps the detail readable back: no parentheses, no separator, one
// line.
func cleanNoticeDetail(s string) string {
	s = strings.NewReplacer("(", "", ")", "", ";", ",").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

var noticeSegment = regexp.MustCompile(`^(published as|retracted|withdrawn|corrected|expression of concern)(?: doi:(10\.[0-9]{4,9}/[^\s;()]+))?(?: \(([^()]*)\))?$`)

// ParseNotices returns the notices in notes, in order. Other text is left to
// the reader; a segment counts only in the exact form String writes, with
// a DOI or a detail, so ordinary prose such as "corrected" does not.
func ParseNotices(notes string) []Notice {
	var out []Notice
	for seg := range strings.SplitSeq(notes, ";") {
		m := noticeSegment.FindStringSubmatch(strings.TrimSpace(seg))
		if m == nil {
			continue
		}
		n := Notice{Kind: NoticeKind(m[1]), DOI: m[2], Detail: cleanNoticeDetail(m[3])}
		if n.DOI == "" && n.Detail == "" {
			continue
		}
		out = append(out, n)
	}
	return out
}

// HasNotice reports whether notes already record a notice of the same kind
// (and DOI, when n has one).
func HasNotice(notes string, n Notice) bool {
	for _, o := range ParseNotices(notes) {
		if o.Kind == n.Kind && (n.DOI == "" || strings.EqualFold(o.DOI, n.DOI)) {
			return true
		}
	}
	return false
}

// AddNotices appends the notices notes do not record yet.
func AddNotices(notes string, ns ...Notice) string {
	for _, n := range ns {
		if HasNotice(notes, n) {
			continue
		}
		if strings.TrimSpace(notes) == "" {
			notes = n.String()
		} else {
			notes = strings.TrimRight(notes, " ;") + noticeSeparator + n.String()
		}
	}
	return notes
}
