"""Validate a grid spec (the ``grid:`` mapping of a map file) into frozen dataclasses.

The spec (JSON Schema: schemas/grid.schema.json) describes a hex lattice as data:

orientation  'pointy': every row is a straight line of hexes sharing sides, the columns
             zig-zag (drawn with rows horizontal: pointy-topped hexes, VASSAL 'sideways').
             'flat': every column is a straight line (drawn with columns vertical:
             flat-topped hexes, VASSAL's default).
stagger      'even' | 'odd'. pointy: rows whose global row *index* has this parity sit half
             a hex toward increasing column index; flat: columns whose global column index
             has this parity sit half a hex toward increasing row index. The index is the
             number, not the label (letters with first 1: A = 1, so B is even).
hex_size     pixels between adjacent hex centres (flat-to-flat width) in the drawn image.
margin       optional blank border (pixels) around the hexes' bounding box; default 0.
columns/rows {first, last, labels}: inclusive index ranges; labels 'numbers' (default) or
             'letters' (first index -> A, see labels.py). With sheets these are the default
             local ranges (and the label style) of every sheet.
id           template with tokens {col} {row} and, with sheets only, {sheet};
             {col:0N}/{row:0N} zero-pads a numeric label to N digits.
rows_run     image direction of increasing row index: north (= up), south, east (= right),
             west; columns_run likewise; the two must be perpendicular. Defaults north/east.
sheets       optional list of {id, origin: {col, row}, columns?, rows?}: several sheets on
             one lattice, global index = origin + local index. A hex on several sheets has
             every sheet's ID as an alias; the first sheet listed gives its canonical ID.
"""
from dataclasses import dataclass
from typing import Any, Mapping

from .errors import GridSpecError
from .hex_ids import IdTemplate

DIRECTIONS = ("north", "south", "east", "west")
MAX_HEXES = 250_000
_AXIS_OF = {"north": "v", "south": "v", "east": "h", "west": "h"}


@dataclass(frozen=True)
class Axis:
    first: int
    last: int
    labels: str = "numbers"


@dataclass(frozen=True)
class Sheet:
    """One numbering area. ``id`` is None for a grid without sheets."""

    id: str | None
    columns: Axis
    rows: Axis
    origin_col: int = 0
    origin_row: int = 0


@dataclass(frozen=True)
class GridSpec:
    orientation: str
    stagger: str
    hex_size: float
    margin: float
    columns: Axis
    rows: Axis
    id: IdTemplate
    rows_run: str
    columns_run: str
    sheets: tuple[Sheet, ...]
    has_sheets: bool


_TOP_KEYS = {"orientation", "stagger", "hex_size", "margin", "columns", "rows", "id",
             "rows_run", "columns_run", "sheets"}


def parse_grid_spec(data: Any, where: str = "grid") -> GridSpec:
    """Check ``data`` (a mapping as loaded from YAML) and return a GridSpec.

    Raises GridSpecError naming the offending field (e.g. ``grid.rows.labels``).
    """
    _mapping(data, where)
    _no_extra(data, _TOP_KEYS, where)
    orientation = _enum(data, "orientation", ("pointy", "flat"), where)
    stagger = _enum(data, "stagger", ("even", "odd"), where)
    hex_size = _number(data, "hex_size", where, required=True, positive=True)
    margin = _number(data, "margin", where, required=False, positive=False) or 0
    columns = _axis(data, "columns", where, with_labels=True)
    rows = _axis(data, "rows", where, with_labels=True)
    rows_run = _enum(data, "rows_run", DIRECTIONS, where, default="north")
    columns_run = _enum(data, "columns_run", DIRECTIONS, where, default="east")
    if _AXIS_OF[rows_run] == _AXIS_OF[columns_run]:
        raise GridSpecError(f"{where}.columns_run",
                            f"{columns_run!r} is parallel to rows_run {rows_run!r}; "
                            "they must be perpendicular")
    has_sheets = "sheets" in data
    sheets = _sheets(data, columns, rows, where) if has_sheets else (
        Sheet(None, columns, rows),)
    # Every hex is indexed up front; refuse sizes no real map has before that costs minutes.
    count = sum((s.columns.last - s.columns.first + 1) * (s.rows.last - s.rows.first + 1) for s in sheets)
    if count > MAX_HEXES:
        raise GridSpecError(f"{where}.columns", f"the grid has {count:,} hexes, over the limit of {MAX_HEXES:,}")
    if "id" not in data:
        raise GridSpecError(f"{where}.id", "required field is missing")
    template = IdTemplate.compile(data["id"], f"{where}.id", has_sheets,
                                  col_labels=columns.labels, row_labels=rows.labels)
    return GridSpec(orientation, stagger, hex_size, margin, columns, rows, template,
                    rows_run, columns_run, sheets, has_sheets)


def _sheets(data, columns: Axis, rows: Axis, where: str) -> tuple[Sheet, ...]:
    items = data["sheets"]
    path = f"{where}.sheets"
    if not isinstance(items, list) or not items:
        raise GridSpecError(path, "expected a non-empty list of sheets")
    sheets, seen = [], set()
    for i, item in enumerate(items):
        p = f"{path}[{i}]"
        _mapping(item, p)
        _no_extra(item, {"id", "columns", "rows", "origin"}, p)
        sid = item.get("id")
        if not isinstance(sid, str) or not sid or any(c in sid for c in "${}"):
            raise GridSpecError(f"{p}.id", f"expected a non-empty string without $ {{ }}, got {sid!r}")
        if sid in seen:
            raise GridSpecError(f"{p}.id", f"duplicate sheet id {sid!r}")
        seen.add(sid)
        cols = _axis(item, "columns", p, with_labels=False, default=columns)
        rws = _axis(item, "rows", p, with_labels=False, default=rows)
        if "origin" not in item:
            raise GridSpecError(f"{p}.origin", "required field is missing")
        origin = item["origin"]
        _mapping(origin, f"{p}.origin")
        _no_extra(origin, {"col", "row"}, f"{p}.origin")
        ocol = _integer(origin, "col", f"{p}.origin")
        orow = _integer(origin, "row", f"{p}.origin")
        sheets.append(Sheet(sid, Axis(cols.first, cols.last, columns.labels),
                            Axis(rws.first, rws.last, rows.labels), ocol, orow))
    return tuple(sheets)


def _axis(data, key: str, where: str, with_labels: bool, default: Axis | None = None) -> Axis:
    path = f"{where}.{key}"
    if key not in data:
        if default is not None:
            return default
        raise GridSpecError(path, "required field is missing")
    value = data[key]
    _mapping(value, path)
    allowed = {"first", "last", "labels"} if with_labels else {"first", "last"}
    _no_extra(value, allowed, path)
    first = _integer(value, "first", path)
    last = _integer(value, "last", path)
    for name, v in (("first", first), ("last", last)):
        if v < 0:
            raise GridSpecError(f"{path}.{name}", f"must be >= 0, got {v}")
    if last < first:
        raise GridSpecError(f"{path}.last", f"{last} is below first ({first})")
    labels = _enum(value, "labels", ("numbers", "letters"), path, default="numbers") \
        if with_labels else "numbers"
    return Axis(first, last, labels)


def _mapping(value, path: str) -> None:
    if not isinstance(value, Mapping):
        raise GridSpecError(path, f"expected a mapping, got {type(value).__name__}")


def _no_extra(value: Mapping, allowed: set, path: str) -> None:
    extra = sorted(str(k) for k in value if k not in allowed)
    if extra:
        raise GridSpecError(f"{path}.{extra[0]}",
                            f"unknown field (allowed: {', '.join(sorted(allowed))})")


def _enum(data: Mapping, key: str, choices, where: str, default=None) -> str:
    if key not in data:
        if default is None:
            raise GridSpecError(f"{where}.{key}", "required field is missing")
        return default
    value = data[key]
    if value not in choices or not isinstance(value, str):
        raise GridSpecError(f"{where}.{key}",
                            f"expected one of {', '.join(choices)}; got {value!r}")
    return value


def _integer(data: Mapping, key: str, where: str) -> int:
    if key not in data:
        raise GridSpecError(f"{where}.{key}", "required field is missing")
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise GridSpecError(f"{where}.{key}", f"expected an integer, got {value!r}")
    return value


def _number(data: Mapping, key: str, where: str, required: bool, positive: bool):
    if key not in data:
        if required:
            raise GridSpecError(f"{where}.{key}", "required field is missing")
        return None
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise GridSpecError(f"{where}.{key}", f"expected a number, got {value!r}")
    if positive and value <= 0 or value < 0:
        raise GridSpecError(f"{where}.{key}",
                            f"must be {'> 0' if positive else '>= 0'}, got {value!r}")
    return value
