#!/usr/bin/env python3
"""Benchmark the audit: replay and check a generated N-move End of the Iron Dream log.

The log is built with the codec from the module's own pieces (tests/test_audit_support.py): every
unit of the game placed on a playable hex, then N moves of one to four hexes by units of the phasing
side in the three Operational Movement phases (so every move is judged by every rule, including a
Dijkstra search), a phase change every 100 moves, some stack drags and flips. Times, best of R:

* ``decode`` — builder.vassal.savefile.read_save + every leaf command visited, LOG wrappers entered
  (what any reader pays);
* ``replay`` — read + replay into the position with no rule attached (locations, stacks, faces, phases);
* ``audit``  — builder.audit.audit_file on the same file: read, replay, rules (the game's audit
  context is built once beforehand and timed apart, as ``context``);

and moves per second and the ratio audit/decode.

Usage: ``python benchmarks/bench_audit.py [--moves N] [--repeat R]``.
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from builder.audit import replay as replay_mod  # noqa: E402
from builder.audit.report import AuditResult  # noqa: E402
from builder.audit.rules import RuleSet  # noqa: E402
from builder.vassal.commands import Compound, Log  # noqa: E402
from builder.vassal.savefile import read_save  # noqa: E402
from test_audit_support import LogBuilder, game  # noqa: E402


def generate(n_moves: int, seed: int = 1) -> tuple[bytes, int]:
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
    where = {uid: g.parse(h) for uid, h in start.items()}
    turn_i, slot, stacks = 0, 0, 0
    for k in range(n_moves):
        if k and k % 100 == 0:
            slot = (slot + 1) % len(op)
            if slot == 0:
                turn_i = (turn_i + 1) % len(cal.turns)
            lb.phase(cal.turns[turn_i], op[slot][0], op[slot][1])
        side = op[slot][2]
        uid = rnd.choice(sides[side])
        h = where[uid]
        for _ in range(rnd.randint(1, 4)):
            nbrs = [n for n in g.neighbours(h) if ctx.terrain(n) != "sea"]
            if nbrs:
                h = rnd.choice(nbrs)
        where[uid] = h
        if k % 50 == 7:
            lb.flip(uid, 2 if rnd.random() < 0.5 else 1)
        lb.move(uid, g.name(h))
        if k % 97 == 13:      # drag two units together as a stack (2 unit moves, counted as 1 here)
            other = rnd.choice(sides[side])
            if other != uid:
                stacks += 1
                lb.move(other, g.name(h))
                where[other] = h
                lb.move_stack(f"s{stacks}", [uid, other], g.name(h))
    return lb.bytes(), len(lb.entries)


def decode_only(path: Path) -> int:
    save = read_save(path)
    n = 0
    stack = [save.commands]
    while stack:
        node = stack.pop()
        if isinstance(node, Log):
            stack.append(node.inner)
        elif isinstance(node, Compound):
            stack.extend(node.items)
        else:
            n += 1
    return n


def audit_only(path: Path, ctx) -> AuditResult:
    rs = RuleSet.for_game(ctx)
    result = AuditResult(game=ctx.game_id, file=str(path), not_checked=rs.not_checked)
    rs.bind(result)
    result.absorb(replay_mod.replay_file(path, ctx, [rs]))
    return result


def best(fn, repeat: int):
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    t = time.perf_counter()
    data, entries = generate(args.moves)
    t_gen = time.perf_counter() - t
    tmp = Path(tempfile.mkdtemp(prefix="bench-audit-"))
    path = tmp / "bench.vlog"
    path.write_bytes(data)

    from builder.audit.context import AuditContext
    kit = game("iron-dream")
    t_ctx, ctx = best(lambda: AuditContext.from_report(kit.report), 1)
    t_dec, leaves = best(lambda: decode_only(path), args.repeat)
    t_rep, stats = best(lambda: replay_mod.replay_file(path, ctx, []), args.repeat)
    t_aud, result = best(lambda: audit_only(path, ctx), args.repeat)
    by_rule: dict = {}
    for f in result.findings:
        by_rule[f.rule] = by_rule.get(f.rule, 0) + 1
    print(f"log: {path.stat().st_size:,} bytes, {entries:,} entries, {leaves:,} leaf commands "
          f"(generated in {t_gen:.2f} s)")
    print(f"context   {t_ctx * 1000:9.1f} ms  (validated game -> audit context, once per run)")
    print(f"decode    {t_dec * 1000:9.1f} ms  ({leaves / t_dec:,.0f} commands/s)")
    print(f"replay    {t_rep * 1000:9.1f} ms  ({stats.moves / t_rep:,.0f} moves/s, no rules)")
    print(f"audit     {t_aud * 1000:9.1f} ms  ({result.moves:,} unit moves, {result.moves / t_aud:,.0f} moves/s, "
          f"{len(result.findings):,} findings {by_rule})")
    print(f"ratio replay/decode: {t_rep / t_dec:.2f}, audit/decode: {t_aud / t_dec:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
