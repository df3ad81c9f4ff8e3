package trace

// prefetchSlots asks the processor to bring slots[idx[k]], k < n, into
// the cache without waiting for them (PREFETCHT0), where the loads of
// idTable.touch make it wait for the first before it can go on. Every
// idx[k] must be below len(slots). It returns 0, where
// prefetch_other.go's returns what it loaded.
//
//go:noescape
func prefetchSlots(slots []uint32, idx *[touchGroup]uint32, n int) uint64
