"""Random scripted games of a shipped game's module (for tests that compare two ways of auditing the same
log, e.g. tests/test_audit_fastpaths.py). Not a test module.

A game starts from one of its scenarios' set-ups (so set-up, arrival and ZOC rules all have something to
judge), then runs through the sequence of play: in each phase random units of random sides move one to
four hexes over any terrain (into enemy ZOC, onto enemy units, into boxes), some in stacks, with flips,
status changes, step losses, markers placed, moved and removed, units eliminated and reinforcements
brought on. Deterministic for a seed.
"""

from __future__ import annotations

import random

from builder.audit.script import ScriptedGame


def random_game(kit, seed: int, actions: int = 2000, scenario: str | None = None) -> ScriptedGame:
    """A scripted game of about *actions* logged steps."""
    rnd = random.Random(seed)
    g = kit.grid
    scenarios = sorted(kit.game.by_id["scenarios"])
    sc = scenario or rnd.choice(scenarios)
    game = ScriptedGame(kit, scenario=sc)
    game.start()
    hexes = list(g.all_hexes())
    boxes = [b["id"] for b in kit.game.map_doc.get("boxes") or [] if isinstance(b, dict) and b.get("id")]
    markers = sorted(kit.markers)
    placed_markers: list[str] = []
    ctx = kit.ctx
    open_ground = {h for h in hexes if not _barred(ctx, h)}
    moving_kinds = ("movement", "activation", "strategic-movement", "combat", "reinforcement")
    n = 0
    while n < actions:
        on_map = [pid for pid, p in game.pieces.items() if pid in kit.defs and g.parse(_hex_of(game, pid)) is not None]
        off_map = [pid for pid, p in game.pieces.items() if pid in kit.defs and pid not in on_map]
        side = game.seq[game.pt_index].get("side") if game.seq else None
        phasing = [u for u in on_map if kit.defs[u].side == side] or on_map
        r = rnd.random()
        try:
            if r < 0.02:
                game.next_phase()
            elif r < 0.04:                          # on to a phase where units move (most moves are judged)
                phases = [p for p in game.seq[game.pt_index]["phases"] if isinstance(p, dict)]
                some = [i for i, p in enumerate(phases) if p.get("kind") in moving_kinds] or [0]
                game.at(phase=rnd.choice(some))
            elif r < 0.70 and on_map:
                uid = rnd.choice(phasing if rnd.random() < 0.8 else on_map)
                h = g.parse(_hex_of(game, uid))
                drags = 1 if rnd.random() < 0.8 else rnd.randint(2, 3)
                for _ in range(drags):
                    for _ in range(rnd.choice((1, 1, 1, 2, 2, 3, 4))):
                        nb = g.neighbours(h)
                        ok = [x for x in nb if x in open_ground]
                        if nb:
                            h = rnd.choice(ok if ok and rnd.random() < 0.95 else nb)
                    if rnd.random() < 0.15:        # onto another unit (stacking, assaults)
                        other = rnd.choice(on_map)
                        h = g.parse(_hex_of(game, other))
                    game.move(uid, g.name(h))
            elif r < 0.74 and on_map:
                uid = rnd.choice(on_map)
                here = _hex_of(game, uid)
                mates = [u for u in on_map if _hex_of(game, u) == here]
                h = g.parse(here)
                for _ in range(rnd.randint(1, 2)):
                    h = rnd.choice(g.neighbours(h) or (h,))
                game.move_stack(mates[:3], g.name(h))
            elif r < 0.80 and on_map:
                game.flip(rnd.choice(on_map))
            elif r < 0.82 and on_map:
                uid = rnd.choice(on_map)
                if kit.defs[uid].max_losses:
                    game.step_loss(uid)
                elif kit.defs[uid].status:
                    game.set_status(uid, rnd.choice(["", "Support"]))
                else:
                    game.flip(uid)
            elif r < 0.85 and off_map:
                game.move(rnd.choice(off_map), g.name(rnd.choice(hexes)))
            elif r < 0.87 and on_map and boxes:
                game.move(rnd.choice(on_map), rnd.choice(boxes))
            elif r < 0.90 and markers:
                placed_markers.append(game.add_marker(rnd.choice(markers), g.name(rnd.choice(hexes))))
            elif r < 0.93 and placed_markers:
                m = rnd.choice(placed_markers)
                p = game.pieces[m]
                point = kit.point(g.name(rnd.choice(hexes)))
                from builder.vassal.commands import MovePiece
                old = (p.map, p.x, p.y)
                p.map, p.x, p.y = point
                game._log(MovePiece(m, *point, None, *old, None))
            elif r < 0.94 and placed_markers:
                m = placed_markers.pop(rnd.randrange(len(placed_markers)))
                game.remove(m)
            elif r < 0.95 and on_map:
                game.remove(rnd.choice(on_map))
            else:
                game.chat(f"step {n}")
        except Exception as exc:                   # noqa: BLE001 - e.g. past the last turn: stop there
            if type(exc).__name__ != "ScriptError":
                raise
            break
        n += 1
    return game


def _hex_of(game: ScriptedGame, uid: str) -> str:
    """The VASSAL location name of a piece's point on the main map (a hex id, or something else)."""
    p = game.pieces[uid]
    loc = game.kit.ctx.locate(p.map, p.x, p.y)
    return loc.name if loc.hex is not None else ""


def _barred(ctx, h) -> bool:
    tt = ctx.terrain_types.get(ctx.terrain(h)) or {}
    return tt.get("playable") is False or "prohibited" in (tt.get("movement") or {}).values()
