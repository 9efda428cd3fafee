"""Topology of an offset hex lattice: neighbours, distance, lines (no pixels, no names).

Internally a hex is seen as (L, P): L indexes the straight lines of hexes (rows for a
'pointy' grid, columns for a 'flat' one) and P the position along its line. Lines whose L
has the stagger parity are shifted half a hex toward increasing P. Converting to cube
coordinates (via doubled coordinates a = 2P + shift(L)) reduces neighbours, distance and
lines to the textbook cube algorithms.
"""
from .hexes import Hex

# Cube directions in a fixed order (gives neighbours() a deterministic order).
_CUBE_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
# Nudge for line(): breaks ties when the line runs exactly along a hexside, always
# toward the same side so the result is deterministic (Red Blob Games' epsilon trick).
_NUDGE = (1e-6, 2e-6, -3e-6)


class Lattice:
    def __init__(self, orientation: str, stagger: str):
        self.pointy = orientation == "pointy"
        self.shift_parity = 0 if stagger == "even" else 1
        # a - L has constant parity over the lattice; subtract it to make q an integer.
        self.axial_parity = 1 if stagger == "even" else 0

    # -- (col,row) <-> (L,P) <-> cube ------------------------------------------------
    def shifted(self, line: int) -> int:
        """1 if the line with this index is shifted half a hex toward increasing P."""
        return 1 if line % 2 == self.shift_parity else 0

    def line_pos(self, h: Hex) -> tuple[int, int]:
        return (h.row, h.col) if self.pointy else (h.col, h.row)

    def from_line_pos(self, line: int, pos: int) -> Hex:
        return Hex(pos, line) if self.pointy else Hex(line, pos)

    def to_axial(self, h: Hex) -> tuple[int, int]:
        line, pos = (h.row, h.col) if self.pointy else (h.col, h.row)
        a = 2 * pos + (1 if line % 2 == self.shift_parity else 0)
        return (a - line - self.axial_parity) // 2, line

    def from_axial(self, q: int, r: int) -> Hex:
        a = 2 * q + r + self.axial_parity
        pos = (a - (1 if r % 2 == self.shift_parity else 0)) // 2
        return Hex(pos, r) if self.pointy else Hex(r, pos)

    # -- topology -------------------------------------------------------------------
    def neighbours(self, h: Hex) -> list[Hex]:
        """The six lattice neighbours (whether or not they are on the map)."""
        q, r = self.to_axial(h)
        return [self.from_axial(q + dq, r + dr) for dq, dr in _CUBE_DIRECTIONS]

    def distance(self, a: Hex, b: Hex) -> int:
        qa, ra = self.to_axial(a)
        qb, rb = self.to_axial(b)
        dq, dr = qa - qb, ra - rb
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def adjacent(self, a: Hex, b: Hex) -> bool:
        return self.distance(a, b) == 1

    def line(self, a: Hex, b: Hex) -> list[Hex]:
        """Hexes whose centres are nearest to evenly spaced points of segment a-b.

        distance(a, b) + 1 hexes, each adjacent to the previous; ties (the segment
        running along a hexside) go to the side the fixed nudge points at.
        """
        n = self.distance(a, b)
        qa, ra = self.to_axial(a)
        qb, rb = self.to_axial(b)
        if n == 0:
            return [a]
        ax, ay, az = qa + _NUDGE[0], ra + _NUDGE[1], -qa - ra + _NUDGE[2]
        bx, by, bz = qb + _NUDGE[0], rb + _NUDGE[1], -qb - rb + _NUDGE[2]
        out = []
        for i in range(n + 1):
            t = i / n
            q, r = cube_round(ax + (bx - ax) * t, ay + (by - ay) * t, az + (bz - az) * t)
            out.append(self.from_axial(q, r))
        return out


def cube_round(x: float, y: float, z: float) -> tuple[int, int]:
    """Nearest cube coordinate to fractional (x, y, z); returns axial (q, r)."""
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    return int(rx), int(ry)
