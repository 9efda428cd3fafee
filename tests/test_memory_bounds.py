"""Bounded memory and time on hostile saves (issue 12, points 12 and 13): each command runs in a process of
its own that reports its peak memory; every case ends at once, in one line, under the 512 MB budget."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from builder.vassal.archive import zip_bytes
from builder.vassal.savefile import obfuscate

REPO = Path(__file__).resolve().parents[1]
BUDGET_MB = 512
pytestmark = pytest.mark.slow

RUN = """
import contextlib, io, json, sys, time
from builder.cli import main
out, err = io.StringIO(), io.StringIO()
start = time.monotonic()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
    code = main(sys.argv[1:])
# VmHWM: this process's own peak (ru_maxrss would carry the forking test process's size over exec)
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps({"code": code, "err": err.getvalue(), "seconds": time.monotonic() - start,
                  "peak_mb": hwm / 1024}))
"""


def measure(*argv) -> dict:
    r = subprocess.run([sys.executable, "-c", RUN, *map(str, argv)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("hostile")
    block = "".join(f"CHAT<Alice> msg {i}\x1b" for i in range(2000))
    files = {
        # 250 MB of plain commands in a save of a few MB (the deflate ratio stays under the zip-bomb limit)
        "plain-250mb": block * (250 * 2**20 // len(block) + 1),
        # half a million chat commands in a few KB
        "chat-500k": "\x1b".join(["CHAT<a> x"] * 500_000),
        # 10,000 levels of nesting
        "nest-10k": "LOG\t" * 10_000 + "CHAT hi",
        # a million tiny commands: over the command limit
        "tiny-1m": "\x1b".join(["A"] * 1_000_000),
    }
    out = {}
    for name, text in files.items():
        out[name] = d / f"{name}.vsav"
        out[name].write_bytes(zip_bytes({"savedGame": text.encode()}))
    # a !VCSK savedGame inflating 500:1
    out["vcsk-500x"] = d / "vcsk-500x.vsav"
    out["vcsk-500x"].write_bytes(zip_bytes({"savedGame": obfuscate(("CHAT<a> " + "x" * 1000 + "\x1b").encode()
                                                                    * 100_000, 0x21)}))
    return out


@pytest.mark.parametrize("name", ["plain-250mb", "chat-500k", "nest-10k", "tiny-1m", "vcsk-500x"])
@pytest.mark.parametrize("command", ["dump", "audit"])
def test_hostile_save_stays_in_budget(hostile, name, command):
    argv = [command, hostile[name]] if command == "dump" else [command, REPO / "examples" / "tiny-game", hostile[name]]
    r = measure(*argv)
    assert r["code"] in (0, 1, 2) and "Traceback" not in r["err"]
    assert r["peak_mb"] < BUDGET_MB, r
    assert r["seconds"] < 30, r
    if name != "chat-500k":  # over a limit: refused in one line
        assert r["code"] in (1, 2) and len(r["err"].strip().splitlines()) == 1, r


@pytest.mark.parametrize("command", ["dump", "lint"])
@pytest.mark.parametrize("path", ["/dev/zero", "/dev/urandom"])
def test_devices_are_refused_at_once_in_budget(command, path):
    r = measure(command, path)
    assert r["code"] == 2 and r["seconds"] < 5 and r["peak_mb"] < BUDGET_MB
