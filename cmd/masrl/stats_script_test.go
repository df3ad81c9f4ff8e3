package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// statsScriptCmds are the script commands the stats, diff and claims
// scripts under testdata/script use besides exec masrl:
//
//	masrl-exit N ARGS...            run masrl in-process; it must exit N
//	copycorpus DIR                  copy $CORPUS's CSVs and bib into DIR
//	settag FILE KEY COLUMN VALUE    set one field of one row of a CSV
//	duprow FILE KEY NEWKEY          append a copy of a row under a new key
//	droprow FILE KEY                remove a row
//	appendfile DST SRC              append the file SRC to DST
//	replace FILE OLD NEW            replace the one OLD in FILE with NEW
//
// exec cannot tell exit 1 (findings) from 2 (unreadable input); masrl-exit
// can.
func statsScriptCmds() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	return map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"masrl-exit": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) < 2 {
				ts.Fatalf("usage: masrl-exit N ARGS...")
			}
			var out, errb bytes.Buffer
			code := run(context.Background(), workPaths(ts, args[1:]), &out, &errb)
			ts.Stdout().Write(out.Bytes())
			ts.Stderr().Write(errb.Bytes())
			if strconv.Itoa(code) != args[0] {
				ts.Fatalf("masrl exited %d, want %s", code, args[0])
			}
		},
		"copycorpus": func(ts *testscript.TestScript, neg bool, args []string) {
			dst := ts.MkAbs(args[0])
			ts.Check(os.MkdirAll(dst, 0o755))
			for _, f := range []string{"papers.csv", "excluded.csv", "papers.bib", "spotcheck.csv"} {
				b, err := os.ReadFile(filepath.Join(ts.Getenv("CORPUS"), f))
				ts.Check(err)
				ts.Check(os.WriteFile(filepath.Join(dst, f), b, 0o644))
			}
		},
		"settag": func(ts *testscript.TestScript, neg bool, args []string) {
			editCSV(ts, args[0], func(rows [][]string) [][]string {
				col := slices.Index(rows[0], args[2])
				for _, r := range rows[1:] {
					if r[0] == args[1] {
						r[col] = args[3]
						return rows
					}
				}
				ts.Fatalf("no row %s", args[1])
				return nil
			})
		},
		"duprow": func(ts *testscript.TestScript, neg bool, args []string) {
			editCSV(ts, args[0], func(rows [][]string) [][]string {
				for _, r := range rows[1:] {
					if r[0] == args[1] {
						c := slices.Clone(r)
						c[0] = args[2]
						return append(rows, c)
					}
				}
				ts.Fatalf("no row %s", args[1])
				return nil
			})
		},
		"appendfile": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 2 {
				ts.Fatalf("usage: appendfile DST SRC")
			}
			b, err := os.ReadFile(ts.MkAbs(args[1]))
			ts.Check(err)
			f, err := os.OpenFile(ts.MkAbs(args[0]), os.O_APPEND|os.O_WRONLY, 0)
			ts.Check(err)
			_, err = f.Write(b)
			ts.Check(err)
			ts.Check(f.Close())
		},
		"replace": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 3 {
				ts.Fatalf("usage: replace FILE OLD NEW")
			}
			b, err := os.ReadFile(ts.MkAbs(args[0]))
			ts.Check(err)
			if strings.Count(string(b), args[1]) != 1 {
				ts.Fatalf("%s holds %q %d times, want once", args[0], args[1], strings.Count(string(b), args[1]))
			}
			ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(strings.Replace(string(b), args[1], args[2], 1)), 0o644))
		},
		"droprow": func(ts *testscript.TestScript, neg bool, args []string) {
			editCSV(ts, args[0], func(rows [][]string) [][]string {
				return slices.DeleteFunc(rows, func(r []string) bool { return r[0] == args[1] })
			})
		},
	}
}

// editCSV rewrites a CSV file in the script's work directory.
func editCSV(ts *testscript.TestScript, name string, edit func([][]string) [][]string) {
	path := ts.MkAbs(name)
	b, err := os.ReadFile(path)
	ts.Check(err)
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	ts.Check(err)
	rows = edit(rows)
	var out bytes.Buffer
	w := csv.NewWriter(&out)
	ts.Check(w.WriteAll(rows))
	ts.Check(os.WriteFile(path, out.Bytes(), 0o644))
}

// workPaths makes the path arguments of a masrl command line absolute in
// the script's $WORK: scripts run in parallel, so the process's working
// directory cannot follow them. args[0] is the subcommand; paths are the
// later arguments that are neither flags nor the values of flags that take
// text (--format, --crosstab, masrl add's --tag ...), nor add's paper id.
func workPaths(ts *testscript.TestScript, args []string) []string {
	out := slices.Clone(args)
	valueFlags := []string{"profile", "format", "crosstab", "tag", "set", "one-liner", "key", "notes", "arxiv-api", "doi-api", "crossref-api", "openalex-api", "timeout", "version", "date", "per-host", "s2-api", "min", "since", "record"}
	for i := 1; i < len(out); i++ {
		a := out[i]
		if strings.HasPrefix(a, "-") {
			if !strings.Contains(a, "=") && slices.Contains(valueFlags, strings.TrimLeft(a, "-")) {
				i++ // skip the flag's value
			}
			continue
		}
		if out[0] == "add" && i == 1 {
			continue // the paper's id, not a path
		}
		out[i] = ts.MkAbs(a)
	}
	return out
}
