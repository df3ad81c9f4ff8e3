"""masrl over a Ray Dataset of traces: each block measured where it lives.

``stats(dataset)`` runs :func:`masrl.shard` on every block of the dataset,
on the worker that holds it (``map_batches``, one masrl process a block),
so only the partials (tens of kilobytes each, whatever the number of
traces) and the findings travel; the driver merges the partials with
:func:`masrl.merge`. The merged report equals ``masrl trace stats --format
json`` over the same traces, since partials merge exactly in any grouping
(docs/traces.md, "Partials").

The dataset holds one trace per row, as JSON text or as a decoded object,
in one column: the ``text`` column of ``ray.data.read_text`` over JSON Lines
files, or a Parquet column of JSON strings (``ray.data.read_parquet``).

    >>> import ray, masrl.ray
    >>> ds = ray.data.read_text("s3://bucket/traces/")
    >>> result = masrl.ray.stats(ds)
    >>> result.report["traces"], result.findings.count()
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, List, Optional

import masrl

if TYPE_CHECKING:
    import pyarrow
    import ray.data

__all__ = ["Stats", "stats", "validate"]

# FINDINGS_COLUMNS are the columns of the findings Dataset: the trace's id,
# its counts and its findings as the JSON array masrl writes (pointer,
# line, col, severity, rule, message), or the error that kept it from being
# read. JSON text keeps the schema one and the same over every block.
FINDINGS_COLUMNS = ("trace_id", "valid", "errors", "warnings", "omitted", "findings", "error")


@dataclass(frozen=True)
class Stats:
    """The result of :func:`stats`.

    ``report`` is the merged report (``masrl trace stats --format json``
    over all the traces), ``partial`` the merged partial, to merge with
    other runs', and ``findings`` a Dataset with one row for each trace that
    has findings (columns ``FINDINGS_COLUMNS``).
    """

    report: Dict[str, Any]
    partial: Dict[str, Any]
    findings: "ray.data.Dataset"


def stats(dataset: "ray.data.Dataset", column: Optional[str] = None) -> Stats:
    """Measures every trace of dataset, block by block, and merges.

    ``column`` names the column that holds the traces; by default the
    dataset's only column, or ``text`` (``read_text``) or ``trace``.
    Raises :class:`masrl.MasrlError` when a block cannot be measured.
    """
    col = _trace_column(dataset, column)
    shards = dataset.map_batches(
        _measure_block,
        fn_kwargs={"column": col},
        batch_format="pyarrow",
        batch_size=None,
        zero_copy_batch=True,
    ).materialize()
    partials = [row["partial"] for row in shards.select_columns(["partial"]).iter_rows()]
    if not partials:
        raise ValueError("masrl.ray.stats: the dataset has no blocks")
    merged = masrl.merge(partials, partial=True)
    report = masrl.merge([merged])
    findings = shards.select_columns(["findings"]).flat_map(_finding_rows)
    return Stats(report=report, partial=merged, findings=findings)


def validate(dataset: "ray.data.Dataset", column: Optional[str] = None) -> "ray.data.Dataset":
    """Validates every trace of dataset where its block lives.

    Returns a Dataset with one row for each trace that has findings
    (columns ``FINDINGS_COLUMNS``): empty when every trace is valid and
    has no warnings. It is lazy: counting or writing it runs the validation.
    """
    col = _trace_column(dataset, column)
    return dataset.map_batches(
        _validate_block,
        fn_kwargs={"column": col},
        batch_format="pyarrow",
        batch_size=None,
        zero_copy_batch=True,
    )


def _trace_column(dataset: "ray.data.Dataset", column: Optional[str]) -> str:
    names: List[str] = [str(c) for c in dataset.columns() or []]
    if column is not None:
        if column not in names:
            raise ValueError(f"masrl.ray: the dataset has no column {column!r}: its columns are {names}")
        return column
    if len(names) == 1:
        return names[0]
    for name in ("text", "trace"):
        if name in names:
            return name
    raise ValueError(f"masrl.ray: name the column that holds the traces (column=...): the dataset's columns are {names}")


def _block_traces(block: "pyarrow.Table", column: str) -> List[Any]:
    traces: List[Any] = block.column(column).to_pylist()
    return traces


def _measure_block(block: "pyarrow.Table", column: str) -> Dict[str, List[str]]:
    """One block's partial and findings, as one row of JSON text."""
    s = masrl.shard(_block_traces(block, column))
    lines = "".join(json.dumps(f, separators=(",", ":")) + "\n" for f in s.findings)
    return {"partial": [json.dumps(s.partial, separators=(",", ":"))], "findings": [lines]}


def _validate_block(block: "pyarrow.Table", column: str) -> Dict[str, List[Any]]:
    s = masrl.shard(_block_traces(block, column))
    return _columns([_finding_row(f) for f in s.findings])


def _finding_rows(row: Dict[str, Any]) -> List[Dict[str, Any]]:
    return [_finding_row(json.loads(line)) for line in row["findings"].splitlines() if line]


def _finding_row(f: Dict[str, Any]) -> Dict[str, Any]:
    """One trace's findings in the Dataset's columns (no block-local lines)."""
    return {
        "trace_id": f.get("trace_id", ""),
        "valid": bool(f.get("valid", False)),
        "errors": int(f.get("errors", 0)),
        "warnings": int(f.get("warnings", 0)),
        "omitted": int(f.get("omitted", 0)),
        "findings": json.dumps(f.get("findings", []), separators=(",", ":")),
        "error": f.get("error", ""),
    }


def _columns(rows: List[Dict[str, Any]]) -> Dict[str, List[Any]]:
    return {c: [r[c] for r in rows] for c in FINDINGS_COLUMNS}
