"""The Hex value type: one cell of the global lattice."""
from typing import NamedTuple


class Hex(NamedTuple):
    """A hex by its global (column, row) index.

    A NamedTuple rather than a dataclass: immutable, hashable, ordered and several
    times cheaper to create and hash, which matters in path and LOS searches.
    """

    col: int
    row: int

    def __repr__(self) -> str:
        return f"Hex({self.col}, {self.row})"
