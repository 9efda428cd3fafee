"""Where each place name is printed: set clear of every other name, every town symbol and marker (VP, supply, ...),
every hex number and every sea or nation name, as a map's lettering is.

Each name tries the places around its symbol in a fixed order (below it first, the usual place, then right, left,
above, the four diagonals, and lower down) and takes the first free one; only when none is free at full size does
it try smaller type, and only when none is free at all does it take the place it overlaps least (``Layout.crowded``
lists those, so a test can require there are none). Names are placed in order of importance (capitals first) and
then by hex, so the layout is deterministic. It is computed once for the whole map in the Grid frame, so a name
near a seam is drawn at the same place on both sheets.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from builder.render import fonts, map_markers, map_numbers
from builder.render.map_style import Scale

Box = tuple  # (x0, y0, x1, y1)

SIZE_ORDER = {"capital": 0, "major-city": 1, "city": 2, "town": 3, "urban": 4, "village": 5}
SHRINK = (1.0, 0.88, 0.76)      # type sizes tried, a smaller one only when no place is free at the one before
GAP = 0.035                     # hex sizes between a name and its symbol
CLEAR = 1.0                     # pixels kept free around a name
NAME_CLEAR = 0.05               # hex sizes between two names, so two names never read as one
STROKE = 2                      # the white halo around the letters

REGION_INK = {"sea": (30, 70, 150, 150), "lake": (25, 60, 140, 200), "nation": (120, 20, 50, 120)}
REGION_SIZE = {"sea": 0.26, "lake": 0.17, "nation": 0.2}


@dataclass(frozen=True)
class Label:
    hex: object
    text: str
    x: float                # Grid frame, the text's anchor point
    y: float
    anchor: str             # Pillow text anchor
    font: object
    box: Box                # what the letters and their halo cover
    scale: float = 1.0      # 1.0 full size, less when shrunk to fit


@dataclass
class Layout:
    labels: dict = field(default_factory=dict)      # Hex -> Label
    obstacles: list = field(default_factory=list)   # (what, Box): symbols, markers, hex numbers, region names
    crowded: list = field(default_factory=list)     # hexes whose name overlaps something wherever it goes


@dataclass(frozen=True)
class RegionName:
    hex: object
    x: float
    y: float
    text: str
    font: object
    ink: tuple


def region_names(data, sc) -> list[RegionName]:
    """Sea areas, lakes and nations named once each (Grid frame), on their hex nearest the region's middle that no
    place uses; the label's hex is chosen from the whole region, so a region across a seam is named once."""
    grid = data.grid
    out = []
    for reg in data.regions.values():
        ink = REGION_INK.get(reg.get("kind"))
        hexes = [h for h in (grid.parse(i) for i in reg.get("hexes") or []) if h is not None]
        if ink is None or len(hexes) < 3:
            continue
        pts = [grid.centre(h) for h in hexes]
        mx, my = sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)
        free = [h for h in hexes if h not in data.locations]
        if not free:
            continue
        h = min(free, key=lambda h: (math.dist(grid.centre(h), (mx, my)), h))
        x, y = grid.centre(h)
        font = fonts.font(sc.size * REGION_SIZE[reg["kind"]], "bold")
        out.append(RegionName(h, x, y + sc.size * 0.12, reg["name"].upper(), font, ink))
    return out


def map_bounds(grid, pad: float) -> Box:
    """The whole map's outer edges (all sheets joined), less ``pad``: a name stays inside them."""
    from builder.render.map_image import board_rect
    rects = [board_rect(grid, s.id) for s in grid.spec.sheets] if grid.spec.has_sheets else [board_rect(grid, None)]
    return (min(r[0] for r in rects) + pad, min(r[1] for r in rects) + pad,
            max(r[0] + r[2] for r in rects) - pad, max(r[1] + r[3] for r in rects) - pad)


def _candidates(r: float, s: float):
    """(dx, dy, anchor) of each place tried around a symbol of radius r, in order of preference."""
    g = GAP * s + CLEAR
    d = r + g * 0.5      # the corner of the symbol's box: a diagonal name clears it
    return [(0, r + g, "ma"),            # below
            (r + g, 0, "lm"),            # right
            (-r - g, 0, "rm"),           # left
            (0, -r - g, "md"),           # above
            (d, d, "la"), (-d, d, "ra"),  # below right, below left
            (d, -d, "ld"), (-d, -d, "rd"),  # above right, above left
            (0, r + g + 0.17 * s, "ma")]  # lower down, below the hex's other marks


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


class _Index:
    """Boxes bucketed by cell, so a candidate is tested only against what is near it."""

    def __init__(self, cell: float):
        self.cell, self.cells = cell, {}

    def _keys(self, b: Box):
        c = self.cell
        for i in range(math.floor(b[0] / c), math.floor(b[2] / c) + 1):
            for j in range(math.floor(b[1] / c), math.floor(b[3] / c) + 1):
                yield i, j

    def add(self, b: Box, what) -> None:
        for k in self._keys(b):
            self.cells.setdefault(k, []).append((b, what))

    def hits(self, b: Box) -> float:
        """Total overlap of b with the boxes indexed (each counted once)."""
        seen, total = set(), 0.0
        for k in self._keys(b):
            for box, what in self.cells.get(k, ()):
                if id(box) not in seen:
                    seen.add(id(box))
                    total += _overlap(b, box)
        return total


def _fit(box: Box, bounds: Box) -> tuple[float, float]:
    """The shift that keeps ``box`` inside ``bounds`` (moved as little as needed)."""
    dx = max(0.0, bounds[0] - box[0]) - max(0.0, box[2] - bounds[2])
    dy = max(0.0, bounds[1] - box[1]) - max(0.0, box[3] - bounds[3])
    return dx, dy


def _grow(b: Box, by: float) -> Box:
    return b[0] - by, b[1] - by, b[2] + by, b[3] + by


def layout(data, sc: Scale | None = None) -> Layout:
    """The label layout of the whole map (Grid frame), cached on the map data (every board draws from it)."""
    if data.label_layout is not None:
        return data.label_layout
    sc = sc or Scale(data.grid.spec.hex_size)
    grid, s = data.grid, sc.size
    out = Layout()
    index = _Index(s)
    for h, loc in sorted(data.locations.items()):
        x, y = grid.centre(h)
        for b in map_markers.marker_boxes(loc, x, y, sc):
            out.obstacles.append((grid.name(h), b))
    for h, mark in sorted(map_numbers.marks(data, grid.all_hexes(), sc).items()):
        out.obstacles.append((f"number {grid.name(h)}", mark.box))
    for reg in region_names(data, sc):
        out.obstacles.append((reg.text, _text_box(reg.text, reg.font, reg.x, reg.y, "mm", 0)))
    for what, b in out.obstacles:
        index.add(b, what)
    bounds = map_bounds(grid, s * 0.04)
    named = [(h, loc, map_markers.printed_name(loc)) for h, loc in data.locations.items()]
    named = sorted(((h, loc, n) for h, loc, n in named if n),
                   key=lambda t: (SIZE_ORDER.get(t[1].get("city"), 9), t[0]))
    for h, loc, text in named:
        label = _place(h, loc, text, grid.centre(h), sc, index, bounds)
        if index.hits(_grow(label.box, CLEAR)) > 0:
            out.crowded.append(h)
        out.labels[h] = label
        index.add(_grow(label.box, NAME_CLEAR * s), f"name {text}")
    data.label_layout = out
    return out


def _text_box(text, font, x, y, anchor, stroke=STROKE) -> Box:
    left, top, right, bottom = font.getbbox(text, anchor=anchor, stroke_width=stroke)
    return x + left, y + top, x + right, y + bottom


def _place(h, loc, text, centre, sc, index, bounds) -> Label:
    cx, cy = centre
    s = sc.size
    if "city" in map_markers.markers_of(loc):   # around the circle (the box marker_box gives it)
        box = map_markers.marker_box("city", loc, cx, cy, sc)
        r = (box[2] - box[0]) / 2
    else:                                       # around the hex centre
        r = 0.06 * s
    style = map_markers.name_style(loc)
    best = None
    for scale in SHRINK:
        font = fonts.font(sc.name_font * scale, style)
        for dx, dy, anchor in _candidates(r, s):
            x, y = cx + dx, cy + dy
            box = _text_box(text, font, x, y, anchor)
            sx, sy = _fit(box, bounds)
            x, y, box = x + sx, y + sy, (box[0] + sx, box[1] + sy, box[2] + sx, box[3] + sy)
            label = Label(h, text, x, y, anchor, font, box, scale)
            cost = index.hits(_grow(box, CLEAR))
            if cost == 0:
                return label
            if best is None or cost < best[0]:
                best = (cost, label)
    return best[1]
