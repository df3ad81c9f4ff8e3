package trace

import (
	"sync"

	"github.com/masrl/masrl/internal/diag"
)

// feedBatch is how many events or edges travel to the graph together: large
// enough that the channel costs nothing per record, small enough that the
// batches in flight are a few hundred kilobytes.
const feedBatch = 4096

// span locates a string in a batch's arena. Records hold spans, not
// slices, so that they contain no pointers: appending them costs no write
// barriers while the collector runs.
type span struct{ off, n uint32 }

// graphBatch carries events or edges from the scanner to the graph, their
// strings in arena; it is reused only after the graph has read it.
type graphBatch struct {
	arena      []byte
	events     []eventRecord
	edges      []edgeRecord
	eventsDone bool // the events array ends with this batch
}

// graphFeed runs the graph's bookkeeping (interning ids, resolving edges,
// counting agents and roles) on a second goroutine while the scanner reads
// on: on a trace of a million events that work is close to half of the
// total (the scanner hashes edge ends for it, where the graph would fall
// behind), and a validator on two cores then finishes that much sooner.
// Batches arrive in document order, so the graph sees exactly what a
// sequential run would, and its findings are collected and handed back by
// stop.
type graphFeed struct {
	g    *graph
	cur  *graphBatch
	in   chan *graphBatch
	free chan *graphBatch
	done chan struct{}
	max  int
	// pool holds batches between checks of one Validator, so that the
	// traces of a batch reuse them instead of allocating their own.
	pool *sync.Pool
	// inline files batches on the scanner's goroutine (small traces).
	inline bool
	// batch is the capacity of a batch's record lists: feedBatch, or
	// less for a trace known to be small.
	batch   int
	found   []Finding
	dropped int
	stopped bool
	// made counts the batches this feed has in circulation (cur, queued,
	// being filed, free); at maxFeedBatches the scanner waits for a free
	// one instead of making another.
	made int
}

// maxFeedBatches bounds the batches of one feed. Without the bound the
// scanner made a new batch whenever the graph had not yet handed one back,
// and the graph dropped the surplus when the free list was full: on a
// million events some thirty batches (30 MB) were allocated and faulted in
// where five circulate (bench/trace/RESULTS.md, issue 38).
const maxFeedBatches = 5

// inlineGraphMax is the size below which a trace known to be small has its
// graph filed on the scanner's goroutine: the handoff would cost more than
// the overlap gains, and in a batch every core is busy with traces of its
// own anyway.
const inlineGraphMax = 1 << 20

// startGraphFeed starts the graph goroutine. sizeHint is the trace's size
// in bytes, 0 if unknown; a small trace gets small batches, filed inline.
func startGraphFeed(g *graph, maxFindings int, sizeHint int64, pool *sync.Pool) *graphFeed {
	batch := feedBatch
	if sizeHint > 0 {
		batch = int(min(sizeHint/bytesPerEvent+16, feedBatch))
	}
	f := &graphFeed{
		inline: sizeHint > 0 && sizeHint < inlineGraphMax,
		batch:  batch,
		g:      g,
		pool:   pool,
		max:    maxFindings,
	}
	if !f.inline {
		f.in, f.free, f.done = make(chan *graphBatch, 2), make(chan *graphBatch, maxFeedBatches), make(chan struct{})
	}
	g.report = func(at pos, ptr string, sev diag.Severity, rule, msg string) {
		if len(f.found) >= f.max {
			f.dropped++
			return
		}
		f.found = append(f.found, Finding{Pointer: ptr, Line: at.line, Col: at.col, Severity: sev, Rule: rule, Message: msg})
	}
	f.cur = f.newBatch()
	f.made = 1
	if !f.inline {
		go f.run()
	}
	return f
}

// run is the graph goroutine.
func (f *graphFeed) run() {
	defer close(f.done)
	for b := range f.in {
		f.file(b)
		f.free <- b // never blocks: free holds every batch the feed made
	}
}

// file hands a batch to the graph and empties it.
func (f *graphFeed) file(b *graphBatch) {
	f.g.addEvents(b)
	f.g.addEdges(b)
	if b.eventsDone {
		f.g.eventsDone = true
	}
	b.arena, b.events, b.edges, b.eventsDone = b.arena[:0], b.events[:0], b.edges[:0], false
}

// keep copies a string of the element being read into the current batch.
func (f *graphFeed) keep(s []byte) span {
	b := f.cur
	if b.arena == nil {
		b.arena = make([]byte, 0, 64*f.batch)
	}
	sp := span{off: uint32(len(b.arena)), n: uint32(len(s))}
	b.arena = append(b.arena, s...)
	return sp
}

// idRef is an event id or edge end as a record carries it to the graph:
// the id itself if it is short (its idWord), else idLong | n<<32 | off,
// its n bytes at off in the batch's arena. Most ids of a large trace are
// short, and then neither the scanner copies their bytes nor the graph
// reads them back.
type idRef uint64

// keepID returns the ref of id, copying a long one into the current batch.
func (f *graphFeed) keepID(id []byte) idRef {
	if w, short := idWord(id); short {
		return idRef(w)
	}
	sp := f.keep(id)
	return idRef(idLong | uint64(sp.n)<<32 | uint64(sp.off))
}

// id returns the id at r as idParts gives it: its word, or idLong and its
// bytes.
func (b *graphBatch) id(r idRef) (w uint64, long []byte) {
	if r&idLong == 0 {
		return uint64(r), nil
	}
	off, n := uint32(r), uint32(r&^idLong>>32)
	return idLong, b.arena[off : off+n : off+n]
}

// str returns the string at sp.
func (b *graphBatch) str(sp span) []byte {
	return b.arena[sp.off : sp.off+sp.n : sp.off+sp.n]
}

// newBatch returns an empty batch, from the pool if it has one. A new
// batch's arena and the one record list it will use are allocated on first
// use, at their working size, and kept when the batch is recycled.
func (f *graphFeed) newBatch() *graphBatch {
	if b, ok := f.pool.Get().(*graphBatch); ok {
		return b
	}
	return &graphBatch{}
}

// event queues an event whose strings came from keep.
func (f *graphFeed) event(ev *eventRecord) {
	if f.cur.events == nil {
		f.cur.events = make([]eventRecord, 0, f.batch)
	}
	f.cur.events = append(f.cur.events, *ev)
	if len(f.cur.events) >= feedBatch {
		f.flush(false)
	}
}

// edge queues an edge whose strings came from keep.
func (f *graphFeed) edge(ed *edgeRecord) {
	if f.cur.edges == nil {
		f.cur.edges = make([]edgeRecord, 0, f.batch)
	}
	f.cur.edges = append(f.cur.edges, *ed)
	if len(f.cur.edges) >= feedBatch {
		f.flush(false)
	}
}

// flush sends the current batch; eventsDone marks the end of the events
// array, after which an unknown id is a dangling reference.
func (f *graphFeed) flush(eventsDone bool) {
	b := f.cur
	if len(b.events) == 0 && len(b.edges) == 0 && !eventsDone {
		return
	}
	b.eventsDone = eventsDone
	if f.inline {
		f.file(b)
		return
	}
	f.in <- b
	if f.made >= maxFeedBatches {
		f.cur = <-f.free
		return
	}
	select {
	case f.cur = <-f.free:
	default:
		f.cur = f.newBatch()
		f.made++
	}
}

// stop sends what is left, waits for the graph, and returns the findings
// it made (at most the cap) and how many it dropped beyond the cap.
func (f *graphFeed) stop() ([]Finding, int) {
	if !f.stopped {
		f.stopped = true
		f.flush(false)
		if !f.inline {
			close(f.in)
			<-f.done
		}
		f.pool.Put(f.cur)
		for len(f.free) > 0 {
			f.pool.Put(<-f.free)
		}
		f.cur = nil
	}
	return f.found, f.dropped
}
