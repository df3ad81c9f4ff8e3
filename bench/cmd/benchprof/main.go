// Command benchprof runs one of the measured operations in-process with a
// CPU profile, to see where the time of a `make bench` row goes:
//
//	go run ./bench/cmd/benchprof -op build -in bench/_work/corpus-10000 -cpuprofile cpu.prof
//	go run ./bench/cmd/benchprof -op build -in bench/_work/corpus-10000 -out /tmp/public  # twice: a rebuild
//	go tool pprof -top -cum cpu.prof
//
// The operations are the library calls behind the commands: site.Build
// (masrl build), corpus.StreamStats (masrl stats), corpus.Load and
// corpus.Check (masrl check) and trace.Validate (masrl trace validate).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	rtrace "runtime/trace"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/site"
	"github.com/masrl/masrl/trace"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "benchprof:", err)
		os.Exit(2)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("benchprof", flag.ContinueOnError)
	fs.SetOutput(stderr)
	op := fs.String("op", "", "operation: build, stats, check or trace")
	in := fs.String("in", "", "input: a corpus `directory`, or a trace file for -op trace")
	out := fs.String("cpuprofile", "cpu.prof", "CPU profile `file` to write")
	outDir := fs.String("out", "", "output `directory` of -op build; it is kept, so that a second run profiles a rebuild over it (default: a new temporary directory)")
	traceOut := fs.String("trace", "", "execution trace `file` to write of the work (go tool trace; it shows when both CPUs were busy and when one worked alone)")
	memOut := fs.String("memprofile", "", "heap profile `file` to write after the work (go tool pprof -sample_index=alloc_space shows what it allocated)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *in == "" || fs.NArg() > 0 {
		return errors.New("usage: benchprof -op build|stats|check|trace -in PATH [-cpuprofile FILE]")
	}
	work, err := operation(*op, *in, *outDir)
	if err != nil {
		return err
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	if *traceOut != "" {
		tf, err := os.Create(*traceOut)
		if err != nil {
			return err
		}
		defer tf.Close()
		if err := rtrace.Start(tf); err != nil {
			return err
		}
	}
	start := time.Now()
	err = work()
	pprof.StopCPUProfile()
	if *traceOut != "" {
		rtrace.Stop()
	}
	if err != nil {
		return err
	}
	if *memOut != "" {
		if err := writeHeapProfile(*memOut); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "%s %s: %s; profile in %s\n", *op, *in, time.Since(start).Round(time.Millisecond), *out)
	return nil
}

// operation returns the work to profile.
func operation(op, in, outDir string) (func() error, error) {
	v, err := corpus.DefaultVocabulary()
	if err != nil {
		return nil, err
	}
	switch op {
	case "build":
		return func() error {
			ck, err := corpus.Open(in, nil, data.SurveyProfile)
			if err != nil {
				return err
			}
			opt := site.Options{Config: siteconfig.Config{BaseURL: site.DefaultBaseURL}, Out: outDir}
			if outDir == "" {
				dir, err := os.MkdirTemp("", "benchprof-site-")
				if err != nil {
					return err
				}
				defer os.RemoveAll(dir)
				opt.Out = filepath.Join(dir, "public")
			}
			_, err = site.Build(ck, opt)
			return err
		}, nil
	case "stats":
		return func() error { _, err := corpus.StreamStats(in, v, corpus.StatsOptions{CountsOnly: true}); return err }, nil
	case "check":
		return func() error {
			c, err := corpus.Load(in)
			if err != nil {
				return err
			}
			corpus.Check(c, v, corpus.CheckOptions{Today: time.Now()})
			return nil
		}, nil
	case "trace":
		return func() error {
			f, err := os.Open(in)
			if err != nil {
				return err
			}
			defer f.Close()
			// As masrl trace validate does: the file's size sizes the id table.
			fi, err := f.Stat()
			if err != nil {
				return err
			}
			_, err = trace.Validate(f, trace.Options{SizeHint: fi.Size()})
			return err
		}, nil
	}
	return nil, fmt.Errorf("unknown -op %q: want build, stats, check or trace", op)
}

func writeHeapProfile(name string) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := pprof.WriteHeapProfile(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
