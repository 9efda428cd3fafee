"""The hex-terrain layer resolved to one terrain id per hex, and the checks only this can make.

A map's ``terrain:`` gives a default, compact rows of one-character codes and single hexes. The renderer
and the rules read one answer per hex; the validator needs to know, for every hex set, which YAML value
set it, so that a bad code, a row running off the grid or a hex set twice is reported at file:line.
A code of '.' or ' ' keeps the default and so defines nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from builder.gamedata.diagnostics import Diagnostic, format_path
from builder.gamedata.yamlsource import locate
from builder.geometry.hexes import Hex
from builder.geometry.labels import letters_ordinal

KEEP = ".  "


@dataclass
class TerrainLayer:
    default: str | None = None
    by_hex: dict = field(default_factory=dict)   # Hex -> terrain id (rows and hexes)
    origin: dict = field(default_factory=dict)   # Hex -> data path that set it

    def terrain(self, h: Hex) -> str | None:
        return self.by_hex.get(h, self.default)


def _index(label, axis) -> int | None:
    """Local index of a row or column label on an axis of the grid spec."""
    if axis.labels == "letters":
        ordinal = letters_ordinal(str(label))
        return None if ordinal is None else axis.first + ordinal
    try:
        return int(str(label), 10)
    except ValueError:
        return None


def _extent(grid, sheet_id):
    return grid.extent(sheet_id if grid.spec.has_sheets else None)


def resolve(map_doc, grid) -> tuple[TerrainLayer, list[Diagnostic]]:
    """Terrain per hex plus diagnostics (never raises on bad data)."""
    layer, out = TerrainLayer(), []
    terrain = map_doc.get("terrain") if isinstance(map_doc, dict) else None
    if not isinstance(terrain, dict) or grid is None:
        return layer, out

    def error(path, message):
        file, line, col = locate(map_doc, path)
        out.append(Diagnostic(file, line, col, format_path(path), message))

    def define(h, tid, path):
        if h in layer.origin:
            file, line, _ = locate(map_doc, layer.origin[h])
            error(path, f"hex {grid.name(h)} is given a terrain twice (first at {file}:{line})")
            return
        layer.by_hex[h], layer.origin[h] = tid, path

    layer.default = terrain.get("default") if isinstance(terrain.get("default"), str) else None
    codes = terrain.get("codes") if isinstance(terrain.get("codes"), dict) else {}
    for i, row in enumerate(terrain.get("rows") or []):
        if isinstance(row, dict):
            _row(grid, row, ("terrain", "rows", i), codes, define, error)
    for hex_id, tid in (terrain.get("hexes") or {}).items():
        h = grid.parse(hex_id) if isinstance(hex_id, str) else None
        # Bad IDs, unknown types and a hex listed twice under hexes: crossref reports those.
        if h is not None and isinstance(tid, str) and layer.origin.get(h, ("",) * 2)[1] != "hexes":
            define(h, tid, ("terrain", "hexes", hex_id))
    return layer, out


def _row(grid, row, path, codes, define, error):
    spec = grid.spec
    sheet = row.get("sheet")
    if spec.has_sheets and sheet is None:
        return error(path, "this grid has sheets: give the row's 'sheet'")
    try:
        ext = _extent(grid, sheet)
    except KeyError:
        known = ", ".join(s.id for s in spec.sheets)
        return error(path + ("sheet",), f"unknown sheet '{sheet}' (known: {known})")
    s = ext.sheet
    by_row = "row" in row
    if by_row == ("column" in row):
        return error(path, "give exactly one of 'row' or 'column'")
    line_key, along_key = ("row", "column") if by_row else ("column", "row")
    line_axis, along_axis = (s.rows, s.columns) if by_row else (s.columns, s.rows)
    line_label = row[line_key]
    line_local = _index(line_label, line_axis)
    if line_local is None or not line_axis.first <= line_local <= line_axis.last:
        return error(path + (line_key,), f"{line_key} '{line_label}' is not on the grid")
    start = row.get("from")
    start_local = along_axis.first if start is None else _index(start, along_axis)
    if start_local is None or not along_axis.first <= start_local <= along_axis.last:
        return error(path + ("from",), f"{along_key} '{start}' is not on the grid")
    text = row.get("codes")
    if not isinstance(text, str):
        return
    for k, ch in enumerate(text):
        if ch in KEEP:
            continue
        local = start_local + k
        if local > along_axis.last:
            first_off = _label(along_axis, local)
            return error(path + ("codes",), f"{len(text)} codes from {along_key} {_label(along_axis, start_local)} "
                         f"run off the grid: {along_key} {first_off} (character {k + 1}) is past the last, "
                         f"{_label(along_axis, along_axis.last)}")
        if ch not in codes:
            known = "".join(sorted(codes))
            error(path + ("codes",), f"unknown terrain code '{ch}' (character {k + 1}); codes: {known}")
            continue
        col, r = (local, line_local) if by_row else (line_local, local)
        h = Hex(s.origin_col + col, s.origin_row + r)
        if h in grid:
            define(h, codes[ch], path + ("codes",))


def _label(axis, index: int) -> str:
    if axis.labels == "letters":
        from builder.geometry.labels import letters
        return letters(index - axis.first)
    return str(index)


def check(map_doc, grid) -> list[Diagnostic]:
    """Diagnostics of the terrain layer (for the validator)."""
    return resolve(map_doc, grid)[1]
