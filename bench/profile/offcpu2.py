#!/usr/bin/env python3
# perf record -a -g -e sched:sched_switch; perf script | offcpu2.py COMM
# Sums the time COMM's threads spent off the CPU in uninterruptible sleep
# (D), split by whether the thread was in a raw system call (its Go
# processor held) or an ordinary one.
import re, sys, collections
name = sys.argv[1]
hdr = re.compile(r'^\S.*?\s([\d.]+): sched:sched_switch: prev_comm=(\S+) prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=(\S+) next_pid=(\d+)')
pending = {}; acc = collections.Counter(); cnt = collections.Counter()
cur = None; stack = []
def flush():
    global cur, stack
    if cur is None: return
    t, pc, pp, st, nc, np_ = cur
    if nc == name and np_ in pending:
        t0, key = pending.pop(np_)
        acc[key] += t - t0; cnt[key] += 1
    if pc == name:
        kind = 'raw' if any('RawSyscall' in l for l in stack) else ('syscall' if any('syscall.Syscall' in l or 'internal/poll' in l or 'os.Mkdir' in l for l in stack) else 'other')
        pending[pp] = (t, (st, kind))
    cur = None; stack = []
for line in sys.stdin:
    m = hdr.match(line)
    if m:
        flush()
        cur = (float(m.group(1)), m.group(2), m.group(3), m.group(4), m.group(5), m.group(6))
    elif line.strip():
        stack.append(line)
flush()
for k in sorted(acc, key=lambda k: -acc[k]):
    if k[0] in ('D',):
        print("%-2s %-8s %8.3f s off CPU in %5d switches" % (k[0], k[1], acc[k], cnt[k]))
