"""Counter text: expanding slot templates from a unit's fields and face values, and fitting text to a box.

A template like '{attack}-{defense}-{movement}' drops a missing value together with the separator before it
('{defense}-{movement}' for a unit with no attack), and a slot whose values are all missing is not drawn.
Text that cannot fit its slot even at half its size is an error naming the unit, not a clipped counter.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

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


@dataclass
class Fitted:
    lines: list[str]
    size: float          # font size in pixels
    style: str


def _measure(draw, lines, f):
    widths = [draw.textlength(line, font=f) for line in lines]
    asc, desc = f.getmetrics()
    return max(widths) if widths else 0, len(lines) * (asc + desc) * 0.9


def _wraps(text: str):
    yield [text]
    words = text.split(" ")
    if len(words) > 1:
        best = min(range(1, len(words)), key=lambda k: abs(len(" ".join(words[:k])) - len(" ".join(words[k:]))))
        yield [" ".join(words[:best]), " ".join(words[best:])]
    if len(words) > 2:
        third = max(1, len(words) // 3)
        yield [" ".join(words[:third]), " ".join(words[third:2 * third]), " ".join(words[2 * third:])]


def fit(draw, text: str, box_w: float, box_h: float, size: float, style: str, where: str,
        min_scale: float = MIN_SCALE, wrap: bool = True) -> Fitted:
    """The largest size <= ``size`` (px) at which ``text`` fits the box, on one line or wrapped at spaces."""
    scale = 1.0
    while scale >= min_scale - 1e-9:
        f = fonts.font(size * scale, style)
        for lines in (_wraps(text) if wrap else [[text]]):
            w, h = _measure(draw, lines, f)
            if w <= box_w and h <= box_h * 1.15:
                return Fitted(lines, size * scale, style)
        scale -= 0.05
    raise TextTooLong(f"{where}: {text!r} is too long for its slot even at {int(min_scale * 100)}% size")


def draw_fitted(draw, fitted: Fitted, cx: float, cy: float, fill, align: str = "m", left: float = 0,
                right: float = 0) -> None:
    """Draw fitted lines centred on cy; align 'l'/'m'/'r' uses left, cx or right as the x anchor."""
    f = fonts.font(fitted.size, fitted.style)
    asc, desc = f.getmetrics()
    step = (asc + desc) * 0.9
    y = cy - step * (len(fitted.lines) - 1) / 2
    x = {"l": left, "r": right}.get(align, cx)
    for line in fitted.lines:
        draw.text((x, y), line, font=f, fill=fill, anchor=align + "m")
        y += step
