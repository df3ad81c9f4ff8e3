"""Shared fixtures: synthetic traces from the repository's generator.

make python-test builds cmd/synth and names it in MASRL_SYNTH; the tests
fail, never skip, without it, so a missing piece cannot pass quietly.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import List

import pytest

REPO = Path(__file__).resolve().parents[2]


def synth() -> str:
    path = os.environ.get("MASRL_SYNTH", "")
    if not path or not os.path.isfile(path):
        raise RuntimeError(
            f"MASRL_SYNTH={path!r}: set it to a build of cmd/synth (make python-test does)"
        )
    return path


def write_traces(path: Path, traces: int, events: int, seed: int) -> Path:
    """Writes synthetic traces as JSON Lines (cmd/synth traces) to path."""
    with open(path, "wb") as f:
        subprocess.run(
            [synth(), "traces", "-traces", str(traces), "-events", str(events), "-seed", str(seed)],
            stdout=f,
            check=True,
        )
    return path


@pytest.fixture(scope="session")
def small_traces(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """300 synthetic traces in one JSON Lines file."""
    return write_traces(tmp_path_factory.mktemp("small") / "traces.jsonl", 300, 20, 7)


@pytest.fixture(scope="session")
def invalid_traces() -> List[Path]:
    """The repository's invalid trace fixtures, each a JSON file."""
    files = sorted((REPO / "trace" / "testdata" / "invalid").glob("*.json"))
    assert files, "trace/testdata/invalid has no .json files"
    return files
