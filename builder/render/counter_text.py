"""Counter text: expanding slot templates from a unit's fields and face values, and fitting text to a box.

A template like '{attack}-{defense}-{movement}' drops a missing value together with the separator before it
('{defense}-{movement}' for a unit with no attack), and a slot whose values are all missing is not drawn.
Text that cannot fit its slot even at half its size is an error naming the unit, not a clipped counter.
"""

from __future__ import annotations

import string
from dataclasses import dataclass, replace

from builder.errors import BuildError
from builder.render import fonts

UNIT_FIELDS = ("name", "long_name", "code", "size", "formation", "steps", "movement_class", "type")
MIN_SCALE = 0.5  # the smallest a text may shrink to fit, as a fraction of its slot's size


class TextTooLong(BuildError):
    pass


def printed(value) -> str:
    if isinstance(value, bool):
        return "*" if value else ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def unit_field(game, unit: dict, name: str):
    """The printed form of a unit field usable in templates ({name}, {size}, {formation} ...)."""
    if name == "size":
        size = game.by_id["sizes"].get(unit.get("size")) or {}
        return size.get("mark") or None
    if name == "formation":
        form = game.by_id["formations"].get(unit.get("formation")) or {}
        return form.get("name") or unit.get("formation")
    if name == "movement_class":
        utype = game.by_id["unit_types"].get(unit.get("type")) or {}
        return utype.get("movement_class")
    value = unit.get(name)
    return value if value not in ("", None) else None


def lookup(game, unit: dict, values: dict, name: str, where: str):
    """A face value or unit field by name; None when missing; BuildError for a name that is neither."""
    if name in values:
        return values[name]
    if name in game.by_id["values"]:
        return None
    if name in UNIT_FIELDS:
        return unit_field(game, unit, name)
    raise BuildError(f"{where}: the layout's text names {{{name}}}, which is neither a declared value nor a unit "
                     f"field ({', '.join(UNIT_FIELDS)})")


def expand(template: str, game, unit: dict, values: dict, where: str) -> str | None:
    """The slot's text, or None when every value it names is missing."""
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as exc:
        raise BuildError(f"{where}: bad text template {template!r}: {exc}") from None
    lead, parts, trail, fields = "", [], "", 0
    for i, (literal, field, _spec, _conv) in enumerate(parsed):
        if field is None:
            trail = literal
            break
        fields += 1
        if i == 0:
            lead, sep = literal, ""
        else:
            sep = literal
        value = lookup(game, unit, values, field, where)
        text = printed(value) if value is not None else ""
        vdef = game.by_id["values"].get(field)
        limit = vdef.get("max_length") if isinstance(vdef, dict) else None
        if isinstance(limit, int) and len(text) > limit:
            raise TextTooLong(f"{where}: value {field} = {text!r} is too long for its slot "
                              f"(at most {limit} character{'s' * (limit != 1)})")
        if text:
            parts.append((sep if parts else "", text))
    if fields and not parts:
        return None
    if not fields:
        return "".join(literal for literal, *_ in parsed)  # constant text ('Ghost'), braces unescaped
    return lead + "".join(s + t for s, t in parts) + trail


HALO = 0.07        # a halo's width as a fraction of the font size (about 0.2 mm round a printed value) ...
HALO_MIN = 0.011   # ... and at least this fraction of the counter's side (2 px at 300 dpi), so it stays solid


@dataclass
class Fitted:
    lines: list[str]
    size: float          # font size in pixels
    style: str
    halo: tuple | None = None   # the outline colour drawn round the letters (a light ink on a light ground ...)
    stroke: int = 0             # the halo's width in pixels


def halo_width(draw, size: float) -> int:
    """The width (px) of the halo round text of ``size`` px on this drawing."""
    side = min(draw.im.size) if getattr(draw, "im", None) is not None else 0
    return max(1, int(round(max(fonts.font(size).size * HALO, side * HALO_MIN))))


def _wraps(text: str):
    yield [text]
    words = text.split(" ")
    if len(words) > 1:
        best = min(range(1, len(words)), key=lambda k: abs(len(" ".join(words[:k])) - len(" ".join(words[k:]))))
        yield [" ".join(words[:best]), " ".join(words[best:])]
    if len(words) > 2:
        third = max(1, len(words) // 3)
        yield [" ".join(words[:third]), " ".join(words[third:2 * third]), " ".join(words[2 * third:])]


_FITS: dict = {}        # fit's answers by everything they depend on (a build fits the same text ~9 times in 10)
_FITS_KEPT = 20_000


def fit(draw, text: str, box_w: float, box_h: float, size: float, style: str, where: str,
        min_scale: float = MIN_SCALE, wrap: bool = True, halo: tuple | None = None) -> Fitted:
    """The largest size <= ``size`` (px) at which ``text``'s ink fits the box, centred in it, on one line or
    wrapped at spaces (the ink, descenders included, not the font's nominal line height; a ``halo``'s
    outline included). ``size`` is the print's; a drawing with a smaller margin (the module's images)
    enlarges it by ``draw.text_scale``."""
    # the drawing counts by its text scale, its side (the halo's width) and its font mode (the ink boxes)
    key = (text, box_w, box_h, size, style, min_scale, wrap, halo, getattr(draw, "text_scale", 1.0),
           getattr(draw, "im", None) is not None and draw.im.size, draw.fontmode)
    found = _FITS.get(key)
    if found is None:
        found = _fit(draw, text, box_w, box_h, size, style, where, min_scale, wrap, halo)
        if len(_FITS) < _FITS_KEPT:
            _FITS[key] = found
    return replace(found, lines=list(found.lines))   # the caller's own (a Fitted is mutable)


def _fit(draw, text, box_w, box_h, size, style, where, min_scale, wrap, halo) -> Fitted:
    for trial_size in _sizes(size, getattr(draw, "text_scale", 1.0), min_scale):
        for lines in (_wraps(text) if wrap else [[text]]):
            trial = Fitted(lines, trial_size, style, halo, halo_width(draw, trial_size) if halo else 0)
            x0, y0, x1, y1 = fitted_box(draw, trial, 0, 0)
            if x1 - x0 <= box_w and max(-y0, y1) <= box_h / 2 + 0.5:
                return trial
    raise TextTooLong(f"{where}: {text!r} is too long for its slot even at {int(min_scale * 100)}% size")


def _sizes(size: float, text_scale: float, min_scale: float) -> list[float]:
    """The sizes fit tries, largest first: 5 % steps down from ``size`` to ``min_scale`` of it and, when the
    drawing enlarges its text, the same steps from the enlarged size, so it is never smaller than the print's."""
    steps = [size * (1 - 0.05 * k) for k in range(int(round((1 - min_scale) / 0.05)) + 1)]
    if text_scale > 1:
        steps += [v * text_scale for v in steps if v * text_scale > size]
    return sorted(set(steps), reverse=True)


def draw_fitted(draw, fitted: Fitted, cx: float, cy: float, fill, align: str = "m", left: float = 0,
                right: float = 0) -> tuple[float, float, float, float]:
    """Draw fitted lines centred on cy; align 'l'/'m'/'r' uses left, cx or right as the x anchor.
    Returns the box the ink of the text covers."""
    f = fonts.font(fitted.size, fitted.style)
    halo = {"stroke_width": fitted.stroke, "stroke_fill": fitted.halo} if fitted.halo else {}
    for (x, y), line in _placed(fitted, cx, cy, align, left, right):
        draw.text((x, y), line, font=f, fill=fill, anchor=align + "m", **halo)
    return fitted_box(draw, fitted, cx, cy, align, left, right)


def _placed(fitted: Fitted, cx, cy, align, left, right):
    """Each line's anchor point as draw_fitted places it."""
    f = fonts.font(fitted.size, fitted.style)
    asc, desc = f.getmetrics()
    step = (asc + desc) * 0.9
    y = cy - step * (len(fitted.lines) - 1) / 2
    x = {"l": left + fitted.stroke, "r": right - fitted.stroke}.get(align, cx)   # the halo inside the box too
    return [((x, y + k * step), line) for k, line in enumerate(fitted.lines)]


def fitted_box(draw, fitted: Fitted, cx: float, cy: float, align: str = "m", left: float = 0, right: float = 0):
    """The box the ink of draw_fitted's text would cover, without drawing it."""
    f = fonts.font(fitted.size, fitted.style)
    return union([draw.textbbox(xy, line, font=f, anchor=align + "m", stroke_width=fitted.stroke)
                  for xy, line in _placed(fitted, cx, cy, align, left, right)])


def prints_value(template: str, game) -> bool:
    """Whether a slot's template prints a declared value (AR, MA ...), not only unit fields such as the name."""
    try:
        return any(f in game.by_id["values"] for _, f, _, _ in string.Formatter().parse(template) if f)
    except ValueError:
        return False


def union(boxes):
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def note(draw, slot: str, box, ink_box, size: float, value: bool = False, ink=None) -> None:
    """Record where a text was printed, for the legibility checks: its slot's name and box, the box its ink
    covers, its font size (px), whether it prints a value and its ink colour (None: not one colour). Nothing
    is kept unless the caller asked (``draw.notes`` is a list)."""
    notes = getattr(draw, "notes", None)
    if notes is not None:
        notes.append((slot, tuple(box), tuple(ink_box), size, value, tuple(ink[:3]) if ink else None))
    mark(draw, slot, ink_box)


# What a mark is to the marks under and over it (the overlap checks): ink (text, the symbol, size mark, steps,
# arrow) is what a player reads; a ground (band, bar, pattern, the X background) lies under the ink after it;
# 'behind' (a dot or ring) lies under the text of its own slot only.
LAYERS = ("ink", "ground", "behind")


def mark(draw, name: str, box, layer: str = "ink", alpha: int = 255) -> None:
    """Record a mark in drawing order (``draw.marks`` is a list when the caller asked): its name (a text's is
    its slot), the box it covers (pixels), its layer and its opacity (a see-through print hides nothing)."""
    marks = getattr(draw, "marks", None)
    if marks is not None:
        marks.append((name, tuple(float(v) for v in box), layer, alpha))
