#!/bin/sh
# Profiles a 10,000-entry build into an empty directory, fifth pass
# (issue 38, item 1), of two masrl binaries side by side (before and
# after): perf of user and kernel time together, strace's count of the
# system calls, and the samples of the build's serial part and of the
# pieces rendered under the cache's lock. Summaries:
# bench/profile/build-10k-5.md.
# Usage: sh bench/profile/build-10k-5.sh WORKDIR NAME=BINARY...
#   e.g. (go build -o /tmp/p5/before ./cmd/masrl in the checkout before)
#   sh bench/profile/build-10k-5.sh /tmp/p5 before=/tmp/p5/before after=/tmp/p5/after
#
# Nothing is deleted: on an ext4 without a journal, allocating an inode
# skips, one by one, every inode freed in the last one to six minutes
# (the kernel's recently_deleted; BENCHMARKS.md, Method), so each build
# gets a new directory under WORKDIR/out, which the caller deletes when
# the measurements are over.
set -eu
W=$1
shift
mkdir -p "$W/out"
[ -d "$W/c10k" ] || go run ./cmd/synth corpus -entries 10000 -exclusions 999 -seed 1 -out "$W/c10k" -from "${MASRL_CORPUS:-../shared/corpus}"
uptime
for nb in "$@"; do
	n=${nb%%=*}
	b=${nb#*=}
	perf record -F 999 -g -o "$W/perf-$n.data" "$b" build --corpus "$W/c10k" --out "$W/out/perf-$n" --profile survey --claims=false >/dev/null 2>&1
	strace -f -c -o "$W/strace-$n.txt" "$b" build --corpus "$W/c10k" --out "$W/out/strace-$n" --profile survey --claims=false >/dev/null 2>&1
	/usr/bin/time -o "$W/time-$n.txt" -f "$n: %U s user, %S s sys, %e s wall, %R minor faults" "$b" build --corpus "$W/c10k" --out "$W/out/time-$n" --profile survey --claims=false >/dev/null 2>&1
done
for nb in "$@"; do
	n=${nb%%=*}
	echo "== $n: perf, user (masrl) and kernel"
	perf report -i "$W/perf-$n.data" --no-children --sort dso --stdio -g none 2>/dev/null | grep '%'
	echo "== $n: perf, cumulative"
	perf report -i "$W/perf-$n.data" --children --sort sym --stdio -g none 2>/dev/null | grep '%' | head -60
	echo "== $n: the main goroutine's share (the build's serial part) and the pieces' lock"
	perf script -i "$W/perf-$n.data" 2>/dev/null | python3 bench/profile/shares.py
	echo "== $n: system calls"
	sort -k4 -n -r "$W/strace-$n.txt" | head -14
	cat "$W/time-$n.txt"
done
uptime
