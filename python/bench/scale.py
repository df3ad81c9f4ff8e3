"""Measures masrl at scale: one process, 2 local Ray workers, the merge.

make bench-python runs it (make bench calls that): TRACES synthetic traces
(cmd/synth traces, EVENTS mean events each) in SHARDS JSON Lines files, then

- one process: ``masrl trace stats --partial`` over all the files;
- Ray: ``masrl.ray.stats`` over ``read_text`` of the files on a local
  cluster of 2 CPUs (started before the clock, shut down after);
- the merge: ``masrl.merge`` of the SHARDS partials, alone.

It prints traces per second for each, with the load average; the figures
go to BENCHMARKS.md ("Traces at scale") by hand, a timing and never a test.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import time
from pathlib import Path

import masrl


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--synth", required=True, help="a build of cmd/synth")
    ap.add_argument("--work", required=True, help="folder for the generated traces (kept between runs)")
    ap.add_argument("--traces", type=int, default=1_000_000)
    ap.add_argument("--events", type=int, default=5)
    ap.add_argument("--shards", type=int, default=8)
    a = ap.parse_args()

    work = Path(a.work) / f"traces-{a.traces}-{a.events}-{a.shards}"
    work.mkdir(parents=True, exist_ok=True)
    files = []
    for i in range(a.shards):
        f = work / f"shard-{i}.jsonl"
        if not f.exists():
            tmp = f.with_suffix(".tmp")
            with open(tmp, "wb") as out:
                subprocess.run([a.synth, "traces", "-traces", str(a.traces // a.shards), "-events", str(a.events), "-seed", str(1 + i)], stdout=out, check=True)
            tmp.rename(f)
        files.append(f)
    size = sum(f.stat().st_size for f in files)
    n = a.traces // a.shards * a.shards
    print(f"{n} traces, mean {a.events} events, {a.shards} files, {size / 1e6:.0f} MB; load {os.getloadavg()[0]:.1f}")

    t = time.perf_counter()
    subprocess.run([masrl.binary(), "trace", "stats", "--partial", *map(str, files)], stdout=subprocess.DEVNULL, check=False)
    one = time.perf_counter() - t
    print(f"one process (trace stats --partial): {one:.1f} s, {n / one:,.0f} traces/s")

    partials = []
    for f in files:
        p = subprocess.run([masrl.binary(), "trace", "stats", "--partial", str(f)], capture_output=True)
        partials.append(p.stdout)
    t = time.perf_counter()
    masrl.merge(partials)
    merge = time.perf_counter() - t
    print(f"merge of {len(partials)} partials: {merge * 1000:.0f} ms")

    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    import ray
    import masrl.ray as masrl_ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _node_ip_address="127.0.0.1", configure_logging=False)
    try:
        ray.data.DataContext.get_current().enable_progress_bars = False
        t = time.perf_counter()
        result = masrl_ray.stats(ray.data.read_text([str(f) for f in files]))
        two = time.perf_counter() - t
    finally:
        ray.shutdown()
    assert result.report["traces"] + result.report["invalid"] == n
    print(f"2 Ray workers (masrl.ray.stats): {two:.1f} s, {n / two:,.0f} traces/s; load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
