package corpus

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCommonStartEnd holds the block-wise common start and end to a
// comparison byte by byte, for texts that differ at every kind of place
// (inside the first block, on a block's edge, in the last bytes) and
// bounds that cut them anywhere.
func TestCommonStartEnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 3))
	for range 500 {
		a := strings.Repeat("x", rng.IntN(3*commonBlock))
		b := []byte(a + strings.Repeat("x", rng.IntN(3)))
		if len(b) > 0 && rng.IntN(4) > 0 {
			b[rng.IntN(len(b))] = 'y'
		}
		if len(b) > 0 && rng.IntN(2) == 0 {
			b[rng.IntN(len(b))] = 'z'
		}
		n := min(len(a), len(b))
		n -= rng.IntN(n/2 + 1)
		wantStart, wantEnd := 0, 0
		for wantStart < n && a[wantStart] == b[wantStart] {
			wantStart++
		}
		for wantEnd < n && a[len(a)-1-wantEnd] == b[len(b)-1-wantEnd] {
			wantEnd++
		}
		if got := commonStart(a, string(b), n); got != wantStart {
			t.Fatalf("commonStart of %d and %d bytes up to %d: %d, want %d", len(a), len(b), n, got, wantStart)
		}
		if got := commonEnd(a, string(b), n); got != wantEnd {
			t.Fatalf("commonEnd of %d and %d bytes up to %d: %d, want %d", len(a), len(b), n, got, wantEnd)
		}
	}
}
