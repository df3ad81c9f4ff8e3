package corpus

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// This file holds the claim kinds about what the survey prints of its
// papers besides their tags (meta, excluded, references): parsing and
// verification side by side, as claimskinds.go does for the tables.

// metaFields are the columns a meta claim may name, in the order a
// result renders them; month is the arXiv submission month (YYYY-MM),
// which the arXiv id carries and Appendix A's card headers print.
var metaFields = []string{"year", "venue", "affiliation", "month"}

// paperClaim reads the meta, excluded and references kinds.
func (p *claimParser) paperClaim(n *yaml.Node, r *rawClaim) ClaimCheck {
	switch r.Kind {
	case KindMeta:
		if r.Key == "" || r.Expect.Kind != yaml.MappingNode || len(r.Expect.Content) == 0 {
			p.errorf(n.Line, "claim %s: a meta claim needs a key and expect mapping %s to the printed values", r.ID, strings.Join(metaFields, ", "))
			return nil
		}
		c := &MetaClaim{Key: r.Key}
		for i := 0; i+1 < len(r.Expect.Content); i += 2 {
			f, v := r.Expect.Content[i].Value, r.Expect.Content[i+1].Value
			line := r.Expect.Content[i].Line
			if !slices.Contains(metaFields, f) {
				p.errorf(line, "claim %s: %q is not a field a meta claim checks (%s)", r.ID, f, strings.Join(metaFields, ", "))
				return nil
			}
			if v == "" {
				p.errorf(line, "claim %s: %s needs the printed value", r.ID, f)
				return nil
			}
			if f == "month" && !isMonth(v) {
				p.errorf(line, "claim %s: month must be YYYY-MM, not %q", r.ID, v)
				return nil
			}
			c.Tags = append(c.Tags, Tag{Field: f, Value: v})
		}
		return c
	case KindExcluded:
		if r.Expect.Kind != yaml.MappingNode || len(r.Expect.Content) == 0 {
			p.errorf(n.Line, "claim %s: an excluded claim needs expect mapping each record_id to the name the survey prints", r.ID)
			return nil
		}
		c := &ExcludedClaim{}
		for i := 0; i+1 < len(r.Expect.Content); i += 2 {
			id, name := r.Expect.Content[i].Value, r.Expect.Content[i+1].Value
			if name == "" {
				p.errorf(r.Expect.Content[i].Line, "claim %s: record %s needs the name the survey prints", r.ID, id)
				return nil
			}
			c.Records = append(c.Records, Record{ID: id, Name: name})
		}
		return c
	case KindReferences:
		if p.mentions == "" {
			p.errorf(n.Line, "claim %s: a references claim needs the claims file to name its mentions file (mentions: survey-mentions.yaml)", r.ID)
			return nil
		}
		return &ReferencesClaim{Number: p.number(r.ID, &r.Expect)}
	}
	return nil
}

// isMonth reports whether s is a month YYYY-MM.
func isMonth(s string) bool {
	if len(s) != 7 || s[4] != '-' {
		return false
	}
	y, err1 := strconv.Atoi(s[:4])
	m, err2 := strconv.Atoi(s[5:])
	return err1 == nil && err2 == nil && y > 0 && m >= 1 && m <= 12
}

// arxivMonth is the submission month a new-style arXiv id begins with
// (2510.04678: 2025-10), "" for none.
func arxivMonth(id string) string {
	if len(id) < 9 || id[4] != '.' {
		return ""
	}
	yymm, err := strconv.Atoi(id[:4])
	if err != nil || yymm%100 < 1 || yymm%100 > 12 {
		return ""
	}
	return fmt.Sprintf("%04d-%02d", 2000+yymm/100, yymm%100)
}

// nameWords are the lower-cased words of a venue or an affiliation,
// split at anything but letters, digits, '&' and '\”: "arXiv (ICLR 2026
// submitted)" is arxiv, iclr, 2026, submitted.
func nameWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '&' && r != '\''
	})
}

// namedBy reports whether every word the survey prints is a word of the
// CSV's value: "NeurIPS D&B" names "NeurIPS 2022 D&B", "arXiv" names
// "arXiv (ICLR 2026 submitted)". A claim writes a printed abbreviation
// out (COLM’25 as COLM 2025), its printed text keeps the abbreviation.
func namedBy(printed, csv string) bool {
	have := map[string]bool{}
	for _, w := range nameWords(csv) {
		have[w] = true
	}
	words := nameWords(printed)
	for _, w := range words {
		if !have[w] {
			return false
		}
	}
	return len(words) > 0
}

// metaValue is an entry's value of a meta claim's field.
func metaValue(e *Entry, field string) string {
	if field == "month" {
		return arxivMonth(e.ArxivID)
	}
	return e.Value(field)
}

// MetaClaim is one entry's year, venue, affiliation or month (Tags, in
// the claim's order), as a table or card prints them.
type MetaClaim struct {
	Key  string
	Tags []Tag
}

// ExcludedClaim is that the records a passage names are in the exclusion
// log under these ids, in file order.
type ExcludedClaim struct {
	Records []Record
}

// ReferencesClaim is that the References list (the mentions file) cites
// each of the Number retained rows once.
type ReferencesClaim struct {
	Number int
}

func (k *MetaClaim) Reads() []string {
	fields := make([]string, len(k.Tags))
	for i, t := range k.Tags {
		fields[i] = t.Field
		if t.Field == "month" {
			fields[i] = "arxiv_id" // the month is the arXiv id's
		}
	}
	return withKey(fields...)
}

func (k *ExcludedClaim) Reads() []string { return []string{ReadsExcluded} }

func (k *ReferencesClaim) Reads() []string { return []string{"key", ReadsMentions} }

func (k *MetaClaim) verify(x *claimContext, r *ClaimResult) string {
	r.Keys = []string{k.Key}
	e := x.entry(k.Key)
	var exp, act, diff []string
	for _, t := range k.Tags {
		exp = append(exp, t.Field+"="+t.Value)
		if e == nil {
			continue
		}
		got := metaValue(e, t.Field)
		ok := got == t.Value
		if t.Field == "venue" || t.Field == "affiliation" {
			ok = namedBy(t.Value, got)
		}
		if ok {
			act = append(act, t.Field+"="+t.Value)
		} else {
			act = append(act, t.Field+"="+got)
			diff = append(diff, t.Field+"="+got)
		}
	}
	return settleRowClaim(r, k.Key, e != nil, exp, act, diff)
}

func (k *ExcludedClaim) verify(x *claimContext, r *ClaimResult) string {
	byID := map[string]*Exclusion{}
	for i := range x.c.Excluded {
		byID[x.c.Excluded[i].RecordID] = &x.c.Excluded[i]
	}
	var exp, diff []string
	for _, rec := range k.Records {
		exp = append(exp, rec.ID+" "+rec.Name)
		switch ex := byID[rec.ID]; {
		case ex == nil:
			diff = append(diff, rec.ID+": no such record")
		case !strings.Contains(strings.ToLower(ex.ScreeningLabel), strings.ToLower(rec.Name)):
			diff = append(diff, fmt.Sprintf("%s is %q", rec.ID, ex.ScreeningLabel))
		}
	}
	r.Expected = strings.Join(exp, ", ")
	r.Actual = r.Expected
	if len(diff) > 0 {
		r.Actual = strings.Join(diff, "; ")
	}
	return strings.Join(diff, "; ")
}

func (k *ReferencesClaim) verify(x *claimContext, r *ClaimResult) string {
	return x.verifyReferences(k.Number, r)
}
