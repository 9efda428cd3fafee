#!/usr/bin/env python3
"""Benchmark `vassal-builder build`: cold, nothing changed, and one unit changed, each against
`vassal-builder validate` of the same game measured in the same run (whole processes, medians).

* ``validate``   — the baseline: load, schema-check and cross-check the data;
* ``cold``       — a build into an empty output folder (no cache);
* ``no change``  — the same build again (answered from the build manifest);
* ``one unit``   — the data copied to a temporary folder, built once, then one unit's name
  changed and built again (that unit's faces redrawn, the module and sheets remade).

Goals (issue 11, on the 2-core machine): iron-dream cold <= 3 s, no change <= 0.3 s;
panzers-last-stand cold <= 10 s, no change <= 0.5 s.

Usage: ``python benchmarks/bench_build.py [GAME ...] [--repeat N] [--jobs N]``.
"""
from __future__ import annotations

import argparse
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


CPU = False   # --cpu: CPU seconds (user + system, worker processes included) instead of wall clock


def timed(argv: list[str], cwd: Path) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "builder", *argv], cwd=cwd, capture_output=True, text=True)
    d = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({r.returncode}): {r.stderr.strip()[-400:]}")
    if CPU:
        return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return d


def median(fn, repeat: int) -> float:
    return statistics.median(fn() for _ in range(repeat))


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
        return "" if goal is None else (" ok" if v <= goal else f" > {goal:g} s goal")
    print(f"{game:<20} {base:8.2f} {c:8.2f} {c / base:6.2f}{verdict(c, goal_c):<14} {n:8.2f} {n / base:6.2f}"
          f"{verdict(n, goal_n):<14} {u:8.2f} {u / base:6.2f}", flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=GAMES)
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement; the median counts (default 3)")
    ap.add_argument("--jobs", type=int, default=None, help="build --jobs (default: the build's own default)")
    ap.add_argument("--cpu", action="store_true",
                    help="CPU seconds of the process tree instead of wall clock (a machine busy with other work)")
    args = ap.parse_args(argv)
    global CPU
    CPU = args.cpu
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    print("CPU" if args.cpu else "wall-clock", "seconds, whole processes, median of", args.repeat,
          "runs; ratios to validate of the same game")
    print(f"{'game':<20} {'validate':>8} {'cold':>8} {'ratio':>6}{'':<14} {'no chg':>8} {'ratio':>6}{'':<14} "
          f"{'1 unit':>8} {'ratio':>6}")
    for game in args.games:
        bench(game, args.repeat, jobs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
