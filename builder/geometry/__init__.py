"""Hex-grid geometry with no I/O: lattices, hex IDs as data, pixel layout, VASSAL grid maths.

Usage::

    grid = Grid.from_spec(yaml.safe_load(text)["grid"])
    h = grid.parse("R17"); grid.name(h); grid.neighbours(h); grid.centre(h)
"""
from .errors import GeometryError, GridSpecError, NotAdjacentError, OutsideGridError
from .grid import Grid
from .hexes import Hex
from .spec import GridSpec, parse_grid_spec

__all__ = ["Grid", "Hex", "GridSpec", "parse_grid_spec", "GeometryError", "GridSpecError",
           "NotAdjacentError", "OutsideGridError"]
