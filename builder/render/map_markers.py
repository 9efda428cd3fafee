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
             "supply": (0.32, 0.1), "symbol": (-0.14, -0.16), "fort": (0.1, -0.17), "key": (-0.3, 0.08)}


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


def _text_box(text: str, font, x: float, y: float, stroke: int = 2) -> tuple[float, float, float, float]:
    left, top, right, bottom = font.getbbox(text, anchor="mm", stroke_width=stroke)
    return x + left, y + top, x + right, y + bottom


def _square(x: float, y: float, half: float) -> tuple[float, float, float, float]:
    return x - half, y - half, x + half, y + half


def marker_box(name: str, loc: dict, x: float, y: float, sc) -> tuple[float, float, float, float]:
    """The box marker ``name`` of ``loc`` covers when ``marker`` draws it centred at (x, y), so a place name can be
    set clear of it (map_labels)."""
    s = sc.size
    if name == "city":
        r = CITY_RADIUS[loc["city"]] * s
        if loc["city"] == "capital":
            r += sc.width(0.045) + sc.width(0.02) / 2
        return _square(x, y, r + sc.width(0.035) / 2)
    if name == "vp":
        return _square(x, y, s * 0.1 + 1)
    if name == "wehrkreis":
        return _text_box(str(loc["wehrkreis"]), fonts.font(s * ROMAN_SIZE, "bold"), x, y)
    if name == "economic":
        return _square(x, y, s * 0.05)
    if name == "supply":
        return _square(x, y, s * 0.06 + 1)
    if name == "symbol":
        if loc["symbol"] in ("swastika", "red-star", "white-star", "red-triangle"):
            return _square(x, y, s * 0.08 + 1)
        return _text_box(loc["symbol"], fonts.font(s * 0.1, "condensed-bold"), x, y)
    if name == "fort":
        return _text_box(f"F{loc['fort']}", fonts.font(s * 0.1, "bold"), x, y)
    if name == "key":
        return _square(x, y, s * 0.06 + sc.width(0.02))
    raise ValueError(f"unknown marker {name!r}")


def marker_boxes(loc: dict, cx: float, cy: float, sc) -> list[tuple[float, float, float, float]]:
    """The boxes of every marker the location prints in its hex centred at (cx, cy)."""
    return [marker_box(m, loc, cx + MARKER_AT[m][0] * sc.size, cy + MARKER_AT[m][1] * sc.size, sc)
            for m in markers_of(loc)]


def printed_name(loc: dict) -> str | None:
    """The name the map prints for ``loc``: its label, else its name; None for a location that prints none
    (``label: false``: its name is rule data, such as a road junction or a scenario's edge limit)."""
    label = loc.get("label")
    if label is False:
        return None
    return label or loc.get("name") or None


NAME_INK = {True: PORT_BLUE, False: INK}


def name_style(loc: dict) -> str:
    """Cities and bigger, and the named quarters of a city drawn as urban hexes (Buda, Pest), print bold."""
    return "bold" if loc.get("city") in ("capital", "major-city", "city", "urban") else "regular"


def location(draw, loc: dict, cx: float, cy: float, sc, label=None) -> None:
    """A location in its hex: the city circle, its name where the label layout put it (``label``, a
    map_labels.Label shifted to this board, or None for none), and every other marker at its place."""
    s = sc.size
    if "city" in markers_of(loc):
        marker(draw, "city", loc, cx, cy, sc)
    if label is not None:
        draw.text((label.x, label.y), label.text, font=label.font, fill=NAME_INK[bool(loc.get("port"))],
                  anchor=label.anchor, stroke_width=2, stroke_fill=HALO)
    for m in markers_of(loc):
        if m != "city":
            dx, dy = MARKER_AT[m]
            marker(draw, m, loc, cx + dx * s, cy + dy * s, sc)
