package corpus

import (
	"math/rand/v2"
	"os"
	"path/filepath"
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

// TestCommonStartEndAtOnce holds commonStartEnd, which looks for the end
// on a second goroutine in texts of halvesFrom bytes or more, to the
// start looked for first and the end after it, up to what is left: for
// an edit anywhere, none, and texts of other lengths.
func TestCommonStartEndAtOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 4))
	for range 40 {
		a := strings.Repeat("abcdefg\n", (halvesFrom+rng.IntN(3*commonBlock))/8)
		b := []byte(a[:len(a)-rng.IntN(3)] + strings.Repeat("z", rng.IntN(3)))
		for range rng.IntN(3) {
			b[rng.IntN(len(b))] = 'y'
		}
		n := min(len(a), len(b))
		wantStart := commonStart(a, string(b), n)
		wantEnd := commonEnd(a, string(b), n-wantStart)
		if start, end := commonStartEnd(a, string(b), n); start != wantStart || end != wantEnd {
			t.Fatalf("texts of %d and %d bytes: start %d, end %d; want %d and %d", len(a), len(b), start, end, wantStart, wantEnd)
		}
	}
}

// TestReadTextHalves holds the read of a file in two halves at once to
// the file's bytes, whether the size it is given is the file's, smaller
// (the file grew since) or larger (it shrank).
func TestReadTextHalves(t *testing.T) {
	name := filepath.Join(t.TempDir(), "papers.csv")
	want := strings.Repeat("key,title\nk,a title\n", halvesFrom/10)
	if err := os.WriteFile(name, []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, size := range []int64{int64(len(want)), int64(len(want)) - 1, int64(len(want)) / 3, int64(len(want)) + 1, 2 * int64(len(want))} {
		got, err := readTextHalves(f, size)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("read in halves with size %d of %d bytes: %d bytes, not the file's", size, len(want), len(got))
		}
	}
}
