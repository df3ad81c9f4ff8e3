#!/bin/sh
# Profiles a 10,000-entry build of masrl: syscall counts (strace -c) of a
# build into an empty directory and of a rebuild over unchanged output
# (the third build into one --out, so that the buffer holds a site), and a
# CPU profile of each. Summaries: bench/profile/build-10k.md.
# Usage: sh bench/profile/build-10k.sh [workdir]   (from the repository root)
set -eu
W=${1:-/tmp/masrl-profile}
mkdir -p "$W"
[ -d "$W/syn10k" ] || go run ./cmd/synth corpus -entries 10000 -out "$W/syn10k" -from "${MASRL_CORPUS:-corpus}"
go build -o "$W/masrl" ./cmd/masrl
go build -o "$W/benchprof" ./bench/cmd/benchprof
build() { "$W/masrl" build --corpus "$W/syn10k" --out "$1" --echarts= >/dev/null 2>&1; }
rm -rf "$W/out" "$W/.out.masrl-buffer"
strace -f -c -o "$W/strace-empty.txt" "$W/masrl" build --corpus "$W/syn10k" --out "$W/out" --echarts= >/dev/null 2>&1
build "$W/out"
strace -f -c -o "$W/strace-rebuild.txt" "$W/masrl" build --corpus "$W/syn10k" --out "$W/out" --echarts= >/dev/null 2>&1
rm -rf "$W/pout" "$W/.pout.masrl-buffer"
"$W/benchprof" -op build -in "$W/syn10k" -out "$W/pout" -cpuprofile "$W/cpu-empty.prof"
"$W/benchprof" -op build -in "$W/syn10k" -out "$W/pout" -cpuprofile /dev/null
"$W/benchprof" -op build -in "$W/syn10k" -out "$W/pout" -cpuprofile "$W/cpu-rebuild.prof"
for p in empty rebuild; do
	echo "== syscalls, $p"; sort -k4 -n -r "$W/strace-$p.txt" | head -14
	echo "== CPU, $p"; go tool pprof -top "$W/cpu-$p.prof" 2>/dev/null | sed -n '1,22p'
done
/usr/bin/time -f 'empty build: %U s user, %S s sys, %e s wall' "$W/masrl" build --corpus "$W/syn10k" --out "$W/tout$$" --echarts= >/dev/null
rm -rf "$W/tout$$"
