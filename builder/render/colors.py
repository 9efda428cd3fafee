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
