"""Tags the masrl wheel for the platform of the binary inside it.

The wheel holds no Python extension, only the masrl binary that make wheel
cross-compiles for MASRL_GOOS/MASRL_GOARCH, so its tag is py3-none-PLATFORM:
any Python 3, no ABI, one platform, as tools that ship a binary in a wheel
(ruff, for one) tag theirs. The Go binary is static (CGO_ENABLED=0), so
the Linux wheels fit both glibc (manylinux) and musl (musllinux) systems.
"""

from __future__ import annotations

import os
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

# PLATFORMS maps GOOS/GOARCH to the wheel's platform tag. Go 1.23 and later
# need macOS 11, and the Linux binaries no particular glibc.
PLATFORMS = {
    ("linux", "amd64"): "manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64",
    ("linux", "arm64"): "manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64",
    ("darwin", "amd64"): "macosx_11_0_x86_64",
    ("darwin", "arm64"): "macosx_11_0_arm64",
    ("windows", "amd64"): "win_amd64",
    ("windows", "arm64"): "win_arm64",
}


class CustomBuildHook(BuildHookInterface):  # type: ignore[misc]
    """Refuses a wheel without its binary and tags it for the binary's platform."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        goos = os.environ.get("MASRL_GOOS", "")
        goarch = os.environ.get("MASRL_GOARCH", "")
        plat = PLATFORMS.get((goos, goarch))
        if plat is None:
            known = ", ".join(f"{o}/{a}" for o, a in sorted(PLATFORMS))
            raise ValueError(
                f"hatch_build.py: MASRL_GOOS/MASRL_GOARCH is {goos or '(unset)'}/{goarch or '(unset)'}: "
                f"set them to the binary's platform, one of {known} (make wheel does)"
            )
        exe = "masrl.exe" if goos == "windows" else "masrl"
        path = os.path.join(self.root, "src", "masrl", "bin", exe)
        if not os.path.isfile(path):
            raise FileNotFoundError(
                f"hatch_build.py: {path} is missing: make wheel builds the binary there before the wheel"
            )
        build_data["pure_python"] = False
        build_data["tag"] = f"py3-none-{plat}"
