"""The strokes of hexside and line features, shared by the map and its legend so a legend sample is the very
symbol the map prints (same shape, casing and arrowhead), at the same scale."""

from __future__ import annotations

import math

from builder.render import map_hexsides
from builder.render.map_style import INK, darker


def round_line(draw, p, q, colour, w):
    draw.line((p, q), fill=colour, width=w)
    r = w / 2
    for x, y in (p, q):
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)


def side_stroke(draw, style: str, p, q, colour, w: int) -> None:
    """A hexside feature drawn side by side (dashed, blocked ...) along the side p..q; lines and rivers are drawn
    along whole runs instead (chain_stroke)."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    d = math.hypot(dx, dy) or 1
    if style == "dashed":
        for t in (0.0, 0.4, 0.8):
            u = min(1.0, t + 0.25)
            draw.line(((p[0] + dx * t, p[1] + dy * t), (p[0] + dx * u, p[1] + dy * u)), fill=colour, width=w)
    elif style == "blocked":
        draw.line((p, q), fill=colour, width=w)
        nx, ny = -dy / d * w * 1.2, dx / d * w * 1.2
        for t in (0.2, 0.5, 0.8):
            x, y = p[0] + dx * t, p[1] + dy * t
            draw.line(((x - nx, y - ny), (x + nx, y + ny)), fill=colour, width=max(1, w // 2))
    else:
        round_line(draw, p, q, colour, w)


def chain_stroke(draw, style: str, pts, colour, w: int, size: float, layer: str = "all") -> None:
    """A hexside feature along a chain of sides (corner points from map_hexsides.chains): one continuous stroke
    that bends round the corners. 'wavy' (a stream) is a thin line with a gentle wave along its whole length;
    'double' a dark band with a lighter core (the map draws every band, layer='band', before any core)."""
    line = map_hexsides.rounded(pts)
    if style == "double":
        if layer in ("all", "band"):
            _stroke(draw, line, darker(colour, 0.45), w)
        if layer in ("all", "core"):
            _stroke(draw, line, colour, max(1, round(w * 0.5)))
        return
    if layer == "core":
        return
    if style == "wavy":
        w = max(1, w // 2 + 1)
        line = map_hexsides.wavy(line, amplitude=max(1.0, size * 0.022), wavelength=size * 0.29)
    _stroke(draw, line, colour, w)


def _stroke(draw, pts, colour, w: int) -> None:
    draw.line(pts, fill=colour, width=w, joint="curve")
    r = w / 2
    for x, y in (pts[0], pts[-1]):   # round ends
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)


def crossing(draw, tail, tip, colour, w: int, size: float, arrow: bool) -> None:
    """A symbol across a hexside from ``tail`` to ``tip`` (both inside the two hexes): a cased bar (a road
    symbol), or with ``arrow`` a cased arrow whose head is at ``tip`` (an invasion arrow: sea to coast)."""
    dx, dy = tip[0] - tail[0], tip[1] - tail[1]
    d = math.hypot(dx, dy) or 1
    ux, uy = dx / d, dy / d
    px, py = -uy, ux
    half = max(2.0, w / 2)
    casing = max(1, round(size / 96))
    if not arrow:
        pts = [(tail[0] + px * half, tail[1] + py * half), (tip[0] + px * half, tip[1] + py * half),
               (tip[0] - px * half, tip[1] - py * half), (tail[0] - px * half, tail[1] - py * half)]
        draw.polygon(pts, fill=colour, outline=INK, width=casing)
        return
    head, wing = size * 0.16, size * 0.09
    neck = (tip[0] - ux * head, tip[1] - uy * head)
    pts = [(tail[0] + px * half, tail[1] + py * half), (neck[0] + px * half, neck[1] + py * half),
           (neck[0] + px * wing, neck[1] + py * wing), tip, (neck[0] - px * wing, neck[1] - py * wing),
           (neck[0] - px * half, neck[1] - py * half), (tail[0] - px * half, tail[1] - py * half)]
    draw.polygon(pts, fill=colour, outline=INK, width=casing)


def line_stroke(draw, style: str, pts, colour, w: int) -> None:
    """A line feature (road, track, railway) through ``pts``."""
    if style == "double":
        draw.line(pts, fill=INK, width=w + 2, joint="curve")
        draw.line(pts, fill=colour, width=max(1, w - 1), joint="curve")
    elif style == "dashed":
        for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
            for t in (0.0, 0.5):
                u = t + 0.3
                draw.line(((x1 + (x2 - x1) * t, y1 + (y2 - y1) * t), (x1 + (x2 - x1) * u, y1 + (y2 - y1) * u)),
                          fill=colour, width=w)
    else:
        draw.line(pts, fill=colour, width=w, joint="curve")
    if style == "railway":   # cross ties every third of a hex
        for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
            d = math.hypot(x2 - x1, y2 - y1) or 1
            nx, ny = -(y2 - y1) / d * w * 1.6, (x2 - x1) / d * w * 1.6
            for t in (0.17, 0.5, 0.83):
                x, y = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
                draw.line(((x - nx, y - ny), (x + nx, y + ny)), fill=colour, width=max(1, w // 2))
