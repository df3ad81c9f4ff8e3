package main

import (
	"path/filepath"
)

// This file holds the sections other than the site's: statistics, check
// and trace validation.

func (h *harness) statsSection(ns []int) (string, []target, error) {
	var groups [][]*result
	script := filepath.Join(h.cfg.repo, "bench", "stats.py")
	for _, n := range ns {
		dir, size, err := h.corpusDir(n)
		if err != nil {
			return "", nil, err
		}
		var g []*result
		g = append(g, h.measure("masrl stats", size, nil, h.masrl, "stats", "--corpus", dir))
		g = append(g, h.measure("python3 stats.py", size, nil, "python3", script, dir))
		g = append(g, h.measure("python3 stats.py --stream", size, nil, "python3", script, "--stream", dir))
		groups = append(groups, g)
	}
	return resultTable("rows", groups), statsTargets(groups), nil
}

func (h *harness) checkSection(ns []int) (string, []target, error) {
	var groups [][]*result
	for _, n := range ns {
		dir, size, err := h.corpusDir(n)
		if err != nil {
			return "", nil, err
		}
		argv := []string{h.masrl, "check", "--corpus", dir, "--profile", "survey"}
		if n != 0 { // synthetic corpora cannot reproduce the paper's figures
			argv = append(argv, "--claims=false")
		}
		groups = append(groups, []*result{h.measure("masrl check", size, nil, argv...)})
	}
	return resultTable("entries", groups), nil, nil
}

func (h *harness) traceSection(n int) (string, []target, error) {
	file, err := h.traceFile(n)
	if err != nil {
		return "", nil, err
	}
	g := []*result{h.measure("masrl trace validate", n, nil, h.masrl, "trace", "validate", file)}
	if h.ajvInstalled {
		g = append(g, h.measure("ajv (node)", n, nil, "node", filepath.Join(h.traceScripts, "ajv-validate.mjs"), h.traceSchema, file))
	} else {
		h.notes = append(h.notes, "Ajv is not installed in bench/trace/node_modules (make bench runs npm ci there): the Ajv row is missing.")
	}
	if py := filepath.Join(h.traceScripts, "validate.py"); fileExists(py) {
		g = append(g, h.measure("python3 validate.py", n, nil, "python3", py, file))
	}
	groups := [][]*result{g}
	return resultTable("events", groups), traceTargets(groups), nil
}
