"""The fuzz test of issue 12: ~15 s of seeded mutations of a log, a module and the YAML of a game through the
command line (validate, dump, dump --json, audit, lint); every input exits 0, 1 or 2 without a traceback and
the run stays under the 512 MB memory budget. The driver is tests/fuzz_cli.py (runnable by hand with another
seed or longer); a failing input is kept in the test's temporary folder and named in the message."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
pytestmark = pytest.mark.slow


def test_fuzzed_inputs_keep_the_contract(tmp_path):
    if not Path("/proc/self/status").exists():
        pytest.skip("peak memory is read from /proc")
    seconds, seed = float(os.environ.get("VB_FUZZ_SECONDS", 15)), int(os.environ.get("VB_FUZZ_SEED", 12))
    r = subprocess.run([sys.executable, str(HERE / "fuzz_cli.py"), str(tmp_path), str(seconds), str(seed)],
                       capture_output=True, text=True, timeout=seconds + 120)
    assert r.returncode == 0, r.stderr[-3000:]
    report = json.loads(r.stdout.splitlines()[-1])
    assert report["tried"] >= 100, report
    assert not report["failures"], json.dumps(report["failures"], indent=1)
    assert set(report["codes"]) <= {"0", "1", "2"} and len(report["codes"]) >= 2, report
    assert report["peak_mb"] < 512, report
