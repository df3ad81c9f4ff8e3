package otlp

import (
	"bytes"
	"cmp"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/masrl/masrl/trace"
)

// event is one event of the orchestration trace under construction.
type event struct {
	span   int    // the span it comes from (content_ref)
	suffix string // its id is SPANID/suffix
	ns     uint64
	typ    trace.EventType
	agent  string
	from   string
	to     string
	tool   string
	seq    int
	err    string // the span's error (error.type, exception type, or "error")
	callID string // the tool call id a tool event answers
	conv   string // the conversation (gen_ai.conversation.id, session.id)
}

type edge struct {
	src, dst int
	typ      trace.EdgeType
}

// child is an agent invocation under another agent.
type child struct {
	span       int
	spawn, ret int // events
}

// builder turns the spans of one OTel trace into one orchestration trace.
type builder struct {
	tid    [16]byte
	thex   string
	spans  []span
	kinds  []kind
	parent []int // span index; -1 the root, -2 a detached reward span
	owner  []int // the agent span whose timeline a span's events join
	pagent []int // for agent spans: the parent agent span
	label  []string
	// voice is, for a span whose agent took control inside its owner's
	// timeline (a handoff to an agent no span names), that agent; ""
	// for the owner's own. nil when no handoff does that.
	voice   []string
	root    int
	files   []source
	opts    Options
	diags   []Diagnostic
	events  []event
	edges   []edge
	edgeSet map[[2]int]bool
	chains  map[int][]int // agent span -> its events in time order
	own     [][2]int      // per span: first and last of its own events, -1 when none
	kids    map[int][]child
	stats   Stats
	// handedFrom is, for an agent that took control by a handoff (its
	// graph.node.parent_id names an agent that had already ended), that
	// agent; -1 otherwise.
	handedFrom []int
	handoffs   int // handoff events
	// counted spans' token details (see tokens)
	cacheRead, cacheWrite, reasoning int64
	hasDetails                       bool
}

func (b *builder) warn(i int, format string, args ...any) {
	s := &b.spans[i]
	b.diags = append(b.diags, place(b.files, s, Diagnostic{Severity: Warning,
		TraceID: b.thex, SpanID: s.idHex(), Message: fmt.Sprintf(format, args...)}))
}

// build maps the spans of trace tid. It returns nil when no span could be
// mapped to an event (the schema requires one), with a warning saying so.
// scratch holds the model while it is written; a worker passes the same
// one to every build, so that its slices are reused.
func build(tid [16]byte, in []span, files []source, opts Options, scratch *trace.Trace) (*Trace, []Diagnostic) {
	b := &builder{tid: tid, thex: hex.EncodeToString(tid[:]), files: files, opts: opts,
		edgeSet: make(map[[2]int]bool, 3*len(in)), chains: map[int][]int{}, kids: map[int][]child{},
		events: make([]event, 0, 2*len(in)), edges: make([]edge, 0, 3*len(in))}
	b.stats.Rewards = map[string]float64{}
	b.dedupe(in)
	b.structure()
	b.makeEvents()
	if len(b.events) == 0 {
		b.warn(b.root, "no agent, tool, model or handoff span in trace %s: no orchestration trace written", b.thex)
		return nil, b.diags
	}
	b.toolCalls() // before temporal: a causal edge is the more specific type
	b.returns()
	b.temporal()
	b.spawnEdges()
	b.handoffEdges()
	b.takeovers()
	b.links()
	out := b.model(scratch).AppendJSON(make([]byte, 0, 256+160*len(b.events)+80*len(b.edges)), b.opts.Compact)
	return &Trace{ID: b.thex, JSON: out, Spans: len(b.spans), Stats: b.stats}, b.diags
}

// dedupe sorts the spans by start time and id, and drops repeated span ids
// (a collector retry can deliver a batch twice).
func (b *builder) dedupe(in []span) {
	// Sort indices, not the spans (a span is a few hundred bytes), then
	// move each span once, in place: the trace's spans are not copied.
	idx := make([]int32, len(in))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(i, j int32) int {
		x, y := &in[i], &in[j]
		if c := cmp.Compare(x.start, y.start); c != 0 {
			return c
		}
		if c := bytes.Compare(x.id[:], y.id[:]); c != 0 {
			return c
		}
		return cmp.Compare(x.seq, y.seq)
	})
	for first := range idx { // position k receives in[idx[k]]
		if idx[first] < 0 || int(idx[first]) == first {
			continue
		}
		tmp := in[first]
		k := first
		for {
			src := int(idx[k])
			idx[k] = -1
			if src == first {
				in[k] = tmp
				break
			}
			in[k] = in[src]
			k = src
		}
	}
	// A span id given twice (a collector retry): keep the earliest.
	seen := make(map[[8]byte]bool, len(in))
	kept := in[:0]
	for _, s := range in {
		if seen[s.id] {
			b.diags = append(b.diags, place(b.files, &s, Diagnostic{Severity: Warning,
				TraceID: b.thex, SpanID: s.idHex(), Message: "span id given twice: the later copy is left out"}))
			continue
		}
		seen[s.id] = true
		kept = append(kept, s)
	}
	b.spans = kept
	for i := range b.spans {
		if s := &b.spans[i]; s.end < s.start {
			b.warn(i, "span ends before it starts: its end is taken as its start")
			s.end = s.start
		}
	}
}

// structure finds the root, every span's parent, owner agent and label.
func (b *builder) structure() {
	n := len(b.spans)
	b.kinds = make([]kind, n)
	b.parent = make([]int, n)
	byID := make(map[[8]byte]int, n)
	for i := range b.spans {
		b.kinds[i] = classify(&b.spans[i])
		byID[b.spans[i].id] = i
	}
	b.root = -1
	for i, s := range b.spans { // spans are sorted: the earliest parentless span
		if !s.hasParent && b.kinds[i] != kReward {
			b.root = i
			break
		}
	}
	if b.root < 0 {
		for i, s := range b.spans {
			if _, ok := byID[s.parent]; !ok && b.kinds[i] != kReward {
				b.root = i
				break
			}
		}
	}
	if b.root < 0 {
		b.root = 0
	}
	for i, s := range b.spans {
		p, ok := byID[s.parent]
		switch {
		case i == b.root:
			b.parent[i] = -1
			switch {
			case s.hasParent && ok:
				// Every span has its parent in the input: the parents
				// loop. Say so, and where, rather than blame a parent
				// that is there.
				b.warn(i, "every span has a parent, so the parent spans form a cycle (%s): this span, the earliest, is taken as the root",
					b.cycleList(i, func(k int) int {
						if p, ok := byID[b.spans[k].parent]; ok && b.spans[k].hasParent {
							return p
						}
						return -1
					}))
			case s.hasParent:
				b.warn(i, "parent span %s is not in the input: this span is taken as the root", hex.EncodeToString(s.parent[:]))
			}
		case s.hasParent && ok && p != i:
			b.parent[i] = p
		case b.kinds[i] == kReward:
			b.parent[i] = -2
		case s.hasParent:
			b.parent[i] = b.root
			b.warn(i, "parent span %s is not in the input: placed under the root span %s", hex.EncodeToString(s.parent[:]), b.spans[b.root].idHex())
		case s.trace != b.spans[b.root].trace:
			// --group-by conversation: a later trace of the conversation
			// continues under the first one's root; the same agent
			// taking another turn is that agent, not a child of itself.
			b.parent[i] = b.root
			if r := &b.spans[b.root]; b.kinds[i] == kAgent && s.agentName != "" && s.agentName == r.agentName {
				b.kinds[i] = kContainer
			}
		default:
			b.parent[i] = b.root
			b.warn(i, "a second root span in trace %s: placed under the first, %s", b.thex, b.spans[b.root].idHex())
		}
	}
	b.cutCycles()
	b.callsAndMerges()
	agentLike := func(i int) bool { return i == b.root || b.kinds[i] == kAgent }
	b.owner = make([]int, n)
	for i := range b.owner {
		b.owner[i] = -1
	}
	ownerOf := func(i int) int {
		var path []int
		j := i
		for j >= 0 && b.owner[j] < 0 && !agentLike(j) {
			path = append(path, j)
			j = b.parent[j]
		}
		o := b.root
		if j >= 0 {
			if agentLike(j) {
				o = j
			} else {
				o = b.owner[j]
			}
		}
		for _, k := range path {
			b.owner[k] = o
		}
		return o
	}
	for i := range b.spans {
		if agentLike(i) {
			b.owner[i] = i
		} else {
			ownerOf(i)
		}
	}
	// The parent agent of an agent span: OpenInference's graph.node.parent_id
	// when it names an agent span that is not inside this one, else the
	// nearest agent above it.
	byNode := map[string]int{}
	for i, s := range b.spans {
		if agentLike(i) && s.nodeID != "" {
			if _, dup := byNode[s.nodeID]; !dup {
				byNode[s.nodeID] = i
			}
		}
	}
	// Handoff spans, and agents by graph node id and by name, so that the
	// rules below look at candidates only, not at every span.
	var handoffs []int
	named := map[string][]int{}
	for i, s := range b.spans {
		switch {
		case b.kinds[i] == kHandoff:
			handoffs = append(handoffs, i)
		case agentLike(i):
			if s.nodeID != "" {
				named[s.nodeID] = append(named[s.nodeID], i)
			}
			if s.agentName != "" && s.agentName != s.nodeID {
				named[s.agentName] = append(named[s.agentName], i)
			}
		}
	}
	// A handoff gives control to the first invocation of its target that
	// starts after it, not to the target's later turns (a group chat
	// can give the same agent another turn without a handoff).
	handedTo := map[int]int{}
	for _, j := range handoffs {
		for _, i := range named[b.spans[j].transfer] {
			if i == b.root || b.kinds[i] != kAgent {
				continue
			}
			if b.spans[j].start <= b.spans[i].start && b.spans[j].end < b.spans[i].end && !b.inside(j, i) && !b.inside(i, j) {
				if k, ok := handedTo[j]; !ok || b.spans[i].start < b.spans[k].start {
					handedTo[j] = i
				}
			}
		}
	}
	b.pagent = make([]int, n)
	b.handedFrom = make([]int, n)
	for i := range b.spans {
		b.pagent[i], b.handedFrom[i] = -1, -1
		if i == b.root || b.kinds[i] != kAgent {
			continue
		}
		b.pagent[i] = b.owner[b.parent[i]]
		// A handoff span naming this agent, ended before it started, by an
		// agent outside it: that agent handed control over.
		for _, j := range handoffs {
			if handedTo[j] == i {
				b.handedFrom[i] = b.owner[j]
			}
		}
		np := b.spans[i].nodeParent
		if np == "" || b.handedFrom[i] >= 0 || b.calledByTool(i) {
			continue
		}
		// The agent the parent id names that ended last before this one
		// handed control over; one still running spawned it.
		giver := -1
		for _, c := range named[np] {
			if c == i {
				continue
			}
			// Ended before this one ends, not around it: a spawner runs
			// until its child returns. (Not "before it starts": the JS
			// SDK rounds start times to the millisecond.)
			sc := &b.spans[c]
			if sc.start <= b.spans[i].start && sc.end < b.spans[i].end && !b.inside(i, c) &&
				(giver < 0 || sc.end >= b.spans[giver].end) {
				giver = c
			}
		}
		switch c, ok := byNode[np]; {
		case giver >= 0:
			b.handedFrom[i] = giver
		case ok && c != i && !b.inside(c, i):
			b.pagent[i] = c
		}
	}
	b.labels(agentLike)
	b.voices(handoffs, named, handedTo)
}

// voices applies the handoff rule to frameworks that run their agents as
// steps of one workflow, without a span per agent (LlamaIndex's
// AgentWorkflow: every agent's turn is the same CHAIN spans under the
// run's root). A handoff whose target no agent span in the trace names
// passes control inside the giver's timeline: the steps under the same
// agent span that start once the handoff has ended are the target's,
// until a later such handoff passes it on. With a span of the target
// anywhere, the spans say who ran what and nothing changes.
func (b *builder) voices(handoffs []int, named map[string][]int, handedTo map[int]int) {
	type pass struct {
		end    uint64
		target string
		span   int
	}
	byOwner := map[int][]pass{}
	for _, j := range handoffs {
		t := b.spans[j].transfer
		if _, ok := handedTo[j]; ok || t == "" || len(named[t]) > 0 || slices.Contains(b.label, t) {
			continue
		}
		o := b.owner[j]
		byOwner[o] = append(byOwner[o], pass{b.spans[j].end, t, j})
	}
	if len(byOwner) == 0 {
		return
	}
	for o, ps := range byOwner {
		slices.SortStableFunc(ps, func(x, y pass) int { return cmp.Compare(x.end, y.end) })
		byOwner[o] = ps
	}
	b.voice = make([]string, len(b.spans))
	for i := range b.spans {
		ps := byOwner[b.owner[i]]
		if len(ps) == 0 || b.kinds[i] == kAgent || i == b.root {
			continue
		}
		// The last handoff that ended no later than this span starts.
		k, _ := slices.BinarySearchFunc(ps, b.spans[i].start, func(p pass, t uint64) int {
			if p.end <= t {
				return -1
			}
			return 1
		})
		if k > 0 && !b.inside(i, ps[k-1].span) {
			b.voice[i] = ps[k-1].target
		}
	}
}

// agentOf is the agent whose step span i is: its owner agent, or the
// agent a handoff inside the owner's timeline gave control to (voices).
func (b *builder) agentOf(i int) string {
	if b.voice != nil && b.voice[i] != "" {
		return b.voice[i]
	}
	return b.label[b.owner[i]]
}

// calledByTool says whether agent span i runs inside a tool its caller
// called (callsAndMerges made that tool a kAgentCall): the span relation
// names the caller, so a graph.node.parent_id (which OpenInference's
// CrewAI instrumentation sets to the agent before this one in the crew's
// list, whoever delegated the work) is neither its parent nor a handoff.
func (b *builder) calledByTool(i int) bool {
	j := b.parent[i]
	for steps := 0; j >= 0 && steps <= len(b.spans); steps++ {
		switch b.kinds[j] {
		case kContainer, kOther, kCreate:
			j = b.parent[j]
		default:
			return b.kinds[j] == kAgentCall
		}
	}
	return false
}

// toolNodes finds LangGraph's tool nodes (the prebuilt ToolNode, "tools"):
// a node that runs tools but calls no model is the graph running the
// tools its previous node's model asked for, not an agent of its own, so
// it is a container and its tools are called by the agent above it.
func (b *builder) toolNodes() {
	nodes := false
	for i := range b.spans {
		if b.kinds[i] == kAgent && b.spans[i].graphNode != "" {
			nodes = true
			break
		}
	}
	if !nodes {
		return
	}
	model := make([]bool, len(b.spans))
	tool := make([]bool, len(b.spans))
	for i, k := range b.kinds {
		if k != kModel && k != kTool && k != kHandoff && k != kAgent {
			continue
		}
		j := b.parent[i]
		for steps := 0; j >= 0 && b.kinds[j] != kAgent && steps <= len(b.spans); steps++ {
			j = b.parent[j]
		}
		if j >= 0 {
			if k == kTool {
				tool[j] = true
			} else {
				model[j] = true // a model call, a handoff or an agent: more than tools
			}
		}
	}
	for i := range b.spans {
		if b.kinds[i] == kAgent && b.spans[i].graphNode != "" && tool[i] && !model[i] {
			b.kinds[i] = kContainer
		}
	}
}

// callsAndMerges applies two rules before owners are found. An agent
// called as a tool (an agent span whose nearest mapped ancestor is a tool
// span) is a spawn by the calling agent: the tool span itself makes no
// tool call. And an agent invocation directly under an invocation of the
// same agent that is a remote call (a CLIENT span, or a
// return_to_caller transfer) is the callee's side of that call: one agent,
// so the inner span joins the outer one instead of being spawned by it.
func (b *builder) callsAndMerges() {
	b.toolNodes()
	mapped := func(j int) int { // the nearest ancestor that is not a container
		for steps := 0; j >= 0 && steps <= len(b.spans); steps++ {
			if k := b.kinds[j]; k != kContainer && k != kOther && k != kCreate {
				return j
			}
			j = b.parent[j]
		}
		return -1
	}
	b.sameSteps(mapped)
	b.workflowAgent()
	for i := range b.spans {
		if i == b.root || b.kinds[i] != kAgent || b.parent[i] < 0 {
			continue
		}
		a := mapped(b.parent[i])
		if a < 0 {
			continue
		}
		switch b.kinds[a] {
		case kTool:
			b.kinds[a] = kAgentCall
		case kAgent:
			outer, inner := &b.spans[a], &b.spans[i]
			remote := outer.spanKind == 3 || outer.transferMode == "return_to_caller"
			if remote && outer.agentName != "" && outer.agentName == inner.agentName {
				b.kinds[i] = kContainer
			}
		}
	}
}

// sameSteps merges what two instrumentations of one framework record of
// the same step (AutoGen AgentChat's own GenAI spans and OpenInference's),
// or one records twice, by span relations and tool call ids, never by
// name:
//   - an agent span whose parent span is an agent span, that holds every
//     mapped span under that parent and names no other agent (the relation
//     decides; the names only rule out a parent spawning a different agent
//     as its only step) is the same invocation: it becomes a
//     container, and what it names that the outer one does not (agent
//     name, graph node and its parent) goes to the outer one;
//   - a tool or handoff span whose nearest mapped ancestor is a tool or
//     handoff span with the same tool call id (or where either has none)
//     is the same call: it becomes a container, and its call id and
//     handoff target go to the outer one;
//   - a model span whose nearest mapped ancestor is a model span is the
//     same call (below).
func (b *builder) sameSteps(mapped func(int) int) {
	n := len(b.spans)
	// hasMapped: the span or a span under it is mapped to events.
	hasMapped := make([]bool, n)
	for i, k := range b.kinds {
		if k == kContainer || k == kOther || k == kCreate || k == kReward {
			continue
		}
		for j, steps := i, 0; j >= 0 && !hasMapped[j] && steps <= n; j, steps = b.parent[j], steps+1 {
			hasMapped[j] = true
		}
	}
	mappedKids := make([]int, n)
	for i, p := range b.parent {
		if p >= 0 && hasMapped[i] {
			mappedKids[p]++
		}
	}
	for i := range b.spans {
		p := b.parent[i]
		if p < 0 || b.kinds[i] != kAgent || b.kinds[p] != kAgent || mappedKids[p] != 1 {
			continue
		}
		outer, inner := &b.spans[p], &b.spans[i]
		if !sameAgent(outer, inner) {
			continue // an agent spawning another as its only step
		}
		b.kinds[i] = kContainer
		if outer.agentName == "" {
			outer.agentName = inner.agentName
		}
		if outer.nodeID == "" {
			outer.nodeID, outer.nodeParent = inner.nodeID, inner.nodeParent
		}
	}
	for i := range b.spans {
		if k := b.kinds[i]; (k != kTool && k != kHandoff) || b.parent[i] < 0 {
			continue
		}
		a := mapped(b.parent[i])
		if a < 0 || (b.kinds[a] != kTool && b.kinds[a] != kHandoff) {
			continue
		}
		outer, inner := &b.spans[a], &b.spans[i]
		if outer.toolCallID != "" && inner.toolCallID != "" && outer.toolCallID != inner.toolCallID {
			continue // a tool that calls another tool
		}
		if outer.toolCallID == "" {
			outer.toolCallID = inner.toolCallID
		}
		if b.kinds[i] == kHandoff && b.kinds[a] == kTool {
			b.kinds[a], outer.transfer = kHandoff, inner.transfer
		}
		b.kinds[i] = kContainer
	}
	// A model span under a model span (nothing mapped between them) is one
	// call recorded twice: LlamaIndex's achat around the chat it calls,
	// both OpenInference LLM spans. The outer span stays the call and
	// takes the inner one's usage when it reports none; the inner one's
	// is then not counted again.
	for i := range b.spans {
		if b.kinds[i] != kModel || b.parent[i] < 0 {
			continue
		}
		a := mapped(b.parent[i])
		if a < 0 || b.kinds[a] != kModel {
			continue
		}
		outer, inner := &b.spans[a], &b.spans[i]
		if !outer.hasTokens && inner.hasTokens {
			outer.in, outer.out, outer.hasTokens = inner.in, inner.out, true
			outer.cacheRead, outer.cacheWrite, outer.reasoning, outer.hasDetails = inner.cacheRead, inner.cacheWrite, inner.reasoning, inner.hasDetails
		}
		if outer.model == "" {
			outer.model = inner.model
		}
		inner.hasTokens, inner.hasDetails = false, false
		b.kinds[i] = kContainer
	}
}

// workflowAgent: a root workflow named after the agent it runs (Google
// ADK's invoke_workflow NAME around its root agent's invoke_agent NAME)
// is that agent's run, so the first such agent directly under the root
// joins the root instead of being spawned by its own name.
func (b *builder) workflowAgent() {
	r := &b.spans[b.root]
	if b.kinds[b.root] == kAgent || r.workflow == "" {
		return
	}
	for i := range b.spans { // sorted by start: the first
		if b.parent[i] == b.root && b.kinds[i] == kAgent && b.spans[i].agentName == r.workflow {
			b.kinds[i] = kContainer
			return
		}
	}
}

// sameAgent reports whether an agent span directly under another names no
// other agent: each name it has (agent name, graph node id) is one of the
// outer span's names, or the outer span has none of that kind.
func sameAgent(outer, inner *span) bool {
	names := []string{outer.agentName, outer.nodeID}
	for _, n := range []string{inner.agentName, inner.nodeID} {
		if n != "" && !slices.Contains(names, n) && (outer.agentName != "" || outer.nodeID != "") {
			return false
		}
	}
	return true
}

// cutCycles breaks parent loops (possible only in malformed input) by
// placing the span where the loop closed under the root.
func (b *builder) cutCycles() {
	state := make([]uint8, len(b.spans)) // 0 new, 1 on the current path, 2 done
	for i := range b.spans {
		var path []int
		j := i
		for j >= 0 && state[j] == 0 {
			state[j] = 1
			path = append(path, j)
			j = b.parent[j]
		}
		if j >= 0 && state[j] == 1 {
			b.warn(j, "its parent chain loops back to it, the parent spans form a cycle (%s): placed under the root span %s",
				b.cycleList(j, func(k int) int { return b.parent[k] }), b.spans[b.root].idHex())
			b.parent[j] = b.root
			if j == b.root {
				b.parent[j] = -1
			}
		}
		for _, k := range path {
			state[k] = 2
		}
	}
}

// maxCycleList is how many spans of a parent cycle a diagnostic lists.
const maxCycleList = 8

// cycleList lists the span ids met following parentOf from span i, up to
// the first span met twice ("a → b → a"), or, when the walk leaves the
// spans first, up to there; at most maxCycleList ids, then how many more.
func (b *builder) cycleList(i int, parentOf func(int) int) string {
	var ids []string
	seen := map[int]bool{}
	j := i
	for ; j >= 0 && !seen[j]; j = parentOf(j) {
		seen[j] = true
		ids = append(ids, b.spans[j].idHex())
	}
	if j >= 0 {
		ids = append(ids, b.spans[j].idHex())
	}
	if len(ids) > maxCycleList+1 {
		ids = append(ids[:maxCycleList], fmt.Sprintf("… (%d more)", len(ids)-maxCycleList))
	}
	return strings.Join(ids, " → ")
}

// inside reports whether span c lies in the subtree of span a.
func (b *builder) inside(c, a int) bool {
	for steps := 0; c >= 0 && steps <= len(b.spans); steps++ {
		if c == a {
			return true
		}
		c = b.parent[c]
	}
	return false
}

// labels names every agent: gen_ai.agent.name or agent.name, else the
// OpenInference graph node, else the span name; agents that share a name
// but not a gen_ai.agent.id get the id appended.
func (b *builder) labels(agentLike func(int) bool) {
	b.label = make([]string, len(b.spans))
	ids := map[string]map[string]bool{}
	for i, s := range b.spans {
		if !agentLike(i) {
			continue
		}
		name := s.agentName
		if name == "" {
			name = s.nodeID
		}
		if name == "" && i == b.root && b.kinds[i] != kAgent {
			name = s.workflow
			if name == "" && !unknownService(s.service) {
				name = s.service
			}
		}
		if name == "" {
			name = s.name
		}
		if name == "" {
			name = "agent"
		}
		b.label[i] = name
		if ids[name] == nil {
			ids[name] = map[string]bool{}
		}
		ids[name][s.agentID] = true
	}
	for i, s := range b.spans {
		if agentLike(i) && s.agentID != "" && len(ids[b.label[i]]) > 1 {
			b.label[i] += "#" + s.agentID
		}
	}
}

func (b *builder) newEvent(span int, suffix string, ns uint64, typ trace.EventType, agent string) int {
	b.events = append(b.events, event{span: span, suffix: suffix, ns: ns, typ: typ, agent: agent, seq: len(b.events)})
	return len(b.events) - 1
}

func (b *builder) join(agent, ev int) {
	b.chains[agent] = append(b.chains[agent], ev)
}

func (b *builder) addEdge(src, dst int, typ trace.EdgeType) {
	if src == dst || b.edgeSet[[2]int{src, dst}] {
		return
	}
	b.edgeSet[[2]int{src, dst}] = true
	b.edges = append(b.edges, edge{src, dst, typ})
}

// makeEvents creates the events of every span, and collects rewards and
// token counts.
func (b *builder) makeEvents() {
	b.own = make([][2]int, len(b.spans))
	var scores []score
	unknown := map[string]int{}
	var unknownOrder [][2]int
	for i := range b.spans {
		s := &b.spans[i]
		b.own[i] = [2]int{-1, -1}
		first := len(b.events)
		o := b.owner[i]
		switch b.kinds[i] {
		case kAgent:
			if i == b.root {
				break
			}
			if g := b.handedFrom[i]; g >= 0 {
				// Control passed from g: one handoff event, unless g's own
				// handoff span to this agent already made it; no spawn
				// and no return.
				if !b.handoffSpan(g, i) {
					m := b.newEvent(i, "handoff", s.start, trace.EventMessage, b.label[g])
					b.events[m].from, b.events[m].to = b.label[g], b.label[i]
					b.join(i, m)
					b.handoffs++
					b.stats.Messages++
				}
				break
			}
			p := b.pagent[i]
			sp := b.newEvent(i, "spawn", s.start, trace.EventSpawn, b.label[p])
			b.events[sp].to = b.label[i]
			b.join(p, sp)
			r := b.newEvent(i, "return", s.end, trace.EventReturn, b.label[i])
			b.events[r].from, b.events[r].to = b.label[i], b.label[p]
			b.join(i, r)
			b.kids[p] = append(b.kids[p], child{span: i, spawn: sp, ret: r})
			b.stats.Spawns++
			b.stats.Messages += 2
		case kTool:
			name := toolName(s)
			c := b.newEvent(i, "call", s.start, trace.EventToolCall, b.agentOf(i))
			b.events[c].tool = name
			r := b.newEvent(i, "result", s.end, trace.EventToolResult, name)
			b.events[r].tool = name
			b.events[c].callID, b.events[r].callID = s.toolCallID, s.toolCallID
			b.join(o, c)
			b.join(o, r)
			b.addEdge(c, r, trace.EdgeToolDependency)
			b.stats.ToolCalls++
		case kHandoff:
			m := b.newEvent(i, "handoff", s.start, trace.EventMessage, b.agentOf(i))
			b.events[m].from, b.events[m].to = b.agentOf(i), s.transfer
			b.join(o, m)
			b.handoffs++
			b.stats.Messages++
		case kModel:
			// A model call is a message to the model, not between agents:
			// costs.messages does not count it.
			m := b.newEvent(i, "message", s.start, trace.EventMessage, b.agentOf(i))
			b.events[m].from, b.events[m].to = b.agentOf(i), modelName(s)
			b.join(o, m)
		case kAgentCall, kCreate:
			// The agent it runs is spawned instead / nothing runs yet.
		case kDecision:
			b.join(o, b.newEvent(i, "decision", s.start, trace.EventOrchestratorDecision, b.agentOf(i)))
		case kSafety:
			b.join(o, b.newEvent(i, "safety", s.start, trace.EventSafetyEvent, b.agentOf(i)))
		case kReward:
			if len(s.rewards) == 0 {
				b.warn(i, "reward span %q has no agentlightning.reward.N.value: no reward recorded", truncate(s.name, 80))
			}
		case kOther:
			if i != b.root {
				key := unknownKind(s)
				if unknown[key] == 0 {
					unknownOrder = append(unknownOrder, [2]int{i, 0})
				}
				unknown[key]++
				b.stats.DroppedWarnings++
			}
		}
		if len(b.events) > first {
			b.own[i] = [2]int{first, len(b.events) - 1}
			for k := first; k < len(b.events); k++ {
				b.events[k].conv = s.conversation
			}
			// The error goes on the event that ends the span's work: the
			// return, the tool result, or its only event.
			b.events[len(b.events)-1].err = s.errType
		}
		scores = append(scores, s.evals...)
		scores = append(scores, s.rewards...)
		for _, note := range s.notes {
			b.warn(i, "%s", note)
		}
		if len(s.otherEvents) > 0 {
			b.warn(i, "span events not mapped: %s", strings.Join(s.otherEvents, ", "))
		}
	}
	for _, u := range unknownOrder {
		s := &b.spans[u[0]]
		key := unknownKind(s)
		why := "no gen_ai.operation.name or openinference.span.kind the mapping knows"
		if key != "" {
			why = key + " is not mapped"
		}
		b.warn(u[0], "span %q is not an agent, tool, model, handoff, guardrail or reward span (%s; %d span(s) of this kind in the trace, reported once): left out; the spans under them join the nearest agent", truncate(s.name, 80), why, unknown[key])
	}
	b.rewards(scores)
	b.tokens()
	var first, last uint64 = b.spans[0].start, 0
	for _, s := range b.spans {
		first = min(first, s.start)
		last = max(last, s.end)
	}
	b.stats.WallClockS = seconds(last - first)
	for k := range b.events {
		b.events[k].ns -= first
	}
	for a, ch := range b.chains {
		b.sortChain(ch)
		b.chains[a] = ch
	}
	b.topology()
}

func seconds(ns uint64) float64 { return float64(ns) / 1e9 }

func (b *builder) sortChain(ch []int) {
	slices.SortFunc(ch, func(x, y int) int {
		if c := cmp.Compare(b.events[x].ns, b.events[y].ns); c != 0 {
			return c
		}
		return cmp.Compare(b.events[x].seq, b.events[y].seq)
	})
}

// rewards keeps, for every reward name, the value given last.
func (b *builder) rewards(scores []score) {
	count := map[string]int{}
	at := map[string]uint64{}
	for _, sc := range scores {
		if math.IsNaN(sc.value) || math.IsInf(sc.value, 0) {
			b.warn(b.root, "reward %q is not a finite number: left out", sc.name)
			continue
		}
		count[sc.name]++
		if prev, ok := at[sc.name]; !ok || sc.at >= prev {
			at[sc.name] = sc.at
			b.stats.Rewards[sc.name] = sc.value
		}
	}
	for _, name := range slices.Sorted(mapsKeys(count)) {
		if count[name] > 1 {
			b.warn(b.root, "reward %q is given %d times: the latest value, %s, is kept", name, count[name],
				strconv.FormatFloat(b.stats.Rewards[name], 'g', -1, 64))
		}
	}
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// tokens sums input and output tokens over the model calls that report
// usage, wherever they are nested (an AI SDK model call can sit under
// another agent's tool call), and over the other spans that report usage
// with no descendant that does: an agent span's usage is often the total
// of its model calls, and counting both would count twice. Cache and
// reasoning token counts of the same spans are summed apart: they are part
// of the input and output counts already.
func (b *builder) tokens() {
	n := len(b.spans)
	kids := make([][]int, n)
	var roots []int
	for i, p := range b.parent {
		if p >= 0 {
			kids[p] = append(kids[p], i)
		} else {
			roots = append(roots, i)
		}
	}
	below := make([]bool, n) // some descendant reports tokens
	own := make([]int64, n)  // tokens counted in the subtree, outside agent spans below it
	// Iterative post-order over the forest.
	type frame struct{ i, k int }
	for _, r := range roots {
		stack := []frame{{r, 0}}
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.k < len(kids[f.i]) {
				c := kids[f.i][f.k]
				f.k++
				stack = append(stack, frame{c, 0})
				continue
			}
			i := f.i
			stack = stack[:len(stack)-1]
			s := &b.spans[i]
			switch {
			case s.hasTokens && s.ownUsage && b.kinds[i] == kAgent:
				// smolagents: the agent's own steps, without its managed
				// agents'; what its own model spans counted is not added
				// again.
				if extra := s.in + s.out - own[i]; extra > 0 {
					b.stats.Tokens += extra
					own[i] += extra
				}
			case s.hasTokens && (!below[i] || b.kinds[i] == kModel):
				b.stats.Tokens += s.in + s.out
				own[i] += s.in + s.out
				b.cacheRead += s.cacheRead
				b.cacheWrite += s.cacheWrite
				b.reasoning += s.reasoning
				b.hasDetails = b.hasDetails || s.hasDetails
			}
			if p := b.parent[i]; p >= 0 && (s.hasTokens || below[i]) {
				below[p] = true
			}
			if p := b.parent[i]; p >= 0 && b.kinds[i] != kAgent {
				own[p] += own[i]
			}
		}
	}
}

// topology is centralized when a root agent spawns agents that spawn
// nobody, hierarchical when they do, swarm when agents only hand off to
// each other, mixed with both, and unknown without either.
func (b *builder) topology() {
	depth := make([]int, len(b.spans))
	for i := range depth {
		depth[i] = -1
	}
	depthOf := func(i int) int {
		var path []int
		j := i
		for j >= 0 && depth[j] < 0 && b.pagent[j] >= 0 && len(path) <= len(b.spans) {
			path = append(path, j)
			j = b.pagent[j]
		}
		d := 0
		if j >= 0 && depth[j] >= 0 {
			d = depth[j]
		}
		for k := len(path) - 1; k >= 0; k-- {
			d++
			depth[path[k]] = d
		}
		return d
	}
	maxDepth := 0
	for i := range b.spans {
		if b.kinds[i] == kAgent && b.pagent[i] >= 0 {
			maxDepth = max(maxDepth, depthOf(i))
		}
	}
	handoffs := b.handoffs
	switch {
	case b.stats.Spawns == 0 && handoffs == 0:
		b.stats.Topology = "unknown"
	case b.stats.Spawns > 0 && handoffs > 0:
		b.stats.Topology = "mixed"
	case handoffs > 0:
		b.stats.Topology = "swarm"
	case maxDepth >= 2:
		b.stats.Topology = "hierarchical"
	default:
		b.stats.Topology = "centralized"
	}
}

// returns links every child agent's return event to the moment its parent
// resumes: the parent's first event after the child's end. Where several
// children end before that same event, the parent aggregates them: an
// aggregate event, with an aggregate edge from each return.
func (b *builder) returns() {
	parents := slices.Sorted(func(yield func(int) bool) {
		for p := range b.kids {
			if !yield(p) {
				return
			}
		}
	})
	for _, p := range parents {
		ch := b.chains[p]
		pos := make(map[int]int, len(ch))
		for k, e := range ch {
			pos[e] = k
		}
		groups := map[int][]child{}
		for _, c := range b.kids[p] {
			end := b.events[c.ret].ns
			j := sort.Search(len(ch), func(k int) bool { return b.events[ch[k]].ns >= end })
			j = max(j, pos[c.spawn]+1)
			groups[j] = append(groups[j], c)
		}
		inserts := map[int]int{} // chain position -> aggregate event placed before it
		for _, j := range slices.Sorted(func(yield func(int) bool) {
			for j := range groups {
				if !yield(j) {
					return
				}
			}
		}) {
			g := groups[j]
			if len(g) == 1 {
				if j < len(ch) {
					b.addEdge(g[0].ret, ch[j], trace.EdgeReturn)
				}
				continue
			}
			var t uint64
			for _, c := range g {
				t = max(t, b.events[c.ret].ns)
			}
			a := b.newEvent(p, "aggregate-"+strconv.Itoa(len(inserts)+1), t, trace.EventAggregate, b.label[p])
			for _, c := range g {
				b.addEdge(c.ret, a, trace.EdgeAggregate)
			}
			inserts[j] = a
		}
		if len(inserts) == 0 {
			continue
		}
		out := make([]int, 0, len(ch)+len(inserts))
		for k := 0; k <= len(ch); k++ {
			if a, ok := inserts[k]; ok {
				out = append(out, a)
			}
			if k < len(ch) {
				out = append(out, ch[k])
			}
		}
		b.chains[p] = out
	}
}

// temporal links consecutive events of each agent's timeline.
func (b *builder) temporal() {
	for _, a := range b.sortedAgents() {
		ch := b.chains[a]
		for k := 1; k < len(ch); k++ {
			b.addEdge(ch[k-1], ch[k], trace.EdgeTemporal)
		}
	}
}

func (b *builder) sortedAgents() []int {
	return slices.Sorted(func(yield func(int) bool) {
		for a := range b.chains {
			if !yield(a) {
				return
			}
		}
	})
}

// spawnEdges link each spawn to the child's first event.
func (b *builder) spawnEdges() {
	for _, p := range slices.Sorted(func(yield func(int) bool) {
		for p := range b.kids {
			if !yield(p) {
				return
			}
		}
	}) {
		for _, c := range b.kids[p] {
			if ch := b.chains[c.span]; len(ch) > 0 {
				b.addEdge(c.spawn, ch[0], trace.EdgeSpawn)
			}
		}
	}
}

// handoffEdges link a handoff to the first event of the agent it hands
// off to, when that agent's span is in the trace and starts no earlier.
func (b *builder) handoffEdges() {
	for i, k := range b.kinds {
		if k != kHandoff || b.own[i][0] < 0 {
			continue
		}
		h := b.own[i][0]
		target := b.spans[i].transfer
		for a := range b.spans {
			if b.kinds[a] != kAgent || a == b.owner[i] || b.spans[a].start < b.spans[i].start {
				continue
			}
			if b.spans[a].agentName != target && b.label[a] != target {
				continue
			}
			if ch := b.chains[a]; len(ch) > 0 {
				b.addEdge(h, ch[0], trace.EdgeMessage)
			}
			break
		}
	}
}

// handoffSpan reports whether giver g has a handoff span to agent a.
func (b *builder) handoffSpan(g, a int) bool {
	for j, k := range b.kinds {
		if k == kHandoff && b.owner[j] == g {
			if t := b.spans[j].transfer; t == b.spans[a].agentName || t == b.label[a] || t == b.spans[a].nodeID {
				return true
			}
		}
	}
	return false
}

// takeovers link, for every agent that took control by a handoff without a
// handoff span, the giver's last event no later than the handoff event to
// it. The JS SDK rounds start times to the millisecond, so the taker can
// start a fraction of a millisecond before the giver's return: an edge
// from that return would run backwards in time.
func (b *builder) takeovers() {
	for i, g := range b.handedFrom {
		h := b.own[i][0]
		if g < 0 || h < 0 {
			continue
		}
		ch := b.chains[g]
		for k := len(ch) - 1; k >= 0; k-- {
			if b.events[ch[k]].ns <= b.events[h].ns {
				b.addEdge(ch[k], h, trace.EdgeMessage)
				break
			}
		}
	}
}

// toolCalls link each tool call that carries a tool call id to the model
// call that asked for it: the latest model call of the same agent that
// started no later than the tool (the id says a model asked for the tool;
// which call asked is in its output, which the importer does not read).
func (b *builder) toolCalls() {
	last := map[int]int{} // agent -> its latest model call so far (spans are sorted by start)
	for t, k := range b.kinds {
		switch {
		case k == kModel && b.own[t][0] >= 0:
			last[b.owner[t]] = t
		case k == kTool && b.spans[t].toolCallID != "" && b.own[t][0] >= 0:
			if m, ok := last[b.owner[t]]; ok {
				b.addEdge(b.own[m][0], b.own[t][0], trace.EdgeCausal)
			}
		}
	}
}

// spanEvents are the first and last events that stand for a span: an
// agent's timeline, or the span's own events.
func (b *builder) spanEvents(i int) (int, int) {
	if ch := b.chains[i]; len(ch) > 0 && (i == b.root || b.kinds[i] == kAgent) {
		return ch[0], ch[len(ch)-1]
	}
	return b.own[i][0], b.own[i][1]
}

// links maps span links inside the trace to temporal edges from the
// linked span's last event (or, if that is later, its first) to the
// linking span's first event.
func (b *builder) links() {
	byID := make(map[[8]byte]int, len(b.spans))
	for i, s := range b.spans {
		byID[s.id] = i
	}
	for i, s := range b.spans {
		for _, l := range s.links {
			j, ok := byID[l.span]
			if !ok && l.trace != s.trace || ok && b.spans[j].trace != l.trace {
				b.warn(i, "link to span %x of trace %x: links between traces are not mapped", l.span, l.trace)
				continue
			}
			if !ok {
				b.warn(i, "link to span %x, which is not in the input: not mapped", l.span)
				continue
			}
			dst, _ := b.spanEvents(i)
			jf, jl := b.spanEvents(j)
			if (dst < 0 || jf < 0) && (s.messaging || b.spans[j].messaging) {
				// A message-passing runtime links its send and process
				// spans (AutoGen): delivery, not a step of the run.
				continue
			}
			if dst < 0 || jf < 0 {
				b.warn(i, "link to span %x: one of the two spans has no event: not mapped", l.span)
				continue
			}
			src := jl
			if b.events[src].ns > b.events[dst].ns {
				src = jf
			}
			if b.events[src].ns > b.events[dst].ns {
				b.warn(i, "link to span %x, which starts after this span: not mapped (an edge would go back in time)", l.span)
				continue
			}
			b.addEdge(src, dst, trace.EdgeTemporal)
		}
	}
}

// unknownService reports the service.name an SDK sets when the
// application set none (unknown_service, or unknown_service:EXECUTABLE):
// it names no system or agent.
func unknownService(name string) bool {
	return strings.HasPrefix(name, "unknown_service")
}

// unknownKind is what tells unmapped spans apart in their one warning per
// kind: the operation name or span kind they carry, else their name.
func unknownKind(s *span) string {
	switch {
	case s.op != "":
		return "gen_ai.operation.name=" + strconv.Quote(s.op)
	case s.oiKind != "":
		return "openinference.span.kind=" + strconv.Quote(s.oiKind)
	case s.tlKind != "":
		return "traceloop.span.kind=" + strconv.Quote(s.tlKind)
	}
	return ""
}
