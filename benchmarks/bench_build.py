#!/usr/bin/env python3
"""Benchmark `vassal-builder build`: cold, nothing changed, and one unit changed, each against
`vassal-builder validate` of the same game measured in the same run (whole processes, medians).

* ``validate``   — the baseline: load, schema-check and cross-check the data;
* ``cold``       — a build into an empty output folder (no cache);
* ``no change``  — the same build again (answered from the build manifest);
* ``one unit``   — the data copied to a temporary folder, built once, then one unit's name
  changed and built again (that unit's faces and its row of the contact sheet redrawn; the
  module and the sheets PDF put together again from cached images).

Goals (issue 11, on the 2-core machine): iron-dream cold <= 3 s, no change <= 0.3 s;
panzers-last-stand cold <= 10 s, no change <= 0.5 s.

Commands run as an installed package runs, from compiled bytecode (written by one unmeasured build
first; PYTHONDONTWRITEBYTECODE is dropped from their environment).

Each figure is given as wall-clock seconds and as CPU seconds (user + system of the whole process
tree, worker processes included), with the machine's load average: on a shared machine the CPU
figure is the steadier one.

Usage: ``python benchmarks/bench_build.py [GAME ...] [--repeat N] [--jobs N]``.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GAMES = ["iron-dream", "panzers-last-stand"]
GOALS = {"iron-dream": (3.0, 0.3), "panzers-last-stand": (10.0, 0.5)}


#: commands run as an installed package runs: from compiled bytecode (pip compiles it when it installs;
#: PYTHONDONTWRITEBYTECODE, set in some shells and CI, would compile every changed module on every run)
PROCESS_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(argv: list[str], cwd: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its children) of one whole command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "builder", *argv], cwd=cwd, capture_output=True, text=True,
                       env=PROCESS_ENV)
    d = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({r.returncode}): {r.stderr.strip()[-400:]}")
    return d, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def median(fn, repeat: int) -> tuple[float, float]:
    """Median wall and median CPU seconds of repeat runs."""
    runs = [fn() for _ in range(repeat)]
    return statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)


def copy_game(game: str, dest: Path) -> Path:
    """The game's data files in dest (counters/<game>..., maps/<game>...); returns the GAME argument."""
    for folder in ("counters", "maps"):
        for p in (REPO / folder).glob(f"{game}*"):
            target = dest / folder / p.name
            target.parent.mkdir(parents=True, exist_ok=True)
            (shutil.copytree if p.is_dir() else shutil.copy)(p, target)
    single = dest / "counters" / f"{game}.yaml"
    return str(single if single.is_file() else dest / "counters" / game)


def change_one_unit(game_arg: str) -> None:
    """Append a letter to the first unit's name (printed on its counter)."""
    files = [Path(game_arg)] if game_arg.endswith(".yaml") else sorted(Path(game_arg).rglob("units*.yaml"))
    for f in files:
        text = f.read_text()
        start = text.find("\nunits:")
        m = re.search(r"\bname:\s*\"([^\"\n]+)\"", text[start:]) if start >= 0 else None
        if m:
            at = start + m.end(1)
            f.write_text(text[:at] + "X" + text[at:])
            return
    raise SystemExit(f"no unit name found to change in {game_arg}")


def bench(game: str, repeat: int, jobs: list[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-build-") as tmp:
        tmp = Path(tmp)
        out = tmp / "out"
        timed(["build", game, "--out", str(tmp / "warm-up"), "-q", *jobs], REPO)   # unmeasured: writes the bytecode
        base = median(lambda: timed(["validate", game], REPO), repeat)

        def cold():
            shutil.rmtree(out, ignore_errors=True)
            return timed(["build", game, "--out", str(out), "-q", *jobs], REPO)
        c = median(cold, repeat)
        n = median(lambda: timed(["build", game, "--out", str(out), "-q", *jobs], REPO), repeat)

        def one_unit():
            data = tmp / f"data-{time.perf_counter_ns()}"
            arg = copy_game(game, data)
            timed(["build", arg, "--out", str(tmp / "out-copy"), "-q", *jobs], REPO)
            change_one_unit(arg)
            return timed(["build", arg, "--out", str(tmp / "out-copy"), "-q", *jobs], REPO)
        u = median(one_unit, max(1, repeat // 2))
    goal_c, goal_n = GOALS.get(game, (None, None))

    def verdict(v, goal):
        return "" if goal is None else (" ok" if v <= goal else f" > {goal:g} s")

    def cell(v, goal=None):
        """wall/cpu seconds and the wall ratio to validate (the goal is on wall-clock time)."""
        return f"{v[0]:6.2f}/{v[1]:5.2f} {v[0] / base[0]:5.1f}x{verdict(v[0], goal):<9}"
    print(f"{game:<20} {base[0]:5.2f}/{base[1]:5.2f}  {cell(c, goal_c)} {cell(n, goal_n)} {cell(u)}"
          f" load {os.getloadavg()[0]:.1f}", flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=GAMES)
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement; the median counts (default 3)")
    ap.add_argument("--jobs", type=int, default=None, help="build --jobs (default: the build's own default)")
    args = ap.parse_args(argv)
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    print(f"wall/CPU seconds, whole processes, median of {args.repeat} runs; x = wall ratio to validate of the "
          f"same game, measured in the same run; load = 1-minute load average of the machine "
          f"({os.cpu_count()} cores) after the game's runs")
    print(f"{'game':<20} {'validate':>11}  {'cold':<27} {'no change':<27} {'one unit changed':<27}")
    for game in args.games:
        bench(game, args.repeat, jobs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
