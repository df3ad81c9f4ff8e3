//go:build !amd64

package trace

// prefetchSlots loads slots[idx[k]], k < n, and returns their sum: loads
// that do not depend on each other, which the processor fetches in
// parallel (as idTable.touch does); prefetch_amd64.s prefetches them
// instead.
func prefetchSlots(slots []uint32, idx *[touchGroup]uint32, n int) uint64 {
	sum := uint64(0)
	for _, i := range idx[:n] {
		sum += uint64(slots[i])
	}
	return sum
}
