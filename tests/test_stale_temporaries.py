"""A build killed with SIGKILL leaves hidden temporaries; the next build removes them (issue 12, point 15)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from builder.atomic import clean_stale_temporaries
from builder.cli import main


def _killed_writer(target):
    """Run a writer that is SIGKILLed halfway through writing ``target``: the temporary stays behind."""
    code = textwrap.dedent(f"""
        import os, signal
        from pathlib import Path
        from builder.atomic import atomic_path
        with atomic_path(Path({str(target)!r})) as tmp:
            tmp.write_bytes(b"half a PNG")
            os.kill(os.getpid(), signal.SIGKILL)
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True)
    assert r.returncode == -9
    left = list(target.parent.glob(f".{target.name}.*.tmp"))
    assert len(left) == 1 and not target.exists()
    return left[0]


def test_next_build_removes_what_a_killed_build_left(capsys, tiny_game, tmp_path):
    out = tmp_path / "out"
    stale_png = _killed_writer(out / "tiny" / "counters" / "blue-1-front.png")
    stale_pdf = _killed_writer(out / "tiny-counters.pdf")
    live = out / "tiny" / "counters" / f".x.png.{os.getpid()}~abc.tmp"  # this process is alive
    live.write_bytes(b"")
    mine = out / "tiny" / "notes.tmp"  # not one of ours: kept
    mine.write_text("keep")
    assert main(["build", "game.yaml", "--out", str(out), "--only", "map", "-q"]) == 0
    assert not stale_png.exists() and not stale_pdf.exists()
    assert live.exists() and mine.read_text() == "keep"


def test_cleaning_keeps_a_live_writers_temporary(tmp_path):
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        live = tmp_path / f".a.png.{child.pid}~q1.tmp"
        live.write_bytes(b"")
        assert clean_stale_temporaries(tmp_path) == 0 and live.exists()
    finally:
        child.kill()
        child.wait()
    assert clean_stale_temporaries(tmp_path) == 1 and not live.exists()
