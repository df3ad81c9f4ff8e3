package corpus

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// claimsDoc is the file's layout. Nodes are kept so that every claim knows
// its line.
type claimsDoc struct {
	// Pool names the file, beside the claims file, that pins the records
	// the claims are about (survey-pool.yaml); empty: the whole corpus.
	Pool string `yaml:"pool"`
	// Mentions names the file, beside the claims file, of the survey's
	// references and mentions (survey-mentions.yaml); empty: none.
	Mentions string            `yaml:"mentions"`
	Legend   map[string]legend `yaml:"legend"`
	Claims   []yaml.Node       `yaml:"claims"`
}

// legend decodes a printed table's abbreviations: Fields are its columns
// in printed order, Values map field → abbreviation → vocabulary value.
type legend struct {
	Fields []string                     `yaml:"fields"`
	Values map[string]map[string]string `yaml:"values"`
}

// rawClaim is one item of the claims list as written.
type rawClaim struct {
	ID          string    `yaml:"id"`
	Kind        string    `yaml:"kind"`
	Description string    `yaml:"description"`
	Source      string    `yaml:"source"`
	Of          string    `yaml:"of"`
	Field       string    `yaml:"field"`
	Value       string    `yaml:"value"`
	Rows        string    `yaml:"rows"`
	Cols        string    `yaml:"cols"`
	Row         string    `yaml:"row"`
	Col         string    `yaml:"col"`
	Key         string    `yaml:"key"`
	Expect      yaml.Node `yaml:"expect"`
	// Columns and Cells describe a whole printed cross-tab (kind table):
	// Cells maps a row value to its numbers in Columns order.
	Columns []string  `yaml:"columns"`
	Cells   yaml.Node `yaml:"cells"`
	// Legend names the legend that decodes an abbreviated tags row.
	Legend       string    `yaml:"legend"`
	Acknowledged yaml.Node `yaml:"acknowledged"`

	Line     int      `yaml:"line"`
	Printed  string   `yaml:"printed"`
	Bucket   string   `yaml:"bucket"`
	Buckets  []string `yaml:"buckets"`
	Among    []string `yaml:"among"`
	Contains string   `yaml:"contains"`
	Shown    []string `yaml:"shown"`
	From     string   `yaml:"from"`
	To       string   `yaml:"to"`
	AtLeast  float64  `yaml:"at_least"`
}

type rawAck struct {
	Cell   string    `yaml:"cell"` // table claims: "row/col"
	Reason string    `yaml:"reason"`
	CSV    yaml.Node `yaml:"csv"`
}

// lostMark marks, in an abbreviated row, a mark the text extraction
// lost: the row prints nothing there, which no value of the CSV agrees
// with, so the claim records an erratum that names the CSV's value.
const lostMark = "?"

// notApplicable are the printed marks for a field that does not apply; the
// CSV spells that NA.
var notApplicable = []string{"NA", "–", "-"}

// ParseClaims decodes a claims file and checks every claim against the
// vocabulary: unknown fields or values are errors here, not silent misses
// later. All problems are reported, each at its line.
func ParseClaims(name string, b []byte, v *Vocabulary) (*Claims, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(b, &root); err != nil {
		return nil, yamlProblems(name, b, err, 0).Err()
	}
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		var ds Diagnostics
		ds.add(Error, Pos{File: name, Line: max(1, root.Line)}, "", "", "the file is empty or not a mapping: a claims file holds claims: [...] (a list of claims; data/claims.yaml describes their kinds); write claims: [] for a list without claims")
		return nil, ds.Err()
	}
	top := root.Content[0]
	var ds Diagnostics
	unknownYAMLKeys(&ds, name, top, yamlKeys(claimsDoc{}), "the file")
	var doc claimsDoc
	if err := top.Decode(&doc); err != nil {
		ds = append(ds, yamlProblems(name, nil, err, top.Line)...)
	}
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == "legend" && top.Content[i+1].Kind == yaml.MappingNode {
			lg := top.Content[i+1]
			for j := 0; j+1 < len(lg.Content); j += 2 {
				unknownYAMLKeys(&ds, name, lg.Content[j+1], yamlKeys(legend{}), "legend "+lg.Content[j].Value)
			}
		}
	}
	if len(ds) > 0 {
		ds.Sort()
		return nil, ds.Err()
	}
	p := claimParser{file: name, v: v, legend: doc.Legend, mentions: doc.Mentions}
	out := Claims{PoolFile: doc.Pool, MentionsFile: doc.Mentions}
	for i := range doc.Claims {
		out.Claims = append(out.Claims, p.parse(&doc.Claims[i])...)
	}
	seen := map[string]Pos{}
	for _, c := range out.Claims {
		if prev, dup := seen[c.ID]; dup {
			p.errorf(c.Pos.Line, "claim %q repeats the id of line %d", c.ID, prev.Line)
		}
		seen[c.ID] = c.Pos
	}
	if len(p.errs) > 0 {
		p.errs.Sort()
		return nil, p.errs.Err()
	}
	return &out, nil
}

type claimParser struct {
	file   string
	v      *Vocabulary
	legend map[string]legend
	// mentions is the file's mentions file, which a references claim
	// needs; "" when it names none.
	mentions string
	errs     Diagnostics
}

func (p *claimParser) errorf(line int, format string, args ...any) {
	p.errs.add(Error, Pos{File: p.file, Line: line}, "", "", format, args...)
}

func (p *claimParser) parse(n *yaml.Node) []Claim {
	var r rawClaim
	if err := n.Decode(&r); err != nil {
		p.errs = append(p.errs, yamlProblems(p.file, nil, err, n.Line)...)
		return nil
	}
	before := len(p.errs)
	unknownYAMLKeys(&p.errs, p.file, n, yamlKeys(rawClaim{}), "claim "+cmp.Or(r.ID, "without id"))
	if len(p.errs) > before {
		return nil
	}
	if !p.kindKeys(n, &r) {
		return nil
	}
	base := Claim{ID: r.ID, Kind: r.Kind, Description: r.Description, Source: r.Source,
		Line: r.Line, Printed: r.Printed, Pos: Pos{File: p.file, Line: n.Line}}
	if r.ID == "" || r.Source == "" {
		p.errorf(n.Line, "claim needs an id and a source")
		return nil
	}
	if r.Line < 0 {
		p.errorf(n.Line, "claim %s: line must be a line of survey.txt, not %d", r.ID, r.Line)
		return nil
	}
	sc, ok := p.scope(n.Line, &r)
	if !ok {
		return nil
	}
	switch r.Kind {
	case KindTotal:
		if !slices.Contains([]string{"retained", "excluded", "audited"}, r.Of) {
			p.errorf(n.Line, "claim %s: of must be retained, excluded or audited, not %q", r.ID, r.Of)
			return nil
		}
		base.Check = &TotalClaim{Of: r.Of, Number: p.number(r.ID, &r.Expect)}
	case KindCount:
		if r.Contains != "" {
			if !p.checkFreeText(n.Line, r.ID, r.Field) {
				return nil
			}
			if r.Value != "" {
				p.errorf(n.Line, "claim %s: contains counts a free-text column and takes no value", r.ID)
				return nil
			}
		} else if !p.checkAnyValue(n.Line, r.ID, r.Field, r.Value) {
			return nil
		}
		base.Check = &CountClaim{Field: r.Field, Value: r.Value, Contains: r.Contains, Scope: sc,
			Number: p.number(r.ID, &r.Expect)}
	case KindCell:
		if !p.checkPair(n.Line, r.ID, r.Rows, r.Cols) || !p.checkValue(n.Line, r.ID, r.Rows, r.Row) ||
			!p.checkValue(n.Line, r.ID, r.Cols, r.Col) {
			return nil
		}
		base.Check = &CellClaim{Rows: r.Rows, Cols: r.Cols, Row: r.Row, Col: r.Col, Number: p.number(r.ID, &r.Expect)}
	case "table":
		return p.table(n, &r, base)
	case KindSet:
		if !p.checkAnyValue(n.Line, r.ID, r.Field, r.Value) {
			return nil
		}
		k := &SetClaim{Field: r.Field, Value: r.Value, Scope: sc}
		if err := r.Expect.Decode(&k.Keys); err != nil || len(k.Keys) == 0 {
			p.errorf(r.Expect.Line, "claim %s: expect must be a list of keys", r.ID)
			return nil
		}
		slices.Sort(k.Keys)
		base.Check = k
	case KindTags:
		if r.Key == "" {
			p.errorf(n.Line, "claim %s: tags claim needs a key", r.ID)
			return nil
		}
		k := &TagsClaim{Key: r.Key, Tags: p.tags(&r)}
		if len(k.Tags) == 0 {
			return nil
		}
		if r.Expect.Kind == yaml.ScalarNode {
			k.Legend, k.Bucket = r.Legend, r.Bucket
			if base.Printed == "" { // the abbreviated row is the printed text
				base.Printed = r.Expect.Value
			}
		}
		base.Check = k
	case KindColumns, KindBucket, KindOrder, KindShare, KindOneOf:
		if base.Check = p.tableClaim(n, &r, sc); base.Check == nil {
			return nil
		}
	case KindMeta, KindExcluded, KindReferences:
		if base.Check = p.paperClaim(n, &r); base.Check == nil {
			return nil
		}
	default:
		p.errorf(n.Line, "claim %s: unknown kind %q (total, count, cell, table, set, tags, columns, bucket, order, share, oneof, meta, excluded, references)", r.ID, r.Kind)
		return nil
	}
	if t, ok := base.Check.(*TagsClaim); r.Bucket != "" && (!ok || t.Bucket == "") {
		p.errorf(n.Line, "claim %s: only an abbreviated tags row is printed under a bucket", r.ID)
		return nil
	}
	if !r.Acknowledged.IsZero() {
		var a rawAck
		if err := r.Acknowledged.Decode(&a); err != nil {
			p.errorf(r.Acknowledged.Line, "claim %s: %v", r.ID, err)
			return nil
		}
		base.Ack = p.ack(r.ID, &base, &a)
	}
	return []Claim{base}
}

// claimKeys are the keys every claim takes.
var claimKeys = []string{"id", "kind", "description", "source", "line", "printed", "acknowledged"}

// kindKeys returns the keys a kind's claims take besides claimKeys, in
// the order the claims file writes them; nil for an unknown kind.
func kindKeys(kind string) []string {
	switch kind {
	case KindTotal:
		return []string{"of", "expect"}
	case KindCount:
		return []string{"field", "value", "contains", "legend", "buckets", "among", "expect"}
	case KindCell:
		return []string{"rows", "cols", "row", "col", "expect"}
	case "table":
		return []string{"rows", "cols", "columns", "cells"}
	case KindSet:
		return []string{"field", "value", "legend", "buckets", "among", "expect"}
	case KindTags:
		return []string{"key", "legend", "bucket", "expect"}
	case KindColumns:
		return []string{"shown", "expect"}
	case KindBucket:
		return []string{"legend", "buckets", "field", "value", "expect"}
	case KindOrder:
		return []string{"legend", "expect"}
	case KindShare:
		return []string{"from", "to", "at_least"}
	case KindOneOf, KindMeta:
		return []string{"key", "expect"}
	case KindExcluded, KindReferences:
		return []string{"expect"}
	}
	return nil
}

// kindKeys refuses a key the claim's kind does not take, at the key,
// naming the keys it does take: a field another kind reads would be
// silently ignored.
func (p *claimParser) kindKeys(n *yaml.Node, r *rawClaim) bool {
	own := kindKeys(r.Kind)
	if own == nil { // an unknown kind is refused with the kinds there are
		return true
	}
	ok := true
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if slices.Contains(claimKeys, k.Value) || slices.Contains(own, k.Value) {
			continue
		}
		p.errs.add(Error, Pos{File: p.file, Line: k.Line, Col: k.Column}, "", "",
			"claim %s: a %s claim takes no %s; it takes %s (and %s)", r.ID, r.Kind, k.Value,
			strings.Join(own, ", "), strings.Join(claimKeys, ", "))
		ok = false
	}
	return ok
}

// table expands a printed cross-tab into one cell claim per number.
func (p *claimParser) table(n *yaml.Node, r *rawClaim, base Claim) []Claim {
	if !p.checkPair(n.Line, r.ID, r.Rows, r.Cols) {
		return nil
	}
	for _, c := range r.Columns {
		if !p.checkValue(n.Line, r.ID, r.Cols, c) {
			return nil
		}
	}
	if r.Cells.Kind != yaml.MappingNode {
		p.errorf(n.Line, "claim %s: cells must map each row value to its numbers", r.ID)
		return nil
	}
	var acks []rawAck
	if !r.Acknowledged.IsZero() {
		if err := r.Acknowledged.Decode(&acks); err != nil {
			p.errorf(r.Acknowledged.Line, "claim %s: acknowledged must be a list of {cell, reason, csv}: %v", r.ID, err)
			return nil
		}
	}
	var out []Claim
	for i := 0; i+1 < len(r.Cells.Content); i += 2 {
		kn, vn := r.Cells.Content[i], r.Cells.Content[i+1]
		line := 0 // the table's line is its first row's; survey.txt prints one row a line
		if r.Line > 0 {
			line = r.Line + i/2
		}
		row := kn.Value
		if !p.checkValue(kn.Line, r.ID, r.Rows, row) {
			continue
		}
		var nums []int
		if err := vn.Decode(&nums); err != nil || len(nums) != len(r.Columns) {
			p.errorf(kn.Line, "claim %s: row %s needs %d numbers", r.ID, row, len(r.Columns))
			continue
		}
		for j, col := range r.Columns {
			c := base
			c.Kind = KindCell
			c.ID = r.ID + "/" + row + "/" + col
			c.Description = fmt.Sprintf("%s: %s=%s and %s=%s", r.Description, r.Rows, row, r.Cols, col)
			c.Check = &CellClaim{Rows: r.Rows, Cols: r.Cols, Row: row, Col: col, Number: nums[j]}
			c.Pos = Pos{File: p.file, Line: kn.Line}
			c.Line = line
			for k := range acks {
				if acks[k].Cell == row+"/"+col {
					c.Ack = p.ack(c.ID, &c, &acks[k])
					acks[k].Cell = "" // used
				}
			}
			out = append(out, c)
		}
	}
	for _, a := range acks {
		if a.Cell != "" {
			p.errorf(r.Acknowledged.Line, "claim %s: acknowledged cell %q is not in the table", r.ID, a.Cell)
		}
	}
	return out
}

// tags reads a tags claim: either an explicit mapping under expect, or a
// row abbreviated as printed, decoded with a legend of the file.
func (p *claimParser) tags(r *rawClaim) []Tag {
	var out []Tag
	switch r.Expect.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(r.Expect.Content); i += 2 {
			f, val := r.Expect.Content[i].Value, r.Expect.Content[i+1].Value
			if !p.checkValue(r.Expect.Content[i].Line, r.ID, f, val) {
				return nil
			}
			out = append(out, Tag{Field: f, Value: val})
		}
	case yaml.ScalarNode:
		legend, ok := p.legend[r.Legend]
		if !ok {
			p.errorf(r.Expect.Line, "claim %s: abbreviated row needs a known legend, not %q", r.ID, r.Legend)
			return nil
		}
		marks := strings.Fields(r.Expect.Value)
		if len(marks) != len(legend.Fields) {
			p.errorf(r.Expect.Line, "claim %s: %d marks for %d fields", r.ID, len(marks), len(legend.Fields))
			return nil
		}
		for i, m := range marks {
			f := legend.Fields[i]
			if m == lostMark { // lost in the text extraction: printed nothing
				out = append(out, Tag{Field: f, Value: lostMark})
				continue
			}
			val, ok := legend.Values[f][m]
			if !ok && slices.Contains(notApplicable, m) {
				val, ok = "NA", true
			}
			if !ok {
				p.errorf(r.Expect.Line, "claim %s: legend %s does not decode %q for %s", r.ID, r.Legend, m, f)
				return nil
			}
			if !p.checkValue(r.Expect.Line, r.ID, f, val) {
				return nil
			}
			out = append(out, Tag{Field: f, Value: val})
		}
	default:
		p.errorf(r.Expect.Line, "claim %s: tags expect a mapping or an abbreviated row", r.ID)
	}
	return out
}

func (p *claimParser) ack(id string, c *Claim, a *rawAck) *Acknowledgement {
	if a.Reason == "" || a.CSV.IsZero() {
		p.errorf(a.CSV.Line, "claim %s: an acknowledged deviation needs a reason and the CSV's value", id)
		return nil
	}
	var csv string
	switch c.Kind {
	case KindSet:
		var keys []string
		if err := a.CSV.Decode(&keys); err != nil {
			p.errorf(a.CSV.Line, "claim %s: csv must list keys", id)
			return nil
		}
		slices.Sort(keys)
		csv = strings.Join(keys, ", ")
	case KindTags, KindMeta:
		if a.CSV.Kind != yaml.MappingNode {
			p.errorf(a.CSV.Line, "claim %s: csv must map each differing field to the CSV's value", id)
			return nil
		}
		m := map[string]string{}
		for i := 0; i+1 < len(a.CSV.Content); i += 2 {
			m[a.CSV.Content[i].Value] = a.CSV.Content[i+1].Value
		}
		var tags []Tag
		switch k := c.Check.(type) {
		case *TagsClaim:
			tags = k.Tags
		case *MetaClaim:
			tags = k.Tags
		}
		var parts []string
		for _, t := range tags { // claim order, so rendering matches Actual
			if val, ok := m[t.Field]; ok {
				parts = append(parts, t.Field+"="+val)
				delete(m, t.Field)
			}
		}
		if len(m) > 0 {
			p.errorf(a.CSV.Line, "claim %s: csv names fields the claim does not", id)
			return nil
		}
		csv = strings.Join(parts, ", ")
	case KindOneOf:
		var ok bool
		if csv, ok = p.fieldValues(id, a.CSV, c.Check.(*OneOfClaim).Choices); !ok {
			return nil
		}
	case KindOrder:
		var items []string
		if err := a.CSV.Decode(&items); err != nil || len(items) == 0 {
			p.errorf(a.CSV.Line, "claim %s: csv must list the rows out of order, as check prints them", id)
			return nil
		}
		csv = strings.Join(items, "; ")
	case KindShare, KindExcluded, KindReferences:
		if a.CSV.Kind != yaml.ScalarNode {
			p.errorf(a.CSV.Line, "claim %s: csv must be the deviation as check prints it (for share \"N of M\")", id)
			return nil
		}
		csv = a.CSV.Value
	default:
		n, err := strconv.Atoi(a.CSV.Value)
		if err != nil {
			p.errorf(a.CSV.Line, "claim %s: csv must be a number", id)
			return nil
		}
		csv = strconv.Itoa(n)
	}
	return &Acknowledgement{Reason: a.Reason, CSV: csv}
}

func (p *claimParser) number(id string, n *yaml.Node) int {
	v, err := strconv.Atoi(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil || v < 0 {
		p.errorf(n.Line, "claim %s: expect must be a count", id)
	}
	return v
}

func (p *claimParser) checkValue(line int, id, field, value string) bool {
	f := p.v.Field(field)
	if f == nil {
		p.errorf(line, "claim %s: %q is not a controlled field", id, field)
		return false
	}
	if f.Index(value) < 0 {
		p.errorf(line, "claim %s: %q is not a value of %s", id, value, field)
		return false
	}
	return true
}

// checkAnyValue accepts a controlled field's value, or any value of a
// free-text column of papers.csv (venue, notes): those have no
// vocabulary to check against.
func (p *claimParser) checkAnyValue(line int, id, field, value string) bool {
	if p.v.Field(field) == nil && slices.Contains(paperColumns(), field) {
		if value == "" {
			p.errorf(line, "claim %s: %s needs a value", id, field)
			return false
		}
		return true
	}
	return p.checkValue(line, id, field, value)
}

// checkFreeText accepts a column of papers.csv that no vocabulary controls.
func (p *claimParser) checkFreeText(line int, id, field string) bool {
	if p.v.Field(field) != nil || !slices.Contains(paperColumns(), field) {
		p.errorf(line, "claim %s: %q is not a free-text column of papers.csv (one of %s)", id, field, strings.Join(p.freeText(), ", "))
		return false
	}
	return true
}

func (p *claimParser) freeText() []string {
	var out []string
	for _, c := range paperColumns() {
		if p.v.Field(c) == nil {
			out = append(out, c)
		}
	}
	return out
}

func (p *claimParser) checkPair(line int, id, rows, cols string) bool {
	rf, cf := p.v.Field(rows), p.v.Field(cols)
	if rf == nil || cf == nil || rf.File != cf.File {
		p.errorf(line, "claim %s: %q × %q is not a cross-tab of one file", id, rows, cols)
		return false
	}
	return true
}
