#!/usr/bin/env python3
"""Benchmark the audit: a generated End of the Iron Dream log of N commands, read and audited in a
fresh process (so peak memory is the audit's own).

The log is written as a stream (it is never held whole, so 1,000,000 commands are as cheap to make
as to read), from the module's own pieces as tests/test_audit_support.py places them: every unit on
a land hex, then the three Operational Movement phases in turn; in each, units of the phasing side
move once each, one or two hexes, and every move is reported in the chat as VASSAL's auto-report
does (two commands per move); now and then a unit flips. Times in the child, best of R:

* ``decode`` — builder.vassal.savefile.SaveStream: inflate, de-obfuscate, parse every top-level
  command and visit every leaf (what any streaming reader pays);
* ``audit``  — builder.audit.audit_file on the same file: read, replay, engines and rules (the
  audit context is built once beforehand, timed apart as ``context``).

Both are also given as the child's CPU time (best of R): on a shared machine the wall time of a long
audit swings with the load, its CPU time far less.

Printed: commands per second for both, the ratio audit/decode, and the child's peak RSS; with several
sizes, a table of them and how much the peak RSS grew from the smallest log to the largest (it should
not: the replay streams, findings past the first few thousand go to a temporary file, caches are bounded).

Logs past the codec's default limits (builder.vassal: 32 MB of command text, 500,000 commands, which
guard the whole-tree reader against hostile saves) are read with those limits raised in the child, as a
caller streaming large logs on purpose would.

Usage: ``python benchmarks/bench_audit.py [--commands N ...] [--repeat R]`` (default 100000; give
several sizes, e.g. ``--commands 100000 1000000``, to see that memory stays flat).
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

KEY = 0x21


def _xor(key: int) -> bytes:
    return bytes(b ^ key for b in range(256))


def generate(path: Path, n_commands: int, seed: int = 1) -> int:
    """Write a log of about *n_commands* leaf commands to *path*; returns the leaf count."""
    from builder.vassal.commands import Chat, Compound, Log
    from builder.vassal.savefile import VCSK_HEADER, make_metadata
    from test_audit_support import LogBuilder, game

    kit = game("iron-dream")
    g, ctx = kit.report.grid, kit.ctx
    rnd = random.Random(seed)
    land = [h for h in g.all_hexes() if ctx.terrain(h) not in ("sea",)]
    start, sides = {}, {}
    for uid, d in kit.defs.items():
        start[uid] = g.name(rnd.choice(land))
        sides.setdefault(d.side, []).append(uid)
    cal = ctx.calendars["TurnTracker0"]
    op = [(i, [p["id"] for p in pt["phases"]].index(f"{pt['id'].split('-')[0]}-operational-movement"), pt["side"])
          for i, pt in enumerate(cal.sequence)]
    lb = LogBuilder(kit, start, turn=1, player_turn=op[0][0], phase=op[0][1])
    table = _xor(KEY)
    count = 0
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z, \
            z.open("savedGame", "w", force_zip64=True) as out:
        out.write(VCSK_HEADER + b"%02x" % KEY)

        def emit(node, first=False) -> None:
            text = ("" if first else "\x1b") + node.encode()
            out.write(text.encode("utf-8").translate(table).hex().encode("ascii"))

        for i, item in enumerate(lb.setup):
            emit(item, first=i == 0)
        hexes = {uid: g.parse(h) for uid, h in start.items()}
        turn_i, slot = 0, 0

        def flush() -> int:
            n = 0
            for entry in lb.entries:
                emit(entry)
                n += 1
            lb.entries.clear()
            return n

        while count < n_commands:
            side = op[slot][2]
            for uid in rnd.sample(sides[side], min(len(sides[side]), 40)):
                h = hexes[uid]
                for _ in range(rnd.randint(1, 2)):
                    nbrs = [n for n in g.neighbours(h) if ctx.terrain(n) == "clear"]
                    if nbrs:
                        h = rnd.choice(nbrs)
                frm, hexes[uid] = g.name(hexes[uid]), h
                lb.move(uid, g.name(h))
                move = lb.entries.pop()           # with the chat line VASSAL's auto-report adds
                emit(Compound([move, Log(Chat.parse(f"CHAT* {uid} moves {frm} -> {g.name(h)} *"))]))
                count += 2
                if rnd.random() < 0.02:
                    lb.flip(uid)
                    count += flush()
                if count >= n_commands:
                    break
            slot = (slot + 1) % len(op)
            if slot == 0:
                turn_i = (turn_i + 1) % len(cal.turns)
            lb.phase(cal.turns[turn_i], op[slot][0], op[slot][1])
            count += flush()
        z_meta = lb.kit
    with zipfile.ZipFile(path, "a") as z:
        z.writestr("savedata", make_metadata(version=z_meta.version, date_saved=0))
        z.writestr("moduledata", make_metadata(name=z_meta.title, version=z_meta.version, date_saved=0))
    return count


CHILD = r"""
import json, resource, sys, time
sys.path[:0] = [sys.argv[2], sys.argv[2] + "/tests"]
from builder.audit import audit_file
from builder.audit.context import AuditContext
from builder.gamedata.validate import validate_game
from builder.vassal.commands import Compound, Log
from builder.vassal import commands
from builder.vassal.savefile import SaveStream
path, repeat = sys.argv[1], int(sys.argv[3])
BIG = 1 << 30                       # the codec's limits, raised for this deliberately large log
commands.MAX_COMMANDS = BIG

def decode():
    n = 0
    for _, _, node in SaveStream(path, max_saved_game=BIG):
        stack = [node]
        while stack:
            x = stack.pop()
            if isinstance(x, Log):
                stack.append(x.inner)
            elif isinstance(x, Compound):
                stack.extend(x.items)
            else:
                n += 1
    return n

def best(fn):
    # (least wall time, least CPU time, result) of *repeat* runs
    times, cpus, out = [], [], None
    for _ in range(repeat):
        out = None                  # the previous run's result is not held while the next one runs
        t, c = time.perf_counter(), time.process_time()
        out = fn()
        times.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
    return min(times), min(cpus), out

t = time.perf_counter(); ctx = AuditContext.from_report(validate_game("iron-dream")); t_ctx = time.perf_counter() - t
t_dec, c_dec, leaves = best(decode)
rss_decode = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t_aud, c_aud, result = best(lambda: audit_file(ctx, path, max_saved_game=BIG))
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"context": t_ctx, "decode": t_dec, "audit": t_aud, "decode_cpu": c_dec, "audit_cpu": c_aud,
                  "leaves": leaves, "moves": result.moves,
                  "findings": result.by_rule(), "rss_decode_kb": rss_decode, "rss_kb": rss}))
"""


def measure(path: Path, repeat: int) -> dict:
    r = subprocess.run([sys.executable, "-c", CHILD, str(path), str(REPO), str(repeat)],
                       capture_output=True, text=True, check=True)
    return json.loads(r.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commands", type=int, nargs="+", default=[100_000])
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-audit-"))
    rows = []
    for n in args.commands:
        path = tmp / f"bench-{n}.vlog"
        t = time.perf_counter()
        made = generate(path, n)
        t_gen = time.perf_counter() - t
        m = measure(path, args.repeat)
        print(f"log: {n:,} commands asked, {m['leaves']:,} leaf commands, {path.stat().st_size:,} bytes "
              f"(written in {t_gen:.1f} s)")
        print(f"  context   {m['context'] * 1000:9.1f} ms  (validated game -> audit context, once per run)")
        print(f"  decode    {m['decode'] * 1000:9.1f} ms  ({m['leaves'] / m['decode']:,.0f} commands/s, streaming; "
              f"CPU {m['decode_cpu'] * 1000:.1f} ms)")
        print(f"  audit     {m['audit'] * 1000:9.1f} ms  ({m['leaves'] / m['audit']:,.0f} commands/s; "
              f"CPU {m['audit_cpu'] * 1000:.1f} ms, {m['leaves'] / m['audit_cpu']:,.0f} commands/s, "
              f"{m['audit_cpu'] / m['moves'] * 1e6:.1f} us per unit move; "
              f"{m['moves']:,} unit moves, findings {m['findings']})")
        print(f"  ratio audit/decode: {m['audit'] / m['decode']:.2f} (CPU: {m['audit_cpu'] / m['decode_cpu']:.2f}); "
              f"peak RSS {m['rss_kb'] / 1024:.0f} MB "
              f"(after decode only: {m['rss_decode_kb'] / 1024:.0f} MB)")
        rows.append((m["leaves"], m["leaves"] / m["audit"], m["leaves"] / m["audit_cpu"], m["audit"] / m["decode"],
                     m["rss_kb"] / 1024, m["rss_decode_kb"] / 1024))
        path.unlink()
        del made
    if len(rows) > 1:
        print(f"{'commands':>12} {'audit cmd/s':>12} {'(CPU)':>9} {'audit/decode':>13} {'peak RSS':>9} {'(decode)':>9}")
        for leaves, rate, rate_cpu, ratio, rss, rss_dec in rows:
            print(f"{leaves:>12,} {rate:>12,.0f} {rate_cpu:>9,.0f} {ratio:>13.2f} {rss:>6.0f} MB {rss_dec:>6.0f} MB")
        print(f"peak RSS from {rows[0][0]:,} to {rows[-1][0]:,} commands: {rows[-1][4] - rows[0][4]:+.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
