"""Where the hex numbers go: every hex's printed ID (or, under BCS 1.0e, every fifth row's, with a dot elsewhere)
on a knock-out near the top of the hex. Geometry only, in the Grid frame; map_image draws it and map_labels keeps
place names clear of it."""

from __future__ import annotations

from dataclasses import dataclass

from builder.geometry.vassal_derive import board_showing, local_name
from builder.render import fonts

NUMBER_DY = 0.36     # the number's centre above the hex centre, in hex sizes


def hex_name(grid, h) -> str:
    """The hex's ID as printed: that of the sheet whose board holds its centre (where VASSAL reports it)."""
    sheet = board_showing(grid, h)
    return grid.name(h) if sheet is None else local_name(grid, sheet, h)


def numbered(grid, h, rule: dict | None) -> bool:
    """Whether the hex prints its number: every hex, or (BCS 1.0e) those on every Nth line of the sheet holding it."""
    if not rule or not rule.get("every"):
        return True
    sheet = board_showing(grid, h)
    axis = rule.get("axis", "row")
    if sheet is None:
        index = h.row if axis == "row" else h.col
    else:
        s = grid.extent(sheet).sheet
        index = h.row - s.origin_row if axis == "row" else h.col - s.origin_col
    return index % rule["every"] == 0


def number_plate(draw, text, x, y, font, pad: float) -> tuple[float, float, float, float]:
    """Where a hex number and the knock-out behind it go: the text's box grown by ``pad``."""
    left, top, right, bottom = draw.textbbox((x, y), text, font=font, anchor="mm")
    return left - pad, top - pad, right + pad, bottom + pad


@dataclass(frozen=True)
class Mark:
    """One hex's number mark: its printed ID on a plate (``text`` set), or a dot where the number would be."""
    x: float
    y: float
    text: str | None
    box: tuple[float, float, float, float]


def marks(data, hexes, sc) -> dict:
    """Hex -> its Mark (Grid frame), for ``hexes``; hexes that print nothing there are left out."""
    grid = data.grid
    rule = (data.doc.get("map") or {}).get("hex_numbers")
    font = number_font(sc)
    dot = dot_radius(sc)
    pad = plate_pad(sc)
    out = {}
    for h in hexes:
        cx, cy = grid.centre(h)
        y = cy - sc.size * NUMBER_DY
        if numbered(grid, h, rule):
            text = hex_name(grid, h)
            left, top, right, bottom = font.getbbox(text, anchor="mm")
            out[h] = Mark(cx, y, text, (cx + left - pad, y + top - pad, cx + right + pad, y + bottom + pad))
        elif (rule or {}).get("others", "dot") == "dot":   # where the number would be: count along the row
            out[h] = Mark(cx, y, None, (cx - dot, y - dot, cx + dot, y + dot))
    return out


def number_font(sc):
    return fonts.font(sc.id_font, "regular")


def dot_radius(sc) -> float:
    return sc.size * 0.022


def plate_pad(sc) -> float:
    return max(1.0, sc.size * 0.02)
