"""The built wheel, installed in a fresh virtual environment without Go."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

from conftest import REPO


def test_wheel_runs_without_go(tmp_path: Path) -> None:
    wheel = os.environ.get("MASRL_WHEEL", "")
    assert wheel and os.path.isfile(wheel), f"MASRL_WHEEL={wheel!r}: set it to the built wheel (make python-test does)"
    env_dir = tmp_path / "fresh"
    # The fresh venv has no pip of its own (ensurepip costs 3 s of CPU);
    # the test's pip installs into it (pip --python), as pip in it would.
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    # A PATH with the fresh venv only: whatever the machine has installed
    # (Debian's hugo recommends its Go), no Go is reachable.
    path = str(env_dir / "bin")
    assert shutil.which("go", path=path) is None, f"go is on {path}"
    env = {"PATH": path, "HOME": str(tmp_path), "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "--no-index", wheel],
                   env=env, check=True, capture_output=True)
    # Run from elsewhere, so the source tree's package cannot be imported.
    out = subprocess.run(
        [str(py), "-c", "import masrl, sys; print(masrl.binary()); sys.exit(0 if masrl.validate([open(sys.argv[1]).read()])['valid'] else 1)",
         str(REPO / "trace" / "testdata" / "example.json")],
        env=env, cwd=tmp_path, capture_output=True, text=True,
    )
    assert out.returncode == 0, out.stderr
    assert str(env_dir) in out.stdout
    ok = subprocess.run([str(py), "-m", "masrl", "trace", "validate", str(REPO / "trace" / "testdata" / "example.json")],
                        env=env, cwd=tmp_path, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    bad = subprocess.run([str(py), "-m", "masrl", "trace", "validate", str(REPO / "trace" / "testdata" / "invalid" / "bad-topology.json")],
                         env=env, cwd=tmp_path, capture_output=True, text=True)
    assert bad.returncode == 1
    assert "bad-topology.json:" in bad.stdout
