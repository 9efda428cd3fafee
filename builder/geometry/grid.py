"""Grid: a hex lattice with its map extent, hex IDs and pixel layout (the public facade)."""
from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from .errors import GridSpecError, NotAdjacentError, OutsideGridError
from .hexes import Hex
from .lattice import Lattice
from .layout import Layout
from .spec import GridSpec, Sheet, parse_grid_spec


@dataclass(frozen=True)
class SheetExtent:
    """A sheet's hexes in global indices (inclusive ranges)."""

    sheet: Sheet
    col_min: int
    col_max: int
    row_min: int
    row_max: int

    def contains(self, h: Hex) -> bool:
        return self.col_min <= h.col <= self.col_max and self.row_min <= h.row <= self.row_max

    def hexes(self) -> Iterator[Hex]:
        for col in range(self.col_min, self.col_max + 1):
            for row in range(self.row_min, self.row_max + 1):
                yield Hex(col, row)


class Grid:
    """A map's hex grid built from a grid spec (see spec.py for the spec's meaning).

    >>> g = Grid.from_spec({"orientation": "pointy", "stagger": "even", "hex_size": 96,
    ...     "columns": {"first": 1, "last": 39},
    ...     "rows": {"first": 1, "last": 26, "labels": "letters"}, "id": "{row}{col}"})
    >>> sorted(g.name(n) for n in g.neighbours(g.parse("R17")))
    ['Q17', 'Q18', 'R16', 'R18', 'S17', 'S18']
    """

    def __init__(self, spec: GridSpec):
        self.spec = spec
        self.lattice = Lattice(spec.orientation, spec.stagger)
        self.extents = tuple(
            SheetExtent(s, s.origin_col + s.columns.first, s.origin_col + s.columns.last,
                        s.origin_row + s.rows.first, s.origin_row + s.rows.last)
            for s in spec.sheets)
        self._hexes = tuple(sorted({h for e in self.extents for h in e.hexes()}))
        self._hex_set = frozenset(self._hexes)
        self._names: dict[Hex, tuple[str, ...]] = {}
        self._by_name: dict[str, Hex] = {}
        self._neighbours: dict[Hex, tuple[Hex, ...]] = {}
        self._index_names()
        self.layout = Layout(self.lattice, spec.hex_size, spec.columns_run, spec.rows_run,
                             self._hexes, spec.margin)

    @classmethod
    def from_spec(cls, data: Mapping[str, Any]) -> "Grid":
        """Build from the ``grid:`` mapping (a mapping whose only key is 'grid' also works)."""
        if isinstance(data, Mapping) and set(data) == {"grid"}:
            data = data["grid"]
        return cls(parse_grid_spec(data))

    def _index_names(self) -> None:
        # Precomputing every alias makes parse() a dict lookup, accepts exactly the
        # canonical spellings, and detects templates that give two hexes one ID.
        tpl = self.spec.id
        names: dict[Hex, list[str]] = {}
        for ext in self.extents:
            s = ext.sheet
            for h in ext.hexes():
                text = tpl.format(s.id, h.col - s.origin_col, h.row - s.origin_row,
                                  s.columns.first, s.rows.first)
                other = self._by_name.get(text)
                if other is not None and other != h:
                    raise GridSpecError("grid.id", f"template {tpl.source!r} gives the same "
                                        f"ID {text!r} to two hexes {other} and {h}")
                self._by_name[text] = h
                names.setdefault(h, []).append(text)
        self._names = {h: tuple(v) for h, v in names.items()}

    # -- membership and names ---------------------------------------------------------
    def contains(self, h: Hex) -> bool:
        return h in self._hex_set

    __contains__ = contains

    def all_hexes(self) -> tuple[Hex, ...]:
        """Every hex once, sorted by (col, row) in the global lattice."""
        return self._hexes

    def __len__(self) -> int:
        return len(self._hexes)

    def parse(self, hex_id: str) -> Hex | None:
        """The hex with this ID (canonical or alias), or None if there is none."""
        return self._by_name.get(hex_id)

    def name(self, h: Hex) -> str:
        """Canonical ID (that of the first sheet listed that has the hex)."""
        return self.names(h)[0]

    def names(self, h: Hex) -> tuple[str, ...]:
        """Every ID of the hex, canonical first (several only on sheet seams)."""
        try:
            return self._names[h]
        except KeyError:
            raise OutsideGridError(f"{h} is not on the grid") from None

    def sheets_of(self, h: Hex) -> tuple[str | None, ...]:
        return tuple(e.sheet.id for e in self.extents if e.contains(h))

    def extent(self, sheet_id: str | None) -> SheetExtent:
        for e in self.extents:
            if e.sheet.id == sheet_id:
                return e
        raise KeyError(f"no sheet {sheet_id!r}")

    # -- topology -----------------------------------------------------------------
    def neighbours(self, h: Hex) -> tuple[Hex, ...]:
        """Adjacent hexes that are on the grid, in a fixed order."""
        # Memoised: searches (supply, paths, ZOC) ask for the same hexes again and again.
        found = self._neighbours.get(h)
        if found is None:
            found = tuple(n for n in self.lattice.neighbours(h) if n in self._hex_set)
            self._neighbours[h] = found
        return found

    def distance(self, a: Hex, b: Hex) -> int:
        """Hex count of the shortest lattice path (ignores the map's edges)."""
        return self.lattice.distance(a, b)

    def hexside(self, a: Hex, b: Hex) -> frozenset:
        """The side shared by two adjacent hexes, as an unordered pair."""
        if self.lattice.distance(a, b) != 1:
            raise NotAdjacentError(f"{a} and {b} are not adjacent")
        return frozenset((a, b))

    def line(self, a: Hex, b: Hex) -> list[Hex]:
        """Hexes along the straight line a..b (may leave the map near ragged edges)."""
        return self.lattice.line(a, b)

    # -- pixels -------------------------------------------------------------------
    def centre(self, h: Hex) -> tuple[float, float]:
        return self.layout.centre(h)

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        return self.layout.corners(h)

    def hex_at(self, x: float, y: float) -> Hex | None:
        """The grid hex under image point (x, y), or None off the grid."""
        h = self.layout.hex_at(x, y)
        return h if h in self._hex_set else None

    @property
    def image_size(self) -> tuple[float, float]:
        """Width and height of an image holding every whole hex plus the margin."""
        return self.layout.width, self.layout.height

    def pixel_bounds(self, hexes) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of the whole-hex bounding box of ``hexes``."""
        hw, hh = self.layout.half_extent()
        xs, ys = zip(*(self.layout.centre(h) for h in hexes))
        return min(xs) - hw, min(ys) - hh, max(xs) + hw, max(ys) + hh
