"""The fonts shipped inside the package (DejaVu Sans, Bitstream Vera licence: fontdata/LICENSE-DejaVu.txt).

Shipping the files (rather than asking the system) keeps rendering identical on every machine, so images and
PDFs are byte-for-byte reproducible. Shared by counter and map rendering.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

from builder.errors import BuildError

FONT_DIR = Path(__file__).resolve().parent / "fontdata"
FONTS = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "condensed-bold": "DejaVuSansCondensed-Bold.ttf",
}


class FontMissing(BuildError):
    """A shipped font file is absent (a broken install)."""


def font_path(style: str = "regular") -> Path:
    """The file of a shipped font style; FontMissing names the file and the fix."""
    try:
        name = FONTS[style]
    except KeyError:
        raise BuildError(f"unknown font style {style!r}; known: {', '.join(FONTS)}") from None
    path = FONT_DIR / name
    if not path.is_file():
        raise FontMissing(f"font file {path} is missing (it ships with vassal-builder); reinstall the package "
                          "with 'pip install -e .' or restore builder/render/fontdata/")
    return path


class MemoFont(ImageFont.FreeTypeFont):
    """A FreeType font that remembers the ink boxes and glyph masks it has made: a build measures and
    draws the same few texts ('4', '2-3', a unit size) at the same sizes thousands of times (fitting
    tries each size, every counter of a formation repeats its marks). The answers are FreeType's own,
    given again for the same arguments, so the pixels are the same as without the memo. A mask is a
    read-only stencil Pillow draws through; colour (RGBA) masks are altered by Pillow and not kept."""

    MAX_KEPT = 50_000   # per font: a map's hex numbers are all different, so the memo is bounded

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._boxes: dict = {}
        self._masks: dict = {}

    def getbbox(self, text, mode="", direction=None, features=None, language=None, stroke_width=0, anchor=None):
        key = (text, mode, direction, features and tuple(features), language, stroke_width, anchor)
        box = self._boxes.get(key)
        if box is None:
            box = super().getbbox(text, mode, direction, features, language, stroke_width, anchor)
            if len(self._boxes) < self.MAX_KEPT:
                self._boxes[key] = box
        return box

    def getmask2(self, text, mode="", direction=None, features=None, language=None, stroke_width=0,
                 anchor=None, ink=0, start=None, *args, **kwargs):
        if args or mode == "RGBA":
            return super().getmask2(text, mode, direction, features, language, stroke_width, anchor, ink, start,
                                    *args, **kwargs)
        key = (text, mode, direction, features and tuple(features), language, stroke_width, anchor, ink,
               start and tuple(start), tuple(sorted(kwargs.items())))
        made = self._masks.get(key)
        if made is None:
            made = super().getmask2(text, mode, direction, features, language, stroke_width, anchor, ink, start,
                                    **kwargs)
            if len(self._masks) < self.MAX_KEPT:
                self._masks[key] = made
        return made


@lru_cache(maxsize=512)
def _load(path: str, size: int) -> ImageFont.FreeTypeFont:
    return MemoFont(path, size)


_FOUND: dict = {}   # (font folder, style) -> its file, once seen: checking on every call was 50 k stats a build


def font(size: float, style: str = "regular") -> ImageFont.FreeTypeFont:
    """A Pillow font of ``size`` pixels (em height), cached."""
    path = _FOUND.get((FONT_DIR, style))
    if path is None:
        path = _FOUND[(FONT_DIR, style)] = str(font_path(style))
    return _load(path, max(1, int(round(size))))
