"""Running the real VASSAL engine (../shared/tools/vassal-oracle) from tests, skipping cleanly where it
cannot run: no ../shared, no java, a failed set-up, or the wrapper's own 'cannot run here' exits."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("VASSAL_BUILDER_SHARED", REPO.parent / "shared"))
ORACLE = SHARED / "tools" / "vassal-oracle" / "vassal-oracle"
CANNOT_RUN = (69, 70, 124)  # set-up failed, Xvfb/JVM did not start, timed out


@lru_cache(maxsize=None)
def oracle_unavailable() -> str | None:
    """Why the oracle cannot run here, or None when it can (runs its set-up once if needed)."""
    if shutil.which("java") is None:
        return "java is not installed"
    if not ORACLE.is_file():
        return f"{ORACLE} not present"
    setup = ORACLE.parent / "setup.sh"
    try:
        r = subprocess.run(["bash", str(setup), "--check"], capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            r = subprocess.run(["bash", str(setup)], capture_output=True, text=True, timeout=900)
            if r.returncode != 0:
                return "vassal-oracle set-up failed: " + (r.stderr.strip().splitlines() or ["?"])[-1]
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"vassal-oracle set-up could not run: {exc}"
    return None


def run_oracle(module: Path, *options: str, timeout: int = 600) -> dict:
    """The oracle's JSON report on ``module`` (with ``options`` such as --setups, --save FILE, --exec);
    its exit status is under ``_exit``. Skips the test when the oracle cannot run here."""
    reason = oracle_unavailable()
    if reason:
        pytest.skip(reason)
    try:
        r = subprocess.run(["bash", str(ORACLE), str(module), *options, "--json"],
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.skip("vassal-oracle timed out")
    if r.returncode in CANNOT_RUN:
        pytest.skip(f"vassal-oracle cannot run here (exit {r.returncode}): {r.stderr.strip()[-300:]}")
    try:
        report = json.loads(r.stdout)
    except json.JSONDecodeError:
        pytest.fail(f"oracle exit {r.returncode}, no JSON: {r.stderr[-2000:]}")
    report["_exit"] = r.returncode
    return report
