"""Running the real VASSAL engine (../shared/tools/vassal-oracle) from tests, skipping cleanly where it
cannot run: no ../shared, no java, a failed set-up, or the wrapper's own 'cannot run here' exits."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from functools import lru_cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("VASSAL_BUILDER_SHARED", REPO.parent / "shared"))
ORACLE = SHARED / "tools" / "vassal-oracle" / "vassal-oracle"
CANNOT_RUN = (69, 70, 124)  # set-up failed, Xvfb/JVM did not start, timed out


@lru_cache(maxsize=None)
def oracle_unavailable() -> str | None:
    """Why the oracle cannot run here, or None when it can. Its set-up (apt-get, a build) belongs to .ci/run,
    never to a test: a machine where it has not been set up skips the oracle tests."""
    if shutil.which("java") is None:
        return "java is not installed"
    if not ORACLE.is_file():
        return f"{ORACLE} not present"
    setup = ORACLE.parent / "setup.sh"
    try:
        r = subprocess.run(["bash", str(setup), "--check"], capture_output=True, text=True, timeout=120,
                           env={**os.environ, "VASSAL_ORACLE_NO_APT": "1"})
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"vassal-oracle set-up check could not run: {exc}"
    if r.returncode != 0:
        return "vassal-oracle is not set up (run: bash ../shared/tools/vassal-oracle/setup.sh, as .ci/run does)"
    return None


def run_in_own_group(cmd: list[str], timeout: int) -> subprocess.CompletedProcess:
    """Run ``cmd`` in a process group of its own and end the whole group afterwards, so nothing it started
    (xvfb-run's Xvfb server, a JVM) outlives the test, even on a timeout."""
    # Output goes to files, not pipes: a left-over child holding a pipe open would block reading it.
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, text=True, start_new_session=True,
                                env={**os.environ, "VASSAL_ORACLE_NO_APT": "1"})
        try:
            proc.wait(timeout=timeout)
        finally:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(proc.pid, sig)
                except (ProcessLookupError, PermissionError):
                    break
                time.sleep(0.2)
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    return subprocess.CompletedProcess(cmd, proc.returncode, stdout, stderr)


def run_oracle(module: Path, *options: str, timeout: int = 600) -> dict:
    """The oracle's JSON report on ``module`` (with ``options`` such as --setups, --save FILE, --exec);
    its exit status is under ``_exit``. Skips the test when the oracle cannot run here."""
    reason = oracle_unavailable()
    if reason:
        pytest.skip(reason)
    try:
        r = run_in_own_group(["bash", str(ORACLE), str(module), *options, "--json"], timeout)
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
