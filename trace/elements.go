package trace

import "math"

// eventsArray reads the events array (the scanner is at its '[').
func (c *checker) eventsArray() error {
	return c.elementsArray(topEvents&topNonEmptyArrays != 0, true)
}

// edgesArray reads the edges array (the scanner is at its '[').
func (c *checker) edgesArray() error {
	return c.elementsArray(topEdges&topNonEmptyArrays != 0, false)
}

// elementsArray reads an array of events or edges (the scanner is at its
// '['): each element the plain path's way if it can (plainEvent,
// plainEdge), else with the member loop (event, edge). The plain path
// reports nothing, so only the member loop needs the element's index on
// the path; the plain path, most elements of a large trace, is called
// directly and costs no push and pop.
func (c *checker) elementsArray(nonEmpty bool, events bool) error {
	at := c.s.here()
	c.s.i++
	if !c.s.first(']') {
		if nonEmpty {
			c.schemaf(at, "minItems: got 0, want 1")
		}
		return nil
	}
	plain := !c.opts.memberLoopOnly
	for i := 0; ; i++ {
		ch, ok := c.s.peek()
		switch {
		case plain && ok && ch == '{' && events && c.plainEvent(i):
		case plain && ok && ch == '{' && !events && c.plainEdge(i):
		default:
			c.pushIdx(i)
			var err error
			if events {
				err = c.event(i)
			} else {
				err = c.edge(i)
			}
			c.pop()
			if err != nil {
				return err
			}
		}
		if more, err := c.s.more(']'); err != nil || !more {
			return err
		}
	}
}

// eventRecord is what the graph and the report keep of one event.
//
// Its type is an int8 and its index an int32 (the graph's node indexes are
// int32 too), so that a record is 64 bytes, one cache line, where it was
// 80: a million of them cross from the scanner's core to the graph's.
type eventRecord struct {
	id         idRef
	t          float64
	agent      span
	role       span
	to         span
	contentRef span
	typ        int8 // -1 unknown
	trusted    int8 // -1 absent, 0 false, 1 true
	idAt       linecol
	index      int32
}

// linecol is a position as the records for the graph keep it: the graph's
// findings need no byte offset, and 8 bytes instead of pos's 24 make an
// edge record 80 bytes instead of 128, copied into its batch and through
// the cache a million times on a large trace. The graph's columns hold
// edge positions in int32 too.
type linecol struct{ line, col int32 }

func lineCol(p pos) linecol { return linecol{line: int32(p.line), col: int32(p.col)} }

func (lc linecol) pos() pos { return pos{line: int(lc.line), col: int(lc.col)} }

// event reads one event with the member loop (the scanner is before its
// first byte), when the plain path has not.
func (c *checker) event(i int) error {
	ok, err := c.typeOK("object", 3)
	if !ok || err != nil {
		c.rep.countEvent(-1)
		return err
	}
	at := c.s.here()
	ev := eventRecord{t: math.NaN(), typ: -1, trusted: -1}
	if err := c.elementMembers(c.eventObj, true, at, func(bit int) error { return c.eventValue(bit, &ev) }); err != nil {
		return err
	}
	c.rep.countEvent(int(ev.typ))
	ev.index = int32(i)
	c.feed.event(&ev)
	return nil
}

// eventValue reads the value of declared event property bit into ev.
// Strings are copied into the graph feed's current batch, which carries
// them to the graph.
func (c *checker) eventValue(bit int, ev *eventRecord) error {
	switch {
	case bit&evNumbers != 0:
		v, ok, err := c.numberValue(bit&evNonNegative != 0, 4)
		if ok {
			c.eventNumber(ev, bit, v)
		}
		return err
	case bit&evEnums != 0:
		k, err := c.enumValue(c.eventTypes, eventTypeList, eventTypeCode, 4)
		ev.typ = int8(k)
		return err
	case bit&evBooleans != 0:
		v, ok, err := c.boolValue(4)
		if ok {
			c.eventBool(ev, bit, v)
		}
		return err
	}
	at, _ := c.peekPos()
	ok, err := c.stringValue(bit&evNonEmpty != 0, 4)
	if !ok || err != nil {
		if bit == evID {
			ev.idAt = lineCol(at)
		}
		return err
	}
	c.eventString(ev, bit, c.s.str, at)
	return nil
}

// eventNumber, eventBool and eventString keep what the graph and the
// report need of an event's values (the member loop and the plain path
// both file them here).
func (c *checker) eventNumber(ev *eventRecord, bit int, v float64) {
	if bit == evT {
		ev.t = v
	}
}

func (c *checker) eventBool(ev *eventRecord, bit int, v bool) {
	if bit == evTrusted {
		ev.trusted = 0
		if v {
			ev.trusted = 1
		}
	}
}

func (c *checker) eventString(ev *eventRecord, bit int, str []byte, at pos) {
	switch {
	case bit == evID:
		ev.idAt = lineCol(at)
		ev.id = c.feed.keepID(str)
	case c.opts.FindingsOnly:
		// Only the id reaches the graph.
	case bit == evAgent:
		ev.agent = c.feed.keep(str)
	case bit == evRole:
		ev.role = c.feed.keep(str)
	case bit == evTo:
		ev.to = c.feed.keep(str)
	case bit == evContentRef:
		ev.contentRef = c.feed.keep(str)
	}
}

// edgeRecord is what the graph keeps of one edge.
//
// It holds neither the edge's index (the graph counts edges) nor its type
// (only the report counts types, on the scanner's side): without them a
// record is 64 bytes, one cache line, where it was 80, and a million of
// them cross from the scanner's core to the graph's.
type edgeRecord struct {
	src, dst     idRef
	srcAt, dstAt linecol
	at           linecol
	ok           bool // src and dst are non-empty strings
}

// edge reads one edge with the member loop, when the plain path has not.
func (c *checker) edge(i int) error {
	ok, err := c.typeOK("object", 3)
	if !ok || err != nil {
		c.rep.countEdge(-1)
		c.feed.edge(&edgeRecord{})
		return err
	}
	here := c.s.here()
	ed := edgeRecord{at: lineCol(here)}
	typ := -1
	srcOK, dstOK := false, false
	err = c.elementMembers(c.edgeObj, false, here, func(bit int) error {
		if bit&edEnums != 0 {
			var err error
			typ, err = c.enumValue(c.edgeTypes, edgeTypeList, edgeTypeCode, 4)
			return err
		}
		at, _ := c.peekPos()
		ok, err := c.stringValue(bit&edNonEmpty != 0, 4)
		if ok {
			s, d := c.edgeString(&ed, bit, c.s.str, at)
			srcOK, dstOK = srcOK || s, dstOK || d
		}
		return err
	})
	if err != nil {
		return err
	}
	ed.ok = srcOK && dstOK
	c.rep.countEdge(typ)
	c.feed.edge(&ed)
	return nil
}

// edgeString keeps an end of an edge (the member loop and the plain path
// both file them here); it reports whether str is a usable src or dst.
func (c *checker) edgeString(ed *edgeRecord, bit int, str []byte, at pos) (src, dst bool) {
	if len(str) == 0 {
		return false, false
	}
	v := c.feed.keepID(str)
	switch bit {
	case edSrc:
		ed.src, ed.srcAt = v, lineCol(at)
		return true, false
	case edDst:
		ed.dst, ed.dstAt = v, lineCol(at)
		return false, true
	}
	return false, false
}

// elementMembers reads the members of an event or edge object (event
// tells which) that starts at at: declared ones with value, called with
// the member's key on the path, others skipped. An element in which a
// schema violation was found is handed to the library too.
func (c *checker) elementMembers(obj *objectSpec, event bool, at pos, value func(bit int) error) error {
	c.beginElem()
	var ms members // on the stack: its writes need no write barriers
	m := &ms
	c.open(m, obj)
	for {
		more, err := c.next(m)
		if err != nil {
			return err
		}
		if !more {
			break
		}
		if m.bit == 0 {
			err = c.skipMember(m, 4)
		} else {
			c.push(m.key)
			err = value(m.bit)
			c.pop()
		}
		if err != nil {
			return err
		}
	}
	c.endElem()
	c.close(m)
	if c.elemSchema > 0 {
		c.recheck(event, at)
	}
	c.inElem = false
	return nil
}

// beginElem starts an event or edge: its findings and raw bytes are
// collected for the library.
func (c *checker) beginElem() {
	c.elemSchema, c.elemTainted, c.inElem = 0, false, true
	c.elemPtrs = c.elemPtrs[:0]
	c.s.startCapture(&c.elemBuf)
}

// endElem stops capturing the element's bytes; its findings stay attributed
// to it until the caller has rechecked them.
func (c *checker) endElem() { c.elem = c.s.endCapture() }

// peekPos returns the position of the next value.
func (c *checker) peekPos() (pos, bool) {
	_, ok := c.s.peek()
	return c.s.here(), ok
}
