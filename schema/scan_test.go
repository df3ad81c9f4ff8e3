package schema

import (
	"math/rand/v2"
	"testing"
)

// TestPlainRun compares the word-at-a-time search for the end of a plain
// string run with a byte-by-byte one, on words mixing the bytes that matter
// with their neighbours, at every offset.
func TestPlainRun(t *testing.T) {
	interesting := []byte{'"', '\\', 0x00, 0x1f, 0x20, 0x21, 0x5b, 0x5d, 0x7f, 0x80, 0xff, 'a', '1', 0x22 ^ 0x80, 0x5c ^ 0x80}
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 20000; trial++ {
		buf := make([]byte, 1+rng.IntN(24))
		for i := range buf {
			if rng.IntN(3) == 0 {
				buf[i] = interesting[rng.IntN(len(interesting))]
			} else {
				buf[i] = byte(' ' + rng.IntN(0x5f))
				if buf[i] == '"' || buf[i] == '\\' {
					buf[i] = 'x'
				}
			}
		}
		s := &scanner{buf: buf, n: len(buf)}
		for start := 0; start <= len(buf); start++ {
			want := start
			for want < len(buf) {
				c := buf[want]
				if c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
					break
				}
				want++
			}
			if got := s.plainRun(start); got != want {
				t.Fatalf("plainRun(%q, %d) = %d, want %d", buf, start, got, want)
			}
		}
	}
}
