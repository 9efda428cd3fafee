"""Slot conditions (``when:`` / ``unless:``) and the small graphic indicators a layout slot can show.

Series print rules information as small marks (BCS: an assault arrow for attack-capable sides, a dot or ring
behind the Action Rating, a boxed 'Support'). They stay data in the layout: a slot names the mark, where it
goes and the face value or flag that turns it on, so no game needs code of its own. Shapes are drawn in
pixels of the supersampled master, so they scale with the counter like the text does.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from builder.render import counter_text as ct
from builder.render.colors import contrast

INDICATORS = ("arrow", "dot", "circle", "band", "label", "cross")
# Default size (fraction of the side) per indicator: height, diameter or thickness.
DEFAULT_SIZE = {"arrow": 0.12, "dot": 0.2, "circle": 0.2, "band": 0.1, "label": 0.1, "cross": 0.1}
LABEL_STYLE = "condensed-bold"
CROSS_ALPHA = 64  # a default X is a see-through print, so the face stays readable through it


def is_set(unit: dict, values: dict, cid) -> bool:
    """True when face value ``cid`` is set (true, non-zero, non-empty) or the unit has flag ``cid``."""
    value = values.get(cid)
    if value not in (None, False, 0, "") and value != []:
        return True
    return cid in (unit.get("flags") or [])


def applies(slot: dict, unit: dict, values: dict) -> bool:
    """Whether the slot's when:/unless: let it be drawn on this face."""
    if "when" in slot and not is_set(unit, values, slot["when"]):
        return False
    if "unless" in slot and is_set(unit, values, slot["unless"]):
        return False
    return True


def fill_override(slot: dict, unit: dict, values: dict):
    """The first ``fill_when`` colour whose value or flag is set, else None."""
    for cid, color in (slot.get("fill_when") or {}).items():
        if is_set(unit, values, cid):
            return color
    return None


def _paint(draw, ink, shape) -> None:
    """Call ``shape(draw, ink)``; a see-through ink is drawn on a layer and blended (ImageDraw on RGB ignores alpha)."""
    if len(ink) < 4 or ink[3] == 255 or not hasattr(draw, "canvas"):
        shape(draw, ink)
        return
    layer = Image.new("RGBA", draw.canvas.size, (0, 0, 0, 0))
    shape(ImageDraw.Draw(layer), ink)
    draw.canvas.paste(layer, (0, 0), layer)


def arrow(draw, S, box, align, ink, size) -> tuple:
    """A solid arrow pointing right, ``size`` high, aligned in ``box`` (pixels); returns the box it covers."""
    x0, y0, x1, y1 = box
    h = min(size * S, y1 - y0)
    length = min(h * 1.7, x1 - x0)
    ax = {"l": x0, "r": x1 - length}.get(align, (x0 + x1 - length) / 2)
    cy, neck, shaft = (y0 + y1) / 2, ax + length * 0.5, h * 0.19
    pts = [(ax, cy - shaft), (neck, cy - shaft), (neck, cy - h / 2), (ax + length, cy),
           (neck, cy + h / 2), (neck, cy + shaft), (ax, cy + shaft)]
    _paint(draw, ink, lambda d, c: d.polygon(pts, fill=c))
    return (ax, cy - h / 2, ax + length, cy + h / 2)


def disc(draw, S, centre, diameter, ink, ring: bool) -> None:
    """A filled dot, or a ring, of ``diameter`` pixels centred on ``centre``."""
    cx, cy = centre
    r = diameter / 2
    box = (cx - r, cy - r, cx + r, cy + r)
    if ring:
        width = ring_width(S)
        _paint(draw, ink, lambda d, c: d.ellipse(box, outline=c, width=width))
    else:
        _paint(draw, ink, lambda d, c: d.ellipse(box, fill=c))


def ring_width(S) -> int:
    return max(1, int(round(S * 0.018)))


def disc_around(text_box, S, size, ring: bool = False) -> tuple[tuple[float, float], float]:
    """Centre and diameter of a dot (or a ring) behind text whose drawn extent is ``text_box``."""
    x0, y0, x1, y1 = text_box
    # Large enough to frame one or two digits with a margin, never smaller than the slot's size; a ring's
    # line stays clear of the digits' corners.
    d = max((x1 - x0) * 1.35, (y1 - y0) * 1.5, size * S * 0.6)
    if ring:
        d = max(d, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 + 2 * ring_width(S) + S * 0.02)
    return ((x0 + x1) / 2, (y0 + y1) / 2), d


EDGES = {"top": "top", "top-left": "top", "top-right": "top", "bottom": "bottom", "bottom-left": "bottom",
         "bottom-right": "bottom", "left": "left", "right": "right"}


def band(draw, S, at, box, ink, size) -> tuple:
    """A band across the counter: along the edge for edge positions, else across the position's middle;
    returns the box it covers."""
    t = size * S
    edge = EDGES.get(at)
    if edge:
        rect = {"top": (0, 0, S, t), "bottom": (0, S - t, S, S), "left": (0, 0, t, S), "right": (S - t, 0, S, S)}[edge]
    else:
        cy = (box[1] + box[3]) / 2
        rect = (0, cy - t / 2, S, cy + t / 2)
    _paint(draw, ink, lambda d, c: d.rectangle(rect, fill=c))
    return rect


def label(draw, S, text, box, align, fill, size, where):
    """``text`` in bold on a small box of ``fill``, the word in black or white to read on it."""
    x0, y0, x1, y1 = box
    pad = S * 0.015
    # Condensed type: a word must stay legible in a corner of a 96 px counter.
    fitted = ct.fit(draw, text, x1 - x0 - 2 * pad, y1 - y0, size * S, LABEL_STYLE, where, min_scale=0.4, wrap=False)
    f = ct.fonts.font(fitted.size, LABEL_STYLE)
    cx = (x0 + x1) / 2
    anchor_x = {"l": x0 + pad, "r": x1 - pad}.get(align, cx)
    cy = (y0 + y1) / 2
    tb = draw.textbbox((anchor_x, cy), text, font=f, anchor=align + "m")
    rect = (tb[0] - pad, tb[1] - pad, tb[2] + pad, tb[3] + pad)
    _paint(draw, fill, lambda d, c: d.rectangle(rect, fill=c))
    draw.text((anchor_x, cy), text, font=f, fill=contrast(fill), anchor=align + "m")
    return rect, fitted.size


def cross(draw, S, ink, size) -> None:
    """A large X from corner to corner of the face."""
    w = max(1, int(round(size * S)))
    _paint(draw, ink, lambda d, c: (d.line([(0, 0), (S, S)], fill=c, width=w),
                                    d.line([(0, S), (S, 0)], fill=c, width=w)))
