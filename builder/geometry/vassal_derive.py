"""Derive VASSAL HexGrid + HexGridNumbering attributes from a Grid.

Goal: at every hex centre of a board (our pixels, minus the board's origin, rounded to
ints) VASSAL's locationName reports our hex ID for that board's sheet.

Mapping: VASSAL's raw column nx indexes the straight lines of hexes (our rows in a pointy
grid, our columns in a flat one) and its raw row ny the position along a line; 'sideways'
is set when those lines are horizontal in the image. Geometry (dx, dy, x0, y0) follows
from the layout; the parity of nx is forced by which lines sit half a hex further along.
Directions where our index decreases along VASSAL's axis need 'descending' numbering.
The offsets are then solved by evaluating VASSAL's own naming (vassal_grid.column_row)
at a reference hex, which avoids a second, hand-derived copy of VASSAL's rules; the
result is verified on every hex (check=True).
"""
import functools
import math
from dataclasses import dataclass

from .errors import GeometryError
from .grid import Grid, SheetExtent
from .hex_ids import Token
from .hexes import Hex
from .vassal_grid import VassalHexGrid, VassalNumbering, column_row, location_name


@dataclass(frozen=True)
class VassalBoardGrid:
    """Everything a generator needs for one Board: its grid, numbering and placement."""

    sheet: str | None
    grid: VassalHexGrid
    numbering: VassalNumbering
    board_origin: tuple[int, int]   # board's top-left corner in the Grid's image frame
    board_size: tuple[int, int]     # board image width, height (pixels)

    def board_point(self, xy: tuple[float, float]) -> tuple[int, int]:
        """Board pixel (ints, as VASSAL stores pieces) of a point in the Grid's frame."""
        return (round(xy[0] - self.board_origin[0]), round(xy[1] - self.board_origin[1]))


@functools.lru_cache(maxsize=64)
def board_bounds(grid: Grid, sheet: str | None = None) -> tuple[int, int, int, int]:
    """(left, top, width, height) in ints of the board image for a sheet (None: the whole
    grid image). A sheet's board is its whole-hex bounding box plus the grid margin, trimmed at
    every seam to the line halfway between the hexes only it has and those only its neighbour
    has: the boards then tile the plane, so laid side by side (as VASSAL does) they make one
    continuous grid, and each seam hex is on exactly one board (the one holding its centre)."""
    if sheet is None and not grid.spec.has_sheets:
        w, h = grid.image_size
        return 0, 0, math.ceil(w), math.ceil(h)
    left, top, right, bottom = grid.pixel_bounds(grid.extent(sheet).hexes())
    m = grid.spec.margin
    edges = [math.floor(left - m), math.floor(top - m), math.ceil(right + m), math.ceil(bottom + m)]
    for axis, side, cut in seams(grid, sheet):
        edges[axis + 2 * side] = cut
    x, y = edges[0], edges[1]
    return x, y, edges[2] - x, edges[3] - y


@functools.lru_cache(maxsize=32)
def seams(grid: Grid, sheet: str) -> tuple[tuple[int, int, int], ...]:
    """(axis 0=x 1=y, side 0=low 1=high, pixel) of each trimmed edge of a sheet's board."""
    mine = set(grid.extent(sheet).hexes())
    cuts = []
    for ext in grid.extents:
        if ext.sheet.id == sheet:
            continue
        theirs = set(ext.hexes())
        if not mine & theirs:
            continue
        own = [grid.centre(h) for h in mine - theirs]
        other = [grid.centre(h) for h in theirs - mine]
        if not own or not other:           # one sheet inside the other: no seam to cut
            continue
        # One cut per neighbour, across the axis that separates the two sheets' own hexes most: that alone
        # makes the boards disjoint, and a second cut across the other axis (where staggered rows only seem
        # apart) would leave shared hexes on neither board.
        best = None
        for axis in (0, 1):
            lo_own, hi_own = min(p[axis] for p in own), max(p[axis] for p in own)
            lo_other, hi_other = min(p[axis] for p in other), max(p[axis] for p in other)
            if hi_own + 1 < lo_other:      # the neighbour lies beyond our high edge
                cut = (lo_other - hi_own, (axis, 1, round((hi_own + lo_other) / 2)))
            elif hi_other + 1 < lo_own:    # ... beyond our low edge
                cut = (lo_own - hi_other, (axis, 0, round((hi_other + lo_own) / 2)))
            else:
                continue
            if best is None or cut[0] > best[0]:
                best = cut
        if best:
            cuts.append(best[1])
    return tuple(cuts)


def board_showing(grid: Grid, h: Hex) -> str | None:
    """The sheet whose board holds the hex's centre (None for a sheet-less grid): the board VASSAL
    reports the hex on, hence the ID printed there."""
    if not grid.spec.has_sheets:
        return None
    cx, cy = grid.centre(h)
    for sheet in grid.sheets_of(h):
        x, y, w, hgt = board_bounds(grid, sheet)
        if on_board((round(cx - x), round(cy - y)), (w, hgt)):
            return sheet
    return grid.sheets_of(h)[0]


def on_board(xy: tuple[int, int], size: tuple[int, int]) -> bool:
    """Whether a board point is on the board (VASSAL's Map.findBoard rule: the far edges are outside)."""
    return 0 <= xy[0] < size[0] and 0 <= xy[1] < size[1]


def derive_vassal_grid(grid: Grid, sheet: str | None = None,
                       board_origin: tuple[int, int] | None = None,
                       board_size: tuple[int, int] | None = None,
                       check: bool = True) -> VassalBoardGrid:
    """VASSAL attributes for the board showing ``sheet`` (None for a sheet-less grid).

    With check=True every hex of the sheet is verified and a GeometryError names the
    first hex VASSAL would misname.
    """
    ext = grid.extent(sheet if grid.spec.has_sheets else None)
    bx, by, bw, bh = board_bounds(grid, ext.sheet.id)
    origin = board_origin if board_origin is not None else (bx, by)
    size = board_size if board_size is not None else (bw, bh)
    lay, lat = grid.layout, grid.lattice
    sideways = lay.u_horizontal
    # Sign of our line index along VASSAL's canonical x, of our position along canonical y.
    s_line = lay.v_dir[1] if sideways else lay.v_dir[0]
    s_pos = lay.u_dir[0] if sideways else lay.u_dir[1]
    dx, dy = lay.line_gap, lay.size

    # Only hexes whose centre is on this board are named by it (a trimmed seam hex is on its neighbour's).
    shown = [h for h in ext.hexes() if on_board(_board_xy(grid, h, origin), size)]
    if not shown:
        raise GeometryError(f"board of sheet {ext.sheet.id!r} shows no hex centre")
    ref = shown[0]
    rx, ry = ref_point = _board_xy(grid, ref, origin)
    cx, cy = (ry, rx) if sideways else (rx, ry)
    line0, _ = lat.line_pos(ref)
    # VASSAL's odd raw columns are dy/2 further along canonical y than the even ones.
    want_odd = bool(lat.shifted(line0)) == (s_pos > 0)
    nx0 = math.floor(cx / dx)
    if (nx0 % 2 == 1) != want_odd:
        nx0 -= 1
    x0 = round(cx - nx0 * dx)
    lift = dy / 2 if nx0 % 2 else 0.0
    ny0 = math.floor((cy - lift) / dy)
    y0 = round(cy - lift - ny0 * dy)
    vgrid = VassalHexGrid(dx=dx, dy=dy, x0=x0, y0=y0, sideways=sideways)

    line_axis, pos_axis = ("row", "col") if lat.pointy else ("col", "row")
    col_desc, row_desc = s_line < 0, s_pos < 0
    h_desc, v_desc = (row_desc, col_desc) if sideways else (col_desc, row_desc)
    base = dict(first="H", sep="", h_type=_kind(grid, line_axis), v_type=_kind(grid, pos_axis),
                h_leading=_leading(grid, line_axis), v_leading=_leading(grid, pos_axis),
                h_descend=h_desc, v_descend=v_desc,
                location_format=_location_format(grid, ext, line_axis))
    # stagger=False: the parity of nx was chosen so that VASSAL's shifted columns are ours,
    # hence equal positions along adjacent lines keep one number, as in our offset scheme.
    trial = VassalNumbering(h_off=0, v_off=0, stagger=False, **base)
    col, row = column_row(vgrid, trial, ref_point, size)
    numbering = VassalNumbering(h_off=_value(ext, ref, line_axis) - col,
                                v_off=_value(ext, ref, pos_axis) - row, stagger=False, **base)
    result = VassalBoardGrid(ext.sheet.id, vgrid, numbering, tuple(origin), tuple(size))
    if check:
        for h in shown:
            if not _named_right(grid, ext, vgrid, numbering, h, origin, size):
                got = location_name(vgrid, numbering, _board_xy(grid, h, origin), size)
                raise GeometryError(f"VASSAL would name {_local_name(grid, ext, h)!r} as "
                                    f"{got!r} (sheet {ext.sheet.id!r})")
    return result


def derive_all(grid: Grid, check: bool = True) -> list[VassalBoardGrid]:
    """One VassalBoardGrid per sheet (a single one for a sheet-less grid)."""
    if not grid.spec.has_sheets:
        return [derive_vassal_grid(grid, None, check=check)]
    return [derive_vassal_grid(grid, e.sheet.id, check=check) for e in grid.extents]


def local_name(grid: Grid, sheet: str | None, h: Hex) -> str:
    """The hex's ID on one particular sheet (an alias on seams)."""
    return _local_name(grid, grid.extent(sheet), h)


def _local_name(grid: Grid, ext: SheetExtent, h: Hex) -> str:
    s = ext.sheet
    return grid.spec.id.format(s.id, h.col - s.origin_col, h.row - s.origin_row,
                               s.columns.first, s.rows.first)


def _board_xy(grid: Grid, h: Hex, origin) -> tuple[int, int]:
    x, y = grid.centre(h)
    return round(x - origin[0]), round(y - origin[1])


def _named_right(grid, ext, vgrid, numbering, h, origin, size) -> bool:
    return location_name(vgrid, numbering, _board_xy(grid, h, origin), size) == \
        _local_name(grid, ext, h)


def _value(ext: SheetExtent, h: Hex, axis: str) -> int:
    """The number VASSAL must print for this axis: the local index, or the letter
    ordinal (A = 0) for letter labels."""
    s = ext.sheet
    if axis == "col":
        local, a = h.col - s.origin_col, s.columns
    else:
        local, a = h.row - s.origin_row, s.rows
    return local - a.first if a.labels == "letters" else local


def _kind(grid: Grid, axis: str) -> str:
    a = grid.spec.columns if axis == "col" else grid.spec.rows
    return "A" if a.labels == "letters" else "N"


def _leading(grid: Grid, axis: str) -> int:
    token = grid.spec.id.token(axis)
    return max(token.width - 1, 0) if token else 0


def _location_format(grid: Grid, ext: SheetExtent, line_axis: str) -> str:
    """Our ID template in VASSAL's FormattedString syntax. VASSAL's 'column' part is the
    line index, so {row} of a pointy grid becomes $column$."""
    out = []
    for part in grid.spec.id.parts:
        if not isinstance(part, Token):
            out.append(part)
        elif part.name == "sheet":
            out.append(ext.sheet.id or "")
        else:
            out.append("$column$" if part.name == line_axis else "$row$")
    return "".join(out)
