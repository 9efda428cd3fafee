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
