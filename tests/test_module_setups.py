"""Every scenario of both games starts with its units deployed: no unit waits in "To place", each unit
of a set-up choice is on a hex of its area, and the module's own scenario saves audit clean (set-up
conformance, the entries' at_least_one_in sets, stacking). From the module's plan and saves; the oracle
screenshot test (test_module_screens.py) looks at the same in the real window."""

from __future__ import annotations

import pytest

from builder.audit import audit_file
from builder.audit.script import ScriptedGame, kit
from builder.module.deploy import TO_PLACE, Deployer
from builder.vassal.archive import SafeZip

from test_module_support import GAMES, buildfile, entries, layout, plans, report, vmod


def _ids(e):
    return [e["unit"]] if isinstance(e.get("unit"), str) else list(e.get("units") or [])


@pytest.mark.parametrize("game", GAMES)
def test_no_scenario_leaves_a_unit_in_to_place(game):
    for sid, plan in plans(game).items():
        waiting = [p.d.key for p in plan.placements if p.location.startswith(TO_PLACE)]
        assert waiting == [], (sid, waiting)
        assert plan.notes == [], (sid, plan.notes)


@pytest.mark.parametrize("game", GAMES)
def test_every_choice_is_deployed_inside_its_area(game):
    g, grid = report(game).model, report(game).grid
    dep = Deployer(g, grid)
    checked = 0
    for sid, plan in plans(game).items():
        where = {p.d.key: p for p in plan.placements if p.d.kind == "unit"}
        first: set = set()
        for e in g.by_id["scenarios"][sid].get("setup") or []:
            fresh = [u for u in _ids(e) if u not in first]
            first |= set(_ids(e))
            if not any(k in e for k in ("area", "hexes", "near")):
                continue
            allowed = {grid.parse(h) for h in dep.candidates(e)}
            assert allowed, (sid, e.get("area"))            # every choice has hexes now
            for uid in fresh:
                assert grid.parse(where[uid].location) in allowed, (sid, uid, where[uid].location)
                checked += 1
    assert checked > 250 or game != "iron-dream"       # PLS set-ups print their hexes


@pytest.mark.parametrize("game", GAMES)
def test_an_area_is_spread_along_the_nearest_neighbour_chain(game):
    """The chain found by rings round the last hex is the one a plain nearest-neighbour walk gives:
    from the first hex in reading order, always the untaken hex nearest the last, ties in reading order."""
    import random
    g, grid = report(game).model, report(game).grid
    dep = Deployer(g, grid)

    def walk(ids):
        hexes = [(hid, grid.parse(hid)) for hid in dict.fromkeys(ids)]
        reading = {hid: (round(grid.centre(h)[1]), round(grid.centre(h)[0]), hid) for hid, h in hexes}
        rest = sorted(hexes, key=lambda it: reading[it[0]])
        out = [rest.pop(0)]
        while rest:
            nxt = min(rest, key=lambda it: (grid.distance(out[-1][1], it[1]), reading[it[0]]))
            rest.remove(nxt)
            out.append(nxt)
        return [hid for hid, _ in out]
    names = [grid.name(h) for h in grid.all_hexes()]
    rnd = random.Random(7)
    samples = [rnd.sample(names, rnd.randint(1, 150)) for _ in range(60)]
    areas = {e["area"] for sc in g.by_id["scenarios"].values() for e in sc.get("setup") or []
             if isinstance(e, dict) and isinstance(e.get("area"), str)}
    samples += [g.area_hexes(a) for a in sorted(areas)]
    for ids in samples:
        assert dep._chain(ids) == walk(ids)
    assert dep._chain([]) == [] and dep._chain(["nowhere"]) == []


def _saves(game):
    z = SafeZip(vmod(game), what="module")
    return [(n, z.read(n)) for n in z.names() if n.endswith(".vsav")]


@pytest.mark.parametrize("game", GAMES)
def test_the_modules_scenario_saves_audit_clean(game, tmp_path):
    from builder.module.gamedata_entry import read_module
    module_report = read_module(vmod(game))          # what `audit GAME.vmod` reads
    saves = _saves(game)
    assert len(saves) == len(report(game).model.by_id["scenarios"])
    for name, data in saves:
        path = tmp_path / name
        path.write_bytes(data)
        r = audit_file(module_report, path)
        assert [f.line() for f in r.findings] == [], name
        assert "SETUP" in {c["rule"] for c in r.checked} or "R01" in {c["rule"] for c in r.checked}, name


def test_eotid_rule_places_are_kept(tmp_path):
    """3.3 B, 3.7 B, 3.8 A/D: Belgrade holds a garrison unit, Marseille an F infantry corps, the Loire coast
    and the Hook of Holland a B unit; moving them out at set-up is a finding."""
    eotid = kit("iron-dream")
    plan = plans("iron-dream")["iron-dream"]
    at = {p.d.key: p.location for p in plan.placements if p.d.kind == "unit"}
    garrison = ["ger-mtn-15", "ger-mtn-21", "ger-mtn-22", "ger-ss-mtn-5", "ger-inf-69"]
    assert [u for u in garrison if at[u] == "F23"]
    assert [u for u in ("ger-res-62", "ger-res-64", "ger-res-66", "ger-inf-67", "ger-inf-85", "ger-inf-90")
            if at[u] == "I8"]
    b_units = [u for e in eotid.game.by_id["scenarios"]["iron-dream"]["setup"] if e.get("at_least_one_in")
               and e.get("area") == "france-benelux" for u in _ids(e)]
    assert {at[u] for u in b_units} & {"P1", "Q2", "R2", "S3"}
    assert {at[u] for u in b_units} & {"X13", "Y13", "Y14", "Z13", "Z14"}
    in_belgrade = next(u for u in garrison if at[u] == "F23")
    free = next(h for h in eotid.game.area_hexes("yugoslavia-north-of-f") if h not in at.values())
    g = ScriptedGame(eotid, scenario="iron-dream", units={in_belgrade: free})
    r = audit_file(eotid.ctx, g.write(tmp_path / "no-belgrade.vsav"))
    assert len(r.findings) == 1, [f.line() for f in r.findings]
    assert "F23" in r.findings[0].message and "at least one there" in r.findings[0].message


@pytest.mark.parametrize("game", GAMES)
def test_every_board_image_is_exactly_its_board(game):
    """No band below the hexes: a board image with the boxes beside it is as tall as the hex board (the
    legend and the boxes flow into further columns instead), and every box lies inside it."""
    import io

    from PIL import Image

    from builder.render import map_image
    grid = report(game).grid
    files = entries(game)
    bf = buildfile(game)
    boards = [c for c in bf.root.iter() if c.cls.endswith("boardPicker.Board")]
    assert boards
    lay = layout(game)
    for el in boards:
        image = el.get("image")
        if not image:
            continue
        w, h = Image.open(io.BytesIO(files[f"images/{image}"])).size
        plan = next(b for m in lay.maps for b in m.boards if b.image == image)
        assert (w, h) == tuple(plan.size), image                  # what the module's zones were laid out on
        if plan.vgrid is not None:
            sheet = plan.vgrid.sheet
            _, _, bw, bh = map_image.board_rect(grid, sheet)
            assert h == bh, (image, h, bh)                        # exactly the hex board's height
            assert w >= bw
        for name, (x, y, zw, zh) in plan.zones.items():
            assert 0 <= x and x + zw <= w and 0 <= y and y + zh <= h, (image, name)
