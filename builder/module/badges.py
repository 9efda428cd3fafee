"""Small images the module draws over a unit instead of a full-size marker, so the unit stays readable.

* A step-loss badge ("-1", "-2" ...): a layer of the unit itself, drawn right of the symbol between the
  step squares and the Range, the one place no BCS counter layout prints anything (on every face of
  every PLS unit that can lose a step: tests/test_module_badges.py), so it hides no value or symbol
  (games whose losses are step-loss markers, e.g. BCS).
* Status tags (fatigue, Prepared Defense ...): markers the set-ups put with units are drawn as a tag over
  the top edge of the counter (formation bar, size mark and step squares), one half for each kind, above
  the loss badge, so the unit's symbol and values stay visible under them; they remain markers a player
  moves and flips.

Every image is a transparent canvas of the module counter's size (the layer needs no offset), drawn
with Pillow and the shipped font, so equal data give equal bytes.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from builder.render import fonts
from builder.render.counter_build import png_bytes

LOSS_BOX = (0.7, 0.225, 0.95, 0.41)         # x0, y0, x1, y1 as fractions of the counter
TAG_BOXES = ((0.0, 0.0, 0.5, 0.22), (0.5, 0.0, 1.0, 0.22))
LOSS_FILL, LOSS_TEXT = (200, 16, 46, 255), (255, 255, 255, 255)


def _box(px: int, frac) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = frac
    return round(x0 * px), round(y0 * px), round(x1 * px) - 1, round(y1 * px) - 1


def _label(draw, box, text: str, fill, style: str = "bold") -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0 - 2, y1 - y0 - 1
    size = max(6, h * 0.85)
    f = fonts.font(size, style)
    while size > 6 and draw.textlength(text, font=f) > w:
        size -= 0.5
        f = fonts.font(size, style)
    draw.text(((x0 + x1 + 1) / 2, (y0 + y1 + 1) / 2), text, font=f, fill=fill, anchor="mm")


def _rgba(colour: str | None, default) -> tuple:
    if isinstance(colour, str) and colour.startswith("#") and len(colour) == 7:
        return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5)) + (255,)
    return default


def loss_badge(px: int, losses: int) -> bytes:
    img = Image.new("RGBA", (px, px), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    box = _box(px, LOSS_BOX)
    draw.rectangle(box, fill=LOSS_FILL, outline=(255, 255, 255, 255), width=1)
    _label(draw, box, f"-{losses}", LOSS_TEXT)
    return png_bytes(img)


def status_tag(px: int, face: dict, slot: int) -> bytes:
    """A tag with the marker face's text and colours (``front``/``back`` of a marker) in its half."""
    img = Image.new("RGBA", (px, px), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    box = _box(px, TAG_BOXES[slot % len(TAG_BOXES)])
    draw.rectangle(box, fill=_rgba(face.get("background"), (255, 255, 255, 255)), outline=(0, 0, 0, 255), width=1)
    _label(draw, box, str(face.get("text") or ""), _rgba(face.get("color"), (0, 0, 0, 255)))
    return png_bytes(img)


def loss_image(losses: int) -> str:
    return f"badge-loss-{losses}.png"


def tag_image(marker_id: str, face: str) -> str:
    return f"badge-tag-{marker_id}-{face}.png"


def images_for(game, defs, px: int, tags: dict) -> dict[str, bytes]:
    """Every badge image the pieces use: name -> PNG bytes."""
    out = {}
    for k in range(1, max((d.max_losses for d in defs), default=0) + 1):
        out[loss_image(k)] = loss_badge(px, k)
    for mid, slot in tags.items():
        marker = game.by_id["markers"][mid]
        for face in ("front", "back"):
            if isinstance(marker.get(face), dict):
                out[tag_image(mid, face)] = status_tag(px, marker[face], slot)
    return out
