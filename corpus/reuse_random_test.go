package corpus

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestReusePapersMatchesDecode holds the partial parse of papers.csv
// (reusePapers: the rows before and after the changed bytes kept, only
// the records between decoded again) to a decode of the whole text, on
// seeded series of the edits a maintainer or a tool makes: a value
// changed, in the first row, the last or any, or in several rows; a quoted value over more
// lines, or fewer; a row added or removed, at either end; the last line
// end dropped or added; a field broken (a stray quote), after which the
// next text is decoded whole. Each series has its own line ends (LF or
// CRLF) and starts with or without a BOM; each text is reopened from the
// one before, as masrl serve does, so that the record ends kept for the
// next are held too. The rows (their values, lines and every field's
// position), the findings and the kept ends must be the whole decode's.
func TestReusePapersMatchesDecode(t *testing.T) {
	header := []string{"key", "title", "first_author", "year", "url", "notes"}
	shared := 0   // rows taken from the text before, over all edits
	narrowed := 0 // edits whose changed rows were fewer than all
	for series := range 40 {
		rng := rand.New(rand.NewPCG(39, uint64(series)))
		crlf, bom := rng.IntN(2) == 0, rng.IntN(3) == 0
		value := func(col int) string {
			// Values differ from their first byte on, so that an edit
			// can begin or end right at a record's start or end.
			v := fmt.Sprintf("%c%d", 'a'+rng.IntN(3), rng.IntN(30))
			switch rng.IntN(8) {
			case 0:
				v += "\nover a second line"
			case 1:
				v = `a "quoted", ` + v
			case 2:
				v = ""
			}
			if col == 0 {
				v = fmt.Sprintf("%c%d", 'a'+rng.IntN(3), rng.IntN(1e6))
			}
			return v
		}
		newRow := func() []string {
			r := make([]string, len(header))
			for i := range r {
				r[i] = value(i)
			}
			return r
		}
		rows := make([][]string, 1+rng.IntN(12))
		for i := range rows {
			rows[i] = newRow()
		}
		lastEnd, broken := true, false
		text := func() string {
			var b bytes.Buffer
			if bom {
				b.WriteString(utf8BOM)
			}
			w := csv.NewWriter(&b)
			w.UseCRLF = crlf
			w.Write(header)
			w.WriteAll(rows)
			s := b.String()
			if !lastEnd {
				s = strings.TrimRight(s, "\r\n")
			}
			if broken && len(rows) > 0 {
				// A stray quote inside an unquoted field of a random row.
				at := strings.LastIndex(s, rows[rng.IntN(len(rows))][0])
				if at > 0 {
					s = s[:at] + `x"y` + s[at:]
				}
			}
			return s
		}
		var prev *Corpus
		for edit := range 30 {
			broken = false
			var what string
			switch op := rng.IntN(11); {
			case len(rows) == 0 || op == 0:
				what = "a row added at the end"
				rows = append(rows, newRow())
			case op == 1:
				what = "a row added at the start"
				rows = slices.Insert(rows, 0, newRow())
			case op == 2:
				what = "a row added inside"
				rows = slices.Insert(rows, rng.IntN(len(rows)+1), newRow())
			case op == 3:
				what = "a row removed"
				i := rng.IntN(len(rows))
				rows = slices.Delete(rows, i, i+1)
			case op == 4:
				what = "the first row's value"
				rows[0][rng.IntN(len(header))] = value(1)
			case op == 5:
				what = "the last row's value"
				rows[len(rows)-1][rng.IntN(len(header))] = value(1)
			case op == 6:
				what = "a value over one line more"
				r := rows[rng.IntN(len(rows))]
				r[1] += "\nand one more line"
			case op == 7:
				what = "the last line end"
				lastEnd = !lastEnd
			case op == 9:
				what = "values of several rows"
				for range 2 + rng.IntN(2) {
					r := rows[rng.IntN(len(rows))]
					if i := rng.IntN(len(header)); rng.IntN(2) == 0 {
						r[i] = value(1)
					} else {
						// Only its first byte, perhaps a record's first.
						r[i] = string(rune('a'+rng.IntN(3))) + strings.TrimLeft(r[i], "abc")
					}
				}
			case op == 8:
				what = "a field broken"
				broken = true
			default:
				what = "a value"
				rows[rng.IntN(len(rows))][1+rng.IntN(len(header)-1)] = value(1)
			}
			src := text()
			name := fmt.Sprintf("series %d, edit %d (%s)", series, edit, what)
			got := &Corpus{}
			if err := got.loadPapersText(PapersFile, src, prev); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want := &Corpus{}
			if err := want.loadPapersText(PapersFile, src, nil); err != nil {
				t.Fatalf("%s: decoded whole: %v", name, err)
			}
			if !reflect.DeepEqual(got.Papers, want.Papers) {
				t.Fatalf("%s: rows from the text before:\n%s\ndecoded whole:\n%s\ntext:\n%q", name, rowsText(got.Papers), rowsText(want.Papers), src)
			}
			if !reflect.DeepEqual(got.loadDiags, want.loadDiags) {
				t.Fatalf("%s: findings from the text before:\n%v\ndecoded whole:\n%v", name, got.loadDiags, want.loadDiags)
			}
			if !reflect.DeepEqual(got.papers, want.papers) {
				t.Fatalf("%s: header from the text before:\n%+v\ndecoded whole:\n%+v", name, got.papers, want.papers)
			}
			if (got.kept == nil) != (want.kept == nil) || got.kept != nil &&
				(got.kept.src != want.kept.src || got.kept.headerEnd != want.kept.headerEnd || !slices.Equal(got.kept.ends, want.kept.ends) || got.kept.clean != want.kept.clean) {
				t.Fatalf("%s: kept for the next text %+v, decoded whole %+v", name, keptText(got.kept), keptText(want.kept))
			}
			if prev != nil {
				lo, hi := got.ChangedRows(prev)
				for i := range got.Papers {
					if (i < lo || i >= hi) && !got.Papers[i].SameRow(prev.Papers[i]) {
						t.Fatalf("%s: row %d outside the changed rows %d to %d does not read as the row before", name, i, lo, hi)
					}
				}
				if hi-lo < len(got.Papers) {
					narrowed++
				}
				for i := range got.Papers {
					if i < len(prev.Papers) && got.Papers[i].SameRow(prev.Papers[i]) && rowID(got.Papers[i]) == rowID(prev.Papers[i]) {
						shared++
					}
				}
			}
			prev = got
		}
	}
	// The test holds the partial parse only if it ran.
	if shared < 1000 || narrowed < 100 {
		t.Errorf("%d rows taken from the text before over every edit, %d edits that changed fewer rows than all: want many more", shared, narrowed)
	}
}

// rowsText shows rows with their lines and field positions.
func rowsText(rows []*Entry) string {
	var b strings.Builder
	for _, e := range rows {
		fmt.Fprintf(&b, "line %d %q %v\n", e.Line, e.fields, e.pos)
	}
	return b.String()
}

// keptText shows what a load keeps for the next, without the text.
func keptText(k *keptPapers) string {
	if k == nil {
		return "nothing"
	}
	return fmt.Sprintf("header end %d, ends %v, clean %v", k.headerEnd, k.ends, k.clean)
}
