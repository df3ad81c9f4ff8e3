#!/usr/bin/env python3
# Reads `go tool trace -d=parsed` and prints how long 0, 1 and 2+
# goroutines were running (or in a system call): the build's demand
# for CPUs over time, whatever the machine's load.
import re, sys, collections
st = {}
ev = []
pat = re.compile(r'StateTransition Time=(\d+) GoID=(\d+) (\w+)->(\w+)')
for line in sys.stdin:
    m = pat.search(line)
    if not m: continue
    t, g, a, b = int(m.group(1)), m.group(2), m.group(3), m.group(4)
    busy = lambda s: s in ('Running', 'Syscall')
    d = busy(b) - busy(a)
    if d: ev.append((t, d))
ev.sort()
cur = 0; last = ev[0][0]; acc = collections.Counter()
t0 = ev[0][0]
timeline = []
for t, d in ev:
    acc[min(cur, 2)] += t - last
    last = t; cur += d
tot = sum(acc.values())
print("span %.3f s: idle %.3f, one busy %.3f, two busy %.3f; CPU demand %.3f s" % (tot/1e9, acc[0]/1e9, acc[1]/1e9, acc[2]/1e9, (acc[1]+2*acc[2])/1e9))
