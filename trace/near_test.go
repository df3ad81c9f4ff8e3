package trace

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"
)

// TestIDTableNear checks ahead and back, the windows addEdgeNear looks
// in, against a search of every index: short and long ids, windows that
// run off either end of the table and windows across a chunk boundary of
// the words (where the short-id loop over one chunk does not apply).
func TestIDTableNear(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 2))
	tab := newIDTable()
	n := 1<<chunkBits + 300
	ids := make([][]byte, n)
	index := map[string]int{}
	for i := range ids {
		switch rng.IntN(3) {
		case 0:
			ids[i] = fmt.Appendf(nil, "e%d", i) // short
		case 1:
			ids[i] = fmt.Appendf(nil, "event-%012d", i) // long
		default:
			ids[i] = fmt.Appendf(nil, "x%x", i*7919) // short or long
		}
		if got, dup := tab.insert(ids[i], tab.hash(ids[i])); int(got) != i || dup {
			t.Fatalf("insert %q = %d, %v", ids[i], got, dup)
		}
		index[string(ids[i])] = i
	}
	absent := [][]byte{[]byte("e-1"), []byte("event-absent-1"), []byte("")}
	starts := []int{-20, -1, 0, 1, 5, 1<<chunkBits - 20, 1<<chunkBits - 3, 1 << chunkBits, n - 10, n - 1, n, n + 5}
	for range 200 {
		starts = append(starts, rng.IntN(n+40)-20)
	}
	for _, from := range starts {
		for _, width := range []int{0, 1, nearAhead, nearBack, 40} {
			probe := append([][]byte(nil), absent...)
			for d := -45; d <= 45; d++ {
				if i := from + d; i >= 0 && i < n {
					probe = append(probe, ids[i])
				}
			}
			for _, id := range probe {
				w, long := idParts(id)
				want := int32(-1)
				i, ok := index[string(id)]
				if ok && i >= from && i < from+width {
					want = int32(i)
				}
				if got := tab.ahead(w, long, from, width); got != want {
					t.Fatalf("ahead(%q, %d, %d) = %d, want %d", id, from, width, got, want)
				}
				want = -1
				if ok && i >= from-width && i < from {
					want = int32(i)
				}
				if got := tab.back(w, long, from, width); got != want {
					t.Fatalf("back(%q, %d, %d) = %d, want %d", id, from, width, got, want)
				}
			}
		}
	}
}

// TestEdgesNear validates random traces with the windows of addEdgeNear
// and without them (Options.hashOnly) and requires the same result,
// measures included: edges listed in the order of their dst with the src
// close before it (which the windows find), in random order (which turns
// them off), and mixes of the two, with repeated and long ids, dangling
// and empty ends, loops, edges back in time and edges read before the
// events (pending until the events array ends); streamed through the
// readahead and in memory, with and without measures.
func TestEdgesNear(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 1))
	// Under js/wasm (make test-wasm) the first 15 rounds: each residue of
	// the round's 3, 4 and 5 and one trace across a chunk boundary, which
	// is half of the test's time there (3.4 s of the machine's CPU of 6.9); the
	// native run has them all.
	rounds := 30
	if runtime.GOOS == "js" {
		rounds = 15
	}
	for round := range rounds {
		data := nearTrace(rng, round)
		for _, opts := range []Options{{}, {FindingsOnly: true}} {
			var results [2][2]*Result
			for k, hashOnly := range []bool{false, true} {
				opts.hashOnly = hashOnly
				streamed, err := Validate(struct{ io.Reader }{bytes.NewReader(data)}, opts)
				if err != nil {
					t.Fatal(err)
				}
				inMemory, err := Validate(bytes.NewReader(data), opts)
				if err != nil {
					t.Fatal(err)
				}
				results[k] = [2]*Result{streamed, inMemory}
			}
			for r := range 2 {
				near, hash := results[0][r], results[1][r]
				if !reflect.DeepEqual(near, hash) {
					t.Fatalf("round %d, %+v: with the windows\n%s%+v\nby hash only\n%s%+v", round, opts, render(near), near.Report, render(hash), hash.Report)
				}
			}
		}
	}
}

// nearTrace writes a random trace for TestEdgesNear; round picks the
// edges' order and the ids' kinds.
func nearTrace(rng *rand.Rand, round int) []byte {
	events := 50 + rng.IntN(1500)
	if round%15 == 0 {
		events = 1<<chunkBits + rng.IntN(500) // windows across a chunk boundary
	}
	id := func(i int) string {
		switch round % 3 {
		case 0:
			return fmt.Sprintf("e%d", i)
		case 1:
			return fmt.Sprintf("event-%010d", i)
		}
		if i%2 == 0 {
			return fmt.Sprintf("n%d", i)
		}
		return fmt.Sprintf("node-number-%d", i)
	}
	var evs, eds bytes.Buffer
	tm := 0.0
	for i := range events {
		tm += float64(rng.IntN(100)) / 1000
		if rng.IntN(50) == 0 {
			tm -= 0.5 // an event earlier than the one before: edges back in time
		}
		eid := id(i)
		if rng.IntN(200) == 0 && i > 0 {
			eid = id(rng.IntN(i)) // repeated
		}
		if evs.Len() > 0 {
			evs.WriteString(",\n")
		}
		fmt.Fprintf(&evs, `    {"id":%q,"t":%.3f,"type":"message","agent":"a%d","role":"r","to":"a%d"}`, eid, tm, rng.IntN(5), rng.IntN(5))
	}
	local := round%4 != 3
	dst := 0
	for k := range events + events/2 {
		if !local || k%97 > 80 { // runs of random edges within local ones
			dst = rng.IntN(events)
		} else if rng.IntN(3) > 0 && dst < events-1 {
			dst++
		}
		src := dst - 1 - rng.IntN(nearBack+4)
		if !local || rng.IntN(10) == 0 {
			src = rng.IntN(events)
		}
		s, d := id(max(src, 0)), id(dst)
		switch rng.IntN(60) {
		case 0:
			s = "missing"
		case 1:
			d = ""
		case 2:
			s = d // a loop
		case 3:
			d = id(events + 10) // dangling
		}
		if eds.Len() > 0 {
			eds.WriteString(",\n")
		}
		fmt.Fprintf(&eds, `    {"src":%q,"dst":%q,"type":"causal"}`, s, d)
	}
	var b bytes.Buffer
	b.WriteString("{\n  \"trace_id\": \"t\",\n  \"task_id\": \"k\",\n")
	if round%5 == 4 {
		fmt.Fprintf(&b, "  \"edges\": [\n%s\n  ],\n  \"events\": [\n%s\n  ],\n", eds.Bytes(), evs.Bytes())
	} else {
		fmt.Fprintf(&b, "  \"events\": [\n%s\n  ],\n  \"edges\": [\n%s\n  ],\n", evs.Bytes(), eds.Bytes())
	}
	b.WriteString("  \"rewards\": {},\n  \"costs\": {\"tokens\": 1, \"wall_clock_s\": 1}\n}\n")
	return b.Bytes()
}

// TestIDHashNear checks what idHash promises the id table: ids that
// differ only in a last decimal digit start their probes in one line of
// 16 slots, at places that differ by the digits' difference, with tags
// that differ too (short ids and long ones); other last bytes are placed
// apart (no more than ten ids of one prefix share a line); and 256 ids
// with one prefix and every last byte, among others, are all interned and
// found again.
func TestIDHashNear(t *testing.T) {
	tab := newIDTable()
	tab.reserve(1 << 20)
	mask := uint32(len(tab.slots) - 1)
	for _, prefix := range []string{"e12345", "e", "", "event-0000123", "x-"} {
		var first uint32
		tags := map[uint32]bool{}
		lines := map[uint32]int{}
		for c := range 256 {
			id := append([]byte(prefix), byte(c))
			hi := uint32(tab.hash(id) >> 32)
			lines[hi&mask>>4]++
			if c < '0' || c > '9' {
				continue
			}
			if c == '0' {
				first = hi & mask
			}
			if got := hi & mask; got != first^uint32(c^'0') {
				t.Errorf("%q: first slot %d, want %d", id, got, first^uint32(c^'0'))
			}
			tags[hi>>tab.shift] = true
		}
		if len(tags) != 10 {
			t.Errorf("%q0 to %[1]q9: %d tags, want 10", prefix, len(tags))
		}
		for line, n := range lines {
			if n > 10+3 { // the digits, and a few others by chance
				t.Errorf("%q and its 255 neighbours: %d in line %d", prefix, n, line)
			}
		}
	}
	var ids [][]byte
	for b := range 256 {
		ids = append(ids, []byte{'x', 'y', byte(b)}, append([]byte("a-long-prefix-"), byte(b)))
	}
	for i := range 5000 {
		ids = append(ids, fmt.Appendf(nil, "n%d", i))
	}
	for i, id := range ids {
		if got, dup := tab.insert(id, tab.hash(id)); int(got) != i || dup {
			t.Fatalf("insert %q = %d, %v; want %d, false", id, got, dup, i)
		}
	}
	for i, id := range ids {
		if got := tab.lookup(id, tab.hash(id)); int(got) != i {
			t.Fatalf("lookup %q = %d, want %d", id, got, i)
		}
	}
}
