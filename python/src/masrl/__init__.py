"""Validate, measure and merge orchestration traces with the masrl binary.

The wheel carries the masrl binary of its platform (``masrl/bin/masrl``);
each call here starts that binary once and streams every trace to it as
one line of JSON Lines on its standard input, so a million traces cost one
process start, not a million. The results are the binary's own JSON,
parsed: the same figures ``masrl trace validate --format json`` and
``masrl trace stats --format json`` print, and partials in the format of
``schema/partial.schema.json``.

    >>> import masrl
    >>> masrl.validate([trace])["valid"]
    True
    >>> part = masrl.stats(traces, partial=True)
    >>> masrl.merge([part, other])["traces"]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import IO, Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

__all__ = [
    "MasrlError",
    "Shard",
    "Trace",
    "binary",
    "merge",
    "shard",
    "stats",
    "validate",
]

Trace = Union[Mapping[str, Any], str, bytes]
"""A trace: a decoded JSON object, or its JSON text (str or UTF-8 bytes)."""

Partial = Union[Mapping[str, Any], str, bytes]
"""A partial (``schema/partial.schema.json``): decoded, or its JSON text."""


class MasrlError(RuntimeError):
    """The binary refused its input or failed (exit code 2).

    ``returncode`` is the binary's exit code and ``stderr`` what it said:
    each message names the trace (``<stdin>:LINE``) or the partial and
    the JSON Pointer at fault.
    """

    def __init__(self, args: Sequence[str], returncode: int, stderr: str) -> None:
        self.command = list(args)
        self.returncode = returncode
        self.stderr = stderr
        super().__init__(f"masrl {' '.join(args)}: exit code {returncode}: {stderr.strip()}")


@dataclass(frozen=True)
class Shard:
    """What one pass over a shard of traces gives: its partial and findings.

    ``partial`` is the mergeable summary (``schema/partial.schema.json``),
    ``findings`` one dict for each trace that has findings, as
    ``masrl trace stats --findings-jsonl`` writes them (``line`` is the
    trace's position in the shard, from 1, ``trace_id``, ``valid``,
    ``errors``, ``warnings``, ``findings``).
    """

    partial: Dict[str, Any]
    findings: List[Dict[str, Any]]


def binary() -> str:
    """Returns the path of the masrl binary the calls run.

    MASRL_BINARY, when set, names another one (a development build);
    otherwise it is the binary inside the package, installed with the wheel.
    """
    env = os.environ.get("MASRL_BINARY")
    if env:
        return env
    exe = "masrl.exe" if sys.platform == "win32" else "masrl"
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", exe)
    if not os.path.isfile(path):
        raise FileNotFoundError(
            f"{path} is missing: install masrl from its wheel (make wheel), "
            "or set MASRL_BINARY to a masrl binary"
        )
    return path


def validate(traces: Iterable[Trace], *, strict: bool = False) -> Dict[str, Any]:
    """Validates traces against the trace schema and the checks beyond it.

    Returns the report of ``masrl trace validate --format json``:
    ``valid``, ``errors``, ``warnings`` and ``files``, one entry per trace
    in input order (``line`` is its position, from 1, ``trace_id``,
    ``valid``, ``findings`` with ``pointer``, ``severity``, ``rule`` and
    ``message``). ``strict`` makes warnings errors. A trace that is not
    JSON is reported in its entry's ``error``, not raised.
    """
    args = ["trace", "validate", "--format", "json", "--jsonl"]
    if strict:
        args.append("--strict")
    out, _ = _run(args + ["-"], traces, ok=(0, 1))
    return _decode(args, out)


def stats(traces: Iterable[Trace], partial: bool = False) -> Dict[str, Any]:
    """Measures traces: the report of ``masrl trace stats --format json``.

    With ``partial=True`` it returns the partial instead, the mergeable
    summary that :func:`merge` combines (``schema/partial.schema.json``).
    Traces with errors are counted and left out of the measures, as the
    command does. Over exactly one trace the report is that trace's own
    report, as ``masrl trace stats`` prints it for one file; the partial is
    the same shape for any number.
    """
    args = ["trace", "stats", "--jsonl"]
    args += ["--partial"] if partial else ["--format", "json"]
    out, _ = _run(args + ["-"], traces, ok=(0, 1))
    return _decode(args, out)


def shard(traces: Iterable[Trace]) -> Shard:
    """Measures a shard of traces in one pass: its partial and its findings.

    This is what a worker does with the traces it holds (``masrl.ray`` runs
    it on every block): the partial goes to :func:`merge`, the findings
    stay with the shard.
    """
    with tempfile.TemporaryDirectory(prefix="masrl-") as tmp:
        findings_path = os.path.join(tmp, "findings.jsonl")
        args = ["trace", "stats", "--jsonl", "--partial", "--findings-jsonl", findings_path, "-"]
        out, _ = _run(args, traces, ok=(0, 1))
        with open(findings_path, encoding="utf-8") as f:
            findings = [json.loads(line) for line in f if line.strip()]
    return Shard(partial=_decode(args, out), findings=findings)


def merge(partials: Iterable[Partial], partial: bool = False) -> Dict[str, Any]:
    """Merges partials into the report ``stats`` gives over all their traces.

    The report is the JSON of ``masrl trace merge --format json``, equal to
    ``masrl trace stats --format json`` over the same traces at once (for
    more than one trace). With ``partial=True`` it returns the merged
    partial, to merge again. The partials are checked before any is merged;
    a refused one raises :class:`MasrlError` naming it (``partial-N.json``,
    N its position from 0) and the JSON Pointer at fault.
    """
    with tempfile.TemporaryDirectory(prefix="masrl-") as tmp:
        n = 0
        for i, p in enumerate(partials):
            data = p if isinstance(p, (str, bytes)) else json.dumps(p, separators=(",", ":"))
            mode = "wb" if isinstance(data, bytes) else "w"
            # Zero-padded names keep the binary's lexical order the input's.
            with open(os.path.join(tmp, f"partial-{i:09d}.json"), mode) as f:
                f.write(data)
            n += 1
        if n == 0:
            raise ValueError("masrl.merge: no partials")
        args = ["trace", "merge"] + (["--partial"] if partial else ["--format", "json"]) + [tmp]
        out, _ = _run(args, None, ok=(0, 1))
    return _decode(args, out)


def _run(args: List[str], traces: Optional[Iterable[Trace]], ok: Sequence[int]) -> "tuple[bytes, str]":
    """Runs the binary once, streaming traces to its standard input.

    Its output and messages go to temporary files rather than pipes, so
    neither can fill while the traces are still being written.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(
            [binary()] + args,
            stdin=subprocess.PIPE if traces is not None else subprocess.DEVNULL,
            stdout=out,
            stderr=err,
        )
        try:
            if traces is not None:
                assert proc.stdin is not None
                _write_lines(proc.stdin, traces)
                proc.stdin.close()
        except BrokenPipeError:
            pass
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        code = proc.wait()
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read().decode("utf-8", "replace")
    if code not in ok:
        raise MasrlError(args, code, stderr)
    return stdout, stderr


def _write_lines(w: IO[bytes], traces: Iterable[Trace]) -> None:
    """Writes each trace as one line of JSON, in blocks of about 1 MB."""
    buf: List[bytes] = []
    size = 0
    for t in traces:
        if isinstance(t, str):
            b = t.encode("utf-8")
        elif isinstance(t, (bytes, bytearray)):
            b = bytes(t)
        else:
            b = json.dumps(t, separators=(",", ":")).encode("ascii")
        # JSON text over several lines becomes one line: outside strings a
        # line break is whitespace and inside one it is an error either
        # way, so spaces keep the trace's meaning, duplicate keys and
        # exact numbers included (decoding and encoding again would not).
        b = b.strip().replace(b"\r", b" ").replace(b"\n", b" ")
        buf.append(b)
        buf.append(b"\n")
        size += len(b) + 1
        if size >= 1 << 20:
            w.write(b"".join(buf))
            buf, size = [], 0
    if buf:
        w.write(b"".join(buf))


def _decode(args: List[str], out: bytes) -> Dict[str, Any]:
    try:
        v = json.loads(out)
    except ValueError as e:
        raise MasrlError(args, 0, f"output is not JSON: {e}") from e
    if not isinstance(v, dict):
        raise MasrlError(args, 0, "output is not a JSON object")
    return v
