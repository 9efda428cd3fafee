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


@lru_cache(maxsize=512)
def _load(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


_FOUND: dict = {}   # (font folder, style) -> its file, once seen: checking on every call was 50 k stats a build


def font(size: float, style: str = "regular") -> ImageFont.FreeTypeFont:
    """A Pillow font of ``size`` pixels (em height), cached."""
    path = _FOUND.get((FONT_DIR, style))
    if path is None:
        path = _FOUND[(FONT_DIR, style)] = str(font_path(style))
    return _load(path, max(1, int(round(size))))
