"""masrl.ray on a local Ray cluster of 2 CPUs over 100,000 synthetic traces.

The cluster is started here, with no dashboard, no usage reporting and
nothing listening beyond loopback, and shut down by the fixture, so
nothing the test starts outlives it.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Iterator, List

import pytest

import masrl
from conftest import write_traces

# The traces, in SHARDS files with their own seeds (so their own ids):
# issue 36's 100,000, which read_text cuts into 108 blocks, each measured
# by a masrl process of its own.
TRACES, SHARDS = 100_000, 4


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    os.environ["RAY_ENABLE_UV_RUN_RUNTIME_ENV"] = "0"
    import ray

    # A short temporary folder: Ray's socket paths must fit 107 bytes.
    tmp = tmp_path_factory.mktemp("ray")
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        _node_ip_address="127.0.0.1",
        _temp_dir=str(tmp),
        configure_logging=False,
    )
    # The check below would be empty if the cluster's processes did not
    # name the folder: they do.
    assert processes_naming(str(tmp)), "no process names the Ray session folder"
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    try:
        yield
    finally:
        ray.shutdown()
    # Every process of the cluster names its session folder, under tmp, on
    # its command line: none may be left once ray.shutdown has returned
    # and its processes have been reaped.
    deadline = time.monotonic() + 60
    while (left := processes_naming(str(tmp))) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not left, f"Ray processes outlive the test: {left}"


def processes_naming(text: str) -> List[str]:
    """The command lines of this machine's processes that contain text."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if text in cmd:
            found.append(f"{entry}: {cmd[:200]}")
    return found


@pytest.fixture(scope="module")
def trace_files(tmp_path_factory: pytest.TempPathFactory) -> List[Path]:
    d = tmp_path_factory.mktemp("traces")
    return [write_traces(d / f"shard-{i}.jsonl", TRACES // SHARDS, 5, 100 + i) for i in range(SHARDS)]


def cli_stats(files: List[Path]) -> dict:
    p = subprocess.run([masrl.binary(), "trace", "stats", "--format", "json", *map(str, files)], capture_output=True)
    assert p.returncode in (0, 1), p.stderr.decode()
    return json.loads(p.stdout)


def test_ray_stats_equals_cli(cluster: None, trace_files: List[Path]) -> None:
    import ray
    import masrl.ray

    ds = ray.data.read_text([str(f) for f in trace_files])
    result = masrl.ray.stats(ds)
    assert result.report == cli_stats(trace_files)
    assert result.report["traces"] + result.report["invalid"] == TRACES
    assert result.partial["kind"] == "masrl-trace-partial"
    # Synthetic traces are valid: no findings.
    assert result.findings.count() == 0


def test_ray_findings_and_parquet(cluster: None, tmp_path: Path, trace_files: List[Path]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq
    import ray
    import masrl.ray

    repo = Path(__file__).resolve().parents[2]
    # Parquet strings are UTF-8: the fixtures that are not stay out.
    bad = []
    for f in sorted((repo / "trace" / "testdata" / "invalid").glob("*.json")):
        try:
            bad.append(f.read_text(encoding="utf-8"))
        except UnicodeDecodeError:
            pass
    good = trace_files[0].read_text(encoding="utf-8").splitlines()[:200]
    traces = good + bad
    # A Parquet column of JSON strings, in 3 files, beside another column.
    for i in range(3):
        part = traces[i::3]
        pq.write_table(pa.table({"id": list(range(len(part))), "trace": part}), tmp_path / f"p{i}.parquet")
    ds = ray.data.read_parquet(str(tmp_path))
    result = masrl.ray.stats(ds, column="trace")
    assert result.report == masrl.stats(traces)
    want = sorted((f.get("trace_id", ""), f["errors"]) for f in masrl.validate(traces)["files"] if f["findings"] or f.get("error"))
    got = sorted((r["trace_id"], r["errors"]) for r in result.findings.take_all())
    assert got == want and len(got) >= len(bad) - 2
    rows = masrl.ray.validate(ds, column="trace").take_all()
    assert sorted((r["trace_id"], r["errors"]) for r in rows) == want
    assert all(json.loads(r["findings"]) or r["error"] for r in rows)
