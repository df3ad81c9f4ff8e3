#!/usr/bin/env python3
# Sums, per state left in, the time masrl's threads spent off the CPU
# (perf record -a -e sched:sched_switch; perf script -F tid,time,trace).
import re, sys, collections
out = {}  # tid -> (time, state)
acc = collections.Counter(); cnt = collections.Counter()
pat = re.compile(r'^\s*(\d+)\s+([\d.]+): prev_comm=(\S+) prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=(\S+) next_pid=(\d+)')
name = sys.argv[1]
for line in sys.stdin:
    m = pat.match(line)
    if not m: continue
    t = float(m.group(2)); pc, pp, st, nc, np_ = m.group(3), m.group(4), m.group(5), m.group(6), m.group(7)
    if pc == name:
        out[pp] = (t, st)
    if nc == name and np_ in out:
        t0, s = out.pop(np_)
        acc[s] += t - t0; cnt[s] += 1
for s in sorted(acc, key=lambda s: -acc[s]):
    print("%-4s %8.3f s off CPU in %6d switches" % (s, acc[s], cnt[s]))
