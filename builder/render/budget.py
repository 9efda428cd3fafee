"""The pixel budget: every image the build draws is checked against it before it is drawn, so data that
validates (hex_size 5000, a counter of 2 m, a grid of 8 x 25,000 hexes) is refused in one line rather than
exhausting memory. 100 megapixels of RGB is about 300 MB (RGBA 400 MB): a build stays under 512 MB.
A game raises or lowers it with ``game.max_image_megapixels``."""

from __future__ import annotations

from builder.errors import BuildError

DEFAULT_MEGAPIXELS = 100


class OverBudget(BuildError):
    """An image would be larger than the pixel budget."""


def megapixels(game) -> float:
    info = (getattr(game, "doc", None) or {}).get("game") or {}
    value = info.get("max_image_megapixels") if isinstance(info, dict) else None
    return float(value) if isinstance(value, (int, float)) and value > 0 else float(DEFAULT_MEGAPIXELS)


def check(game, what: str, width: int, height: int, hint: str = "") -> None:
    """Raise OverBudget naming ``what``, its size and how to change either, when width x height is over."""
    limit = megapixels(game)
    if width * height > limit * 1e6:
        raise OverBudget(f"{what} would be {width:,} x {height:,} px ({width * height / 1e6:,.0f} megapixels), "
                         f"over the pixel budget of {limit:g} megapixels; make it smaller"
                         f"{' (' + hint + ')' if hint else ''} or raise game.max_image_megapixels")
