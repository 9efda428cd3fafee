"""The side panel: a legend of what the map uses, and the off-map holding boxes.

Its layout is computed without drawing (``layout``) so the module packager can learn the panel's size and
each box's rectangle (to make VASSAL zones) without rendering the map.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from builder.render import fonts, map_hexsides, map_markers, map_symbols
from builder.render.drawing import BlendingDraw
from builder.render.map_style import INK, PANEL, Scale, draw_pattern, rgba


@dataclass
class PanelLayout:
    width: int
    height: int
    entries: list = field(default_factory=list)   # (kind, payload, x, y)
    boxes: dict = field(default_factory=dict)     # box id -> (x, y, w, h) in panel pixels
    inner: dict = field(default_factory=dict)     # box id -> (x, y, w, h): the part below its name, for counters


def _symbols_used(data) -> list[str]:
    used = []
    locs = list(data.locations.values())
    checks = [("city", lambda l: l.get("city") in ("village", "town", "city", "major-city")),
              ("capital", lambda l: l.get("city") == "capital"),
              ("port", lambda l: bool(l.get("port"))),
              ("vp", lambda l: l.get("vp") is not None),
              ("wehrkreis", lambda l: bool(l.get("wehrkreis"))),
              ("economic", lambda l: bool(l.get("economic"))),
              ("supply", lambda l: bool(l.get("supply_source"))),
              ("swastika", lambda l: l.get("symbol") == "swastika"),
              ("red-star", lambda l: l.get("symbol") == "red-star"),
              ("white-star", lambda l: l.get("symbol") == "white-star"),
              ("red-triangle", lambda l: l.get("symbol") == "red-triangle"),
              ("key", lambda l: bool(l.get("key_terrain")))]
    for name, test in checks:
        if any(test(l) for l in locs):
            used.append(name)
    if data.nation:
        used.append("border")
    return used


def _marks_used(data) -> list[tuple[str, str]]:
    """Printed set-up marks other than the drawn symbols ('65', 'R3', 'H1'), each with what it marks: the name of
    the set-up area that names the mark, or 'Set-up hex marked ...'."""
    marks = sorted({l["symbol"] for l in data.locations.values()
                    if isinstance(l.get("symbol"), str) and l["symbol"] not in DRAWN_SYMBOLS},
                   key=lambda m: (not m.isdigit(), m))
    areas = {a.get("symbol"): a.get("name") for a in data.doc.get("setup_areas") or [] if isinstance(a, dict)}
    return [(m, areas.get(m) or f"Set-up hex marked {m}") for m in marks]


DRAWN_SYMBOLS = ("swastika", "red-star", "white-star", "red-triangle")
SYMBOL_TEXT = {"city": "City / town", "capital": "Capital", "port": "Port (blue name)", "vp": "Victory points",
               "wehrkreis": "Wehrkreis numeral", "economic": "Economic hex", "supply": "Supply source",
               "swastika": "German front-line setup", "red-star": "Soviet front-line setup",
               "white-star": "Western Allied setup",
               "red-triangle": "Soviet control line (Let History Judge)", "key": "Key Terrain", "border": "National border"}


def layout(data, min_height: int = 0) -> PanelLayout:
    """Legend first, then the boxes, flowing into further columns so the panel stays within ``min_height``
    (the board's height) where it can, or 16 hexes for a stand-alone panel."""
    sc = Scale(data.grid.spec.hex_size)
    s = sc.size
    pad, row = round(s * 0.3), round(s * 0.75)
    col_w = round(s * 4.4)
    limit = max(min_height, round(s * 16))
    y = pad
    entries = []
    for line in _wrap((data.doc.get("map") or {}).get("title") or "Map", title_font(s), col_w):
        entries.append(("title", line, pad, y))   # a long title wraps inside the legend's column
        y += round(s * 0.38)
    y += round(s * 0.22)
    top = y                               # further columns start below the title
    groups = [("Terrain", "terrain", list(data.terrain_types.values())),
              ("Hexsides", "hexside", list(data.hexside_types.values())),
              ("Lines", "line", list(data.line_types.values())),
              ("Symbols", "symbol", _symbols_used(data)),
              ("Set-up marks", "mark", _marks_used(data))]
    head = round(s * 0.45)
    bottom, x = y, pad
    for title, kind, items in groups:
        if not items:
            continue
        if y + head + row + pad > limit and y > top:   # a heading stays with its first item
            x, y = x + col_w + pad, top
        entries.append(("heading", title, x, y))
        y += head
        for item in items:
            if y + row + pad > limit and y > top + head:
                x, y = x + col_w + pad, top
            entries.append((kind, item, x, y))
            y += row
            bottom = max(bottom, y)
        y += round(s * 0.15)
    boxes = {}
    inner = {}
    # The boxes under one heading ("Off-map boxes"); a window of boxes may group them instead (data.box_groups:
    # [(heading or None, [box ids])]), each group starting a column of its own (one side's boxes together).
    by_id = {box["id"]: box for box in data.boxes}
    groups = getattr(data, "box_groups", None) or ([("Off-map boxes", list(by_id))] if data.boxes else [])
    bh, gap = round(s * 1.5), round(s * 0.15)
    font = fonts.font(s * 0.16, "bold")
    for gi, (heading, ids) in enumerate(groups):
        hh = head if heading else 0
        if gi or y + hh + bh + pad > limit:   # keep the heading with its first box
            x, y = x + col_w + pad, top
        if heading:
            entries.append(("heading", heading, x, y))
        y += hh
        for box in (by_id[i] for i in ids):
            lines = len(_wrap(box["name"], font, col_w - s * 0.2)[:3])
            name_h = round(s * 0.14 + lines * s * 0.2)
            h = max(bh, name_h + _places_height(data, box["id"], col_w, s))
            if y + h + pad > limit and y > pad + head:
                x, y = x + col_w + pad, top + hh
            boxes[box["id"]] = (x, y, col_w, h)
            inner[box["id"]] = (x, y + name_h, col_w, h - name_h)
            entries.append(("box", box, x, y))
            y += h + gap
            bottom = max(bottom, y)
    width = x + col_w + pad
    return PanelLayout(width, max(bottom + pad, min_height), entries, boxes, inner)


def _places_height(data, box_id: str, col_w: int, s: int) -> int:
    """Height for the counter places the box must show side by side (data.box_places, data.place_px)."""
    n, px = (data.box_places or {}).get(box_id, 0), data.place_px
    if not n or not px:
        return 0
    per_row = max(1, (col_w - PLACE_SLACK) // px)
    return -(-n // per_row) * px + PLACE_SLACK


PLACE_SLACK = 8     # pixels around the places, for the offsets of a small stack drawn in one


def draw_panel(img, data, lay: PanelLayout, at=(0, 0)) -> None:
    """Draw the panel onto ``img`` with its top-left corner at ``at``."""
    draw = BlendingDraw(img)
    sc = Scale(data.grid.spec.hex_size)
    s = sc.size
    ox, oy = at
    draw.rectangle((ox, oy, ox + lay.width - 1, oy + lay.height - 1), fill=PANEL, outline=INK, width=2)
    text_f = fonts.font(s * 0.17)
    for kind, item, x, y in lay.entries:
        x, y = x + ox, y + oy
        sx, sy = x + s * 0.35, y + s * 0.35     # sample centre
        tx = x + s * 0.85
        if kind == "title":
            draw.text((x, y), item, font=title_font(s), fill=INK, anchor="lt")
        elif kind == "heading":
            draw.text((x, y), item, font=fonts.font(s * 0.22, "bold"), fill=INK, anchor="lt")
        elif kind == "terrain":
            colour = rgba(item["color"], f"terrain type {item['id']}")
            r = s * 0.34
            pts = [(sx + r * dx, sy + r * dy) for dx, dy in
                   ((0, -1), (0.866, -0.5), (0.866, 0.5), (0, 1), (-0.866, 0.5), (-0.866, -0.5))]
            shore = item.get("shore")   # water with a shoreline shows it, as the map draws it
            draw.polygon(pts, fill=colour, outline=rgba(shore, f"terrain type {item['id']} shore") if shore else INK,
                         width=max(1, round(s * 0.035)) if shore else 1)
            draw_pattern(draw, item.get("pattern"), sx, sy, s * 0.8, colour)
            draw.text((tx, sy), item["name"], font=text_f, fill=INK, anchor="lm")
        elif kind in ("hexside", "line"):
            colour = rgba(item["color"], f"{kind} type {item['id']}")
            w = max(2 if kind == "hexside" else 1, round(s * float(item.get("width", 0.08 if kind == "hexside" else 0.05))))
            style = item.get("style", "line" if kind == "hexside" else "solid")
            left, right = (sx - s * 0.3, sy), (sx + s * 0.3, sy)
            if kind == "line":
                map_symbols.line_stroke(draw, style, [left, right], colour, w)
            elif style == "crossing":   # the side (thin) and the symbol across it, as on the map
                draw.line(((sx - s * 0.25, sy), (sx + s * 0.25, sy)), fill=INK, width=1)
                arrow = item.get("id") in data.arrow_kinds
                map_symbols.crossing(draw, (sx, sy + s * 0.3), (sx, sy - s * 0.3), colour, w, s, arrow=arrow)
            elif style in map_hexsides.CHAINED:   # drawn as the map draws a run of sides
                map_symbols.chain_stroke(draw, style, [left, right], colour, w, s)
            else:
                map_symbols.side_stroke(draw, style, left, right, colour, w)
            draw.text((tx, sy), item["name"], font=text_f, fill=INK, anchor="lm")
        elif kind == "symbol":
            if item == "border":
                _border_sample(draw, sx, sy, s)
            else:
                tx = max(tx, _samples(draw, symbol_samples(data, item), x, y, sc) + s * 0.2)
            draw.text((tx, sy), SYMBOL_TEXT[item], font=text_f, fill=INK, anchor="lm")
        elif kind == "mark":   # a printed set-up mark ('65', 'H1'), drawn as the map draws it
            mark, text = item
            map_markers.marker(draw, "symbol", {"symbol": mark}, sx, sy, sc)
            draw.text((tx, sy), text, font=text_f, fill=INK, anchor="lm")
        elif kind == "box":
            bx, by, bw, bh = lay.boxes[item["id"]]
            draw.rectangle((bx + ox, by + oy, bx + ox + bw, by + oy + bh), fill=(255, 255, 255, 255), outline=INK,
                           width=2)
            font = fonts.font(s * 0.16, "bold")
            for k, text in enumerate(_wrap(item["name"], font, bw - s * 0.2)[:3]):
                draw.text((bx + ox + s * 0.1, by + oy + s * 0.08 + k * s * 0.2), text, font=font, fill=INK, anchor="lt")


def sample_centres(n: int, x: float, y: float, s: float) -> list[tuple[float, float]]:
    """Centres of n symbol samples on the legend line at (x, y): one on the sample point, several side by side."""
    cy = y + s * 0.35
    if n == 1:
        return [(x + s * 0.35, cy)]
    return [(x + s * (0.15 + SAMPLE_STEP * k), cy) for k in range(n)]


def _samples(draw, samples, x, y, sc) -> float:
    """Draw the markers side by side; returns the last one's centre x."""
    centres = sample_centres(len(samples), x, y, sc.size)
    for (name, loc), (cx, cy) in zip(samples, centres):
        map_markers.marker(draw, name, loc, cx, cy, sc)
    return centres[-1][0] if centres else x


def title_font(s: float):
    return fonts.font(s * 0.3, "bold")


def _wrap(text: str, font, width: float) -> list[str]:
    """Greedy word wrap to ``width`` pixels (a box name must stay inside its box)."""
    lines, cur = [], ""
    for word in text.split():
        trial = f"{cur} {word}".strip()
        if cur and font.getlength(trial) > width:
            lines.append(cur)
            cur = word
        else:
            cur = trial
    return lines + ([cur] if cur else [])


def symbol_samples(data, name) -> list[tuple[str, dict]]:
    """The (marker, location) samples the legend draws for a symbol entry, taken from the map's own locations so
    each shows what the map prints: every city size used, every VP value (up to four), a real Wehrkreis numeral."""
    locs = list(data.locations.values())
    if name == "city":
        used = {l.get("city") for l in locs}
        return [("city", {"city": c}) for c in ("village", "town", "city", "major-city") if c in used]
    if name == "capital":
        return [("city", {"city": "capital"})]
    if name == "port":
        sizes = sorted({l["city"] for l in locs if l.get("port") and l.get("city") in map_markers.CITY_RADIUS},
                       key=list(map_markers.CITY_RADIUS).index)
        return [("city", {"city": sizes[0] if sizes else "town", "port": True})]
    if name == "vp":
        values = sorted({l["vp"] for l in locs if l.get("vp") is not None})
        return [("vp", {"vp": v}) for v in values[:4]]
    if name == "wehrkreis":
        return [("wehrkreis", {"wehrkreis": min((str(l["wehrkreis"]) for l in locs if l.get("wehrkreis")),
                                                key=len)})]
    if name in DRAWN_SYMBOLS:
        return [("symbol", {"symbol": name})]
    return [({"supply": "supply", "economic": "economic", "key": "key"}[name],
             {"supply_source": True, "economic": True, "key_terrain": True})]


SAMPLE_STEP = 0.27   # hex sizes between the centres of several samples on one legend line


def _border_sample(draw, x, y, s):
    draw.line(((x - s * 0.3, y), (x + s * 0.3, y)), fill=(150, 20, 60, 170), width=max(2, round(s * 0.06)))
