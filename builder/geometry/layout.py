"""Pixel layout: where hex centres and corners are in the drawn map image.

Lattice frame first: u along the straight lines (adjacent centres ``size`` apart), v across
them (lines ``size*sqrt(3)/2`` apart); a shifted line is moved size/2 along u. Then the
column and row axes are sent to the image directions given by columns_run / rows_run,
and everything is translated so that the bounding box of all whole hexes starts at
(margin, margin). Image y grows downward, so 'north' is -y.
"""
import math
from typing import Iterable

from .hexes import Hex
from .lattice import Lattice, cube_round

SQRT3 = math.sqrt(3.0)
_UNIT = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)}


class Layout:
    def __init__(self, lattice: Lattice, size: float, columns_run: str, rows_run: str,
                 hexes: Iterable[Hex], margin: float = 0.0):
        self.lattice = lattice
        self.size = float(size)
        self.line_gap = self.size * SQRT3 / 2      # distance between adjacent lines
        self.radius = self.size / SQRT3            # centre-to-corner distance
        self.col_dir = _UNIT[columns_run]
        self.row_dir = _UNIT[rows_run]
        # u (along lines) is the column axis for pointy grids, the row axis for flat ones.
        self.u_dir = self.col_dir if lattice.pointy else self.row_dir
        self.v_dir = self.row_dir if lattice.pointy else self.col_dir
        self.u_horizontal = self.u_dir[0] != 0
        self.ox = self.oy = 0.0
        half_w, half_h = self.half_extent()
        xs, ys = [], []
        for h in hexes:
            x, y = self.centre(h)
            xs.append(x)
            ys.append(y)
        if not xs:
            raise ValueError("a layout needs at least one hex")
        self.ox = margin + half_w - min(xs)
        self.oy = margin + half_h - min(ys)
        self.width = max(xs) + self.ox + half_w + margin
        self.height = max(ys) + self.oy + half_h + margin

    def half_extent(self) -> tuple[float, float]:
        """Half width and half height of one hex's bounding box in the image."""
        along, across = self.size / 2, self.radius
        return (along, across) if self.u_horizontal else (across, along)

    def centre(self, h: Hex) -> tuple[float, float]:
        lat = self.lattice
        line, pos = lat.line_pos(h)
        u = (pos + 0.5 * lat.shifted(line)) * self.size
        v = line * self.line_gap
        return (u * self.u_dir[0] + v * self.v_dir[0] + self.ox,
                u * self.u_dir[1] + v * self.v_dir[1] + self.oy)

    def hex_at(self, x: float, y: float) -> Hex:
        """The lattice hex whose polygon contains image point (x, y)."""
        dx, dy = x - self.ox, y - self.oy
        u = dx * self.u_dir[0] + dy * self.u_dir[1]   # axes are orthonormal: dot products
        v = dx * self.v_dir[0] + dy * self.v_dir[1]
        r = v / self.line_gap
        a = 2 * u / self.size                       # doubled coordinate along the line
        q = (a - r - self.lattice.axial_parity) / 2
        qi, ri = cube_round(q, r, -q - r)
        return self.lattice.from_axial(qi, ri)

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        """The six corners of a hex, going round it."""
        cx, cy = self.centre(h)
        half, r = self.size / 2, self.radius
        pts = ((half, r / 2), (0, r), (-half, r / 2), (-half, -r / 2), (0, -r), (half, -r / 2))
        return [(cx + u * self.u_dir[0] + v * self.v_dir[0],
                 cy + u * self.u_dir[1] + v * self.v_dir[1]) for u, v in pts]
