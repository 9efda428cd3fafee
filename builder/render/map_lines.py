"""Where line features (roads, tracks, railways) run: hex centre to hex centre through every hex their data lists.

A railway that shares a stretch (the same two adjacent hexes) with a road is drawn beside it, offset by
``SHARED_OFFSET`` of a hex across the stretch, so both stay visible and readable as what they are; the offset is
well inside the hexes (a side is 0.58 hex long), so the line still only passes through the hexes listed.
Pure geometry in the Grid frame: the renderer draws these points and the tests check them without drawing.
"""

from __future__ import annotations

import math

SHARED_OFFSET = 0.16   # fraction of the hex size (centre-to-centre distance)


def is_railway(kind: dict) -> bool:
    return kind.get("style") == "railway"


def _segments(path) -> set:
    return {frozenset(p) for p in zip(path, path[1:]) if p[0] != p[1]}


def polylines(data) -> list[tuple[dict, list, list[tuple[float, float]]]]:
    """(line type, hexes, points in the Grid frame) for every line of the map, in data order."""
    grid = data.grid
    road_segments = set()
    for kind, path in data.lines:
        if not is_railway(kind):
            road_segments |= _segments(path)
    size = grid.spec.hex_size
    out = []
    for kind, path in data.lines:
        pts = [grid.centre(h) for h in path]
        if is_railway(kind) and len(path) > 1:
            pts = _offset_shared(path, pts, road_segments, size * SHARED_OFFSET)
        out.append((kind, path, pts))
    return out


def _offset_shared(path, pts, shared: set, d: float) -> list[tuple[float, float]]:
    """Shift each vertex by the mean left-hand normal of its adjacent segments that a road also uses."""
    normals = []
    for (a, b), (p, q) in zip(zip(path, path[1:]), zip(pts, pts[1:])):
        if frozenset((a, b)) not in shared:
            normals.append(None)
            continue
        dx, dy = q[0] - p[0], q[1] - p[1]
        n = math.hypot(dx, dy) or 1.0
        normals.append((-dy / n, dx / n))
    out = []
    for i, (x, y) in enumerate(pts):
        near = [v for v in (normals[i - 1] if i > 0 else None, normals[i] if i < len(normals) else None) if v]
        if not near:
            out.append((x, y))
            continue
        nx, ny = sum(v[0] for v in near), sum(v[1] for v in near)
        length = math.hypot(nx, ny) or 1.0
        out.append((x + nx / length * d, y + ny / length * d))
    return out
