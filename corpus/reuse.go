package corpus

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"weak"
)

// keptPapers is what a load keeps of papers.csv so that the next load
// from the same directory (LoadOptions.Previous) decodes only the records
// that changed: the file's text, where its header and each row's record
// end, and whether reading it found nothing (only then are its rows
// reused).
type keptPapers struct {
	src       string
	headerEnd int64
	ends      []int64
	clean     bool
	// from, lo and hi say which rows this load decoded itself: every row
	// outside Papers[lo:hi] is from's row at the same index, the same
	// record at the same line (ChangedRows); from is nil when that is not
	// so (rows added, removed or moved to other lines, or decoded whole).
	// It is weak: a corpus must not keep every one before it alive.
	from   weak.Pointer[Corpus]
	lo, hi int
}

// loadPapersText loads papers.csv from its text, keeping it for the next
// load: from prev's rows where prev kept its text and the two texts share
// their start or their end, else decoded whole.
func (c *Corpus) loadPapersText(name, src string, prev *Corpus) error {
	if prev != nil && c.reusePapers(name, src, prev) {
		return nil
	}
	var ends recordEnds
	t, rows, diags, err := decodeCSV[Entry](name, strings.NewReader(src), int64(len(src)), nil, nil, &ends)
	c.papers, c.Papers = t, pointers(rows)
	c.loadDiags = append(c.loadDiags, diags...)
	if err != nil {
		return fmt.Errorf("%s: decoding rows: %w", name, err)
	}
	if t.header != nil && len(ends.rows) == len(rows) {
		c.kept = &keptPapers{src: src, headerEnd: ends.header, ends: ends.rows, clean: len(diags) == 0}
	}
	return nil
}

// reusePapers loads papers.csv's text src from prev's rows, decoding only
// the records between the text's common start with prev's and its common
// end; it reports false, having changed nothing, when prev cannot serve.
//
// It is sound because a CSV reader's state at the start of a record is
// its line number alone: the rows whose records lie in the common start
// read the same, and once decoding the changed middle ends a record at an
// offset where prev also ended one, inside the common end, every row after
// reads as prev's did, a number of lines further down. prev must have
// read its file without a finding, so that its rows are all its records.
func (c *Corpus) reusePapers(name, src string, prev *Corpus) bool {
	k := prev.kept
	if k == nil || !k.clean || prev.papers == nil || prev.papers.file != name || len(prev.Papers) != len(k.ends) || len(prev.Papers) == 0 {
		return false
	}
	old := k.src
	common := min(len(src), len(old))
	a, z := commonStartEnd(src, old, common)
	if a == len(src) && len(src) == len(old) { // the same text
		c.papers, c.Papers = prev.papers, slices.Clone(prev.Papers)
		c.kept = &keptPapers{src: k.src, headerEnd: k.headerEnd, ends: k.ends, clean: k.clean, from: weak.Make(prev)}
		return true
	}
	if k.headerEnd > int64(a) {
		return false // the header changed
	}
	// The rows before the first change: those whose record, newline
	// included, ends inside the common start.
	n := sort.Search(len(k.ends), func(i int) bool { return k.ends[i] > int64(a) })
	if n > 0 && old[k.ends[n-1]-1] != '\n' {
		n--
	}
	from := k.headerEnd
	if n > 0 {
		from = k.ends[n-1]
	}
	shift := int64(len(src) - len(old))
	tail := int64(len(old) - z) // prev's offsets from here on are in the common end

	s := newChunkStream(name, strings.NewReader(src[from:]), strings.Count(src[:from], "\n"), prev.papers.header)
	s.r.ReuseRecord = false // the rows keep their records
	var recs [][]string
	var pos [][]fieldPos
	var ends []int64
	next := len(prev.Papers) // the first of prev's rows read again as they were
	for {
		rec, p, ok := s.next()
		if !ok {
			break
		}
		end := from + s.r.InputOffset()
		recs, pos, ends = append(recs, rec), append(pos, p), append(ends, end)
		if o := end - shift; o >= tail && o > from {
			if j, found := slices.BinarySearch(k.ends, o); found {
				next = j + 1
				break
			}
		}
	}
	cols := prev.Papers[0].cols
	middle, err := decodeRecords[Entry](name, cols, prev.papers.header, nil, recs, pos)
	if err != nil || len(middle) != len(recs) {
		return false // decoded whole instead, which reports the error
	}
	rows := make([]*Entry, 0, n+len(middle)+len(prev.Papers)-next)
	rows = append(rows, prev.Papers[:n]...)
	rows = append(rows, pointers(middle)...)
	rest := prev.Papers[next:]
	restEnds := make([]int64, len(rest))
	lines := int32(0)
	if len(rest) > 0 {
		lines = int32(strings.Count(src[from:ends[len(ends)-1]], "\n") - strings.Count(old[from:k.ends[next-1]], "\n"))
		if lines == 0 {
			rows = append(rows, rest...)
		} else {
			// The rows after the change moved down or up: each is a
			// copy of prev's at its new lines, never prev's own row,
			// which prev's readers (the last build's views) still read.
			// Each copy is allocated alone: copies made as one array
			// would keep the whole array alive while any of them is
			// shared, and every later edit that moves rows again
			// would leave one more such array behind
			// (TestReopenLetsMovedRowsGo).
			for _, e := range rest {
				m := new(Entry)
				*m = *e
				m.Line += int(lines)
				m.pos = slices.Clone(e.pos)
				for f := range m.pos {
					if m.pos[f].line > 0 {
						m.pos[f].line += lines
					}
				}
				rows = append(rows, m)
			}
		}
		for i := range rest {
			restEnds[i] = k.ends[next+i] + shift
		}
	}
	if len(rows) == 0 {
		rows = nil // as decoding the text alone gives
	}
	c.papers, c.Papers = prev.papers, rows
	c.loadDiags = append(c.loadDiags, s.diags...)
	c.kept = &keptPapers{src: src, headerEnd: k.headerEnd, ends: slices.Concat(k.ends[:n], ends, restEnds), clean: len(s.diags) == 0}
	if lines == 0 && next-n == len(middle) {
		c.kept.from, c.kept.lo, c.kept.hi = weak.Make(prev), n, n+len(middle)
	}
	return true
}

// commonBlock is how many bytes commonStart and commonEnd compare at
// once: a 100,000-row papers.csv is 34 MB, which a loop byte by byte
// took tens of milliseconds to walk on every edit; whole blocks compare
// as one string comparison.
const commonBlock = 4096

// commonStartEnd is the length of the common start of a and b, at most
// n, and of their common end not overlapping it: the end is looked for
// on a second goroutine while the start is, since each walks up to the
// edit, half of a 34 MB papers.csv edited in its middle. A common end
// found longer than n-start is cut to it (its shorter ends are common
// too), which is what looking for it up to n-start finds.
func commonStartEnd(a, b string, n int) (start, end int) {
	if n < halvesFrom {
		start = commonStart(a, b, n)
		return start, commonEnd(a, b, n-start)
	}
	done := make(chan struct{})
	go func() {
		end = commonEnd(a, b, n)
		close(done)
	}()
	start = commonStart(a, b, n)
	<-done
	return start, min(end, n-start)
}

// commonStart is the length of the common start of a and b, at most n.
func commonStart(a, b string, n int) int {
	i := 0
	for i+commonBlock <= n && a[i:i+commonBlock] == b[i:i+commonBlock] {
		i += commonBlock
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonEnd is the length of the common end of a and b, at most n.
func commonEnd(a, b string, n int) int {
	z := 0
	for z+commonBlock <= n && a[len(a)-z-commonBlock:len(a)-z] == b[len(b)-z-commonBlock:len(b)-z] {
		z += commonBlock
	}
	for z < n && a[len(a)-1-z] == b[len(b)-1-z] {
		z++
	}
	return z
}
