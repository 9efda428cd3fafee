"""Draw one board (a whole sheet-less grid, or one sheet) from the map data alone.

Layers go bottom to top: terrain fills and patterns, hex outlines, national borders, hexside features,
line features, location markers and names, hex IDs, sheet frame. Pixel positions come from the Grid,
shifted by the board's origin, so the picture and a VASSAL HexGrid derived from the same Grid agree.
Drawing is deterministic (no randomness, fixed order), so the same data gives the same bytes.
"""

from __future__ import annotations

import math
from dataclasses import replace

from PIL import Image

from builder.geometry.vassal_derive import board_bounds, board_showing, local_name, seams
from builder.progress import SILENT
from builder.render import fonts, map_hexsides, map_labels, map_lines, map_markers, map_numbers, map_symbols
from builder.render.drawing import BlendingDraw
from builder.render.map_numbers import hex_name, number_plate, numbered  # noqa: F401  (the map's API)
from builder.render.map_style import BORDER_INK, GRID_INK, INK, SHEET_INK, VP_RED, Scale, draw_pattern, rgba

OFF_MAP = (232, 232, 226)
UNSET = (255, 255, 255, 255)   # a hex no terrain covers
HALO = (255, 255, 255, 255)


def board_rect(grid, sheet):
    """(left, top, width, height) of the board in the Grid frame."""
    return board_bounds(grid, sheet if grid.spec.has_sheets else None)


def sheet_hexes(grid, sheet, pad: float = 0.0):
    """The hexes a board shows some of. A sheet's board is trimmed at its seams (vassal_derive.board_bounds),
    so a seam hex shows partly on each board; both draw it in the one Grid frame, so joined they show it once."""
    if not grid.spec.has_sheets:
        return list(grid.all_hexes())
    left, top, width, height = board_rect(grid, sheet)
    hw, hh = grid.layout.half_extent()
    hw, hh = hw + pad, hh + pad
    out = []
    for h in grid.all_hexes():
        x, y = grid.centre(h)
        if x + hw > left and x - hw < left + width and y + hh > top and y - hh < top + height:
            out.append(h)
    return out


def side_segment(grid, a, b, shift=(0.0, 0.0)):
    """Endpoints of the side shared by adjacent hexes a and b."""
    (ax, ay), (bx, by) = grid.centre(a), grid.centre(b)
    mx, my = (ax + bx) / 2 - shift[0], (ay + by) / 2 - shift[1]
    dx, dy = bx - ax, by - ay
    d = math.hypot(dx, dy) or 1.0
    half = grid.layout.radius / 2
    px, py = -dy / d * half, dx / d * half
    return (mx - px, my - py), (mx + px, my + py)


def render_board(data, sheet=None, size=None, progress=SILENT, label="map"):
    """The board image (RGB). ``size`` may enlarge the canvas (extra room right/below for a panel)."""
    grid = data.grid
    left, top, width, height = board_rect(grid, sheet)
    canvas = size or (width, height)
    img = Image.new("RGB", canvas, OFF_MAP)
    draw = BlendingDraw(img)
    sc = Scale(grid.spec.hex_size)
    hexes = sheet_hexes(grid, sheet)

    def at(h):
        x, y = grid.centre(h)
        return x - left, y - top

    def poly(h):
        return [(x - left, y - top) for x, y in grid.corners(h)]

    total = len(hexes)
    step = max(1, total // 50)
    colours = {}
    for n, h in enumerate(hexes):
        kind = data.terrain_of(h)
        colour = colours.get(id(kind)) if kind else UNSET
        if kind and colour is None:
            colour = colours[id(kind)] = rgba(kind["color"], f"terrain type {kind['id']}")
        draw.polygon(poly(h), fill=colour)
        if kind:
            draw_pattern(draw, kind.get("pattern"), *at(h), sc.size, colour)
        if n % step == 0:
            progress.step(f"{label}: terrain", n, total)
    progress.step(f"{label}: terrain", total, total)
    for h in hexes:
        draw.polygon(poly(h), outline=GRID_INK, width=sc.grid_width)
    _shores(draw, data, hexes, (left, top), sc)
    _borders(draw, data, hexes, (left, top), sc)
    _hexsides(draw, data, (left, top), sc, set(hexes))
    _lines(draw, data, (left, top), sc, set(hexes))
    progress.step(f"{label}: labels", 0, total)
    # Names and markers may reach past their hex: draw those of hexes just off the board too (clipped).
    shown = set(sheet_hexes(grid, sheet, pad=sc.size * 1.5))
    _region_labels(draw, data, shown, (left, top), sc)
    _hex_numbers(draw, data, sorted(shown), (left, top), sc)
    names = map_labels.layout(data, sc).labels
    for h, loc in sorted(data.locations.items()):
        if h in shown:
            name = names.get(h)
            if name is not None:   # the layout is in the Grid frame: shift it to this board
                name = replace(name, x=name.x - left, y=name.y - top)
            map_markers.location(draw, loc, *at(h), sc, name)
    _frame(draw, grid, sheet, (left, top, width, height), sc)
    if sheet is not None:   # in the corner on the map's outer edges, not in the middle of the joined map
        inner = {(axis, side) for axis, side, _ in seams(grid, sheet)}
        right, bottom = (0, 0) in inner, (1, 0) in inner
        x = width - sc.size * 0.2 if right else sc.size * 0.2
        y = height - sc.size * 0.1 if bottom else sc.size * 0.1
        f = fonts.font(sc.size * 0.5, "bold")
        draw.text((x, y), f"Map {sheet}", font=f, fill=INK, anchor=("r" if right else "l") + ("b" if bottom else "t"),
                  stroke_width=3, stroke_fill=HALO)
    compass = (data.doc.get("map") or {}).get("compass")
    if compass and (sheet is None or sheet == grid.spec.sheets[0].id):
        _compass(draw, data, compass["north"], sheet, (width, height), (left, top), sc)
    progress.step(f"{label}: labels", total, total)
    return img


ID_INK = (40, 40, 40, 255)


def _hex_numbers(draw, data, hexes, origin, sc):
    """Hex numbers drawn last over a knock-out in the hex's own colour, so a road or railway running through the
    top of the hex is interrupted under the number instead of striking through it."""
    ox, oy = origin
    id_font = map_numbers.number_font(sc)
    pad = map_numbers.plate_pad(sc)
    for h, mark in map_numbers.marks(data, hexes, sc).items():
        x, y = mark.x - ox, mark.y - oy
        if mark.text is None:
            r = map_numbers.dot_radius(sc)
            draw.ellipse((x - r, y - r, x + r, y + r), fill=ID_INK)
            continue
        kind = data.terrain_of(h)
        plate = rgba(kind["color"], f"terrain type {kind['id']}") if kind else UNSET
        draw.rounded_rectangle(number_plate(draw, mark.text, x, y, id_font, pad), radius=pad, fill=plate[:3] + (255,))
        draw.text((x, y), mark.text, font=id_font, fill=ID_INK, anchor="mm")


COMPASS_ANGLE = {"up": -90, "down": 90, "left": 180, "right": 0}   # image angle of north, degrees


def compass_place(data, sheet, size, origin) -> tuple[float, float, float]:
    """Centre and radius of the compass rose: in the board's outer corner, above the map letter, or moved along
    the board's outer edge to the first place where it covers no road, river, place or printed hex number."""
    grid, sc = data.grid, Scale(data.grid.spec.hex_size)
    width, height = size
    inner = {(axis, side) for axis, side, _ in (seams(grid, sheet) if sheet is not None else ())}
    right, bottom = (0, 0) in inner, (1, 0) in inner
    r = sc.size * 0.42
    x0 = width - sc.size * 0.8 if right else sc.size * 0.8
    y0 = height - sc.size * 1.35 if bottom else sc.size * 1.35
    clear = r * 1.15 + sc.size * 0.08
    ox, oy = origin
    strokes = [[(x - ox, y - oy) for x, y in pts] for _, _, pts in map_lines.polylines(data)]
    strokes += [[(x - ox, y - oy) for x, y in chain] for _, _, sides in data.runs
                for chain in map_hexsides.chains(grid, sides)]
    rule = (data.doc.get("map") or {}).get("hex_numbers")
    spots = [grid.centre(h) for h in data.locations]
    spots += [(x, y - sc.size * map_numbers.NUMBER_DY) for h in grid.all_hexes() if numbered(grid, h, rule)
              for x, y in [grid.centre(h)]]
    spots = [(x - ox, y - oy) for x, y in spots]
    step = sc.size * 0.9
    for k in range(12):   # up the side edge first (away from the letter), then along the top or bottom edge
        for cx, cy in ((x0, y0 + (-k if bottom else k) * step), (x0 + (-k if right else k) * step, y0)):
            if all(_seg_dist((cx, cy), p, q) > clear for pts in strokes for p, q in zip(pts, pts[1:])) and \
                    all(math.dist((cx, cy), q) > clear for q in spots):
                return cx, cy, r
    return x0, y0, r


def _seg_dist(c, p, q) -> float:
    dx, dy = q[0] - p[0], q[1] - p[1]
    t = max(0.0, min(1.0, ((c[0] - p[0]) * dx + (c[1] - p[1]) * dy) / ((dx * dx + dy * dy) or 1.0)))
    return math.dist(c, (p[0] + dx * t, p[1] + dy * t))


def _compass(draw, data, north, sheet, size, origin, sc):
    """A compass rose (an arrow to north with N, E, S, W), placed by compass_place."""
    cx, cy, r = compass_place(data, sheet, size, origin)
    draw.ellipse((cx - r * 1.15, cy - r * 1.15, cx + r * 1.15, cy + r * 1.15), fill=(255, 255, 255, 215),
                 outline=INK, width=sc.width(0.015))
    base = math.radians(COMPASS_ANGLE[north])
    f = fonts.font(sc.size * 0.13, "bold")
    for k, letter in enumerate("NESW"):
        a = base + k * math.pi / 2            # image y grows down, so +90 degrees turns clockwise (N to E)
        ux, uy = math.cos(a), math.sin(a)
        px, py = -uy, ux
        length = r * (0.78 if k == 0 else 0.5)
        tip = (cx + ux * length, cy + uy * length)
        w = r * 0.16
        fill = VP_RED if k == 0 else INK
        draw.polygon([tip, (cx + px * w, cy + py * w), (cx - px * w, cy - py * w)], fill=fill)
        lx, ly = cx + ux * (r * 0.98 if k else r * 1.0), cy + uy * (r * 0.98 if k else r * 1.0)
        if k == 0:
            lx, ly = cx + ux * r * 0.98, cy + uy * r * 0.98
        draw.text((lx, ly), letter, font=f, fill=fill, anchor="mm", stroke_width=2, stroke_fill=HALO)


def _frame(draw, grid, sheet, rect, sc):
    """The map's edge line, on the board's outer edges only (a seam edge joins the next sheet)."""
    left, top, width, height = rect
    w = sc.width(0.03)
    inner = {(axis, side) for axis, side, _ in (seams(grid, sheet) if sheet is not None else ())}
    edges = {(0, 0): ((0, 0), (0, height - 1)), (0, 1): ((width - 1, 0), (width - 1, height - 1)),
             (1, 0): ((0, 0), (width - 1, 0)), (1, 1): ((0, height - 1), (width - 1, height - 1))}
    for key, (p, q) in edges.items():
        if key not in inner:
            draw.line((p, q), fill=SHEET_INK, width=w)


def _shores(draw, data, hexes, origin, sc):
    """A shoreline along each side between water drawn with a ``shore`` and terrain without one, so a lake or the
    sea reads as one body of water shaped by its hexes."""
    grid = data.grid
    w = sc.width(0.035)
    for h in hexes:
        kind = data.terrain_of(h) or {}
        if not kind.get("shore"):
            continue
        colour = rgba(kind["shore"], f"terrain type {kind['id']} shore")
        for n in grid.neighbours(h):
            if not (data.terrain_of(n) or {}).get("shore"):
                p, q = side_segment(grid, h, n, origin)
                map_symbols.round_line(draw, p, q, colour, w)


def _borders(draw, data, hexes, origin, sc):
    """National borders along the sides between hexes of different nations."""
    grid, nation = data.grid, data.nation
    w = sc.width(0.06)
    for h in hexes:
        mine = nation.get(h)
        if mine is None:
            continue
        for n in grid.neighbours(h):
            other = nation.get(n)
            if other is not None and other != mine and n > h:
                p, q = side_segment(grid, h, n, origin)
                draw.line((p, q), fill=BORDER_INK[:3] + (170,), width=w)


ARROW_TIP = 0.42   # where an arrow's tip stops, as a fraction of the way from the hexside to the coastal hex's centre


def _hexsides(draw, data, origin, sc, on_board):
    """Crossing symbols per side; rivers, streams and other line styles as continuous strokes along each run
    (map_hexsides.chains), every band of a double line before any core so runs join."""
    grid = data.grid
    ox, oy = origin
    doubles = []
    for kind, a, b in data.hexsides:
        if kind.get("style") != "crossing" or (a not in on_board and b not in on_board):
            continue
        colour = rgba(kind["color"], f"hexside type {kind['id']}")
        w = max(2, round(sc.size * float(kind.get("width", 0.08))))
        # a symbol across the side, centre to centre (a road, an invasion arrow)
        (ax, ay), (bx, by) = grid.centre(a), grid.centre(b)
        mid = ((ax + bx) / 2 - ox, (ay + by) / 2 - oy)
        target = data.arrow_target(a, b)   # e.g. an invasion arrow: from the unplayable side to the playable one
        # a bar reaches 0.6 of the way to each centre; an arrow stops short in the coastal hex (its tip clear of the
        # marks printed round the hex's centre, a 65 or a city) and reaches as far back into the sea
        reach = {a: 0.6, b: 0.6} if target is None else {target: ARROW_TIP, (b if target == a else a): 1.2 - ARROW_TIP}
        ends = [(mid[0] + (x - mid[0]) * reach[h], mid[1] + (y - mid[1]) * reach[h])
                for h, (x, y) in ((a, (ax - ox, ay - oy)), (b, (bx - ox, by - oy)))]
        tail, tip = (ends[1], ends[0]) if target == a else (ends[0], ends[1])
        map_symbols.crossing(draw, tail, tip, colour, w, sc.size, arrow=target is not None)
    for kind, _, sides in data.runs:
        style = kind.get("style", "line")
        if style == "crossing" or not any(a in on_board or b in on_board for a, b in sides):
            continue
        colour = rgba(kind["color"], f"hexside type {kind['id']}")
        w = max(2, round(sc.size * float(kind.get("width", 0.08))))
        if style not in map_hexsides.CHAINED:   # per-side symbols (blocked, dashed)
            for a, b in sides:
                p, q = side_segment(grid, a, b, origin)
                map_symbols.side_stroke(draw, style, p, q, colour, w)
            continue
        for chain in map_hexsides.chains(grid, sides):
            pts = [(x - ox, y - oy) for x, y in chain]
            if style == "double":
                doubles.append((pts, colour, w))
            else:
                map_symbols.chain_stroke(draw, style, pts, colour, w, sc.size)
    for layer in ("band", "core"):   # every band before any core, so runs of sides join
        for pts, colour, w in doubles:
            map_symbols.chain_stroke(draw, "double", pts, colour, w, sc.size, layer)


def _region_labels(draw, data, on_board, origin, sc):
    """Sea areas and nations named once each (map_labels.region_names)."""
    for reg in map_labels.region_names(data, sc):
        if reg.hex in on_board:
            draw.text((reg.x - origin[0], reg.y - origin[1]), reg.text, font=reg.font, fill=reg.ink, anchor="mm")


def _lines(draw, data, origin, sc, on_board):
    ox, oy = origin
    drawn = map_lines.polylines(data)
    # Roads first, railways over them (beside them where they share hexes, see map_lines).
    for kind, path, points in sorted(drawn, key=lambda t: map_lines.is_railway(t[0])):
        if not any(h in on_board for h in path):
            continue
        colour = rgba(kind["color"], f"line type {kind['id']}")
        w = max(1, round(sc.size * float(kind.get("width", 0.05))))
        map_symbols.line_stroke(draw, kind.get("style", "solid"), [(x - ox, y - oy) for x, y in points], colour, w)
