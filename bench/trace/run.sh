#!/bin/sh
# run.sh TRACE SCHEMA [RUNS]: validate TRACE with masrl, ajv (against SCHEMA,
# the reference schema) and the Python validator, RUNS times each (default
# 3), and print wall time, CPU time and peak memory of every run. Run from
# the repository root after `make build` and `npm ci` in bench/trace
# (`make bench-trace` does all of it).
set -eu
trace=$1
schema=$2
runs=${3:-3}
measure() {
	name=$1
	shift
	i=0
	while [ $i -lt "$runs" ]; do
		/usr/bin/time -f "$name	%e s wall	%U s user	%S s sys	%M KB max RSS	exit %x" "$@" >/dev/null 2>/tmp/masrl-bench-time.$$ || true
		tail -n 1 /tmp/masrl-bench-time.$$
		i=$((i + 1))
	done
}
echo "trace: $trace ($(wc -c <"$trace") bytes)  load: $(cut -d' ' -f1-3 /proc/loadavg)"
measure masrl bin/masrl trace validate "$trace"
measure ajv node bench/trace/ajv-validate.mjs "$schema" "$trace"
measure python python3 bench/trace/validate.py "$trace"
rm -f /tmp/masrl-bench-time.$$
