package synth

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
)

// TraceLinesOptions configure WriteTraceLines.
type TraceLinesOptions struct {
	Traces int    // number of traces (lines), at least 1
	Events int    // mean events per trace, at least 2
	Seed   uint64 // same options, same bytes
}

// WriteTraceLines writes opts.Traces valid traces to w as JSON Lines, one
// trace per line: sizes vary uniformly from a fifth to 1.8 times
// opts.Events events, topologies cycle through four of the schema's, and
// each trace has its own seed, so ids are unique across the file.
func WriteTraceLines(w io.Writer, opts TraceLinesOptions) error {
	if opts.Traces < 1 || opts.Events < 2 {
		return fmt.Errorf("synth: want at least 1 trace of at least 2 events, got %d of %d", opts.Traces, opts.Events)
	}
	rng := rand.New(rand.NewPCG(opts.Seed, 0x6c696e6573))
	topologies := [...]string{"hierarchical", "centralized", "planner_executor_critic", "debate"}
	bw := bufio.NewWriterSize(w, 1<<16)
	var buf bytes.Buffer
	lo := max(opts.Events/5, 1)
	for i := range opts.Traces {
		buf.Reset()
		events := lo + rng.IntN(2*opts.Events-2*lo+1)
		err := WriteTrace(&buf, TraceOptions{Events: events, Seed: opts.Seed*1_000_003 + uint64(i), Topology: topologies[i%len(topologies)]})
		if err != nil {
			return err
		}
		// The generator's newlines are all between tokens.
		for _, b := range buf.Bytes() {
			if b != '\n' {
				bw.WriteByte(b)
			}
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
