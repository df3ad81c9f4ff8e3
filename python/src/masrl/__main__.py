"""``python -m masrl ARGS`` runs the masrl binary inside the package.

It is the command line without Go or a separate download: ``python -m
masrl trace validate FILE`` is ``masrl trace validate FILE``, with its
output, messages and exit code.
"""

from __future__ import annotations

import os
import subprocess
import sys

from masrl import binary


def main() -> int:
    """Runs the binary with this process's arguments and returns its exit code."""
    exe = binary()
    if sys.platform != "win32":
        # The binary takes this process's place: signals and the exit code
        # are its own.
        os.execv(exe, [exe] + sys.argv[1:])
    return subprocess.call([exe] + sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
