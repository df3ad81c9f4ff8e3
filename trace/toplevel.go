package trace

import "fmt"

// topObject reads the trace object.
func (c *checker) topObject() error {
	var m members
	c.open(&m, c.topObj)
	for {
		more, err := c.next(&m)
		if err != nil {
			return err
		}
		if !more {
			break
		}
		if err := c.topMember(&m); err != nil {
			return err
		}
	}
	c.close(&m)
	return nil
}

// startMember begins capturing a top-level member for the library.
func (c *checker) startMember() {
	if !c.skeletonSkip {
		c.s.startCapture(&c.memberBuf)
	}
}

// topMember reads the value of one top-level member.
func (c *checker) topMember(m *members) error {
	bit, key := m.bit, m.key
	c.push(key)
	defer c.pop()
	if bit&topArrays != 0 {
		if ch, ok := c.s.peek(); ok && ch == '[' {
			// The array is checked by the fast path alone; the library sees
			// a placeholder that passes the same top-level keywords.
			c.s.endCapture()
			c.appendSkeleton(fmt.Appendf(nil, "%q:%s", key, placeholder(bit)))
			if bit == topEvents {
				err := c.eventsArray()
				c.feed.flush(true)
				return err
			}
			err := c.edgesArray()
			c.feed.flush(false)
			return err
		}
	}
	var err error
	switch {
	case bit&topStrings != 0:
		var ok bool
		ok, err = c.stringValue(bit&topNonEmpty != 0, 2)
		if ok && err == nil {
			switch bit {
			case topTraceID:
				c.rep.TraceID = string(c.s.str)
			case topTaskID:
				c.rep.TaskID = string(c.s.str)
			case topSystem:
				c.rep.System = string(c.s.str)
			}
		}
	case bit&topEnums != 0:
		var k int
		k, err = c.enumValue(nil, Topologies, topologyCode, 2)
		if k >= 0 {
			c.rep.Topology = Topologies()[k]
		}
	case bit&topArrays != 0:
		_, err = c.typeOK("array", 2)
	case bit == topCosts:
		err = c.numberMap(c.costsObj, func(k string, v float64) { c.rep.Costs.set(k, v) })
	case bit == topRewards:
		err = c.numberMap(c.numbersObj, func(k string, v float64) {
			c.rep.Rewards = append(c.rep.Rewards, Channel{Name: k, Value: v})
		})
	case bit == topMetrics:
		err = c.numberMap(c.numbersObj, func(k string, v float64) {
			c.rep.Metrics = append(c.rep.Metrics, Channel{Name: k, Value: v})
		})
	default:
		err = c.skipValue(2)
	}
	if err != nil {
		return err
	}
	if c.s.capture != nil {
		c.appendSkeleton(c.s.endCapture())
	}
	return nil
}

// placeholder is what the library sees in place of the events or edges
// array: the least the schema accepts there.
func placeholder(bit int) string {
	if bit == topEvents && bit&topNonEmptyArrays != 0 {
		return "[" + eventPlaceholder + "]"
	}
	return "[]"
}

func (c *checker) appendSkeleton(member []byte) {
	if c.skeletonSkip {
		return
	}
	if len(c.skeleton)+len(member) > maxSkeleton {
		c.skeletonSkip = true
		c.skeleton = nil
		return
	}
	if len(c.skeleton) > 0 {
		c.skeleton = append(c.skeleton, ',')
	}
	c.skeleton = append(c.skeleton, member...)
}

// numberMap reads rewards, metrics or costs: an object whose values are
// all numbers, with the declared properties, minimums and required
// members of spec.
func (c *checker) numberMap(spec *objectSpec, add func(string, float64)) error {
	if ok, err := c.typeOK("object", 2); !ok || err != nil {
		return err
	}
	var m members
	c.open(&m, spec)
	for {
		more, err := c.next(&m)
		if err != nil {
			return err
		}
		if !more {
			break
		}
		c.push(m.key)
		v, ok, err := c.numberValue(spec == c.costsObj && m.bit&costNonNegative != 0, 3)
		c.pop()
		if err != nil {
			return err
		}
		if ok {
			add(m.key, v)
		}
	}
	c.close(&m)
	return nil
}
