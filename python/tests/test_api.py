"""masrl.validate, stats, shard and merge against the CLI on the same files."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Dict, List

import pytest

import masrl


def cli(*args: str) -> "tuple[Dict[str, Any], int]":
    """Runs the binary on files, as a user would, and decodes its JSON."""
    p = subprocess.run([masrl.binary(), *args], capture_output=True)
    assert p.returncode in (0, 1), p.stderr.decode()
    return json.loads(p.stdout), p.returncode


def lines(path: Path) -> List[str]:
    return path.read_text(encoding="utf-8").splitlines()


def without_file(report: Dict[str, Any]) -> Dict[str, Any]:
    """The report without the input's name: <stdin> here, the file there."""
    out = dict(report)
    out["files"] = [{k: v for k, v in f.items() if k != "file"} for f in report["files"]]
    return out


def test_binary_is_the_one_inside_the_package() -> None:
    assert "MASRL_BINARY" not in os.environ
    assert Path(masrl.binary()).parent == Path(masrl.__file__).parent / "bin"


def test_validate_equals_cli(small_traces: Path, invalid_traces: List[Path], tmp_path: Path) -> None:
    # Valid synthetic traces and every invalid fixture, in one stream: the
    # fixtures are JSON over several lines, given as text and as dicts.
    texts: List[Any] = lines(small_traces)[:50]
    for f in invalid_traces:
        texts.append(f.read_bytes())
    jsonl = tmp_path / "all.jsonl"
    got = masrl.validate(texts)
    assert not got["valid"] and got["errors"] > 0
    # The same traces, one per line, as the CLI reads a file.
    with open(jsonl, "wb") as f:
        for t in texts:
            b = t if isinstance(t, bytes) else t.encode("utf-8")
            f.write(b.strip().replace(b"\r", b" ").replace(b"\n", b" ") + b"\n")
    want, code = cli("trace", "validate", "--format", "json", "--jsonl", str(jsonl))
    assert code == 1
    assert without_file(got) == without_file(want)
    assert len(got["files"]) == len(texts)


def test_validate_dicts_and_strict(small_traces: Path) -> None:
    dicts = [json.loads(t) for t in lines(small_traces)[:20]]
    got = masrl.validate(dicts, strict=True)
    assert got["valid"] and len(got["files"]) == 20
    assert [f["trace_id"] for f in got["files"]] == [d["trace_id"] for d in dicts]


def test_stats_equals_cli(small_traces: Path) -> None:
    got = masrl.stats(lines(small_traces))
    want, _ = cli("trace", "stats", "--format", "json", str(small_traces))
    assert got == want
    assert got["traces"] == 300


def test_partial_equals_cli_bytes(small_traces: Path) -> None:
    got = masrl.stats(lines(small_traces), partial=True)
    p = subprocess.run([masrl.binary(), "trace", "stats", "--partial", str(small_traces)], capture_output=True, check=True)
    assert got == json.loads(p.stdout)
    assert got["kind"] == "masrl-trace-partial"


def test_merge_of_shards_equals_stats_of_all(small_traces: Path) -> None:
    ts = lines(small_traces)
    parts = [masrl.stats(ts[i : i + 70], partial=True) for i in range(0, len(ts), 70)]
    want, _ = cli("trace", "stats", "--format", "json", str(small_traces))
    assert masrl.merge(parts) == want
    # Merged partials merge again, and JSON text is a partial too.
    first = masrl.merge(parts[:2], partial=True)
    assert masrl.merge([json.dumps(first)] + parts[2:]) == want
    assert masrl.merge(parts, partial=True) == masrl.stats(ts, partial=True)


def test_shard_findings(invalid_traces: List[Path], small_traces: Path) -> None:
    texts: List[Any] = lines(small_traces)[:5] + [f.read_bytes() for f in invalid_traces]
    s = masrl.shard(texts)
    assert s.partial["traces"] + s.partial["invalid"] >= 5
    report = masrl.validate(texts)
    with_findings = [f for f in report["files"] if f["findings"] or f.get("error")]
    assert [f["line"] for f in s.findings] == [f["line"] for f in with_findings]
    assert [f["findings"] for f in s.findings if "findings" in f] == [
        f["findings"] for f in with_findings if not f.get("error")
    ]


def test_merge_refuses_a_bad_partial(small_traces: Path) -> None:
    good = masrl.stats(lines(small_traces)[:10], partial=True)
    bad = dict(good, version=2)
    with pytest.raises(masrl.MasrlError) as e:
        masrl.merge([good, bad])
    assert e.value.returncode == 2
    assert "partial-000000001.json: /version: version 2 is unknown" in e.value.stderr


def test_no_traces_is_an_error() -> None:
    with pytest.raises(masrl.MasrlError, match="no traces"):
        masrl.stats([])
    with pytest.raises(ValueError):
        masrl.merge([])
