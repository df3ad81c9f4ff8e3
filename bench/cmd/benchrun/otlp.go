package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// otlpFile returns synthetic OTLP/JSON lines of n spans (cmd/synth otlp).
func (h *harness) otlpFile(n int) (string, error) {
	path := filepath.Join(h.cfg.work, fmt.Sprintf("otlp-%d.jsonl", n))
	args := []string{"otlp", "-spans", strconv.Itoa(n), "-seed", strconv.FormatUint(h.cfg.seed, 10)}
	return h.synthFile(path, args, h.readOrEmpty("cmd/synth/otlp.go"))
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
	var rows []*result
	for _, size := range []int{n / 10, n} {
		file, err := h.otlpFile(size)
		if err != nil {
			return "", nil, err
		}
		rows = append(rows, h.measure("masrl trace import", size, nil, h.masrl, "trace", "import", "--jsonl", file))
	}
	var b strings.Builder
	b.WriteString("| spans | file (MB) | median (s) | min (s) | max (s) | spans per second | peak RSS (MB) | exit |\n")
	b.WriteString("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n")
	for _, r := range rows {
		size := "?"
		if fi, err := os.Stat(filepath.Join(h.cfg.work, fmt.Sprintf("otlp-%d.jsonl", r.size))); err == nil {
			size = fmt.Sprintf("%.0f", float64(fi.Size())/1e6)
		}
		if !r.ok() {
			fmt.Fprintf(&b, "| %s | %s | failed: %s | | | | | |\n", thousands(r.size), size, mdEscape(fmt.Sprint(r.err)))
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %.2f | %.2f | %.2f | %s | %.0f | %s |\n", thousands(r.size), size,
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
