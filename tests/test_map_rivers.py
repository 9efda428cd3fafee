"""Rivers as a player reads them: each river a continuous line along hexsides that ends (its mouth) at the sea, the
map's border or another river; a canal, dug from water to water, ends so at both ends; rivers meet only where one
of them ends; and no hex is nearly ringed by rivers (five or six of its sides), which on the printed map reads as a
drawing error.

Computed from the shipped map data through the Grid (corners shared by two adjacent hexes), no drawing."""

from __future__ import annotations

from collections import defaultdict

import pytest

from builder.gamedata.validate import validate_game
from builder.render import map_data

# The hexside types that are watercourses, per shipped game: natural rivers (one end, the mouth, must reach water)
# and navigation canals (dug from water to water: both ends must). The PLS canals are drainage canals, streams by
# the rules (PLS 5.9: "the Parizsi Canal is a Stream"), sourced inland as a stream is. Water terrain a watercourse
# may end at besides the unplayable sea and lakes: the EotID Scheldt estuary (X12, 8.4).
RIVERS = {"iron-dream": ({"river", "major-river"}, {"canal"}),
          "panzers-last-stand": ({"danube", "river", "stream"}, set())}
WATER = {"iron-dream": {"estuary"}, "panzers-last-stand": set()}


def _key(p):
    return round(p[0], 1), round(p[1], 1)


@pytest.fixture(scope="module", params=sorted(RIVERS))
def game(request):
    report = validate_game(request.param)
    assert report.ok
    data = map_data.load(report.model.map_doc, report.grid)
    rivers, canals = RIVERS[request.param]
    runs = [r for r in report.model.map_doc["hexsides"] if r["type"] in rivers | canals]
    assert any(r["type"] in rivers for r in runs)
    canal_runs = {r["name"] for r in runs if r["type"] in canals}
    return request.param, data, runs, rivers, canal_runs


def side_corners(grid, a, b):
    shared = {_key(p) for p in grid.corners(a)} & {_key(p) for p in grid.corners(b)}
    assert len(shared) == 2, (grid.name(a), grid.name(b))
    return tuple(sorted(shared))


def corner_hexes(grid):
    out = defaultdict(set)
    for h in grid.all_hexes():
        for p in grid.corners(h):
            out[_key(p)].add(h)
    return out


def run_corners(grid, run) -> dict:
    """corner -> how many of the run's sides meet there (1: an end, 2: the line passes)."""
    degree = defaultdict(int)
    for a, b in run["sides"]:
        for v in side_corners(grid, grid.parse(a), grid.parse(b)):
            degree[v] += 1
    return degree


def inland_rivers(data, runs, rivers, canals=(), water=()) -> list[str]:
    """Watercourses that are not one line, rivers whose two ends are both inland (neither on the edge, at the sea or a
    lake or ``water`` terrain, nor on another watercourse), canals (runs named in ``canals``) with an end inland,
    rivers that flow in over the map edge but end inland, and ends that stop one hexside short of the water."""
    grid = data.grid
    around = corner_hexes(grid)
    corners = {r["name"]: run_corners(grid, r) for r in runs}

    def mouth(v, run_name):
        hexes = around[v]
        if len(hexes) < 3:                     # on the map's edge
            return True
        if any((data.terrain_of(h) or {}).get("playable", True) is False or data.layer.terrain(h) in water
               for h in hexes):
            return True                        # at the sea (or a lake, an estuary)
        return any(v in c for other, c in corners.items() if other != run_name)

    def next_corners(v):
        hexes = sorted(around[v])
        return {w for i, a in enumerate(hexes) for b in hexes[i + 1:] if grid.distance(a, b) == 1
                for w in side_corners(grid, a, b) if w != v}

    def gap(v, run_name):   # a corner a hexside short of the sea or another watercourse
        return any(mouth(w, run_name) and len(around[w]) == 3 for w in next_corners(v) if w not in corners[run_name])

    bad = []
    for run in runs:
        ends = [v for v, n in corners[run["name"]].items() if n == 1]
        if len(ends) != 2:
            bad.append(f"{run['name']} is not one line")
            continue
        at = [mouth(v, run["name"]) for v in ends]
        name = lambda v: "/".join(sorted(grid.name(h) for h in around[v]))  # noqa: E731
        if run["name"] in canals:   # dug from water to water: both ends on it
            bad += [f"{run['name']} (a canal) ends inland at {name(v)}" for v, m in zip(ends, at) if not m]
            continue
        if run["type"] not in rivers:
            continue
        if not any(at):
            bad.append(f"{run['name']} ends inland at both ends")
        # Every river on the shipped maps that crosses the map's edge flows in over it (its source is off the map),
        # so its other end is its mouth and must reach the water; an end a hexside short of it reads as a gap.
        inland = [v for v, m in zip(ends, at) if not m]
        if len(inland) == 1 and len(around[ends[at.index(True)]]) < 3:
            bad.append(f"{run['name']} flows in over the map edge and ends inland at {name(inland[0])}")
        if not any(at):   # which end was meant to be the mouth is unknown: name the one a hexside short
            bad += [f"{run['name']} stops a hexside short at {name(v)}" for v in inland if gap(v, run["name"])]
    return bad


def shared_sides(grid, runs) -> list[str]:
    """Sides on two watercourses. (A corner has three sides, so two lines can pass one corner only by sharing a
    side: where rivers meet without sharing one, one of them ends, a junction.)"""
    owner, bad = {}, []
    for run in runs:
        for a, b in run["sides"]:
            side = frozenset((grid.parse(a), grid.parse(b)))
            if side in owner:
                bad.append(f"{a}|{b} on {owner[side]} and {run['name']}")
            owner[side] = run["name"]
    return bad


def ringed(grid, runs) -> list[str]:
    """Hexes with five or six watercourse sides."""
    count = defaultdict(int)
    for run in runs:
        for a, b in run["sides"]:
            count[grid.parse(a)] += 1
            count[grid.parse(b)] += 1
    return sorted(grid.name(h) for h, n in count.items() if n >= 5)


def test_every_river_ends_at_the_sea_the_border_or_another_river(game):
    name, data, runs, rivers, canals = game
    assert inland_rivers(data, runs, rivers, canals, WATER[name]) == [], name


def test_rivers_share_no_side(game):
    name, data, runs, _, _ = game
    assert shared_sides(data.grid, runs) == [], name


def test_no_hex_is_ringed_by_rivers(game):
    name, data, runs, _, _ = game
    assert ringed(data.grid, runs) == [], name


def test_the_checks_fail_on_the_defects_they_are_for():
    """The EotID rivers as they were: the Elbe on three sides of Hamburg (Y19) and the Kiel Canal on two; the Oder
    stopping a hexside short of the Baltic; a river from the map's edge ending inland; the Prut running along the
    Dniester."""
    report = validate_game("iron-dream")
    data = map_data.load(report.model.map_doc, report.grid)
    grid = data.grid
    elbe = {"name": "Elbe", "type": "major-river", "sides": [["X19", "Y19"], ["X18", "Y19"], ["Y18", "Y19"]]}
    kiel = {"name": "Kiel", "type": "canal", "sides": [["Y19", "Z18"], ["Y19", "Z19"], ["Y20", "Z19"]]}
    assert ringed(grid, [elbe, kiel]) == ["Y19"]
    oder = {"name": "Oder", "type": "major-river", "sides": [["U23", "V22"], ["V22", "V23"], ["V23", "W23"]]}
    assert inland_rivers(data, [oder], {"major-river"}) == ["Oder ends inland at both ends",
                                                           "Oder stops a hexside short at V23/W23/W24"]
    oder["sides"].append(["W23", "W24"])          # now it reaches X23, the Baltic
    assert inland_rivers(data, [oder], {"major-river"}) == []
    dnieper = {"name": "Dnieper", "type": "major-river", "sides": [["I39", "J39"], ["I39", "J38"]]}
    assert inland_rivers(data, [dnieper], {"major-river"}) == [
        "Dnieper flows in over the map edge and ends inland at I38/I39/J38"]
    prut = {"name": "Prut", "type": "river", "sides": [["J32", "K33"], ["K32", "K33"]]}
    dniester = {"name": "Dniester", "type": "river", "sides": [["K33", "L32"], ["K32", "L32"], ["K32", "K33"]]}
    assert shared_sides(grid, [prut, dniester]) == ["K32|K33 on Prut and Dniester"]


def test_a_canal_must_reach_water_at_both_ends():
    """The Albert Canal as it was: one side off the Meuse, ending inland north of Antwerp; a river may end so (its
    source), a canal may not. Carried on to the Scheldt estuary it passes; the estuary counts only as water."""
    report = validate_game("iron-dream")
    data = map_data.load(report.model.map_doc, report.grid)
    meuse, rhine = (next(r for r in report.model.map_doc["hexsides"] if r["name"] == n) for n in ("Meuse", "Rhine"))
    albert = {"name": "Albert", "type": "canal", "sides": [["V12", "V13"]]}
    assert inland_rivers(data, [meuse, rhine, albert], {"river"}, {"Albert"}, {"estuary"}) == [
        "Albert (a canal) ends inland at V12/V13/W13"]
    as_river = dict(albert, type="river")
    assert inland_rivers(data, [meuse, rhine, as_river], {"river"}, set(), {"estuary"}) == []
    albert["sides"] += [["V12", "W13"], ["W12", "W13"]]   # on to the corner with X12, the Scheldt estuary
    assert inland_rivers(data, [meuse, rhine, albert], {"river"}, {"Albert"}, {"estuary"}) == []
    assert inland_rivers(data, [meuse, rhine, albert], {"river"}, {"Albert"}, set()) == [
        "Albert (a canal) ends inland at W12/W13/X12"]
