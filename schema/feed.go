package schema

// feedBatch is how many events or edges travel to the graph together: large
// enough that the channel costs nothing per record, small enough that the
// batches in flight are a few hundred kilobytes.
const feedBatch = 4096

// span locates a string in a batch's arena.
type span struct{ off, n uint32 }

// graphBatch carries events or edges, with their strings copied into one
// arena, from the scanner to the graph.
type graphBatch struct {
	arena      []byte
	events     []batchEvent
	edges      []batchEdge
	eventsDone bool // the events array ends with this batch
}

type batchEvent struct {
	rec                             eventRecord // strings nil; see spans
	id, agent, role, to, contentRef span
}

type batchEdge struct {
	rec      edgeRecord // strings nil; see spans
	src, dst span
}

func (b *graphBatch) put(x []byte) span {
	sp := span{off: uint32(len(b.arena)), n: uint32(len(x))}
	b.arena = append(b.arena, x...)
	return sp
}

func (b *graphBatch) get(sp span) []byte {
	if sp.n == 0 {
		return nil
	}
	return b.arena[sp.off : sp.off+sp.n : sp.off+sp.n]
}

// graphFeed runs the graph's bookkeeping (interning ids, resolving edges,
// counting agents and roles) on a second goroutine while the scanner reads
// on: on a trace of a million events that work is a quarter of the total,
// and a validator on two cores then finishes that much sooner. Batches
// arrive in document order, so the graph sees exactly what a sequential
// run would, and its findings are collected and handed back by stop.
type graphFeed struct {
	g       *graph
	cur     *graphBatch
	in      chan *graphBatch
	free    chan *graphBatch
	done    chan struct{}
	max     int
	found   []Finding
	dropped int
	stopped bool
}

func startGraphFeed(g *graph, maxFindings int) *graphFeed {
	f := &graphFeed{
		g:    g,
		cur:  &graphBatch{},
		in:   make(chan *graphBatch, 2),
		free: make(chan *graphBatch, 3),
		done: make(chan struct{}),
		max:  maxFindings,
	}
	g.report = func(at pos, ptr string, sev Severity, rule, msg string) {
		if len(f.found) >= f.max {
			f.dropped++
			return
		}
		f.found = append(f.found, Finding{Pointer: ptr, Line: at.line, Col: at.col, Severity: sev, Rule: rule, Message: msg})
	}
	go f.run()
	return f
}

// run is the graph goroutine.
func (f *graphFeed) run() {
	defer close(f.done)
	for b := range f.in {
		for i := range b.events {
			e := &b.events[i]
			ev := e.rec
			ev.id, ev.agent, ev.role = b.get(e.id), b.get(e.agent), b.get(e.role)
			ev.to, ev.contentRef = b.get(e.to), b.get(e.contentRef)
			f.g.addEvent(&ev)
		}
		for i := range b.edges {
			e := &b.edges[i]
			ed := e.rec
			ed.src, ed.dst = b.get(e.src), b.get(e.dst)
			f.g.addEdge(&ed)
		}
		if b.eventsDone {
			f.g.eventsDone = true
		}
		b.arena, b.events, b.edges, b.eventsDone = b.arena[:0], b.events[:0], b.edges[:0], false
		select {
		case f.free <- b:
		default:
		}
	}
}

func (f *graphFeed) event(ev *eventRecord) {
	b := f.cur
	e := batchEvent{rec: *ev}
	e.rec.id, e.rec.agent, e.rec.role, e.rec.to, e.rec.contentRef = nil, nil, nil, nil, nil
	e.id, e.agent, e.role = b.put(ev.id), b.put(ev.agent), b.put(ev.role)
	e.to, e.contentRef = b.put(ev.to), b.put(ev.contentRef)
	b.events = append(b.events, e)
	if len(b.events) >= feedBatch {
		f.flush(false)
	}
}

func (f *graphFeed) edge(ed *edgeRecord) {
	b := f.cur
	e := batchEdge{rec: *ed}
	e.rec.src, e.rec.dst = nil, nil
	e.src, e.dst = b.put(ed.src), b.put(ed.dst)
	b.edges = append(b.edges, e)
	if len(b.edges) >= feedBatch {
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
	f.in <- b
	select {
	case f.cur = <-f.free:
	default:
		f.cur = &graphBatch{}
	}
}

// stop sends what is left, waits for the graph, and returns the findings
// it made (at most the cap) and how many it dropped beyond the cap.
func (f *graphFeed) stop() ([]Finding, int) {
	if !f.stopped {
		f.stopped = true
		f.flush(false)
		close(f.in)
		<-f.done
	}
	return f.found, f.dropped
}
