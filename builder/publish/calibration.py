"""A duplex calibration sheet: read your printer's back-page drift off a printed sheet.

The front carries scales in millimetres; the back carries pointer lines behind each scale's zero. Hold the
printed sheet against a light: where a back pointer shows through on a front scale is the correction to add
to --back-offset (x on the horizontal scales, y on the vertical ones). Geometry is in mm from the top-left.

Why the reading is the correction: a back drift of e (mm, in back-page coordinates) puts the pointer at
x = W - (W - cx + e) = cx - e seen from the front, i.e. reading -e on a scale increasing to the right; the
vertical scale increases upwards, so a drift e down reads -e too. Moving the backs by -e cancels the drift.
"""

from __future__ import annotations

from dataclasses import dataclass

from builder.publish.sheet_layout import PAPER_MM

SCALE_MM = 5            # scales run -5 .. +5 mm
TICK_MM = 0.5
Y_SCALE_DX = 10.0       # the vertical scale sits this far right of the horizontal scale's zero


@dataclass(frozen=True)
class Target:
    cx: float           # zero of the horizontal (x) scale, front coordinates
    cy: float
    @property
    def y_scale_x(self) -> float:
        return self.cx + Y_SCALE_DX


RULER_MM = 100         # a ruler each way, to check the printer's scaling (print at 100 %, no 'fit to page')


def rulers(paper: str):
    """(value mm, x0, y0, x1, y1) ticks of a 100 mm horizontal ruler near the foot of the page and a 100 mm
    vertical one down the left margin, each starting at 0; every millimetre, longer every 5 and 10."""
    w, h = PAPER_MM[paper]
    hx, hy = 15.0, h - 28.0                 # horizontal ruler: left end, baseline
    vx, vy = 15.0, h - 48.0 - RULER_MM      # vertical ruler: x, top end
    ticks = []
    for v in range(RULER_MM + 1):
        n = 4.0 if v % 10 == 0 else 2.5 if v % 5 == 0 else 1.5
        ticks.append(("h", v, hx + v, hy - n, hx + v, hy))
        ticks.append(("v", v, vx, vy + v, vx + n, vy + v))
    return ticks


def labels(paper: str):
    """(text, x, y, font size pt, anchor) of every text on the front calibration page, in mm from the top-left
    (y at the text's baseline); anchor 'l' (starts at x) or 'm' (centred on x). Placed so none overlaps another."""
    w, h = PAPER_MM[paper]
    out = []
    for n, t in enumerate(targets(paper), 1):
        out.append((f"target {n}: X (right +)", t.cx, t.cy + 6.0, 6, "m"))
        out.append(("Y (up +)", t.y_scale_x, t.cy - SCALE_MM - 2.0, 6, "m"))
    for kind, v, x0, y0, x1, y1 in rulers(paper):
        if v % 10 == 0:
            if kind == "h":
                out.append((str(v), x0, y0 - 0.8, 5, "m"))
            else:
                out.append((str(v), x1 + 1.0, y0 + 0.9, 5, "l"))
    hx, hy = rulers(paper)[0][2], rulers(paper)[0][5]
    out.append((f"{RULER_MM} mm: check the printer's scale (print at 100 %)", hx, hy + 5.0, 6, "l"))
    vx, vy = rulers(paper)[1][2], rulers(paper)[1][3]
    out.append((f"{RULER_MM} mm", vx, vy - 2.5, 6, "l"))
    return out


def targets(paper: str) -> list[Target]:
    w, h = PAPER_MM[paper]
    return [Target(w * 0.3, h * 0.3), Target(w * 0.5, h * 0.5), Target(w * 0.7, h * 0.72)]


def x_ticks(t: Target):
    """(value mm, x, y_top, y_bottom) of the horizontal scale: value v at x = cx + v."""
    n = int(SCALE_MM / TICK_MM)
    return [(i * TICK_MM, t.cx + i * TICK_MM, t.cy - _tick_len(i), t.cy) for i in range(-n, n + 1)]


def _tick_len(i: int) -> float:
    """Half-millimetre ticks; whole millimetres longer, even ones (the labelled ones) longest."""
    return 4.0 if i % 4 == 0 else 2.8 if i % 2 == 0 else 1.6


def labelled(value: float) -> bool:
    return value == int(value) and int(value) % 2 == 0


def y_ticks(t: Target):
    """(value mm, x_left, x_right, y) of the vertical scale: value v at y = cy - v (positive upwards)."""
    n = int(SCALE_MM / TICK_MM)
    x = t.y_scale_x
    return [(i * TICK_MM, x, x + _tick_len(i), t.cy - i * TICK_MM) for i in range(-n, n + 1)]


def back_pointers(paper: str, t: Target, offset=(0.0, 0.0)):
    """Back-page line segments (x0, y0, x1, y1): one behind the x scale's zero, one behind the y scale's."""
    w = PAPER_MM[paper][0]
    dx, dy = offset
    xb = w - t.cx + dx
    x_pointer = (xb, t.cy - 6.0 + dy, xb, t.cy + 1.5 + dy)
    ys_front = t.y_scale_x
    y_pointer = (w - ys_front - 6.0 + dx, t.cy + dy, w - ys_front + 1.5 + dx, t.cy + dy)
    return x_pointer, y_pointer


def reading(paper: str, t: Target, offset, drift) -> tuple[float, float]:
    """What a person reads on the front scales when the printer moves the back by ``drift`` (mm)."""
    w = PAPER_MM[paper][0]
    x_pointer, y_pointer = back_pointers(paper, t, offset)
    seen_x = w - (x_pointer[0] + drift[0])
    seen_y = y_pointer[1] + drift[1]
    return seen_x - t.cx, t.cy - seen_y
