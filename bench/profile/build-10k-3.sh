#!/bin/sh
# Profiles a 10,000-entry build of masrl into an empty directory, third
# pass (issue 38): perf of user and kernel time together, the CPU profile
# and the execution trace's count of busy goroutines. Summaries:
# bench/profile/build-10k-3.md.
# Usage: sh bench/profile/build-10k-3.sh [workdir]   (from the repository root)
#
# Nothing is deleted before a build: on an ext4 without a journal,
# allocating an inode skips, one by one, every inode freed in the last
# one to six minutes (the kernel's recently_deleted), so a build right
# after the deletion of a 10,000-page site spends most of its time there
# (BENCHMARKS.md, Method). Each build gets a new directory; they are
# deleted at the end.
set -eu
W=${1:-/tmp/masrl-profile3}
mkdir -p "$W"
[ -d "$W/c10k" ] || go run ./cmd/synth corpus -entries 10000 -exclusions 999 -seed 1 -out "$W/c10k" -from "${MASRL_CORPUS:-../shared/corpus}"
go build -o "$W/masrl" ./cmd/masrl
go build -o "$W/benchprof" ./bench/cmd/benchprof
O=$(mktemp -d "$W/out.XXXXXX")
uptime
# User and kernel time of the command benchrun times (GOGC 400, as masrl build sets it).
perf record -F 999 -g -o "$W/perf-empty.data" "$W/masrl" build --corpus "$W/c10k" --out "$O/perf" --profile survey --claims=false >/dev/null 2>&1
echo "== perf: user (masrl) and kernel"; perf report -i "$W/perf-empty.data" --no-children --sort dso --stdio -g none 2>/dev/null | grep '%'
echo "== perf: cumulative"; perf report -i "$W/perf-empty.data" --children --sort sym --stdio -g none 2>/dev/null | grep '%' | head -70
# The Go side: CPU profile and execution trace of site.Build (benchprof).
GOGC=400 "$W/benchprof" -op build -in "$W/c10k" -out "$O/prof" -cpuprofile "$W/cpu-empty.prof" -trace "$W/trace-empty.out"
echo "== CPU profile"; go tool pprof -top -cum "$W/cpu-empty.prof" 2>/dev/null | sed -n '1,45p'
echo "== goroutines running or in a system call"; go tool trace -d=parsed "$W/trace-empty.out" 2>/dev/null | python3 bench/profile/busy.py
/usr/bin/time -o "$W/time.txt" -f 'empty build: %U s user, %S s sys, %e s wall' "$W/masrl" build --corpus "$W/c10k" --out "$O/time" --profile survey --claims=false >/dev/null 2>&1
cat "$W/time.txt"
uptime
rm -rf "$O"
