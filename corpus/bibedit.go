package corpus

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// BibEdit is a change to one BibTeX entry, made by EditBib.
type BibEdit struct {
	// Type is the entry's new type (article, inproceedings); empty keeps
	// it.
	Type string
	// Set maps a field name (lowercase) to its new value as BibTeX text
	// inside braces, already escaped; an empty value removes the field.
	Set map[string]string
}

// SkippedBib is an entry EditBib did not edit, and where it starts.
type SkippedBib struct {
	Key string
	Pos Pos
}

// EditBib applies edits, by BibTeX key, to a database and returns it in
// FormatBib's canonical form, so that the entries an edit does not touch
// stay as masrl fmt writes them. An entry is edited where it is first
// written; a set field replaces the field's first value, or is added,
// and the fields take FormatBib's order. An entry FormatBib keeps
// verbatim (a comment inside it) is not edited, since its comment would
// be lost: it is returned in skipped, for the caller to say so.
// A key no entry has, a field name that is not one, a value whose braces do not balance, or a database
// with a syntax error, is an error naming it, and nothing is returned.
func EditBib(name string, src []byte, edits map[string]BibEdit) (out []byte, skipped []SkippedBib, err error) {
	for k, e := range edits {
		for f, v := range e.Set {
			if f == "" || strings.IndexFunc(f, func(r rune) bool { return r > 127 || !isBibIdentByte(byte(r)) }) >= 0 {
				return nil, nil, fmt.Errorf("%s: %s: %q is not a BibTeX field name", name, k, f)
			}
			if !balancedBraces(v) {
				return nil, nil, fmt.Errorf("%s: %s: the new %s %q has braces that do not balance", name, k, f, v)
			}
		}
	}
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	if _, ds := parseBib(name, src); ds.Count(Error) > 0 {
		ds.Sort()
		return nil, nil, ds.Err()
	}
	p := &bibParser{file: name, src: string(src), line: 1}
	var b bytes.Buffer
	last := 0
	done := map[string]bool{}
	for p.skipTo('@') {
		start, pos := p.off, p.posAt(p.off)
		typ, key, fields, ok := p.readEntry()
		e, want := edits[key]
		if key == "" || !want || done[key] {
			continue
		}
		done[key] = true
		if !ok {
			skipped = append(skipped, SkippedBib{key, pos})
			continue
		}
		if e.Type != "" {
			typ = strings.ToLower(e.Type)
		}
		b.Write(src[last:start])
		b.WriteString(formatBibEntry(typ, key, setBibFields(fields, e.Set)))
		last = p.off
	}
	b.Write(src[last:])
	var missing []string
	for k := range edits {
		if !done[k] {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return nil, nil, fmt.Errorf("%s: no entry with the key %s", name, strings.Join(missing, ", "))
	}
	out, err = FormatBib(name, b.Bytes())
	return out, skipped, err
}

// setBibFields applies set to fields, in the order of the field names so
// that the result does not depend on the map's.
func setBibFields(fields []bibField, set map[string]string) []bibField {
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		n, v := strings.ToLower(n), set[n]
		i := slices.IndexFunc(fields, func(f bibField) bool { return f.name == n })
		switch {
		case v == "":
			fields = slices.DeleteFunc(fields, func(f bibField) bool { return f.name == n })
		case i >= 0:
			fields[i].pieces = []bibPiece{{'{', v}}
		default:
			fields = append(fields, bibField{name: n, pieces: []bibPiece{{'{', v}}})
		}
	}
	return fields
}
