package trace

import (
	"fmt"
	"testing"
)

// TestColumn checks that a column returns what was added across the
// growth of its first chunk, chunk boundaries and a reset that hands the
// first chunk to the next trace.
func TestColumn(t *testing.T) {
	for _, first := range []int{0, 1, 3000, 1 << chunkBits} {
		var c column[int32]
		for round, n := range []int{3*(1<<chunkBits) + 17, 100, 1 << chunkBits} {
			c.first = first
			for i := range n {
				c.add(int32(i*7 + round))
			}
			if c.n != n {
				t.Fatalf("first %d round %d: n = %d, want %d", first, round, c.n, n)
			}
			for i := range n {
				if got := c.at(i); got != int32(i*7+round) {
					t.Fatalf("first %d round %d: at(%d) = %d, want %d", first, round, i, got, i*7+round)
				}
			}
			c.set(n-1, -1)
			if c.at(n-1) != -1 {
				t.Fatalf("first %d round %d: set did not hold", first, round)
			}
			c.reset()
		}
	}
}

// TestIDTable checks interning across the table's growth (which hashes
// every id again), with and without a reservation: each id gets the next
// index, finds it again, and is a duplicate the second time.
func TestIDTable(t *testing.T) {
	for _, reserve := range []int{0, 10, 1 << 17} {
		tab := newIDTable()
		if reserve > 0 {
			tab.reserve(reserve)
		}
		const n = 100000
		id := func(i int) []byte { return fmt.Appendf(nil, "e%d", i*7919%1000003) }
		for i := range n {
			got, dup := tab.insert(id(i), tab.hash(id(i)))
			if dup || int(got) != i {
				t.Fatalf("reserve %d: insert %s = %d, %v; want %d, false", reserve, id(i), got, dup, i)
			}
		}
		for i := range n {
			if got := tab.lookup(id(i), tab.hash(id(i))); int(got) != i {
				t.Fatalf("reserve %d: lookup %s = %d, want %d", reserve, id(i), got, i)
			}
			if got, dup := tab.insert(id(i), tab.hash(id(i))); !dup || int(got) != i {
				t.Fatalf("reserve %d: insert again %s = %d, %v; want %d, true", reserve, id(i), got, dup, i)
			}
			if string(tab.bytesOf(i)) != string(id(i)) {
				t.Fatalf("reserve %d: bytesOf(%d) = %q", reserve, i, tab.bytesOf(i))
			}
		}
		if got := tab.lookup([]byte("absent"), tab.hash([]byte("absent"))); got != -1 {
			t.Fatalf("reserve %d: lookup of an absent id = %d", reserve, got)
		}
	}
}

// TestIDTableLengths interns ids of every length around idShortMax, the
// longest held whole in a word, with bytes that a word must keep apart:
// trailing zero bytes ("a" and "a\x00"), and ids that share their first
// and last four bytes.
func TestIDTableLengths(t *testing.T) {
	var ids [][]byte
	for n := range 2 * (idShortMax + 2) {
		for _, fill := range []byte{0, 'a', 0xff} {
			id := make([]byte, n)
			for k := range id {
				id[k] = fill + byte(k%3)
			}
			ids = append(ids, id)
			if n > 2 {
				mid := append([]byte(nil), id...)
				mid[n/2] ^= 0x40 // differs only inside
				ids = append(ids, mid)
			}
		}
	}
	tab := newIDTable()
	seen := map[string]int{}
	for _, id := range ids {
		want, repeat := seen[string(id)]
		if !repeat {
			want = len(seen)
			seen[string(id)] = want
		}
		got, dup := tab.insert(id, tab.hash(id))
		if int(got) != want || dup != repeat {
			t.Fatalf("insert %q = %d, %v; want %d, %v", id, got, dup, want, repeat)
		}
	}
	for id, want := range seen {
		if got := tab.lookup([]byte(id), tab.hash([]byte(id))); int(got) != want {
			t.Errorf("lookup %q = %d, want %d", id, got, want)
		}
		if got := tab.bytesOf(want); string(got) != id {
			t.Errorf("bytesOf(%d) = %q, want %q", want, got, id)
		}
	}
	tab.grow() // hashes every id again from its word
	for id, want := range seen {
		if got := tab.lookup([]byte(id), tab.hash([]byte(id))); int(got) != want {
			t.Errorf("after grow: lookup %q = %d, want %d", id, got, want)
		}
	}
}

// TestIDTableCollisions interns the ids of TestIDTableLengths all under
// one hash, so that every id is compared with every other: short with
// long, empty with long, long with long of the same length.
func TestIDTableCollisions(t *testing.T) {
	ids := [][]byte{[]byte(""), []byte("a"), []byte("a\x00"), []byte("abcdefg"), []byte("abcdefgh"),
		[]byte("abcdefgi"), []byte("abcdefghijklmnop"), []byte("\x00\x00\x00\x00\x00\x00\x00\x00"), []byte("\x00")}
	for _, h := range []uint64{0, 1 << 40, ^uint64(0)} {
		tab := newIDTable()
		for i, id := range ids {
			if got, dup := tab.insert(id, h); int(got) != i || dup {
				t.Fatalf("hash %#x: insert %q = %d, %v; want %d, false", h, id, got, dup, i)
			}
		}
		for i, id := range ids {
			if got := tab.lookup(id, h); int(got) != i {
				t.Errorf("hash %#x: lookup %q = %d, want %d", h, id, got, i)
			}
		}
	}
}
