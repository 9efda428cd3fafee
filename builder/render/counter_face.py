"""Draw one face of a counter (a unit or a marker) from the game's data and counter layout.

Faces are drawn at a supersampled size and scaled down (LANCZOS) for anti-aliasing; one master drawing
serves every output size (module image, print image), so the two always match. Drawing is deterministic:
the same data gives the same pixels.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from builder.errors import BuildError
from builder.render import budget
from builder.render import counter_indicators as ind
from builder.render import counter_text as ct
from builder.render import nato
from builder.render.colors import contrast, contrast_ratio, darker, halo_for, parse_color
from builder.render.counter_pieces import Piece, unit_face_values

WHITE, BLACK = (255, 255, 255, 255), (0, 0, 0, 255)
DEFAULT_LAYOUT = {"id": "(default)", "slots": [
    {"at": "top", "show": "size"}, {"at": "center", "show": "symbol"}, {"at": "symbol-right", "text": "{name}"}]}
# Default text size per position, as a fraction of the counter side.
TEXT_SIZE = {"bottom": 0.22, "bottom-left": 0.2, "bottom-right": 0.2, "center": 0.3, "top": 0.16}
FRAME_W = 0.46          # symbol frame width (fraction of the side); APP-6 land frames are 3:2
FRAME_CY = 0.47
MASTER_MIN_PX = 300     # the master is at least this big (a 75 px module image is drawn 4 times over)


# ---------------------------------------------------------------- colours
def unit_colors(game, unit: dict, where: str) -> dict:
    nat = game.by_id["nationalities"].get(unit.get("nationality")) or {}
    side = game.by_id["sides"].get(game.side_of(unit)) or {}
    bg = parse_color(nat["background"], f"{where}: nationality {nat.get('id')} background") if nat.get(
        "background") else (parse_color(side["color"], f"{where}: side colour") if side.get("color") else WHITE)
    text = parse_color(nat["text"], f"{where}: nationality {nat.get('id')} text") if nat.get("text") else contrast(bg)
    fill = parse_color(nat["symbol_fill"], f"{where}: symbol_fill") if nat.get("symbol_fill") else bg
    band = parse_color(nat["band"], f"{where}: band") if nat.get("band") else None
    return {"bg": bg, "text": text, "symbol_fill": fill, "band": band}


def marker_colors(game, marker: dict, face: dict, where: str) -> dict:
    nat = game.by_id["nationalities"].get(marker.get("nationality")) or {}
    side = game.by_id["sides"].get(marker.get("side") or nat.get("side")) or {}
    if face.get("background"):
        bg = parse_color(face["background"], f"{where}: background")
    elif nat.get("background"):
        bg = parse_color(nat["background"], f"{where}: nationality background")
    elif side.get("color"):
        bg = parse_color(side["color"], f"{where}: side colour")
    else:
        bg = WHITE
    if face.get("color"):
        ink = parse_color(face["color"], f"{where}: color")
    elif nat.get("text"):
        ink = parse_color(nat["text"], f"{where}: nationality text")
    else:
        ink = contrast(bg)
    return {"bg": bg, "text": ink}


# ---------------------------------------------------------------- geometry
def layout_of(game, unit: dict) -> dict:
    layouts = game.by_id["layouts"]
    utype = game.by_id["unit_types"].get(unit.get("type")) or {}
    lid = unit.get("layout") or utype.get("layout")
    if lid:
        if lid not in layouts:
            raise BuildError(f"unit {unit.get('id')}: unknown layout {lid!r}")
        return layouts[lid]
    return next(iter(layouts.values()), DEFAULT_LAYOUT)


def frame_box(layout: dict) -> tuple[float, float, float, float]:
    """The symbol frame (fractions of the side), nudged aside when the layout prints text beside it."""
    ats = {s.get("at") for s in layout.get("slots", []) if "text" in s}
    cx = 0.5
    if "symbol-right" in ats and "symbol-left" not in ats:
        cx = 0.43
    elif "symbol-left" in ats and "symbol-right" not in ats:
        cx = 0.57
    w, h = FRAME_W, FRAME_W * 2 / 3
    return (cx - w / 2, FRAME_CY - h / 2, cx + w / 2, FRAME_CY + h / 2)


SAFE_MM = 1.0           # art stays this far inside the die cut (published counters: about 1 mm on 1/2")


SCREEN_MARGIN = 0.04    # on screen nothing is cut: text keeps only clear of the image's 1 px outline


def safe_margin(game) -> float:
    """The die-cut safe margin as a fraction of the counter's side (print images)."""
    size = ((game.doc.get("game") or {}).get("counter") or {}).get("size_mm") or 12.7
    return min(0.12, SAFE_MM / float(size))


def screen_margin(game) -> float:
    """The margin of the module's images: no cut to allow for, so the text may be larger than in print."""
    return min(SCREEN_MARGIN, safe_margin(game))


def _keep_margin(draw, game) -> None:
    """Set the margin this drawing keeps (draw_master chose it; the print's safe margin otherwise) and its
    text scale: what the safe margin takes from the print's text, a screen margin gives back."""
    draw.safe = getattr(draw, "safe", None) or safe_margin(game)
    draw.text_scale = (1 - 2 * draw.safe) / (1 - 2 * safe_margin(game))


def slot_box(at: str, frame, m: float = 0.08) -> tuple[tuple[float, float, float, float], str]:
    """(box, align) of a slot position in fractions of the side; align is l, m or r. ``m`` is the safe
    margin: no slot comes nearer the cut."""
    fx0, fy0, fx1, fy1 = frame
    top, bottom = (m, max(m + 0.15, 0.23)), (0.74, 1 - m)
    lo, hi = m, 1 - m
    boxes = {
        "top-left": ((lo, top[0], 0.29, top[1]), "l"),
        "top": ((0.3, top[0], 0.7, top[1]), "m"),
        "top-right": ((0.71, top[0], hi, top[1]), "r"),
        "above-symbol": ((fx0, top[0], fx1, fy0 - 0.01), "m"),
        "left": ((lo, fy0, max(fx0 - 0.02, lo + 0.06), fy1), "l"),
        "symbol-left": ((lo, fy0, max(fx0 - 0.02, lo + 0.06), fy1), "r"),
        "center": ((lo, fy0, hi, fy1), "m"),
        "symbol-right": ((min(fx1 + 0.02, hi - 0.06), fy0, hi, fy1), "l"),
        "right": ((min(fx1 + 0.02, hi - 0.06), fy0, hi, fy1), "r"),
        # clear of the frame's stroke above and of a boxed value below
        "below-symbol": ((max(0.1, lo), fy1 + 0.02, min(0.9, hi), bottom[0] - 0.012), "m"),
        "bottom-left": ((lo, bottom[0], 0.4, bottom[1]), "l"),
        "bottom": ((lo, bottom[0], hi, bottom[1]), "m"),
        "bottom-right": ((0.6, bottom[0], hi, bottom[1]), "r"),
    }
    if at not in boxes:
        raise BuildError(f"unknown slot position {at!r}")
    return boxes[at]


# ---------------------------------------------------------------- units
def _value_of(game, unit, values, name):
    """A face value first (BCS 1.1a: each face's own movement class colours its MA), then the unit's field."""
    if values.get(name) is not None:
        return values[name]
    if name == "movement_class":
        return unit.get(name) or ct.unit_field(game, unit, "movement_class")
    return unit.get(name)


def _draw_unit(draw, S: int, game, piece: Piece, face: str) -> None:
    unit = game.units[piece.source_id]
    where = f"unit {piece.source_id}" + (f" (counter {piece.index + 1})" if piece.index else "") + f", {face}"
    colors = unit_colors(game, unit, where)
    draw.rectangle((0, 0, S, S), fill=colors["bg"])
    if colors["band"]:
        draw.rectangle((0, 0, S, S * 0.26), fill=colors["band"])
    values = unit_face_values(unit, piece.index, face)
    _keep_margin(draw, game)
    if face == "back" and values == {} and not _prints_on_back_alone(layout_of(game, unit)):
        return  # 'back: {}': the counter is single-sided; the sheet prints a plain back in its colour
    if values is None and face == "back":
        # The data leaves this back blank: it shows only the unit's name (as printed blank backs do).
        name = ct.printed(unit.get("name") or unit.get("id"))
        fitted = _fit_legibly(draw, name, S * 0.86, S * 0.5, S * 0.22, "bold", where, colors["text"], (S / 2, S / 2),
                              colors["bg"])
        ink = ct.draw_fitted(draw, fitted, S / 2, S / 2, colors["text"])
        ct.note(draw, "blank back", (S * 0.07, S * 0.25, S * 0.93, S * 0.75), ink, fitted.size, ink=colors["text"])
        return
    values = values or {}
    layout = layout_of(game, unit)
    frame = frame_box(layout)
    for slot in layout.get("slots", []):
        if face not in slot.get("faces", ("front", "back")) or not ind.applies(slot, unit, values):
            continue
        at = slot.get("at", "center")
        show = slot.get("show")
        if show == "symbol":
            _draw_symbol(draw, S, game, unit, frame, colors, where, ind.fill_override(slot, unit, values))
        elif show == "size":
            mark = ct.unit_field(game, unit, "size")
            if mark:
                corners = {s.get("at") for s in layout.get("slots", []) if "text" in s}
                _draw_size(draw, S, mark, at, frame, colors["text"], where, corners)
        elif show == "steps":
            _draw_steps(draw, S, unit, values, face, at, frame, colors["text"])
        elif show == "formation-bar":
            _draw_formation_bar(draw, S, game, unit, at, where, slot.get("size"))
        elif show in ind.INDICATORS:
            _draw_indicator(draw, S, game, unit, values, layout, slot, face, frame, colors, where)
        elif "text" in slot:
            used = {s.get("at") for s in layout.get("slots", []) if s is not slot}
            _draw_text_slot(draw, S, game, unit, values, slot, at, frame, colors, where, used)


def _prints_on_back_alone(layout: dict) -> bool:
    """Whether the layout prints something on the back only (BCS Combat Trains: 'Ghost'): then a back
    without values is that side, not a plain one."""
    return any(slot.get("faces") == ["back"] for slot in layout.get("slots", []))


def _px(box, S):
    return tuple(v * S for v in box)


def _draw_symbol(draw, S, game, unit, frame, colors, where, fill=None):
    utype = game.by_id["unit_types"].get(unit.get("type")) or {}
    glyphs = utype.get("symbol") or []
    missing = nato.unknown_glyphs(glyphs)
    if missing:
        raise BuildError(f"{where}: unit type {utype.get('id')} asks for glyph(s) {', '.join(missing)} "
                         "that the renderer cannot draw")
    ink, paper = colors["text"], colors["symbol_fill"]
    if fill:
        # A fill chosen by fill_when (BCS: yellow = Hard) takes the ink that reads on it, whatever the nationality.
        paper = parse_color(fill, f"{where}: fill_when colour")
        ink = contrast(paper)
    nato.draw_frame(draw, _px(frame, S), glyphs, ink, paper, S * 0.022, utype.get("text"))
    ct.note(draw, "symbol frame", _px(frame, S), _px(frame, S), 0)


def _draw_size(draw, S, mark, at, frame, ink, where, corners=()):
    fx0, fy0, fx1, _ = frame
    if at in ("top", "above-symbol"):
        # Over the frame, clear of any corner text.
        box = (max(fx0, 0.28) if "top-left" in corners else fx0, 0.06,
               min(fx1, 0.72) if "top-right" in corners else fx1, fy0 - 0.015)
    else:
        box, _ = slot_box(at, frame, draw.safe)
    x0, y0, x1, y1 = _px(box, S)
    halo = halo_for(ink, ground_under(draw, (x0, y0, x1, y1), ink, ink))
    fitted = ct.fit(draw, mark, x1 - x0, y1 - y0, min(S * 0.15, (y1 - y0) * 1.3), "bold", f"{where}: size mark",
                    wrap=False, halo=halo)
    # Sit the mark on the frame's top edge, as printed marks do.
    f = ct.fonts.font(fitted.size, "bold")
    at_xy = ((x0 + x1) / 2, y1 - fitted.stroke)
    stroke = {"stroke_width": fitted.stroke, "stroke_fill": halo} if halo else {}
    draw.text(at_xy, mark, font=f, fill=ink, anchor="md", **stroke)
    ct.note(draw, f"size {at}", (x0, y0, x1, y1), draw.textbbox(at_xy, mark, font=f, anchor="md",
                                                              stroke_width=fitted.stroke), fitted.size, ink=ink)


def _draw_steps(draw, S, unit, values, face, at, frame, ink):
    # A face shows the unit's full steps (BCS prints them on both sides) unless it carries its own
    # 'steps' value (a game whose back is a reduced step says so in its data).
    steps = values.get("steps")
    if steps is None:
        steps = unit.get("steps")
    if not isinstance(steps, int) or steps <= 0:
        return
    x0, y0, x1, y1 = _px(slot_box(at, frame, draw.safe)[0], S)
    vertical = at in ("left", "right", "symbol-left", "symbol-right")
    # Squares half a square apart inside the slot (so inside the safe margin); more than three go in two lines.
    lines = 2 if steps > 3 else 1
    per = -(-steps // lines)
    along, across = (y1 - y0, x1 - x0) if vertical else (x1 - x0, y1 - y0)
    d = min(S * 0.06, along / (per * 1.5 - 0.5), across / (lines * 1.5 - 0.5))
    gap = d * 0.5
    squares = []
    for i in range(steps):
        line, k = divmod(i, per)
        n = min(per, steps - line * per)
        a = -(n * d + (n - 1) * gap) / 2 + k * (d + gap) + d / 2
        b = -(lines * d + (lines - 1) * gap) / 2 + line * (d + gap) + d / 2
        cx, cy = ((x0 + x1) / 2 + b, (y0 + y1) / 2 + a) if vertical else ((x0 + x1) / 2 + a, (y0 + y1) / 2 + b)
        draw.rectangle((cx - d / 2, cy - d / 2, cx + d / 2, cy + d / 2), fill=ink)
        squares.append((cx - d / 2, cy - d / 2, cx + d / 2, cy + d / 2))
    ct.mark(draw, f"steps {at}", ct.union(squares))


def _draw_formation_bar(draw, S, game, unit, at, where, size=None):
    form = game.by_id["formations"].get(unit.get("formation")) or {}
    if not form.get("color"):
        return
    color = parse_color(form["color"], f"{where}: formation {form.get('id')} colour")
    t = (size or 0.12) * S
    bars = {"top": (0, 0, S, t), "bottom": (0, S - t, S, S), "left": (0, 0, t, S), "right": (S - t, 0, S, S)}
    key = next((k for k in ("top", "bottom", "left", "right") if k in at), "top")
    draw.rectangle(bars[key], fill=color)
    ct.mark(draw, "formation bar", bars[key], "ground")


def _draw_indicator(draw, S, game, unit, values, layout, slot, face, frame, colors, where):
    show, at = slot["show"], slot.get("at", "center")
    ink = parse_color(slot["color"], f"{where}: slot colour") if slot.get("color") else colors["text"]
    size = slot.get("size") or ind.DEFAULT_SIZE[show]
    box, align = slot_box(at, frame, draw.safe)
    px = _px(box, S)
    if show == "arrow":
        ct.mark(draw, f"arrow {at}", ind.arrow(draw, S, px, align, ink, size))
    elif show == "band":
        ct.mark(draw, f"band {at}", ind.band(draw, S, at, px, ink, size), "ground", ink[3] if len(ink) > 3 else 255)
    elif show == "cross":
        if not slot.get("color"):
            ink = (*ink[:3], ind.CROSS_ALPHA)
        ind.cross(draw, S, ink, size)
        ct.mark(draw, "cross", (0, 0, S, S), "ground", ink[3] if len(ink) > 3 else 255)
    elif show == "label":
        text = ct.expand(slot.get("text", ""), game, unit, values, where)
        if text:
            rect, font_px = ind.label(draw, S, text, px, align, ink, size, f"{where}: label at {at}")
            ct.note(draw, f"label {at}", px, rect, font_px, ink=contrast(ink))
    else:  # dot, circle: centred on the text printed at this position
        target = slot if "text" in slot else _text_slot_at(layout, slot, at, face, unit, values)
        extent = _text_extent(draw, S, game, unit, values, target, at, frame, where) if target else None
        if target and extent is None:
            return  # the text it would sit behind is not printed on this face
        if extent is None:
            d = size * S
            centre = ({"l": px[0] + d / 2, "r": px[2] - d / 2}.get(align, (px[0] + px[2]) / 2), (px[1] + px[3]) / 2)
        else:
            centre, d = ind.disc_around(extent, S, size, ring=show == "circle")
        ind.disc(draw, S, centre, d, ink, ring=show == "circle")
        ct.mark(draw, at, (centre[0] - d / 2, centre[1] - d / 2, centre[0] + d / 2, centre[1] + d / 2), "behind")


def _text_slot_at(layout, indicator, at, face, unit, values):
    """The text slot printed at ``at`` on this face (the one a dot or ring sits behind), or None."""
    for s in layout.get("slots", []):
        if (s is not indicator and s.get("at", "center") == at and "text" in s and "show" not in s
                and face in s.get("faces", ("front", "back")) and ind.applies(s, unit, values)):
            return s
    return None


def _text_extent(draw, S, game, unit, values, slot, at, frame, where):
    """The pixel box the slot's text covers where _draw_text_slot puts it; None when nothing is printed."""
    text = ct.expand(slot["text"], game, unit, values, where)
    if not text:
        return None
    box, align = slot_box(at, frame, draw.safe)
    x0, y0, x1, y1 = _px(box, S)
    style = "bold" if slot.get("bold") or slot.get("box_by") else "regular"
    try:
        fitted = ct.fit(draw, text, x1 - x0, y1 - y0, (slot.get("size") or TEXT_SIZE.get(at, 0.15)) * S, style, where)
    except ct.TextTooLong:
        return None
    f = ct.fonts.font(fitted.size, style)
    x = {"l": x0, "r": x1}.get(align, (x0 + x1) / 2)
    asc, desc = f.getmetrics()
    step = (asc + desc) * 0.9  # as ct.draw_fitted spaces the lines
    top = (y0 + y1) / 2 - step * (len(fitted.lines) - 1) / 2
    boxes = [draw.textbbox((x, top + k * step), line, font=f, anchor=align + "m") for k, line in enumerate(fitted.lines)]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _draw_text_slot(draw, S, game, unit, values, slot, at, frame, colors, where, used=()):
    text = ct.expand(slot["text"], game, unit, values, where)
    if not text:
        return
    ink = parse_color(slot["color"], f"{where}: slot colour") if slot.get("color") else colors["text"]
    box_style = None
    if slot.get("color_by"):
        key = _value_of(game, unit, values, slot["color_by"].get("value"))
        chosen = (slot["color_by"].get("colors") or {}).get(ct.printed(key)) if key is not None else None
        if chosen:
            ink = parse_color(chosen, f"{where}: color_by {key}")
    if slot.get("box_by"):
        key = _value_of(game, unit, values, slot["box_by"].get("value"))
        box_style = (slot["box_by"].get("boxes") or {}).get(ct.printed(key)) if key is not None else None
        if box_style and box_style.get("text"):
            ink = parse_color(box_style["text"], f"{where}: box text colour")
    box, align = slot_box(at, frame, draw.safe)
    x0, y0, x1, y1 = _px(box, S)
    size = slot.get("size") or TEXT_SIZE.get(at, 0.15)
    style = "bold" if slot.get("bold") else "regular"
    if box_style:
        style = "bold"
    if at in ("symbol-left", "symbol-right") and not box_style and _runs_up(draw, S, game, text, at, frame, size,
                                                                            style, where):
        _draw_vertical(draw, S, text, at, ink, _fit_vertical(draw, S, text, at, frame, size, style, where, used))
        return
    fitted = ct.fit(draw, text, x1 - x0, y1 - y0, size * S, style, f"{where}: slot {at}")
    cy = (y0 + y1) / 2
    fill = parse_color(box_style["fill"], f"{where}: box fill") if box_style and box_style.get("fill") else None
    extent = ct.fitted_box(draw, fitted, (x0 + x1) / 2, cy, align, x0, x1)
    halo = halo_for(ink, fill or ground_under(draw, extent, ink, colors["bg"]))
    if halo:
        fitted = ct.fit(draw, text, x1 - x0, y1 - y0, size * S, style, f"{where}: slot {at}", halo=halo)
    if box_style:
        # The box frames the ink of the text (not the font's line height), so it stays in its slot.
        ink_box = ct.fitted_box(draw, fitted, (x0 + x1) / 2, cy, align, x0, x1)
        pad = fitted.size * 0.12
        rect = (ink_box[0] - pad, ink_box[1] - pad, ink_box[2] + pad, ink_box[3] + pad)
        outline = parse_color(box_style["outline"], f"{where}: box outline") if box_style.get("outline") else None
        if fill and not outline:
            # a red AV box on a red counter keeps its edge
            outline = halo_for(fill, ground_under(draw, rect, fill, colors["bg"]), BOX_CONTRAST)
        draw.rectangle(rect, fill=fill, outline=outline, width=max(1, int(S * 0.012)))
    drawn = ct.draw_fitted(draw, fitted, (x0 + x1) / 2, cy, ink, align, x0, x1)
    ct.note(draw, at, (x0, y0, x1, y1), rect if box_style else drawn, fitted.size, ct.prints_value(slot["text"], game),
            ink)


BOX_CONTRAST = 1.5   # a box whose fill is this close to the ground around it gets an outline


GROUND_SHARE = 0.1   # a colour under this share of a text's box is a detail, not its ground


def ground_under(draw, box, ink, default):
    """The ground ``ink`` is printed on in ``box`` (pixels): of the colours the canvas already shows over
    a tenth of the box or more, the one the ink contrasts least with (a Festung X behind half of an MA,
    the counter's grey behind the rest: the grey)."""
    canvas = getattr(draw, "canvas", None)
    if canvas is None:
        return default
    x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
    x1, y1 = min(canvas.width, int(box[2]) + 1), min(canvas.height, int(box[3]) + 1)
    if x1 <= x0 or y1 <= y0:
        return default
    area = (x1 - x0) * (y1 - y0)
    colours = canvas.crop((x0, y0, x1, y1)).getcolors(area)
    grounds = [c for n, c in colours if n >= GROUND_SHARE * area] or [max(colours)[1]]
    return (*min(grounds, key=lambda c: (contrast_ratio(ink, c), c))[:3], 255)


def _fit_legibly(draw, text, box_w, box_h, size, style, where, ink, at, default_ground, **kw):
    """``ct.fit`` of a text centred at ``at`` (x, y), with a halo when its ink does not read on the ground
    under it."""
    fitted = ct.fit(draw, text, box_w, box_h, size, style, where, **kw)
    halo = halo_for(ink, ground_under(draw, ct.fitted_box(draw, fitted, *at), ink, default_ground))
    return ct.fit(draw, text, box_w, box_h, size, style, where, halo=halo, **kw) if halo else fitted


def _runs_up(draw, S, game, text, at, frame, size, style, where) -> bool:
    """Whether a text beside the symbol runs up the side (a common counter convention for a long ID): where it
    does not fit across even at its smallest. Decided as printed, so the module's image (a smaller margin,
    larger text) sets it the same way."""
    x0, y0, x1, y1 = _px(slot_box(at, frame, safe_margin(game))[0], S)
    scale, draw.text_scale = draw.text_scale, 1.0
    try:
        ct.fit(draw, text, x1 - x0, y1 - y0, size * S, style, where)
        return False
    except ct.TextTooLong:
        return True
    finally:
        draw.text_scale = scale


def _fit_vertical(draw, S, text, at, frame, size, style, where, used):
    """(fitted, (x0, x1, top, bottom)) of ``text`` running up beside the symbol."""
    (x0, _, x1, _), _ = slot_box(at, frame, draw.safe)
    corner = "top-right" if at == "symbol-right" else "top-left"
    top = frame[1] if corner in used else max(0.04, draw.safe)
    bottom = 0.72
    length, thick = (bottom - top) * S, (x1 - x0) * S
    fitted = ct.fit(draw, text, length, thick, size * S, style, f"{where}: slot {at}", wrap=False)
    return fitted, (x0, x1, top, bottom)


def _draw_vertical(draw, S, text, at, ink, vertical):
    fitted, (x0, x1, top, bottom) = vertical
    length, thick = (bottom - top) * S, (x1 - x0) * S
    style = fitted.style
    f = ct.fonts.font(fitted.size, style)
    strip = Image.new("RGBA", (int(length) + 2, int(thick) + 2), (0, 0, 0, 0))
    pen = ImageDraw.Draw(strip)
    pen.fontmode = draw.fontmode
    pen.text((strip.width / 2, strip.height / 2), text, font=f, fill=ink, anchor="mm")
    strip = strip.rotate(90, expand=True)
    pos = (int(round((x0 + x1) / 2 * S - strip.width / 2)), int(round((top + bottom) / 2 * S - strip.height / 2)))
    draw.canvas.paste(strip, pos, strip)
    box = strip.getbbox() or (0, 0, 0, 0)
    ct.note(draw, at, (x0 * S, top * S, x1 * S, bottom * S),
            (pos[0] + box[0], pos[1] + box[1], pos[0] + box[2], pos[1] + box[3]), fitted.size, ink=ink)


# ---------------------------------------------------------------- markers
def _draw_marker(draw, S: int, game, piece: Piece, face: str) -> None:
    marker = game.by_id["markers"][piece.source_id]
    where = f"marker {piece.source_id}, {face}"
    data = marker.get(face)
    if not isinstance(data, dict):
        data = {}
    colors = marker_colors(game, marker, data if data else (marker.get("front") or {}), where)
    draw.rectangle((0, 0, S, S), fill=colors["bg"])
    if not data:
        return  # a single-sided marker's back: plain colour, for printing
    pattern = data.get("pattern", "none")
    if pattern == "checks":
        n = 8  # a one-cell chequered rim around a plain field for the text
        cell = S / n
        for i in range(n):
            for j in range(n):
                inside = 0 < i < n - 1 and 0 < j < n - 1
                if (i + j) % 2 == 0 and not inside:
                    draw.rectangle((i * cell, j * cell, (i + 1) * cell, (j + 1) * cell), fill=colors["text"])
        ct.mark(draw, "checks", (0, 0, S, S), "ground")
    elif pattern == "stripe":
        w = S * 0.12
        draw.polygon([(0, S * 0.62), (S * 0.62, 0), (S * 0.62 + w, 0), (0, S * 0.62 + w)], fill=darker(colors["bg"], 0.8))
        ct.mark(draw, "stripe", (0, 0, S * 0.62 + w, S * 0.62 + w), "ground")
    text, sub = ct.printed(data.get("text", "")), ct.printed(data.get("subtext", ""))
    _keep_margin(draw, game)
    inner = max(0.15 if pattern == "checks" else 0.07, draw.safe)
    if data.get("arrow"):
        inner = _marker_arrow(draw, S, data["arrow"], colors["text"], inner)
    x0, x1 = S * inner, S * (1 - inner)
    if text:
        top, bottom = (inner, 0.64) if sub else (inner, 1 - inner)
        h = (bottom - top) * S
        size = min(S * 0.4, h * 0.9)
        fitted = _fit_legibly(draw, text, x1 - x0, h, size, "bold", where, colors["text"],
                              (S / 2, (top + bottom) / 2 * S), colors["bg"], min_scale=0.25)
        drawn = ct.draw_fitted(draw, fitted, S / 2, (top + bottom) / 2 * S, colors["text"])
        ct.note(draw, "marker text", (x0, top * S, x1, bottom * S), drawn, fitted.size, True, colors["text"])
    if sub:
        top = 0.64 if text else inner
        h = (1 - inner - top) * S
        fitted = _fit_legibly(draw, sub, x1 - x0, h, min(S * 0.17, h), "regular", where, colors["text"],
                              (S / 2, (top + 1 - inner) / 2 * S), colors["bg"], min_scale=0.4)
        drawn = ct.draw_fitted(draw, fitted, S / 2, (top + 1 - inner) / 2 * S, colors["text"])
        ct.note(draw, "marker subtext", (x0, top * S, x1, (1 - inner) * S), drawn, fitted.size, ink=colors["text"])


def _marker_arrow(draw, S, way: str, ink, inner: float) -> float:
    """A solid arrow along one edge pointing ``way`` (BCS 3.3d: the OBJ marker's arrow, so the marker may sit
    beside its hex and point at it). Returns the inset that keeps the text clear of it."""
    m, depth = inner, 0.2
    cx = cy = S / 2
    head, half, shaft = S * 0.11, S * 0.09, S * 0.035
    if way in ("up", "down"):
        y_tip = S * m if way == "up" else S * (1 - m)
        sign = 1 if way == "up" else -1
        neck = y_tip + sign * head
        tail = y_tip + sign * S * depth
        pts = [(cx, y_tip), (cx + half, neck), (cx + shaft, neck), (cx + shaft, tail), (cx - shaft, tail),
               (cx - shaft, neck), (cx - half, neck)]
    else:
        x_tip = S * m if way == "left" else S * (1 - m)
        sign = 1 if way == "left" else -1
        neck = x_tip + sign * head
        tail = x_tip + sign * S * depth
        pts = [(x_tip, cy), (neck, cy + half), (neck, cy + shaft), (tail, cy + shaft), (tail, cy - shaft),
               (neck, cy - shaft), (neck, cy - half)]
    draw.polygon(pts, fill=ink)
    ct.mark(draw, f"arrow {way}", ct.union([(x, y, x, y) for x, y in pts]))
    return m + depth + 0.02


# ---------------------------------------------------------------- entry points
def draw_master(game, piece: Piece, face: str, size: int, margin: float | None = None) -> Image.Image:
    """The face drawn at ``size`` pixels square, no downscaling (an RGB image), keeping ``margin`` (a fraction
    of the side; default the print's die-cut safe margin) clear of the edge."""
    img = Image.new("RGB", (size, size), WHITE[:3])
    draw = ImageDraw.Draw(img)
    draw.canvas = img  # for the few shapes that are pasted rather than drawn (rotated text)
    draw.safe = margin if margin is not None else safe_margin(game)
    if piece.kind == "unit":
        _draw_unit(draw, size, game, piece, face)
    else:
        _draw_marker(draw, size, game, piece, face)
    return img


def master_px(sizes: list[int]) -> int:
    """The side of the supersampled drawing every size in ``sizes`` is scaled from: at least twice the largest,
    so a size drawn alone or beside others gets the same pixels."""
    return max(max(sizes) * 2, MASTER_MIN_PX)


def render(game, piece: Piece, face: str, sizes: list[int], margin: float | None = None) -> list[Image.Image]:
    """The face at each pixel size in ``sizes``, all scaled from one supersampled drawing that keeps
    ``margin`` (default: the print's safe margin; the module's images use screen_margin)."""
    side = master_px(sizes)
    budget.check(game, "each counter's drawing", side, side,
                 "game.counter.size_mm, print_dpi or image_px; it is drawn supersampled, at 2 to 4 times its image size")
    master = draw_master(game, piece, face, side, margin)
    return [_downscale(master, s) for s in sizes]


def _downscale(master: Image.Image, size: int) -> Image.Image:
    # Area averaging (BOX) of a >= 2x master is proper anti-aliasing and several times faster than LANCZOS.
    if size == master.width:
        return master
    if master.width % size == 0:
        return master.reduce(master.width // size)
    return master.resize((size, size), Image.BOX)


def outline(img: Image.Image, color=(40, 40, 40)) -> Image.Image:
    """A thin edge for module images, so adjacent counters on the VASSAL map stay distinct."""
    ImageDraw.Draw(img).rectangle((0, 0, img.width - 1, img.height - 1), outline=color, width=1)
    return img
