package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// otlpFile returns n synthetic spans (cmd/synth otlp) in format json
// (OTLP/JSON lines) or proto (the collector's protobuf records).
func (h *harness) otlpFile(n int, format string) (string, error) {
	path := filepath.Join(h.cfg.work, otlpName(n, format))
	args := []string{"otlp", "-spans", strconv.Itoa(n), "-seed", strconv.FormatUint(h.cfg.seed, 10), "-format", format}
	return h.synthFile(path, args, h.readOrEmpty("cmd/synth/otlp.go"), h.readOrEmpty("cmd/synth/otlpproto.go"))
}

// otlpName is the name of the input file of n spans in format.
func otlpName(n int, format string) string {
	if format == "proto" {
		return fmt.Sprintf("otlp-%d.binpb", n)
	}
	return fmt.Sprintf("otlp-%d.jsonl", n)
}

// otlpSection times masrl trace import on n spans and on n/10: the spans
// per second, and whether peak memory stays flat while the file grows
// tenfold (memory bounded by the traces in flight, not the file).
func (h *harness) otlpSection(n int) (string, []target, error) {
	out, _ := h.cmd(h.synth, "otlp", "-h").CombinedOutput()
	imp, _ := h.cmd(h.masrl, "trace", "import", "-h").CombinedOutput()
	if !bytes.Contains(out, []byte("-spans")) || bytes.Contains(imp, []byte("unknown subcommand")) {
		h.notes = append(h.notes, "`masrl trace import` or `synth otlp` is not in this build: the OTel import rows are missing.")
		return "Not measured: `masrl trace import` is not in this build.\n", nil, nil
	}
	// OTLP/JSON at a tenth of the size and at full size, then the same
	// full-size run as protobuf records.
	inputs := []struct {
		size   int
		format string
	}{{n / 10, "json"}, {n, "json"}, {n, "proto"}}
	var rows []*result
	for _, in := range inputs {
		file, err := h.otlpFile(in.size, in.format)
		if err != nil {
			return "", nil, err
		}
		name := "masrl trace import"
		if in.format == "proto" {
			name += " (protobuf)"
		}
		rows = append(rows, h.measure(name, in.size, nil, h.masrl, "trace", "import", "--jsonl", file))
	}
	var b strings.Builder
	b.WriteString("| spans | input | file (MB) | median (s) | min (s) | max (s) | spans per second | peak RSS (MB) | exit |\n")
	b.WriteString("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n")
	for i, r := range rows {
		format := inputs[i].format
		size := "?"
		if fi, err := os.Stat(filepath.Join(h.cfg.work, otlpName(r.size, format))); err == nil {
			size = fmt.Sprintf("%.0f", float64(fi.Size())/1e6)
		}
		if !r.ok() {
			fmt.Fprintf(&b, "| %s | %s | %s | failed: %s | | | | | |\n", thousands(r.size), format, size, mdEscape(fmt.Sprint(r.err)))
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %.2f | %.2f | %.2f | %s | %.0f | %s |\n", thousands(r.size), format, size,
			r.median().Seconds(), r.min().Seconds(), r.max().Seconds(),
			thousands(int(float64(r.size)/r.median().Seconds())), r.rssMB(), r.exits())
	}
	small, big := rows[0], rows[1]
	speed := target{goal: fmt.Sprintf("OTel import of %s spans at ≥ 1,000,000 spans per 10 s", thousands(n))}
	mem := target{goal: "OTel import memory bounded by the traces in flight: peak RSS on a 10× larger file at most 1.5× larger"}
	if big.ok() {
		rate := float64(big.size) / big.median().Seconds()
		if n >= 1000000 {
			speed = decided(speed.goal, fmt.Sprintf("%s spans/s (median %.2f s)", thousands(int(rate)), big.median().Seconds()), rate >= 100000)
		}
		// Below a million spans the run ends before the heap settles, and
		// the comparison says nothing.
		if small.ok() && n >= 1000000 {
			mem = decided(mem.goal, fmt.Sprintf("%.0f MB at %s spans, %.0f MB at %s", small.rssMB(), thousands(small.size), big.rssMB(), thousands(big.size)),
				big.rssMB() <= 1.5*small.rssMB())
		}
	}
	return b.String(), []target{speed, mem}, nil
}
