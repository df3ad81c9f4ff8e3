package partial

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/masrl/masrl/trace"
)

// This file writes and reads the partial format, version 1, described by
// schema/partial.schema.json and docs/traces.md. The writer is
// deterministic: the same traces give the same bytes, whatever the split
// or merge order that produced the partial. The reader refuses anything
// the writer would not have written, each refusal at a JSON Pointer.

// partialDoc is a partial as JSON. Members are written in this order.
type partialDoc struct {
	Kind       string     `json:"kind"`
	Version    int        `json:"version"`
	Sketch     sketchDoc  `json:"sketch"`
	Traces     int64      `json:"traces"`
	Invalid    int64      `json:"invalid"`
	Topologies []groupDoc `json:"topologies"`
}

// sketchDoc names the sketch and its parameters, which every partial of
// a merge must share.
type sketchDoc struct {
	Name             string  `json:"name"`
	Mapping          string  `json:"mapping"`
	RelativeAccuracy float64 `json:"relative_accuracy"`
	ExactValues      int64   `json:"exact_values"`
}

// groupDoc is the summary of one topology's traces.
type groupDoc struct {
	Topology string       `json:"topology"`
	Traces   int64        `json:"traces"`
	Measures []measureDoc `json:"measures"`
}

// measureDoc is one measure of a group. Values (pairs [value, count],
// ascending) is set while the values are kept exactly, Bins otherwise.
type measureDoc struct {
	Name   string       `json:"name"`
	N      int64        `json:"n"`
	Min    *float64     `json:"min,omitempty"`
	Max    *float64     `json:"max,omitempty"`
	Sum    string       `json:"sum"`
	Values [][2]float64 `json:"values,omitempty"`
	Bins   *binsDoc     `json:"bins,omitempty"`
}

// binsDoc is a DDSketch's bins: the count of values indistinguishable
// from zero, and [index, count] pairs in ascending index for the
// positive values and for the magnitudes of the negative ones.
type binsDoc struct {
	Zero     int64        `json:"zero"`
	Positive [][2]float64 `json:"positive"`
	Negative [][2]float64 `json:"negative"`
}

// MarshalJSON writes the partial in its canonical form: topologies in the
// schema's order, measures in the report's, values and bins ascending.
func (p *Partial) MarshalJSON() ([]byte, error) {
	doc := partialDoc{
		Kind: Kind, Version: Version,
		Sketch:     sketchDoc{Name: sketchName, Mapping: sketchMapping, RelativeAccuracy: p.params.RelativeAccuracy, ExactValues: int64(p.params.ExactValues)},
		Traces:     int64(p.Traces()),
		Invalid:    int64(p.invalid),
		Topologies: []groupDoc{},
	}
	for _, topo := range p.topologies() {
		g := p.groups[topo]
		gd := groupDoc{Topology: topo, Traces: int64(g.traces), Measures: []measureDoc{}}
		for i, m := range trace.SummaryMeasures() {
			gd.Measures = append(gd.Measures, measureDocOf(m.Name, g.measures[i]))
		}
		doc.Topologies = append(doc.Topologies, gd)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(doc)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), err
}

func measureDocOf(name string, a *accumulator) measureDoc {
	md := measureDoc{Name: name, N: a.n, Sum: exactDecimal(a.sum)}
	if a.n == 0 {
		return md
	}
	md.Min, md.Max = new(a.min), new(a.max)
	if a.values != nil {
		md.Values = make([][2]float64, 0, len(a.values))
		for v, c := range a.values {
			md.Values = append(md.Values, [2]float64{v, float64(c)})
		}
		slices.SortFunc(md.Values, func(x, y [2]float64) int { return cmpFloat(x[0], y[0]) })
		return md
	}
	bins := func(s interface {
		ForEach(func(int, float64) bool)
	}) [][2]float64 {
		out := [][2]float64{}
		s.ForEach(func(i int, c float64) bool {
			if c > 0 {
				out = append(out, [2]float64{float64(i), c})
			}
			return false
		})
		slices.SortFunc(out, func(x, y [2]float64) int { return cmpFloat(x[0], y[0]) })
		return out
	}
	md.Bins = &binsDoc{
		Zero:     int64(a.sketch.GetZeroCount()),
		Positive: bins(a.sketch.GetPositiveValueStore()),
		Negative: bins(a.sketch.GetNegativeValueStore()),
	}
	return md
}

// exactDecimal writes x, a sum of float64s and so a binary fraction, as
// the decimal that equals it exactly: a binary fraction of k fractional
// bits has exactly k fractional decimal digits. Trailing zeros are cut,
// so one value has one spelling.
func exactDecimal(x *big.Float) string {
	if x.Sign() == 0 {
		return "0"
	}
	k := max(0, int(x.MinPrec())-x.MantExp(nil))
	s := x.Text('f', k)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Error is a partial the reader refuses: where (the JSON Pointer
// of the failing value, and the line and column when the JSON itself is
// at fault) and what would be right.
type Error struct {
	Pointer   string
	Line, Col int // 0 when only the pointer is known
	Msg       string
}

func (e *Error) Error() string {
	p := e.Pointer
	if p == "" {
		p = "(root)"
	}
	if e.Line > 0 {
		return fmt.Sprintf("%d:%d: %s: %s", e.Line, e.Col, p, e.Msg)
	}
	return p + ": " + e.Msg
}

// maxCount bounds every count a partial may hold: beyond 2^53 a float64
// bin count, and the sums of counts, would no longer be exact.
const maxCount = 1 << 53

// Read reads and checks one partial. It refuses an unknown kind or
// version, unknown or duplicate members, negative or fractional counts,
// counts that do not add up, values out of order, and sketch parameters
// other than a relative accuracy in (0, 1) with the logarithmic mapping.
func Read(r io.Reader) (*Partial, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var doc partialDoc
	if err := jsonv2.Unmarshal(data, &doc, jsonv2.RejectUnknownMembers(true)); err != nil {
		return nil, decodeError(data, err)
	}
	return doc.partial()
}

// decodeError turns a JSON decoding error into a Error with the
// pointer, line and column of the value at fault.
func decodeError(data []byte, err error) error {
	var se *jsonv2.SemanticError
	var sy *jsontext.SyntacticError
	var ptr string
	var off int64
	msg := err.Error()
	switch {
	case errors.As(err, &se):
		ptr, off = string(se.JSONPointer), se.ByteOffset
		switch {
		case se.Err != nil && strings.Contains(se.Err.Error(), "unknown object member"):
			msg = fmt.Sprintf("unknown member: version %d of the partial format has no such member", Version)
		case se.Err != nil && strings.Contains(se.Err.Error(), "array elements"):
			msg = se.Err.Error() + ": want [value, count] or [index, count]"
		case len(se.JSONValue) > 0:
			msg = fmt.Sprintf("%s: want %s", se.JSONValue, wantKind(se))
		case se.JSONKind != 0:
			msg = fmt.Sprintf("a JSON %s: want %s", kindWord(se.JSONKind), wantKind(se))
		}
	case errors.As(err, &sy):
		ptr, off = string(sy.JSONPointer), sy.ByteOffset
		msg = "malformed JSON: " + sy.Err.Error()
	default:
		return &Error{Msg: err.Error()}
	}
	line, col := lineCol(data, off)
	return &Error{Pointer: ptr, Line: line, Col: col, Msg: msg}
}

func kindWord(k jsontext.Kind) string {
	switch k {
	case 'n':
		return "null"
	case 'f', 't':
		return "boolean"
	case '"':
		return "string"
	case '0':
		return "number"
	case '{':
		return "object"
	case '[':
		return "array"
	}
	return "value"
}

func wantKind(se *jsonv2.SemanticError) string {
	if se.GoType == nil {
		return "another value"
	}
	switch se.GoType.Kind().String() {
	case "int64", "int":
		return "a whole number"
	case "float64":
		return "a number"
	case "string":
		return "a string"
	case "array":
		return "an array of two numbers"
	case "slice":
		return "an array"
	case "struct", "ptr":
		return "an object"
	}
	return "a " + se.GoType.String()
}

// lineCol returns the 1-based line and byte column of offset in data.
func lineCol(data []byte, off int64) (int, int) {
	off = max(0, min(off, int64(len(data))))
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	return line, int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
}

// partial checks a decoded document and builds the partial it describes.
func (doc *partialDoc) partial() (*Partial, error) {
	bad := func(ptr, format string, args ...any) error {
		return &Error{Pointer: ptr, Msg: fmt.Sprintf(format, args...)}
	}
	if doc.Kind != Kind {
		return nil, bad("/kind", "%q is not a partial: want %q (masrl trace stats --partial writes one)", doc.Kind, Kind)
	}
	if doc.Version != Version {
		return nil, bad("/version", "version %d is unknown: this masrl reads version %d", doc.Version, Version)
	}
	sk := doc.Sketch
	if sk.Name != sketchName {
		return nil, bad("/sketch/name", "%q: want %q", sk.Name, sketchName)
	}
	if sk.Mapping != sketchMapping {
		return nil, bad("/sketch/mapping", "%q: want %q", sk.Mapping, sketchMapping)
	}
	if !(sk.RelativeAccuracy >= minAccuracy && sk.RelativeAccuracy <= maxAccuracy) {
		return nil, bad("/sketch/relative_accuracy", "%v: want a number from %v to %v (masrl writes %v)", sk.RelativeAccuracy, minAccuracy, maxAccuracy, RelativeAccuracy)
	}
	if sk.ExactValues < 0 || sk.ExactValues > maxExactValues {
		return nil, bad("/sketch/exact_values", "%d: want 0 to %d", sk.ExactValues, maxExactValues)
	}
	p, err := NewWith(Params{RelativeAccuracy: sk.RelativeAccuracy, ExactValues: int(sk.ExactValues)})
	if err != nil {
		return nil, bad("/sketch", "%v", err)
	}
	if doc.Traces < 0 || doc.Traces > maxCount {
		return nil, bad("/traces", "%d: want a count, 0 or more", doc.Traces)
	}
	if doc.Invalid < 0 || doc.Invalid > maxCount {
		return nil, bad("/invalid", "%d: want a count, 0 or more", doc.Invalid)
	}
	p.invalid = int(doc.Invalid)
	order := append(trace.Topologies(), trace.NoTopology)
	last := -1
	traces := int64(0)
	for gi, gd := range doc.Topologies {
		gp := fmt.Sprintf("/topologies/%d", gi)
		at := slices.Index(order, gd.Topology)
		if at < 0 {
			return nil, bad(gp+"/topology", "%q is not a topology: want one of %s", gd.Topology, quoteAll(order))
		}
		if at <= last {
			return nil, bad(gp+"/topology", "%q is out of order or repeated: topologies come once each, in the order %s", gd.Topology, quoteAll(order))
		}
		last = at
		if gd.Traces < 1 || gd.Traces > maxCount {
			return nil, bad(gp+"/traces", "%d: want a count of 1 or more (a topology without traces is left out)", gd.Traces)
		}
		traces += gd.Traces
		g := p.group(gd.Topology)
		g.traces = int(gd.Traces)
		names := trace.SummaryMeasures()
		if len(gd.Measures) != len(names) {
			return nil, bad(gp+"/measures", "%d measures: want the %d of version %d, in order (%s first)", len(gd.Measures), len(names), Version, names[0].Name)
		}
		for mi, md := range gd.Measures {
			mp := fmt.Sprintf("%s/measures/%d", gp, mi)
			if md.Name != names[mi].Name {
				return nil, bad(mp+"/name", "%q: want %q, measure %d of version %d", md.Name, names[mi].Name, mi, Version)
			}
			if md.N > gd.Traces {
				return nil, bad(mp+"/n", "%d is more than the group's %d traces", md.N, gd.Traces)
			}
			if err := p.readMeasure(mp, &md, g.measures[mi]); err != nil {
				return nil, err
			}
		}
	}
	if doc.Traces != traces {
		return nil, bad("/traces", "%d, but the topologies hold %d traces", doc.Traces, traces)
	}
	return p, nil
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// readMeasure checks md and fills a from it.
func (p *Partial) readMeasure(mp string, md *measureDoc, a *accumulator) error {
	bad := func(ptr, format string, args ...any) error {
		return &Error{Pointer: ptr, Msg: fmt.Sprintf(format, args...)}
	}
	if md.N < 0 {
		return bad(mp+"/n", "%d: want a count, 0 or more", md.N)
	}
	sum, ok := parseSum(md.Sum, md.N)
	if !ok {
		return bad(mp+"/sum", "%q: want the exact sum of n float64 values as a decimal string, such as \"12.5\"", md.Sum)
	}
	if md.N == 0 {
		switch {
		case md.Min != nil:
			return bad(mp+"/min", "a measure with n 0 has no min")
		case md.Max != nil:
			return bad(mp+"/max", "a measure with n 0 has no max")
		case sum.Sign() != 0:
			return bad(mp+"/sum", "%q: a measure with n 0 sums to \"0\"", md.Sum)
		case md.Values != nil:
			return bad(mp+"/values", "a measure with n 0 has no values")
		case md.Bins != nil:
			return bad(mp+"/bins", "a measure with n 0 has no bins")
		}
		return nil
	}
	switch {
	case md.Min == nil:
		return bad(mp, "missing min: a measure with n 1 or more has min, max and values or bins")
	case md.Max == nil:
		return bad(mp, "missing max: a measure with n 1 or more has min, max and values or bins")
	case *md.Min > *md.Max:
		return bad(mp+"/min", "%v is more than max %v", *md.Min, *md.Max)
	case (md.Values == nil) == (md.Bins == nil):
		return bad(mp, "want either values (exact) or bins (a sketch), not both or neither")
	}
	a.n, a.min, a.max = md.N, *md.Min, *md.Max
	a.sum.Set(sum)
	if md.Values != nil {
		return p.readValues(mp+"/values", md, a)
	}
	return p.readBins(mp+"/bins", md, a)
}

// maxSumLen bounds a sum's decimal: the exact decimal of a sum of float64s
// has at most 1,074 digits after the point and 325 before it.
const maxSumLen = 1500

// parseSum reads an exact sum of n float64 values. It must be a JSON
// number (big.ParseFloat also takes "inf", hex and underscores) no longer
// than maxSumLen, with an exponent of at most 4 digits (so that parsing
// stays cheap), whose value a sum of n float64s can have: a binary
// fraction of at most 1,074 fractional bits, and of magnitude at most
// n times the largest float64.
func parseSum(s string, n int64) (*big.Float, bool) {
	if s == "" || len(s) > maxSumLen || !json.Valid([]byte(s)) || jsontext.Value(s).Kind() != '0' {
		return nil, false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 && len(strings.TrimLeft(s[i+1:], "+-")) > 4 {
		return nil, false
	}
	sum, _, err := big.ParseFloat(s, 10, sumPrec, big.ToNearestEven)
	if err != nil || sum.IsInf() || sum.Acc() != big.Exact {
		return nil, false
	}
	if sum.Sign() == 0 {
		return sum, true
	}
	if int(sum.MinPrec())-sum.MantExp(nil) > 1074 {
		return nil, false
	}
	limit := new(big.Float).SetFloat64(math.MaxFloat64)
	limit.Mul(limit, new(big.Float).SetInt64(max(n, 1)))
	return sum, new(big.Float).Abs(sum).Cmp(limit) <= 0
}

// count checks that c is a whole count from 1 to maxCount.
func countOK(c float64) bool { return c >= 1 && c <= maxCount && c == math.Trunc(c) }

func (p *Partial) readValues(vp string, md *measureDoc, a *accumulator) error {
	bad := func(ptr, format string, args ...any) error {
		return &Error{Pointer: ptr, Msg: fmt.Sprintf(format, args...)}
	}
	if len(md.Values) > p.params.ExactValues {
		return bad(vp, "%d distinct values, more than exact_values %d: the writer keeps a sketch (bins) instead", len(md.Values), p.params.ExactValues)
	}
	total := int64(0)
	exact := new(big.Float).SetPrec(sumPrec)
	var fv, fc, prod big.Float
	prod.SetPrec(sumPrec)
	for i, vc := range md.Values {
		v, c := vc[0], vc[1]
		if i > 0 && v <= md.Values[i-1][0] {
			return bad(fmt.Sprintf("%s/%d/0", vp, i), "%v: values are distinct and ascending, and this one is not above %v", v, md.Values[i-1][0])
		}
		if !countOK(c) {
			return bad(fmt.Sprintf("%s/%d/1", vp, i), "%v: want a whole count, 1 or more", c)
		}
		total += int64(c)
		a.values[v+0] = int64(c)
		exact.Add(exact, prod.Mul(fv.SetFloat64(v), fc.SetFloat64(c)))
	}
	switch {
	case total != md.N:
		return bad(vp, "the counts add up to %d, not n %d", total, md.N)
	case len(md.Values) > 0 && md.Values[0][0] != a.min:
		return bad(vp+"/0/0", "%v: the smallest value is min %v", md.Values[0][0], a.min)
	case len(md.Values) > 0 && md.Values[len(md.Values)-1][0] != a.max:
		return bad(fmt.Sprintf("%s/%d/0", vp, len(md.Values)-1), "%v: the largest value is max %v", md.Values[len(md.Values)-1][0], a.max)
	case exact.Cmp(a.sum) != 0:
		return bad(strings.TrimSuffix(vp, "/values")+"/sum", "%q, but the values sum to %q", md.Sum, exactDecimal(exact))
	}
	return nil
}

func (p *Partial) readBins(bp string, md *measureDoc, a *accumulator) error {
	bad := func(ptr, format string, args ...any) error {
		return &Error{Pointer: ptr, Msg: fmt.Sprintf(format, args...)}
	}
	b := md.Bins
	if b.Zero < 0 || b.Zero > maxCount {
		return bad(bp+"/zero", "%d: want a count, 0 or more", b.Zero)
	}
	a.values = nil
	a.sketch = p.newSketch()
	total := b.Zero
	if b.Zero > 0 {
		_ = a.sketch.AddWithCount(0, float64(b.Zero))
	}
	lo, hi := p.mapping.Index(p.mapping.MinIndexableValue()), p.mapping.Index(p.mapping.MaxIndexableValue())
	for _, side := range []struct {
		name string
		bins [][2]float64
		add  func(int, float64)
	}{
		{"positive", b.Positive, a.sketch.GetPositiveValueStore().AddWithCount},
		{"negative", b.Negative, a.sketch.GetNegativeValueStore().AddWithCount},
	} {
		if side.bins == nil {
			return bad(bp+"/"+side.name, "missing: want an array of [index, count] pairs, [] when empty")
		}
		for i, ic := range side.bins {
			idx, c := ic[0], ic[1]
			ip := fmt.Sprintf("%s/%s/%d", bp, side.name, i)
			if idx != math.Trunc(idx) || idx < float64(lo) || idx > float64(hi) {
				return bad(ip+"/0", "%v: want a whole bin index from %d to %d", idx, lo, hi)
			}
			if i > 0 && idx <= side.bins[i-1][0] {
				return bad(ip+"/0", "%v: bin indexes are distinct and ascending, and this one is not above %v", idx, side.bins[i-1][0])
			}
			if !countOK(c) {
				return bad(ip+"/1", "%v: want a whole count, 1 or more", c)
			}
			total += int64(c)
			if total > maxCount {
				return bad(ip+"/1", "the counts add up to more than %d", int64(maxCount))
			}
			side.add(int(idx), c)
		}
	}
	if total != md.N {
		return bad(bp, "the counts add up to %d, not n %d", total, md.N)
	}
	return nil
}
