package trace

import "testing"

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
