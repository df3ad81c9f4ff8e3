package trace

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/masrl/masrl/internal/diag"
)

// chunkBits sizes the chunks of a column: 64 Ki entries.
const chunkBits = 16

// column is an append-only array stored in fixed-size chunks. Unlike a
// slice it never copies itself to grow, so a million-entry column costs its
// size and not twice its size at the moment of growth.
type column[T any] struct {
	chunks [][]T // each at its full length; entries from n on are unset
	n      int
	first  int // capacity of the first chunk; 0 is 64
	// spare is the first chunk of the column's last trace, emptied by
	// reset, for the next trace's first chunk.
	spare []T
	// tail is the last chunk, so that add stores one entry and the
	// count, where appending to chunks[last] also stored its header.
	tail []T
}

// reset empties the column for another trace, keeping its first chunk.
func (c *column[T]) reset() {
	if len(c.chunks) > 0 {
		c.spare = c.chunks[0]
	}
	clear(c.chunks)
	*c = column[T]{chunks: c.chunks[:0], spare: c.spare}
}

func (c *column[T]) add(v T) {
	k := c.n & (1<<chunkBits - 1)
	if k == 0 || k == len(c.tail) {
		c.grow(k)
	}
	c.tail[k] = v
	c.n++
}

// grow makes room for entry k of the last chunk: a new chunk when k is 0,
// else a first chunk twice as large. The first chunk starts small and
// doubles, so that a small trace (a line of a batch) does not pay for
// 64 Ki entries per column; the others are allocated whole.
func (c *column[T]) grow(k int) {
	if k == 0 {
		size := 1 << chunkBits
		var chunk []T
		if c.n == 0 {
			size = cmp.Or(c.first, 64)
			chunk, c.spare = c.spare, nil
		}
		if cap(chunk) < size {
			chunk = make([]T, size)
		}
		chunk = chunk[:cap(chunk)]
		c.chunks = append(c.chunks, chunk)
		c.tail = chunk
		return
	}
	chunk := make([]T, min(2*len(c.tail), 1<<chunkBits))
	copy(chunk, c.tail)
	c.chunks[len(c.chunks)-1] = chunk
	c.tail = chunk
}

func (c *column[T]) at(i int) T { return c.chunks[i>>chunkBits][i&(1<<chunkBits-1)] }

func (c *column[T]) set(i int, v T) { c.chunks[i>>chunkBits][i&(1<<chunkBits-1)] = v }

// idTable interns strings (event ids, agent names, roles): one word per
// id, which holds a short id whole and locates a longer one in an arena,
// and an open-addressing hash table of indexes. A Go map[string]int32 of a
// million ids costs about 70 MB; this costs about 16.
// A slot is 32 bits: the index (plus one) in its low bits, as many as the
// table's size needs, and in the others a tag of the hash, so that a probe
// rarely compares bytes it need not. Half the size of a slot of a 32-bit
// index and a 32-bit tag, a million-id table (8 MB) misses the cache less
// when edges look their ends up in random order. Callers that hash ahead
// of time (see prefetch) pass the hash in; hash gives it.
type idTable struct {
	idHash // per table: probe order varies, results do not
	// words[i] is id i (see idWord). An id of up to idShortMax bytes (on a
	// million-event trace, nearly all of them) is compared with one load
	// and one comparison of its word, where a length and offset in a
	// column and the bytes in an arena took three dependent loads and a
	// call; and a million such ids take 8 MB instead of 11.
	words column[uint64]
	arena []byte   // the bytes of the ids longer than idShortMax
	slots []uint32 // 0 is empty, otherwise tag<<shift | index+1
	shift uint     // log2(len(slots))
	n     int
	// spare holds the slots of the last trace once it has no more use for
	// them, for reuse.
	spare []uint32
}

func newIDTable() idTable { return idTable{idHash: newIDHash()} }

// idHash hashes ids for an idTable: a short id (see idWord) by mixing its
// word with a key, in a few multiplications, a longer one with maphash.
//
// An id that ends in a decimal digit is mixed without that digit, which is
// then xored into the low four bits of the id's first slot and into its
// tag (see near): ids that differ only in a last digit, as the ids of
// consecutive events mostly do (e1230 to e1239), start their probes in one
// line of 16 slots, so that interning a million such ids misses the cache
// about once per ten ids instead of once per id (on a million events,
// those misses were a tenth of the CPU time). Other ids are placed at
// random, as before; at most ten ids share a line this way, so that no
// run of probes grows long (placing every last byte so, ids with a letter
// or a sign last made runs of a hundred slots).
type idHash struct {
	seed maphash.Seed
	key  uint64
}

func newIDHash() idHash {
	return idHash{seed: maphash.MakeSeed(), key: rand.Uint64() | 1}
}

// hash returns the hash of id.
func (ih idHash) hash(id []byte) uint64 {
	if w, short := idWord(id); short {
		return ih.word(w)
	}
	return ih.long(id)
}

// long returns the hash of an id longer than idShortMax.
func (ih idHash) long(id []byte) uint64 {
	n := len(id)
	if last := id[n-1]; isDigit(last) {
		return near(maphash.Bytes(ih.seed, id[:n-1]), last)
	}
	return maphash.Bytes(ih.seed, id)
}

// word returns the hash of the short id whose word is w.
func (ih idHash) word(w uint64) uint64 {
	n := w >> 56
	if n == 0 {
		return ih.mix(w)
	}
	at := 8 * (n - 1) // the last byte's place in the word
	if last := byte(w >> at); isDigit(last) {
		return near(ih.mix(w&^(0xff<<at)), last)
	}
	return ih.mix(w)
}

func isDigit(c byte) bool { return c-'0' < 10 }

// mix is a bijective mix of w and the key (multiplications by odd
// constants and xor-shifts), so that the upper half, which places and tags
// an id in the table, depends on every bit.
func (ih idHash) mix(w uint64) uint64 {
	x := (w ^ ih.key) * 0x9e3779b97f4a7c15
	x ^= x >> 29
	x *= 0xbf58476d1ce4e5b9
	return x ^ x>>32
}

// near puts an id's last digit into the hash h of the rest: xored into
// the low four bits of the first slot (bits 32 to 35), and the whole byte
// into the top eight bits, which a table of up to 2^24 slots uses only for
// its tags, so that the ids of one line seldom share a tag.
func near(h uint64, last byte) uint64 {
	return h ^ uint64(last&0xf)<<32 ^ uint64(last)<<56
}

// hashID returns the hash of the id given as by idParts.
func (ih idHash) hashID(w uint64, long []byte) uint64 {
	if long == nil {
		return ih.word(w)
	}
	return ih.long(long)
}

// parts returns what find and insert take of id: its word if short,
// else idLong and the bytes.
func idParts(id []byte) (w uint64, long []byte) {
	if w, short := idWord(id); short {
		return w, nil
	}
	return idLong, id
}

// idString returns the id given as by idParts, for messages.
func idString(w uint64, long []byte) string {
	if long != nil {
		return string(long)
	}
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], w)
	return string(b[:w>>56])
}

// reset empties the table for another trace, keeping its memory.
func (t *idTable) reset() {
	if t.slots != nil {
		t.spare = t.slots
	}
	t.words.reset()
	*t = idTable{idHash: t.idHash, arena: t.arena[:0], words: t.words, spare: t.spare}
}

// idShortMax is the longest id a word holds whole: its bytes in the low
// seven bytes, little-endian, and its length in the top byte, so that
// "a" and "a\x00" differ. The word of a longer id has idLong set, its
// length in the idOffBits bits below, and its offset in the arena in the
// idOffBits bits at the bottom (64 GiB of long ids; the arena could
// not be allocated long before).
const (
	idShortMax = 7
	idLong     = 1 << 63
	idOffBits  = 36
)

// idWord returns the word of an id of up to idShortMax bytes; short is
// false for a longer one.
func idWord(id []byte) (w uint64, short bool) {
	n := len(id)
	switch {
	case n > idShortMax:
		return 0, false
	case n >= 4:
		// Two loads of four bytes that overlap by 8-n: the overlapping
		// bytes are the same in both, so or-ing them is harmless.
		lo := uint64(binary.LittleEndian.Uint32(id))
		hi := uint64(binary.LittleEndian.Uint32(id[n-4:]))
		w = lo | hi<<(8*(n-4))
	case n > 0:
		// The first, middle and last byte cover 1 to 3 bytes likewise.
		w = uint64(id[0]) | uint64(id[n/2])<<(8*(n/2)) | uint64(id[n-1])<<(8*(n-1))
	}
	return w | uint64(n)<<56, true
}

// longWord is the word of a long id of n bytes at off in the arena.
func longWord(off, n int) uint64 {
	return idLong | uint64(n)<<idOffBits | uint64(off)&(1<<idOffBits-1)
}

func fnv64(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// bytesOf returns id i: a view of the arena for a long id, a new slice
// for a short one (for messages; find compares words and allocates
// nothing).
func (t *idTable) bytesOf(i int) []byte {
	w := t.words.at(i)
	if w&idLong == 0 {
		b := binary.LittleEndian.AppendUint64(make([]byte, 0, 8), w)
		return b[:w>>56]
	}
	off := int(w & (1<<idOffBits - 1))
	return t.arena[off : off+int(w&^idLong>>idOffBits)]
}

// is reports whether id i is the id given as by idParts. A long id's w is
// idLong, which is no id's word: a short word has the bit clear, a long
// one a length of at least idShortMax+1.
func (t *idTable) is(i int, w uint64, long []byte) bool {
	v := t.words.at(i)
	if v&idLong == 0 || long == nil {
		return v == w
	}
	off := int(v & (1<<idOffBits - 1))
	return int(v&^idLong>>idOffBits) == len(long) && string(t.arena[off:off+len(long)]) == string(long)
}

// find returns the index of the id given as by idParts, or -1, and the
// slot where it is or would go. The upper half of the hash picks the first
// slot with its low bits and tags the slot with the bits above those.
func (t *idTable) find(w uint64, long []byte, h uint64) (idx int32, slot int) {
	mask := uint32(len(t.slots) - 1)
	hi := uint32(h >> 32)
	tag := hi >> t.shift
	for k := hi & mask; ; k = (k + 1) & mask {
		s := t.slots[k]
		if s == 0 {
			return -1, int(k)
		}
		if s>>t.shift == tag {
			i := int(s&mask) - 1
			if t.is(i, w, long) {
				return int32(i), int(k)
			}
		}
	}
}

// ahead returns the index of the id given as by idParts if it is one of
// the n ids from index from on, else -1. Neighbouring ids are next to each
// other in words, so that this costs a few comparisons in cached memory;
// a short id, the common case, is compared in the words' chunk directly.
func (t *idTable) ahead(w uint64, long []byte, from, n int) int32 {
	lo, hi := max(from, 0), min(from+n, t.n)
	if ws, base := t.span(lo, hi); long == nil && ws != nil {
		for k, v := range ws {
			if v == w {
				return int32(base + k)
			}
		}
		return -1
	}
	for i := lo; i < hi; i++ {
		if t.is(i, w, long) {
			return int32(i)
		}
	}
	return -1
}

// back is ahead looking at the n ids before index before, nearest first.
func (t *idTable) back(w uint64, long []byte, before, n int) int32 {
	lo, hi := max(before-n, 0), min(before, t.n)
	if ws, base := t.span(lo, hi); long == nil && ws != nil {
		for k := len(ws) - 1; k >= 0; k-- {
			if ws[k] == w {
				return int32(base + k)
			}
		}
		return -1
	}
	for i := hi - 1; i >= lo; i-- {
		if t.is(i, w, long) {
			return int32(i)
		}
	}
	return -1
}

// span returns the words of ids lo to hi-1 as a slice of their chunk, and
// lo, if they are in one chunk; nil otherwise.
func (t *idTable) span(lo, hi int) (ws []uint64, base int) {
	if lo >= hi || lo>>chunkBits != (hi-1)>>chunkBits {
		return nil, 0
	}
	off := lo & (1<<chunkBits - 1)
	return t.words.chunks[lo>>chunkBits][off : off+hi-lo], lo
}

// touch loads the first slot id's hash h probes and returns it. It is a
// prefetch without a prefetch instruction: a run of touches whose loads do
// not depend on each other makes the processor fetch their cache lines in
// parallel, so that the finds that follow mostly hit the cache instead of
// waiting for memory one line at a time.
func (t *idTable) touch(h uint64) uint64 {
	if len(t.slots) == 0 {
		return 0
	}
	return uint64(t.slots[uint32(h>>32)&uint32(len(t.slots)-1)])
}

// lookup returns the index of id, whose hash is h, or -1.
func (t *idTable) lookup(id []byte, h uint64) int32 {
	w, long := idParts(id)
	return t.lookupID(w, long, h)
}

// lookupID is lookup of the id given as by idParts.
func (t *idTable) lookupID(w uint64, long []byte, h uint64) int32 {
	if len(t.slots) == 0 {
		return -1
	}
	i, _ := t.find(w, long, h)
	return i
}

// insert adds id, whose hash is h, and returns its index; dup is true if it
// was there.
func (t *idTable) insert(id []byte, h uint64) (idx int32, dup bool) {
	w, long := idParts(id)
	return t.insertID(w, long, h)
}

// insertID is insert of the id given as by idParts.
func (t *idTable) insertID(w uint64, long []byte, h uint64) (idx int32, dup bool) {
	if 4*(t.n+1) > 3*len(t.slots) { // keep the load at most 3/4
		t.grow()
	}
	i, slot := t.find(w, long, h)
	if i >= 0 {
		return i, true
	}
	if long == nil {
		t.words.add(w)
	} else {
		t.words.add(longWord(len(t.arena), len(long)))
		t.arena = append(t.arena, long...)
	}
	idx = int32(t.n)
	t.n++
	t.slots[slot] = uint32(h>>32)>>t.shift<<t.shift | uint32(idx+1)
	return idx, false
}

// reserve sizes the empty table for n ids without growing, and its arena
// for long ids of up to 8 bytes, which memory not written to costs
// nothing.
func (t *idTable) reserve(n int) {
	size := 64
	for 4*(n+1) > 3*size {
		size *= 2
	}
	if cap(t.spare) >= size {
		// The whole spare table (its size is a power of two), so that
		// traces like the last one need not grow it.
		t.slots, t.spare = t.spare[:cap(t.spare)], nil
		clear(t.slots)
	} else {
		t.slots = make([]uint32, size)
		writeEachPage(t.slots)
	}
	t.shift = uint(bits.TrailingZeros(uint(len(t.slots))))
	if cap(t.arena) < 8*n {
		t.arena = make([]byte, 0, 8*n)
	}
}

// writeEachPage stores a zero in each 4 KB page of a table just
// allocated. A fresh table's pages are read by the probes before any
// insert writes to them: each page then faulted twice, once to map the
// shared zero page for the read and once to give it a page of its own on
// the first write (on a million ids, 2,000 of the 18,000 page faults of
// `trace validate`). Written first, each page faults once.
func writeEachPage(slots []uint32) {
	for i := 0; i < len(slots); i += 4096 / 4 {
		slots[i] = 0
	}
}

// grow doubles the table, hashing each id again: the slots keep too few
// bits of the hash to place an entry in the larger table.
func (t *idTable) grow() {
	size := max(64, 2*len(t.slots))
	t.slots = make([]uint32, size)
	writeEachPage(t.slots)
	t.shift = uint(bits.TrailingZeros(uint(size)))
	mask := uint32(size - 1)
	for i := range t.n {
		hi := uint32(t.hashOf(i) >> 32)
		k := hi & mask
		for t.slots[k] != 0 {
			k = (k + 1) & mask
		}
		t.slots[k] = hi>>t.shift<<t.shift | uint32(i+1)
	}
}

// hashOf hashes id i again, without allocating.
func (t *idTable) hashOf(i int) uint64 {
	if w := t.words.at(i); w&idLong == 0 {
		return t.word(w)
	}
	return t.hash(t.bytesOf(i))
}

// hashSet is a set of 64-bit hashes (of message content_refs), in open
// addressing: it costs 16 bytes or less per element where a map costs more,
// and it can be touched ahead like idTable.
type hashSet struct {
	slots   []uint64 // 0 is empty; the value 0 itself is kept in zero
	n       int
	hasZero bool
}

// add inserts h and reports whether it was there already.
func (s *hashSet) add(h uint64) (dup bool) {
	if h == 0 {
		dup, s.hasZero = s.hasZero, true
		return dup
	}
	if 4*(s.n+1) > 3*len(s.slots) {
		old := s.slots
		s.slots = make([]uint64, max(64, 2*len(old)))
		for _, v := range old {
			if v != 0 {
				s.place(v)
			}
		}
	}
	if !s.place(h) {
		return true
	}
	s.n++
	return false
}

// place puts h into its slot and reports whether it was absent.
func (s *hashSet) place(h uint64) bool {
	mask := uint64(len(s.slots) - 1)
	for k := h >> 32 & mask; ; k = (k + 1) & mask {
		switch s.slots[k] {
		case 0:
			s.slots[k] = h
			return true
		case h:
			return false
		}
	}
}

func (s *hashSet) touch(h uint64) uint64 {
	if len(s.slots) == 0 {
		return 0
	}
	return s.slots[h>>32&uint64(len(s.slots)-1)]
}

// Node flags.
const (
	flagUntrusted  = 1 << iota // trusted: false
	flagTainted                // reachable from an untrusted event
	flagReachesAgg             // an aggregate event is reachable from it
	flagSubAgent               // produced by a spawned agent
)

// graph is the event graph: one node per distinct event id, one edge per
// edge whose ends exist. It keeps what the graph checks and Table 13's
// trace-determined measures need, in columns.
type graph struct {
	ids idTable
	// Node columns; with findingsOnly only t is kept.
	t       column[float64]
	typ     column[int8]
	agent   column[int32]
	trusted column[int8]

	src, dst column[int32] // node index, -1 unresolved, -2 invalid
	// eat holds the edges' positions, line and column together: one
	// add per edge where two columns took two.
	eat     column[linecol]
	pending []pendingRef

	eventsDone bool // the events array has been read: unknown ids dangle

	// findingsOnly: the graph is checked, not measured (Options).
	findingsOnly bool
	// hashOnly: edge ends are looked up by hash alone (Options).
	hashOnly bool

	// report receives findings: while the graph is fed concurrently, a
	// function that keeps them for the checker; in finish, the checker's.
	report func(at pos, ptr string, sev diag.Severity, rule, msg string)

	untrustedToolResults int
	untrustedMessages    int

	agents     idTable
	parent     []int32 // parent[a] is the agent that spawned agent a, or -1
	subAgents  int     // agents with a parent
	roles      idTable
	roleCount  []int
	msgRefs    hashSet // fnv64 of message content_refs
	dupMsgs    int
	refMsgs    int
	minWorkT   float64
	maxSpawnT  float64
	trustLabel [numEventTypes]int

	// sink keeps the loads of the touches, which only warm the cache.
	sink uint64

	// nearDst is the index of the last edge's dst, where addEdgeNear
	// looks for the next one; nearOn is whether the edges of the next
	// batch all try the windows (see addEdges).
	nearDst int32
	nearOn  bool
}

// pendingRef is an edge end naming an id not seen yet.
type pendingRef struct {
	edge int32
	dst  bool
	id   string
	at   pos
}

// bytesPerEvent estimates the bytes a trace spends per event, its edges
// included (the synthetic traces spend 210), to size the id table from a
// trace's size. An estimate too high costs memory in proportion to the
// trace; too low, a growth of the table near the end.
const bytesPerEvent = 200

// reuse empties the graph for another trace, keeping the memory of its id
// table and columns (Validator reuses the checkers of small traces).
func (g *graph) reuse() {
	g.ids.reset()
	g.t.reset()
	g.typ.reset()
	g.agent.reset()
	g.trusted.reset()
	g.src.reset()
	g.dst.reset()
	g.eat.reset()
	*g = graph{ids: g.ids, t: g.t, typ: g.typ, agent: g.agent, trusted: g.trusted,
		src: g.src, dst: g.dst, eat: g.eat}
}

func (g *graph) init(sizeHint int64) {
	if g.ids.seed == (maphash.Seed{}) {
		g.ids = newIDTable()
	}
	if n := sizeHint / bytesPerEvent; n > 0 && n < 1<<30 {
		g.ids.reserve(int(n))
		// Columns of a large trace start at their chunk size rather
		// than grow into it.
		// Twice the estimate, so that a small trace's columns (a line of
		// a batch; edges outnumber events) are allocated once.
		first := int(min(2*n, 1<<chunkBits))
		g.t.first, g.typ.first, g.agent.first, g.trusted.first = first, first, first, first
		g.src.first, g.dst.first, g.eat.first = first, first, first
		g.ids.words.first = first
	}
	g.agents = newIDTable()
	g.roles = newIDTable()
	g.minWorkT = math.Inf(1)
	g.maxSpawnT = math.Inf(-1)
}

// agentIndex interns an agent name whose hash (in g.agents) is h.
func (g *graph) agentIndex(name []byte, h uint64) int32 {
	i, dup := g.agents.insert(name, h)
	if !dup {
		g.parent = append(g.parent, -1)
	}
	return i
}

// touchGroup is how many events or edges the graph hashes and touches
// (idTable.touch) before it files them: enough independent loads to keep
// the memory system busy, few enough that their lines are still cached
// when the group is filed. On a million events the id table is 8 MB, and
// without the touches its random probes were a third of the graph's time.
const touchGroup = 16

// eventHashes are the hashes of one event's strings, computed ahead.
type eventHashes struct{ id, agent, msg uint64 }

// addEvents files a batch of events in groups of touchGroup: while one
// group is added, the id table's slots of the next one are on their way
// to the cache (prefetchSlots), so that adding an event seldom waits for
// memory: on a million events the table is 8 MB, and a probe at a random
// place in it misses the caches.
func (g *graph) addEvents(b *graphBatch) {
	var hs [2][touchGroup]eventHashes
	evs := b.events
	sink := g.hashEvents(b, evs, &hs[0])
	for grp := 0; len(evs) > 0; grp ^= 1 {
		n := min(len(evs), touchGroup)
		if len(evs) > n {
			sink += g.hashEvents(b, evs[n:], &hs[grp^1])
		}
		for k := range n {
			g.addEvent(&evs[k], b, &hs[grp][k])
		}
		evs = evs[n:]
	}
	g.sink += sink
}

// hashEvents hashes the first touchGroup events of evs (fewer if there are
// fewer) into hs, and starts to fetch the slots their ids probe first.
func (g *graph) hashEvents(b *graphBatch, evs []eventRecord, hs *[touchGroup]eventHashes) (sink uint64) {
	n := min(len(evs), touchGroup)
	var idx [touchGroup]uint32
	mask := uint32(len(g.ids.slots) - 1)
	for k := range n {
		ev := &evs[k]
		h := &hs[k]
		if w, long := b.id(ev.id); long == nil {
			h.id = g.ids.word(w)
		} else {
			h.id = g.ids.hash(long)
		}
		idx[k] = uint32(h.id>>32) & mask
		h.agent, h.msg = 0, 0
		if g.findingsOnly {
			continue
		}
		h.agent = g.agents.hash(b.str(ev.agent))
		if ev.typ == EvMessage && ev.contentRef.n > 0 {
			h.msg = fnv64(b.str(ev.contentRef))
		}
		sink += g.agents.touch(h.agent) + g.msgRefs.touch(h.msg)
	}
	if len(g.ids.slots) > 0 {
		sink += prefetchSlots(g.ids.slots, &idx, n)
	}
	return sink
}

// addEvent records one event, whose hashes are h; a repeated id is
// reported here.
func (g *graph) addEvent(ev *eventRecord, b *graphBatch, h *eventHashes) {
	agent := int32(-1)
	if !g.findingsOnly {
		agent = g.measureEvent(ev, b, h)
	}
	w, long := b.id(ev.id)
	if long == nil && w>>56 == 0 {
		return // empty
	}
	idx, dup := g.ids.insertID(w, long, h.id)
	if dup {
		first := g.ids.bytesOf(int(idx))
		g.report(ev.idAt.pos(), fmt.Sprintf("/events/%d/id", ev.index), Error, RuleUniqueID,
			fmt.Sprintf("event id %q is already used by an earlier event", first))
		return
	}
	g.t.add(ev.t)
	if g.findingsOnly {
		// The checks need only the times; the other columns feed the
		// measures.
		return
	}
	g.typ.add(int8(ev.typ))
	g.agent.add(agent)
	tr := int8(-1)
	if ev.trusted >= 0 {
		tr = ev.trusted
	}
	g.trusted.add(tr)
}

// measureEvent files what the measures need of one event (roles, agents,
// trust labels, the spawn tree, message content references) and returns
// the index of its agent, -1 if none.
func (g *graph) measureEvent(ev *eventRecord, b *graphBatch, h *eventHashes) int32 {
	agentName, role, to := b.str(ev.agent), b.str(ev.role), b.str(ev.to)
	if len(role) > 0 {
		i, dup := g.roles.insert(role, g.roles.hash(role))
		if !dup {
			g.roleCount = append(g.roleCount, 0)
		}
		g.roleCount[i]++
	}
	agent := int32(-1)
	if len(agentName) > 0 {
		agent = g.agentIndex(agentName, h.agent)
	}
	if ev.trusted >= 0 && ev.typ >= 0 {
		g.trustLabel[ev.typ]++
	}
	if ev.trusted == 0 {
		switch ev.typ {
		case EvToolResult:
			g.untrustedToolResults++
		case EvMessage:
			g.untrustedMessages++
		}
	}
	if !math.IsNaN(ev.t) {
		switch ev.typ {
		case EvSpawn:
			g.maxSpawnT = max(g.maxSpawnT, ev.t)
		case EvOrchestratorDecision, EvDespawn, -1:
		default:
			g.minWorkT = min(g.minWorkT, ev.t)
		}
	}
	switch ev.typ {
	case EvSpawn:
		if len(to) > 0 && agent >= 0 {
			child := g.agentIndex(to, g.agents.hash(to))
			if g.parent[child] < 0 && child != agent {
				g.parent[child] = agent
				g.subAgents++
			}
		}
	case EvMessage:
		if ev.contentRef.n > 0 {
			g.refMsgs++
			if g.msgRefs.add(h.msg) {
				g.dupMsgs++
			}
		}
	}
	return agent
}

// nearAhead and nearBack are the windows in which addEdgeNear looks for
// an edge's ends before it asks the hash table: the dst among the
// nearAhead events from the last edge's dst on, the src among the
// nearBack events before the dst. A trace written as it happens lists an
// edge near the event it leads to, and edges in the order of their dst
// (every synthetic trace does: the dst is the last edge's or the next
// event, the src mostly among the eight events before it).
const (
	nearAhead = 4
	nearBack  = 16
)

// nearSample is how many edges of a batch try the windows while they are
// off, so that a trace whose edges turn local is noticed.
const nearSample = touchGroup

// addEdges files a batch of edges. While the edges' ends are mostly where
// addEdgeNear looks first (in the last batch, at least half of them), each
// edge is resolved that way: a few comparisons of ids next to each other
// in the id table's words instead of two probes of its slots at random
// places, which wait for memory (on a million events they were a fifth of
// the CPU time). Otherwise the batch is filed in groups, hashed and
// touched, then added, and only its first edges try the windows. Either
// way an end gets the index the hash table would give: each id is in the
// words once.
func (g *graph) addEdges(b *graphBatch) {
	eds := b.edges
	tries, hits := 0, 0
	if g.nearOn {
		for k := range eds {
			tries, hits = tries+2, hits+g.addEdgeNear(&eds[k], b)
		}
		g.nearOn = 2*hits >= tries
		return
	}
	n := min(len(eds), nearSample)
	if g.hashOnly {
		n = 0
	}
	for k := range n {
		tries, hits = tries+2, hits+g.addEdgeNear(&eds[k], b)
	}
	g.nearOn = tries > 0 && 2*hits >= tries
	var hs [touchGroup][2]uint64
	sink := uint64(0)
	for eds = eds[n:]; len(eds) > 0; {
		n := min(len(eds), touchGroup)
		for k := range n {
			if ed := &eds[k]; ed.ok {
				h := &hs[k]
				h[0], h[1] = g.ids.hashID(b.id(ed.src)), g.ids.hashID(b.id(ed.dst))
				sink += g.ids.touch(h[0]) + g.ids.touch(h[1])
			}
		}
		for k := range n {
			g.addEdge(&eds[k], b, &hs[k])
		}
		eds = eds[n:]
	}
	g.sink += sink
}

// addEdge records one edge, whose ends' hashes are h, and resolves its
// ends if it can.
func (g *graph) addEdge(ed *edgeRecord, b *graphBatch, h *[2]uint64) {
	k := int32(g.src.n)
	src, dst := int32(-2), int32(-2)
	if ed.ok {
		sw, slong := b.id(ed.src)
		dw, dlong := b.id(ed.dst)
		src = g.resolve(k, false, sw, slong, h[0], ed.srcAt)
		dst = g.resolve(k, true, dw, dlong, h[1], ed.dstAt)
		if dst >= 0 {
			g.nearDst = dst
		}
	}
	g.src.add(src)
	g.dst.add(dst)
	g.eat.add(ed.at)
}

// addEdgeNear is addEdge looking for the ends in the windows first (see
// nearAhead); it returns how many of the two it found there. The lookups
// have no effects, so that the ends not found are then resolved, and
// reported, in the order addEdge has: src, then dst.
func (g *graph) addEdgeNear(ed *edgeRecord, b *graphBatch) (hits int) {
	k := int32(g.src.n)
	src, dst := int32(-2), int32(-2)
	if ed.ok {
		sw, slong := b.id(ed.src)
		dw, dlong := b.id(ed.dst)
		d := g.ids.ahead(dw, dlong, int(g.nearDst), nearAhead)
		if d >= 0 {
			hits++
		} else {
			d = g.ids.lookupID(dw, dlong, g.ids.hashID(dw, dlong))
		}
		s := int32(-1)
		if d >= 0 {
			s = g.ids.back(sw, slong, int(d), nearBack)
		}
		if s >= 0 {
			hits++
		} else {
			s = g.resolve(k, false, sw, slong, g.ids.hashID(sw, slong), ed.srcAt)
		}
		if d < 0 {
			d = g.unresolved(k, true, dw, dlong, ed.dstAt)
		} else {
			g.nearDst = d
		}
		src, dst = s, d
	}
	g.src.add(src)
	g.dst.add(dst)
	g.eat.add(ed.at)
	return hits
}

// resolve returns the node of an edge end, -1 if it is not known yet, or
// -2 after reporting it as dangling.
// The id is given as by idParts.
func (g *graph) resolve(edge int32, dst bool, w uint64, long []byte, h uint64, at linecol) int32 {
	if i := g.ids.lookupID(w, long, h); i >= 0 {
		return i
	}
	return g.unresolved(edge, dst, w, long, at)
}

// unresolved files an edge end whose id is not in the table: pending
// until the events array ends, dangling after. It returns resolve's -1 or
// -2.
func (g *graph) unresolved(edge int32, dst bool, w uint64, long []byte, at linecol) int32 {
	if g.eventsDone {
		g.dangling(int(edge), dst, idString(w, long), at.pos())
		return -2
	}
	g.pending = append(g.pending, pendingRef{edge: edge, dst: dst, id: idString(w, long), at: at.pos()})
	return -1
}

func (g *graph) dangling(edge int, dst bool, id string, at pos) {
	end := "src"
	if dst {
		end = "dst"
	}
	g.report(at, fmt.Sprintf("/edges/%d/%s", edge, end), Error, RuleEdgeRef, fmt.Sprintf("no event has id %q", id))
}
