#!/bin/sh
# maketest-cold.sh DIR [BRANCH]: issue 38's "fresh make test", measured as
# the whole machine sees it. Clones BRANCH (default main) of this
# repository into DIR/masrl with ../shared beside it, runs .ci/run with
# empty Go and staticcheck caches under /usr/bin/time -v, and prints the
# wall time, the job's CPU as time -v counts it (the processes make waited
# for) and the machine's CPU from /proc/stat over the same span, which
# also counts what time -v misses: Chromium's renderer, GPU and utility
# processes, which its zygote reaps, and Ray's daemons. With PERF=1 the
# run is sampled system-wide (perf record -F 49 -a -g) into DIR/perf.data;
# `perf report -i DIR/perf.data --no-children --sort comm -g none` then
# gives the CPU by process and thread name (maketest-cold.md).
set -eu
dir=$1
branch=${2:-main}
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
shared=$(cd "$repo/../shared" && pwd)
if [ -e "$dir/masrl" ] || [ -e "$dir/shared" ]; then
	echo "$dir/masrl or $dir/shared exists: give a new or empty directory" >&2
	exit 2
fi
mkdir -p "$dir"
git clone -q -b "$branch" "$repo" "$dir/masrl"
ln -s "$shared" "$dir/shared"
cd "$dir/masrl"
git log --oneline -1
uptime
gocache=$(mktemp -d)
sccache=$(mktemp -d)
before=$(head -1 /proc/stat)
rc=0
if [ "${PERF:-}" = 1 ]; then
	GOCACHE=$gocache STATICCHECK_CACHE=$sccache perf record -q -F 49 -a -g -o "$dir/perf.data" -- \
		/usr/bin/time -v .ci/run > "$dir/run.log" 2>&1 || rc=$?
else
	GOCACHE=$gocache STATICCHECK_CACHE=$sccache /usr/bin/time -v .ci/run > "$dir/run.log" 2>&1 || rc=$?
fi
after=$(head -1 /proc/stat)
uptime
rm -rf "$gocache" "$sccache"
echo "exit $rc"
grep -E "Elapsed|User time|System time|Percent of CPU" "$dir/run.log"
# /proc/stat's cpu line: user nice system idle iowait irq softirq steal, in 1/100 s.
echo "$before
$after" | awk '{ busy[NR] = $2 + $3 + $4 + $7 + $8 + $9; idle[NR] = $5 + $6 }
	END { printf "machine: %.0f s of CPU busy, %.0f s idle\n", (busy[2] - busy[1]) / 100, (idle[2] - idle[1]) / 100 }'
exit "$rc"
