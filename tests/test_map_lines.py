"""Line features (roads, tracks, railways) run hex centre to hex centre through exactly the hexes their data
lists, railways stay distinguishable beside roads they share hexes with, and no line dead-ends inside a city.

Geometry only (builder.render.map_lines), no drawing: the renderer draws exactly these points."""

from __future__ import annotations

import math

import pytest

from builder.gamedata.validate import validate_game
from builder.render import map_data, map_lines


@pytest.fixture(scope="module", params=["iron-dream", "panzers-last-stand"])
def shipped(request):
    report = validate_game(request.param)
    assert report.ok
    return map_data.load(report.model.map_doc, report.grid)


@pytest.fixture(scope="module")
def pls():
    report = validate_game("panzers-last-stand")
    return map_data.load(report.model.map_doc, report.grid)


def hexes_under(grid, p, q, steps=24):
    """The hexes the straight segment p..q passes over (sampled)."""
    return {grid.hex_at(p[0] + (q[0] - p[0]) * t / steps, p[1] + (q[1] - p[1]) * t / steps) for t in range(steps + 1)}


def test_every_line_passes_through_the_centres_of_its_hexes_and_nowhere_else(shipped):
    grid = shipped.grid
    size = grid.spec.hex_size
    for kind, path, pts in map_lines.polylines(shipped):
        assert len(pts) == len(path)
        for h, (x, y) in zip(path, pts):
            cx, cy = grid.centre(h)
            tol = size * (map_lines.SHARED_OFFSET + 0.01) if map_lines.is_railway(kind) else 0.01
            assert math.hypot(x - cx, y - cy) <= tol, f"{kind['id']}: vertex off the centre of {grid.name(h)}"
        for (a, b), (p, q) in zip(zip(path, path[1:]), zip(pts, pts[1:])):
            assert grid.distance(a, b) == 1, f"{kind['id']}: {grid.name(a)} and {grid.name(b)} are not adjacent"
            assert hexes_under(grid, p, q) <= {a, b}, f"{kind['id']}: {grid.name(a)}-{grid.name(b)} strays"


def test_no_line_doubles_back(shipped):
    """A line never steps aside into a hex and straight back (a-b-c with a and c neighbours): on the map that is a
    spike, and for movement a detour nobody takes."""
    grid = shipped.grid
    for kind, path in shipped.lines:
        for a, b, c in zip(path, path[1:], path[2:]):
            assert grid.distance(a, c) == 2, f"{kind['id']}: {grid.name(a)}-{grid.name(b)}-{grid.name(c)}"


def test_railway_beside_a_road_where_they_share_hexes(pls):
    lines = map_lines.polylines(pls)
    road_points = {}
    for kind, path, pts in lines:
        if not map_lines.is_railway(kind):
            road_points.update({frozenset(s): None for s in zip(path, path[1:])})
    size = pls.grid.spec.hex_size
    shared = 0
    for kind, path, pts in lines:
        if not map_lines.is_railway(kind):
            continue
        for (a, b), (p, q) in zip(zip(path, path[1:]), zip(pts, pts[1:])):
            if frozenset((a, b)) in road_points:
                shared += 1
                mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
                ca, cb = pls.grid.centre(a), pls.grid.centre(b)
                centre_mid = ((ca[0] + cb[0]) / 2, (ca[1] + cb[1]) / 2)
                # The road runs centre to centre; the railway a clear line-width or more beside it.
                assert math.dist(mid, centre_mid) >= size * 0.12, (pls.grid.name(a), pls.grid.name(b))
    assert shared > 0


def test_no_line_dead_ends_inside_an_urban_hex(pls):
    grid = pls.grid
    through = {}
    for i, (kind, path) in enumerate(pls.lines):
        for h in path:
            through.setdefault(h, set()).add(i)
    for i, (kind, path) in enumerate(pls.lines):
        for end in (path[0], path[-1]):
            if (pls.terrain_of(end) or {}).get("id") == "urban":
                assert through[end] - {i}, f"{kind['id']} dead-ends in {grid.name(end)}"


def _corner_key(p):
    return round(p[0], 1), round(p[1], 1)


def test_eotid_rivers_are_single_chains_along_hexsides_without_loops():
    """Each river runs along hexsides as one continuous line (one chain of sides: two ends, no fork, no gap), and
    never wraps four or more sides of one hex (a ring around a single hex)."""
    from collections import defaultdict
    report = validate_game("iron-dream")
    grid, doc = report.grid, report.model.map_doc
    rivers = [run for run in doc["hexsides"] if run["type"] in ("river", "major-river")]
    assert len(rivers) >= 20
    for run in rivers:
        degree, per_hex, adj = defaultdict(int), defaultdict(int), defaultdict(set)
        for a, b in run["sides"]:
            ha, hb = grid.parse(a), grid.parse(b)
            assert grid.distance(ha, hb) == 1, (run["name"], a, b)
            shared = sorted({_corner_key(p) for p in grid.corners(ha)} & {_corner_key(p) for p in grid.corners(hb)})
            assert len(shared) == 2
            v, w = shared
            degree[v] += 1
            degree[w] += 1
            adj[v].add(w)
            adj[w].add(v)
            per_hex[a] += 1
            per_hex[b] += 1
        assert sorted(degree.values()).count(1) == 2 and max(degree.values()) == 2, f"{run['name']} forks or loops"
        start = next(iter(adj))
        seen, todo = {start}, [start]
        while todo:
            for w in adj[todo.pop()] - seen:
                seen.add(w)
                todo.append(w)
        assert seen == set(adj), f"{run['name']} has a gap"
        assert max(per_hex.values()) <= 3, f"{run['name']} rings a hex: {max(per_hex, key=per_hex.get)}"
