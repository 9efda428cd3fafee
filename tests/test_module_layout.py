"""Where the module puts pieces: counters that fit their hexes, boxes laid out side by side, area set-ups
deployed on legal hexes of their area. From the module's own plan (no VASSAL needed); the oracle
screenshot test (test_module_screens.py) checks the same in the real window."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

from builder.module.deploy import Deployer
from builder.render.counter_build import counter_info, print_px

from test_module_support import GAMES, layout, plans, report


@pytest.mark.parametrize("game", GAMES)
def test_counters_fit_their_hexes_and_print_size_is_unchanged(game):
    g, grid = report(game).model, report(game).grid
    info = counter_info(g)
    assert info["image_px"] <= 0.85 * grid.spec.hex_size, (info["image_px"], grid.spec.hex_size)
    assert print_px(g) == round(info["size_mm"] / 25.4 * info["print_dpi"])


def _zone_rects(lay):
    """zone name -> (map name, (x0, y0, x1, y1)) of the box in map pixels."""
    out = {}
    for plan in lay.maps:
        for b in plan.boards:
            for name, (x, y, w, h) in b.zones.items():
                out[name] = (plan.name, (b.offset[0] + x, b.offset[1] + y, b.offset[0] + x + w, b.offset[1] + y + h))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_box_pieces_lie_side_by_side_inside_their_box(game):
    lay = layout(game)
    rects = _zone_rects(lay)
    half = counter_info(report(game).model)["image_px"] / 2
    for sid, plan in plans(game).items():
        at = defaultdict(list)
        for p in plan.placements:
            if p.location in rects:
                at[(p.location, p.x, p.y)].append(p)
        points = defaultdict(set)
        for (zone, x, y), ps in at.items():
            m, (x0, y0, x1, y1) = rects[zone]
            assert ps[0].map == m
            # the counter, and a stack's offsets (VASSAL draws each piece 2 px right, 4 px up), stay inside
            n = len(ps) - 1
            assert x0 <= x - half and x + half + 2 * n <= x1, (sid, zone, x, y)
            assert y0 <= y - half - 4 * n and y + half <= y1, (sid, zone, x, y)
            # one unit a place, except units set up together with it (at_unit)
            assert len([p for p in ps if p.d.kind == "unit" and "at_unit" not in p.entry]) <= 1, (sid, zone, x, y)
            points[zone].add((x, y))
        for zone, pts in points.items():   # places never overlap
            pts = sorted(pts)
            for i, a in enumerate(pts):
                for b in pts[i + 1:]:
                    assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) >= lay.place_px, (sid, zone, a, b)


def test_iron_dream_fronts_are_deployed_on_their_symbol_hexes_within_stacking():
    g, grid = report("iron-dream").model, report("iron-dream").grid
    plan = plans("iron-dream")["iron-dream"]
    where = {p.d.key: p.location for p in plan.placements if p.d.kind == "unit"}
    dep = Deployer(g, grid)
    for area, side in (("eastern-front-swastika", "axis"), ("soviet-red-star", "soviet")):
        hexes = set(g.area_hexes(area))
        entries = [e for e in g.by_id["scenarios"]["iron-dream"]["setup"] if e.get("area") == area]
        units = [u for e in entries for u in e["units"]]
        assert len(units) > len(hexes) > 5
        on = Counter(where[u] for u in units)
        assert set(on) == hexes, area            # every symbol hex has a unit, none lies elsewhere
        for h in hexes:                          # and within the side's stacking limit there
            here = [u for u in where if where[u] == h and g.side_of(g.units[u]) == side]
            assert sum(dep.weight(g.units[u]) for u in here) <= dep.side_limit(side, h), (h, here)


def test_deployer_respects_stacking_terrain_and_enemies():
    g, grid = report("panzers-last-stand").model, report("panzers-last-stand").grid
    dep = Deployer(g, grid)
    unit = next(u for u in g.units.values() if dep.weight(u) == 1 and g.side_of(u) == "axis")
    open_hex = next(e["hex"] for sc in g.by_id["scenarios"].values() for e in sc.get("setup") or []
                    if isinstance(e.get("hex"), str) and dep._terrain(e["hex"]).get("id") == "open")
    placed = [dep.choose(unit, "axis", "leg", [open_hex], k, 9) for k in range(3)]
    assert placed == [open_hex, open_hex, None]            # limit 2: the third finds no hex
    other = next(grid.name(h) for h in grid.neighbours(grid.parse(open_hex))
                 if dep._terrain(grid.name(h)).get("id") == "open")
    dep.occupy(other, "soviet", 1)
    assert dep.choose(unit, "axis", "leg", [other], 0, 1) is None            # never onto an enemy
    lake = next((grid.name(h) for h in grid.all_hexes() if dep._terrain(grid.name(h)).get("playable") is False), None)
    if lake:
        assert dep.choose(unit, "axis", "leg", [lake], 0, 1) is None         # nor where it may not go


def test_audit_reads_step_losses_from_the_losses_layer(tmp_path):
    """A BCS step loss is a level of the unit's Losses layer: the replay reads it at the start and
    after a logged change (what the set-up and stacking rules count)."""
    from builder.audit.context import AuditContext
    from builder.audit.replay import Visitor, replay_file
    from builder.audit.script import ScriptedGame

    r = report("panzers-last-stand")
    sc = r.model.by_id["scenarios"]["scenario-5-4"]
    hurt = next(e["unit"] for e in sc["setup"] if isinstance(e.get("unit"), str) and e.get("step_losses") == 1)
    fresh = next(e["unit"] for e in sc["setup"] if isinstance(e.get("unit"), str) and "hex" in e
                 and not e.get("step_losses") and (r.model.units[e["unit"]].get("steps") or 0) >= 3)
    g = ScriptedGame(r, scenario="scenario-5-4")
    g.start()
    g.step_loss(fresh, 2)
    path = g.write(tmp_path / "g.vlog")

    seen = {}

    class Watch(Visitor):
        def begin(self, pos):
            seen["start"] = {u.unit_id: u.losses for u in pos.units.values()}

        def end(self, pos):
            seen["end"] = {u.unit_id: u.losses for u in pos.units.values()}

    replay_file(path, AuditContext.from_report(r), [Watch()])
    assert seen["start"][hurt] == 1 and seen["start"][fresh] == 0
    assert seen["end"][fresh] == 2
