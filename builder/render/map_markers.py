"""The markers a location prints in its hex (city circle, VP value, Wehrkreis numeral, supply source, set-up
symbols ...), each drawn by one function at one place in the hex. The map draws a location with ``location``; the
legend draws its samples with ``marker``, the same code, so a legend symbol is the symbol the map prints."""

from __future__ import annotations

from builder.render import fonts
from builder.render.map_style import INK, PORT_BLUE, VP_RED, star, swastika, triangle

HALO = (255, 255, 255, 255)
CITY_RADIUS = {"village": 0.07, "town": 0.09, "city": 0.12, "major-city": 0.14, "capital": 0.14}
ROMAN_SIZE = 0.11

# Where each marker sits, in hex sizes from the hex centre (x right, y down).
MARKER_AT = {"city": (0, 0), "vp": (0.3, -0.14), "wehrkreis": (-0.25, -0.12), "economic": (-0.3, 0.06),
             "supply": (0.32, 0.1), "symbol": (-0.1, -0.22), "fort": (0.1, -0.22), "key": (-0.3, 0.08)}


def markers_of(loc: dict) -> list[str]:
    """The markers a location prints, in drawing order."""
    city = loc.get("city")
    tests = [("city", city and city != "urban"), ("vp", loc.get("vp") is not None),
             ("wehrkreis", bool(loc.get("wehrkreis"))), ("economic", bool(loc.get("economic"))),
             ("supply", bool(loc.get("supply_source"))), ("symbol", bool(loc.get("symbol"))),
             ("fort", bool(loc.get("fort"))), ("key", bool(loc.get("key_terrain")))]
    return [name for name, present in tests if present]


def marker(draw, name: str, loc: dict, x: float, y: float, sc) -> None:
    """Draw marker ``name`` of ``loc`` centred at (x, y)."""
    s = sc.size
    if name == "city":
        city = loc["city"]
        r = CITY_RADIUS[city] * s
        ink = PORT_BLUE if loc.get("port") else INK
        draw.ellipse((x - r, y - r, x + r, y + r), outline=ink, width=sc.width(0.035))
        if city == "capital":
            r2 = r + sc.width(0.045)
            draw.ellipse((x - r2, y - r2, x + r2, y + r2), outline=ink, width=sc.width(0.02))
    elif name == "vp":
        r = s * 0.1
        draw.ellipse((x - r, y - r, x + r, y + r), fill=HALO, outline=VP_RED, width=sc.width(0.025))
        draw.text((x, y), f"{loc['vp']:g}", font=fonts.font(s * 0.12, "bold"), fill=VP_RED, anchor="mm")
    elif name == "wehrkreis":
        draw.text((x, y), str(loc["wehrkreis"]), font=fonts.font(s * ROMAN_SIZE, "bold"), fill=INK, anchor="mm",
                  stroke_width=2, stroke_fill=HALO)
    elif name == "economic":
        u = s * 0.05
        draw.polygon([(x - u, y + u), (x - u, y - u), (x, y), (x, y - u), (x + u, y), (x + u, y + u)], fill=INK)
    elif name == "supply":
        u = s * 0.06
        draw.rectangle((x - u, y - u, x + u, y + u), fill=HALO, outline=INK, width=1)
        draw.text((x, y), "S", font=fonts.font(s * 0.1, "bold"), fill=INK, anchor="mm")
    elif name == "symbol":
        symbol, r = loc["symbol"], s * 0.08
        if symbol == "swastika":
            for p, q in swastika(x, y, r * 0.8):
                draw.line((p, q), fill=INK, width=sc.width(0.025))
        elif symbol in ("red-star", "white-star"):
            draw.polygon(star(x, y, r), fill=VP_RED if symbol == "red-star" else HALO, outline=INK)
        elif symbol == "red-triangle":
            draw.polygon(triangle(x, y, r), fill=VP_RED, outline=INK)
        else:   # a printed set-up mark ('65', 'H1')
            draw.text((x, y), symbol, font=fonts.font(s * 0.1, "condensed-bold"), fill=VP_RED, anchor="mm",
                      stroke_width=2, stroke_fill=HALO)
    elif name == "fort":
        draw.text((x, y), f"F{loc['fort']}", font=fonts.font(s * 0.1, "bold"), fill=INK, anchor="mm",
                  stroke_width=2, stroke_fill=HALO)
    elif name == "key":
        u = s * 0.06
        draw.polygon([(x, y - u), (x + u, y), (x, y + u), (x - u, y)], outline=VP_RED, width=sc.width(0.02))
    else:
        raise ValueError(f"unknown marker {name!r}")


def printed_name(loc: dict) -> str | None:
    """The name the map prints for ``loc``: its label, else its name; None for a location that prints none
    (``label: false``: its name is rule data, such as a road junction or a scenario's edge limit)."""
    label = loc.get("label")
    if label is False:
        return None
    return label or loc.get("name") or None


def name_box(draw, loc: dict, cx: float, cy: float, sc, name_font, within=None):
    """(x, y, text, font, box) of the location's name: centred below the marker, moved sideways as little as needed
    to keep it inside ``within`` (x0, y0, x1, y1), or None for a location without a name."""
    name = printed_name(loc)
    if not name:
        return None
    style = "bold" if loc.get("city") in ("capital", "major-city", "city") else "regular"
    font = fonts.font(name_font, style)
    x, y = cx, cy + sc.size * 0.27
    box = draw.textbbox((x, y), name, font=font, anchor="mm", stroke_width=2)
    if within:
        x0, _, x1, _ = within
        shift = max(0.0, x0 - box[0]) - max(0.0, box[2] - x1)
        x += shift
        box = (box[0] + shift, box[1], box[2] + shift, box[3])
    return x, y, name, font, box


def location(draw, loc: dict, cx: float, cy: float, sc, name_font, within=None) -> None:
    """A location in its hex: the city circle, its name below, and every other marker at its place."""
    s = sc.size
    if "city" in markers_of(loc):
        marker(draw, "city", loc, cx, cy, sc)
    placed = name_box(draw, loc, cx, cy, sc, name_font, within)
    if placed:
        x, y, name, font, _ = placed
        draw.text((x, y), name, font=font, fill=PORT_BLUE if loc.get("port") else INK, anchor="mm",
                  stroke_width=2, stroke_fill=HALO)
    for m in markers_of(loc):
        if m != "city":
            dx, dy = MARKER_AT[m]
            marker(draw, m, loc, cx + dx * s, cy + dy * s, sc)
