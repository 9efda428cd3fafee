"""Exceptions raised by builder.geometry (all are ValueErrors)."""


class GeometryError(ValueError):
    """Base class of every geometry error."""


class GridSpecError(GeometryError):
    """A grid spec is malformed; ``field`` is the dotted path of the bad field."""

    def __init__(self, field: str, message: str):
        self.field = field
        super().__init__(f"{field}: {message}")


class OutsideGridError(GeometryError):
    """A hex that is not part of the grid was given where a grid hex is required."""


class NotAdjacentError(GeometryError):
    """Two hexes that do not share a side were given where a hexside is required."""
