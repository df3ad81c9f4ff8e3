#!/bin/sh
# rebuild-idle.sh DIR [ENTRIES] [IDLE]: issue 38's rebuild at 100,000
# entries, against what happened on the machine before it. Writes a
# synthetic corpus of ENTRIES (default 100000) into DIR/corpus, builds it
# twice into DIR/out (untimed: the output, then the buffer beside it),
# then times rebuilds: at once; after IDLE seconds (default 90) of a
# quiet machine; at once again; right after another build wrote a site
# of the same size into a new directory (as make bench's rebuild follows
# the two Hugos' builds); after such a build and a sync; and after
# stress-ng took 80 % of the memory for 25 s, which evicts most of the
# previous output from the page cache (make bench-peers installs
# stress-ng). The corpus is cmd/synth's, with the real corpus's tag
# distributions (its default -from) and 32 exclusions. For each it
# prints the wall time, masrl's CPU (GNU time), the kilobytes the
# machine read from disk (/proc/vmstat pgpgin), the dirty page cache
# just before (/proc/meminfo Dirty) and how much of DIR/out's buffer was
# in the page cache (util-linux fincore). A rebuild compares each page
# with the file of the build before it, so what it reads from disk is
# what the page cache no longer held.
set -eu
dir=$1
entries=${2:-100000}
idle=${3:-90}
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cd "$repo"
if [ -e "$dir" ]; then
	echo "$dir exists: give a new directory" >&2
	exit 2
fi
mkdir -p "$dir"
make -s bin/masrl >/dev/null
go build -o bin/synth ./cmd/synth
./bin/synth corpus -entries "$entries" -out "$dir/corpus" >/dev/null
# build builds the corpus into DIR/$1.
build() { ./bin/masrl build --corpus "$dir/corpus" --out "$dir/$1" --profile survey --claims=false >/dev/null 2>"$dir/build.log"; }
cached() {
	# The buffer's bytes (site/outdir.BufferDir) and how many of them the
	# page cache holds.
	find "$dir/.out.masrl-buffer" -type f -print0 | xargs -0 fincore -b -n -o RES,SIZE |
		awk '{ r += $1; s += $2 } END { printf "%.0f of %.0f MB cached", r / 1e6, s / 1e6 }'
}
pgpgin() { awk '$1 == "pgpgin" { print $2 }' /proc/vmstat; }
timed() {
	c=$(cached)
	dirty=$(awk '$1 == "Dirty:" { print $2 }' /proc/meminfo)
	in0=$(pgpgin)
	/usr/bin/time -f "%e %U %S" -o "$dir/time" ./bin/masrl build --corpus "$dir/corpus" --out "$dir/out" --profile survey --claims=false >/dev/null 2>"$dir/build.log"
	in1=$(pgpgin)
	read -r wall user sys < "$dir/time"
	echo "$1: wall ${wall} s, CPU $(echo "$user + $sys" | bc) s, read $((in1 - in0)) KB from disk; before it $dirty KB dirty, the buffer $c"
}
build out
build out
timed "rebuild at once"
sleep "$idle"
timed "rebuild after $idle s idle"
timed "rebuild at once again"
build other1
timed "rebuild right after another build's writes"
build other2
sync
timed "rebuild after another build's writes and a sync"
stress-ng --vm 1 --vm-bytes 80% --vm-keep --timeout 25s --quiet
timed "rebuild after stress-ng took 80 % of the memory"
