"""How a map is drawn, scaled from the grid's hex size: sizes, inks and the terrain patterns.

Everything is a function of ``hex_size`` (the distance between adjacent hex centres in pixels), so a map
reads the same at any hex size and at 100% zoom in VASSAL. Patterns keep clear of the hex's centre
(the inner 0.2 hex) so city markers stay readable there and the terrain colour dominates it (the
tests sample it there).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from builder.render.colors import contrast, darker, parse_color

INK = (20, 20, 20, 255)
GRID_INK = (60, 60, 60, 110)
WATER = (40, 90, 190, 255)
BORDER_INK = (150, 20, 60, 255)
SHEET_INK = (0, 0, 0, 255)
PANEL = (245, 240, 225, 255)
VP_RED = (200, 20, 20, 255)
PORT_BLUE = (20, 60, 170, 255)


@dataclass(frozen=True)
class Scale:
    """Pixel sizes derived from the hex size."""

    size: float

    @property
    def id_font(self) -> float:
        # 0.155 hex: 15 px at hex size 96, capitals 11 px tall, so a player still reads them at the module's
        # 0.75 starting zoom (8 px); never under 11 px (capitals 8 px), below which digits blur on screen.
        return max(11.0, self.size * 0.155)

    @property
    def name_font(self) -> float:
        return max(10.0, self.size * 0.15)

    @property
    def grid_width(self) -> int:
        return max(1, round(self.size / 96))

    @property
    def city_radius(self) -> float:
        return self.size * 0.13

    def width(self, fraction: float) -> int:
        return max(1, round(self.size * fraction))


def rgba(value, where: str):
    return parse_color(value, where)


# -- patterns: small strokes at fixed offsets (in hex sizes) from the centre ------------------------
# Offsets lie in the ring 0.22..0.4 hex from the centre: outside the marker zone, inside the hex; none at the top
# (255 degrees), under the hex number, whose knock-out would leave a clipped stub of it beside the number.
_RING = [(0.3 * math.cos(a), 0.3 * math.sin(a)) for a in (math.radians(d) for d in (15, 75, 135, 195, 315))]


def draw_pattern(draw, pattern: str | None, cx: float, cy: float, size: float, colour) -> None:
    """Draw a terrain pattern around (cx, cy) in ``darker(colour)``."""
    if not pattern or pattern == "none":
        return
    ink = darker(colour, 0.62)
    w = max(1, round(size / 64))
    for ox, oy in _RING:
        x, y = cx + ox * size, cy + oy * size
        s = size * 0.07
        if pattern == "trees":
            draw.ellipse((x - s, y - s, x + s, y + s), outline=ink, width=w)
            draw.line((x, y + s, x, y + 1.8 * s), fill=ink, width=w)
        elif pattern == "hills":
            draw.arc((x - 1.4 * s, y - s, x + 1.4 * s, y + s), 200, 340, fill=ink, width=w)
        elif pattern == "mountains":
            draw.polygon([(x - 1.3 * s, y + s), (x, y - 1.3 * s), (x + 1.3 * s, y + s)], outline=ink, fill=ink)
        elif pattern == "marsh":
            for dy in (-0.5, 0.5):
                draw.line((x - 1.2 * s, y + dy * s, x + 1.2 * s, y + dy * s), fill=ink, width=w)
            draw.line((x, y - 1.2 * s, x, y + 0.5 * s), fill=ink, width=w)
        elif pattern == "waves":
            draw.arc((x - 1.5 * s, y - 0.6 * s, x, y + 0.6 * s), 180, 360, fill=ink, width=w)
            draw.arc((x, y - 0.6 * s, x + 1.5 * s, y + 0.6 * s), 0, 180, fill=ink, width=w)
        elif pattern == "urban":
            draw.rectangle((x - s, y - s, x + s, y + s), fill=ink)
        elif pattern == "dots":
            draw.ellipse((x - 0.35 * s, y - 0.35 * s, x + 0.35 * s, y + 0.35 * s), fill=ink)
        elif pattern == "hatch":
            draw.line((x - s, y + s, x + s, y - s), fill=ink, width=w)


def star(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """A five-pointed star's polygon."""
    pts = []
    for k in range(10):
        a = math.radians(-90 + 36 * k)
        rr = r if k % 2 == 0 else r * 0.42
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


def triangle(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """An upward equilateral triangle's polygon (a printed line-of-control mark)."""
    return [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a))) for a in (-90, 30, 150)]


def swastika(cx: float, cy: float, r: float) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The printed setup symbol's strokes (the game prints it to mark German front-line hexes)."""
    segs = [((cx, cy - r), (cx, cy + r)), ((cx - r, cy), (cx + r, cy)),
            ((cx, cy - r), (cx + r, cy - r)), ((cx + r, cy), (cx + r, cy + r)),
            ((cx, cy + r), (cx - r, cy + r)), ((cx - r, cy), (cx - r, cy - r))]
    return segs


__all__ = ["Scale", "rgba", "draw_pattern", "star", "swastika", "contrast", "darker"]
