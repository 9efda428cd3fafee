"""Where hexside features (rivers, streams, canals) run: each run of sides joined corner to corner into continuous
lines, so a river is drawn as one stroke from source to mouth rather than as separate sides (which, drawn one by
one, break at every corner and read as a string of little hexagon halves).

Pure geometry in the Grid frame: the renderer draws these points and the tests check them without drawing.
"""

from __future__ import annotations

import math
from collections import defaultdict

CHAINED = ("line", "wavy", "double")   # side styles drawn as continuous lines (the others are per-side symbols)


def corner_key(p) -> tuple[float, float]:
    return round(p[0], 1), round(p[1], 1)


def side_corners(grid, a, b) -> tuple:
    """The two corners of the side shared by adjacent hexes a and b (Grid frame)."""
    ca = {corner_key(p): p for p in grid.corners(a)}
    shared = [p for p in grid.corners(b) if corner_key(p) in ca]
    if len(shared) != 2:
        raise ValueError(f"{grid.name(a)} and {grid.name(b)} share no side")
    return tuple(sorted(shared))


def chains(grid, sides) -> list[list[tuple[float, float]]]:
    """The sides [(a, b), ...] of one run as polylines of corner points: one per continuous stretch (a run with a
    gap or a fork gives several), each side in exactly one polyline, in a deterministic order."""
    point, adj, edges = {}, defaultdict(list), set()
    for a, b in sides:
        p, q = side_corners(grid, a, b)
        u, v = corner_key(p), corner_key(q)
        if (min(u, v), max(u, v)) in edges:
            continue
        edges.add((min(u, v), max(u, v)))
        point[u], point[v] = p, q
        adj[u].append(v)
        adj[v].append(u)
    for k in adj:
        adj[k].sort()
    used, out = set(), []

    def walk(start):
        line, cur = [start], start
        while True:
            nxt = next((w for w in adj[cur] if (min(cur, w), max(cur, w)) not in used), None)
            if nxt is None:
                return line
            used.add((min(cur, nxt), max(cur, nxt)))
            line.append(nxt)
            cur = nxt
            if len(adj[cur]) > 2:   # a fork: stop here, the other branches start their own lines
                return line

    # start at ends (and forks) first so open lines are walked end to end, then close any loops
    starts = sorted(k for k in adj if len(adj[k]) != 2) + sorted(k for k in adj if len(adj[k]) == 2)
    for s in starts:
        while any((min(s, w), max(s, w)) not in used for w in adj[s]):
            out.append([point[k] for k in walk(s)])
    return out


def rounded(points, cut: float = 0.22, passes: int = 2) -> list[tuple[float, float]]:
    """Corner-cutting (Chaikin) smoothing that keeps the ends: a river bends round its hex corners instead of
    turning sharply, staying within a few pixels of the sides it runs along."""
    pts = list(points)
    for _ in range(passes):
        if len(pts) < 3:
            return pts
        out = [pts[0]]
        for p, q in zip(pts, pts[1:]):
            out.append((p[0] + (q[0] - p[0]) * cut, p[1] + (q[1] - p[1]) * cut))
            out.append((p[0] + (q[0] - p[0]) * (1 - cut), p[1] + (q[1] - p[1]) * (1 - cut)))
        out[1] = pts[0]
        out[-1] = pts[-1]
        pts = _dedupe(out)
    return pts


def wavy(points, amplitude: float, wavelength: float) -> list[tuple[float, float]]:
    """The polyline with a gentle sine wave along its whole length (continuous across corners, zero at both
    ends), sampled every quarter wave."""
    pts = _dedupe(points)
    if len(pts) < 2 or wavelength <= 0:
        return pts
    lengths = [math.dist(p, q) for p, q in zip(pts, pts[1:])]
    total = sum(lengths)
    if total == 0:
        return pts
    waves = max(1, round(total / wavelength))
    step = total / (waves * 8)
    out, s, i, acc = [], 0.0, 0, 0.0
    while s <= total + 1e-6:
        while i < len(lengths) - 1 and acc + lengths[i] < s:
            acc += lengths[i]
            i += 1
        t = (s - acc) / lengths[i] if lengths[i] else 0.0
        (x0, y0), (x1, y1) = pts[i], pts[i + 1]
        dx, dy = x1 - x0, y1 - y0
        d = math.hypot(dx, dy) or 1.0
        off = amplitude * math.sin(2 * math.pi * waves * s / total)
        out.append((x0 + dx * t - dy / d * off, y0 + dy * t + dx / d * off))
        s += step
    out[-1] = pts[-1]
    return out


def _dedupe(pts):
    out = []
    for p in pts:
        if not out or math.dist(out[-1], p) > 1e-6:
            out.append(p)
    return out
