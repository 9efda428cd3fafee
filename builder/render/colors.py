"""Colour parsing shared by counter and map rendering: '#RRGGBB' or '#RRGGBBAA' -> an RGBA tuple."""

from __future__ import annotations

import re

from builder.errors import BuildError

_HEX = re.compile(r"^#([0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$")


def parse_color(value, where: str = "colour") -> tuple[int, int, int, int]:
    """RGBA of a '#RRGGBB[AA]' string; BuildError naming ``where`` for anything else."""
    if isinstance(value, tuple) and len(value) == 4:
        return value
    if not isinstance(value, str) or not _HEX.match(value):
        raise BuildError(f"{where}: unknown colour {value!r}; write it as #RRGGBB or #RRGGBBAA")
    digits = value[1:]
    rgba = tuple(int(digits[i:i + 2], 16) for i in range(0, len(digits), 2))
    return rgba if len(rgba) == 4 else (*rgba, 255)


def luminance(rgba) -> float:
    """Perceived brightness 0..1 (Rec. 601 weights), to pick a contrasting ink."""
    r, g, b = rgba[:3]
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255


def contrast(rgba) -> tuple[int, int, int, int]:
    """Black or white, whichever reads better on ``rgba``."""
    return (0, 0, 0, 255) if luminance(rgba) > 0.5 else (255, 255, 255, 255)


def darker(rgba, factor: float = 0.6) -> tuple[int, int, int, int]:
    r, g, b, a = rgba
    return (int(r * factor), int(g * factor), int(b * factor), a)


MIN_CONTRAST = 3.0   # WCAG 2 contrast for large or bold text: what a printed value needs against its ground


def relative_luminance(rgba) -> float:
    """WCAG 2 relative luminance 0..1 (linearised sRGB)."""
    def lin(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = rgba[:3]
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def contrast_ratio(a, b) -> float:
    """WCAG 2 contrast ratio of two colours, 1 (none) to 21 (black on white)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def halo_for(ink, ground, minimum: float = MIN_CONTRAST):
    """The outline colour an ink needs to read on ``ground`` (None when it reads as it is): black or white,
    whichever best sets the letters off both from their ink and from the ground (a white Leg MA on light
    grey gets a dark edge; a red MA on a red counter a white one), so the data's colour convention stays."""
    if contrast_ratio(ink, ground) >= minimum:
        return None
    black, white = (0, 0, 0, 255), (255, 255, 255, 255)
    return max((black, white), key=lambda h: min(contrast_ratio(ink, h), contrast_ratio(h, ground)))
