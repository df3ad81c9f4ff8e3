#!/usr/bin/env python3
# Reads `perf script` of a masrl build (perf record -g) and prints the
# share of the samples in a few places of the build: the main goroutine
# (runtime.main: the steps before rendering, on one CPU), the charts'
# counts (corpus.(*Corpus).Histogram), the cached pieces (site.cached),
# the JSON downloads and the search index, MakeDirs and the runtime's
# monitor (sysmon). A sample counts for each place on its stack.
import sys, collections
places = [
    ("main goroutine (serial)", "runtime.main"),
    ("corpus.(*Corpus).Histogram", "corpus.(*Corpus).Histogram"),
    ("site.cached (pieces)", "site.cached["),
    ("paperJSON (papers.json)", "site.(*renderer).paperJSON"),
    ("search index", "site.(*renderer).searchIndex.func2"),
    ("encoding/json", "encoding/json."),
    ("MakeDirs", "outdir.(*Files).MakeDirs"),
    ("sysmon", "runtime.sysmon"),
    ("page faults", "asm_exc_page_fault"),
    ("mkdirat", "__x64_sys_mkdirat"),
    ("openat", "__x64_sys_openat"),
    ("write", "ksys_write"),
]
count = collections.Counter()
total = 0
stack = []
def flush():
    global total
    if not stack:
        return
    total += 1
    text = "\n".join(stack)
    for name, sym in places:
        if sym in text:
            count[name] += 1
for line in sys.stdin:
    line = line.rstrip("\n")
    if not line.strip():
        flush()
        stack = []
        continue
    if line.startswith("\t") or line.startswith(" "):
        parts = line.strip().split(None, 1)
        if len(parts) == 2:
            stack.append(parts[1])
flush()
print("%d samples (at 999 Hz, about as many ms of CPU); per place: samples, share" % total)
for name, _ in places:
    print("%-30s %6d %6.1f %%" % (name, count[name], 100.0 * count[name] / max(1, total)))
