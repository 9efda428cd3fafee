"""VASSAL's HexGrid / HexGridNumbering maths, re-derived from research/vassal-format.md §5.

Reproduces what the engine computes so that generated modules can be checked without
Java: snapping (snap_to), naming (location_name), name -> point (get_location), and
map <-> board coordinates (edge margin, board slots). Java semantics matter and are
imitated on purpose: int casts truncate toward zero, Math.round is floor(v + 0.5), the
grid origin is an int, points are int pixels, and the 3.7 hex polygon is built in float32.
Canonical frame: when ``sideways`` every point is transposed on the way in and out, while
the parameters are not (x0/dx then act along the screen y axis).
"""
import math
import re
import struct
from dataclasses import dataclass

Point = tuple[int, int]


@dataclass(frozen=True)
class VassalHexGrid:
    """Attributes of VASSAL.build.module.map.boardPicker.board.HexGrid."""

    dx: float = math.sqrt(3) / 2 * 64.0
    dy: float = 64.0
    x0: int = 0
    y0: int = 32
    sideways: bool = False
    snap_to: bool = True
    edges_legal: bool = False
    corners_legal: bool = False


@dataclass(frozen=True)
class VassalNumbering:
    """Attributes of ...mapgrid.HexGridNumbering (names as in buildFile.xml in comments)."""

    first: str = "H"              # first
    sep: str = ""                 # sep
    h_type: str = "N"             # hType: 'N' numeric, 'A' alphabetic
    h_leading: int = 1            # hLeading
    h_off: int = 1                # hOff
    h_descend: bool = False       # hDescend
    v_type: str = "N"             # vType
    v_leading: int = 1            # vLeading
    v_off: int = 1                # vOff
    v_descend: bool = False       # vDescend
    stagger: bool = True          # stagger
    location_format: str = "$gridLocation$"   # locationFormat

    def attributes(self) -> dict[str, str]:
        """The buildFile.xml attribute strings."""
        b = lambda v: "true" if v else "false"  # noqa: E731
        return {"first": self.first, "sep": self.sep, "hType": self.h_type,
                "hLeading": str(self.h_leading), "hOff": str(self.h_off),
                "hDescend": b(self.h_descend), "vType": self.v_type,
                "vLeading": str(self.v_leading), "vOff": str(self.v_off),
                "vDescend": b(self.v_descend), "stagger": b(self.stagger),
                "locationFormat": self.location_format}


def grid_attributes(g: VassalHexGrid) -> dict[str, str]:
    """The buildFile.xml attribute strings of a HexGrid (dx before dy keeps dx as given)."""
    b = lambda v: "true" if v else "false"  # noqa: E731
    return {"sideways": b(g.sideways), "x0": str(g.x0), "y0": str(g.y0), "dx": repr(g.dx),
            "dy": repr(g.dy), "snapTo": b(g.snap_to), "edgesLegal": b(g.edges_legal),
            "cornersLegal": b(g.corners_legal)}


# -- Java arithmetic -------------------------------------------------------------------
def _jround(v: float) -> int:
    """Java Math.round(double)."""
    return math.floor(v + 0.5)


def _f32(v: float) -> float:
    """Round to the nearest IEEE float32, as a Java float operation would."""
    return struct.unpack("f", struct.pack("f", v))[0]


def _canon(g: VassalHexGrid, p: Point) -> Point:
    return (p[1], p[0]) if g.sideways else (p[0], p[1])


# -- snapping (§5.2, §5.3) -------------------------------------------------------------
def raw_centre(g: VassalHexGrid, nx: int, ny: int) -> Point:
    """Canonical-frame centre of raw hex (nx, ny) as snapping computes it."""
    cx = int(g.dx * nx + g.x0)
    if nx % 2 == 0:
        cy = int(g.dy * ny + g.y0)
    else:
        cy = int(g.dy * ny + int(g.dy / 2) + g.y0)
    return cx, cy


def _hex_polygon(g: VassalHexGrid, cx: int, cy: int) -> list[tuple[int, int]]:
    """HexGrid.getSingleHexShape in the canonical frame (float32 maths, +1 adjustments)."""
    x, y = _f32(cx), _f32(cy)
    dx, dy = _f32(g.dx), _f32(g.dy)
    r = _f32(_f32(2.0 * dx) / 3.0)
    half_r, half_dy = _f32(0.5 * r), _f32(0.5 * dy)
    x1, x2, x3, x4 = _f32(x - r), _f32(x - half_r), _f32(x + half_r), _f32(x + r)
    y_top, y_bot = _f32(y - half_dy), _f32(y + half_dy)
    rd = _jround
    return [(rd(x1), rd(y)), (rd(x2), rd(y_top)), (rd(x3) + 1, rd(y_top)),
            (rd(x4) + 1, rd(y)), (rd(x3) + 1, rd(y_bot) + 1), (rd(x2), rd(y_bot) + 1)]


def _area_contains(poly: list[tuple[int, int]], px: float, py: float) -> bool:
    """java.awt.geom.Area.contains for a simple polygon: half-open bounding box, then an
    even-odd count of edges crossing the ray to +x, each edge half-open in y."""
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    if not (min(xs) <= px < max(xs) and min(ys) <= py < max(ys)):
        return False
    crossings = 0
    for (xa, ya), (xb, yb) in zip(poly, poly[1:] + poly[:1]):
        if ya == yb:
            continue
        if ya > yb:
            xa, ya, xb, yb = xb, yb, xa, ya
        if ya <= py < yb:
            xhit = xa + (py - ya) * (xb - xa) / (yb - ya)
            if px < xhit:
                crossings += 1
    return crossings % 2 == 1


def snap_to_hex(g: VassalHexGrid, p: Point, refine: bool = True) -> Point:
    """Nearest hex centre (HexGrid.snapToHex). refine=False gives VASSAL 3.6's result
    (rectangular cells only); True adds 3.7's polygon test of the candidate and its
    neighbours."""
    x, y = _canon(g, p)
    nx = math.floor((x - g.x0 + g.dx / 2) / g.dx)
    if nx % 2 == 0:
        ny = math.floor((y - g.y0 + g.dy / 2) / g.dy)
    else:
        ny = math.floor((y - g.y0) / g.dy)
    best = raw_centre(g, nx, ny)
    if refine and not _area_contains(_hex_polygon(g, *best), x, y):
        steps = ((-1, -1), (-1, 0), (1, -1), (1, 0)) if nx % 2 == 0 else \
            ((-1, 0), (-1, 1), (1, 0), (1, 1))
        for a, b in steps:
            c = raw_centre(g, nx + a, ny + b)
            if _area_contains(_hex_polygon(g, *c), x, y):
                best = c
                break
    return _canon(g, best)


def _side_point(g: VassalHexGrid, x: int, y: int) -> Point:
    """HexGrid.sideX/sideY: nearest point of the half-spacing lattice (sides + centres)."""
    nx = math.floor((x - g.x0 + g.dx / 4) * 2 / g.dx)
    sx = int(g.dx / 2 * nx + g.x0)
    if nx % 2 == 0:
        sy = int(g.dy / 2 * math.floor((y - g.y0 + g.dy / 4) * 2 / g.dy) + g.y0)
    else:
        sy = int((g.dy / 2) * math.floor((y - g.y0) * 2 / g.dy) + int(g.dy / 4) + g.y0)
    return sx, sy


def _vertex_point(g: VassalHexGrid, x: int, y: int) -> Point:
    """HexGrid.vertexX/vertexY (including VASSAL's known 1-px inaccuracy)."""
    ny = math.floor((y - g.y0 + g.dy / 4) * 2 / g.dy)
    if ny % 2 == 0:
        vx = int(2 * g.dx / 3 * int(math.floor(x - g.x0 + g.dx / 3) * 3 / (2 * g.dx)) + g.x0)
    else:
        vx = int(2 * g.dx / 3 * int(math.floor(x - g.x0 + g.dx / 3 + g.dx / 3) * 3 / (2 * g.dx))
                 - int(g.dx / 3) + g.x0)
    vy = int(g.dy / 2 * math.floor((y - g.y0 + g.dy / 4) * 2 / g.dy) + g.y0)
    return vx, vy


def snap_to(g: VassalHexGrid, p: Point, refine: bool = True) -> Point:
    """HexGrid.snapTo: centre, or side/vertex when edgesLegal/cornersLegal (snapscale 0)."""
    if not g.snap_to:
        return p
    centre = snap_to_hex(g, p, refine)
    if not (g.edges_legal or g.corners_legal):
        return centre
    x, y = _canon(g, p)
    edge = _canon(g, _side_point(g, x, y))
    vertex = _canon(g, _vertex_point(g, x, y))
    d2 = lambda a: (p[0] - a[0]) ** 2 + (p[1] - a[1]) ** 2  # noqa: E731
    if g.edges_legal and g.corners_legal:
        target = edge if d2(edge) < d2(vertex) else vertex
    else:
        target = edge if g.edges_legal else vertex
    # VASSAL's checkCenter: a target within sqrt(2) px of the centre becomes the centre.
    return centre if (centre[0] - target[0]) ** 2 + (centre[1] - target[1]) ** 2 <= 2 else target


# -- naming (§5.4, §5.5) -----------------------------------------------------------------
def raw_column(g: VassalHexGrid, p: Point) -> int:
    x, _ = _canon(g, p)
    return math.floor((x - g.x0) / g.dx + 0.5)


def raw_row(g: VassalHexGrid, p: Point) -> int:
    x, y = _canon(g, p)
    nx = _jround((x - g.x0) / g.dx)
    if nx % 2 == 0:
        return _jround((y - g.y0) / g.dy)
    return _jround((y - g.y0 - g.dy / 2) / g.dy)


def _max_rows_cols(g: VassalHexGrid, size: tuple[int, int]) -> tuple[int, int]:
    # Literally as VASSAL: screen height / dx and screen width / dy, crossed.
    width, height = size
    return math.floor(height / g.dx + 0.5), math.floor(width / g.dy + 0.5)


def column_row(g: VassalHexGrid, n: VassalNumbering, p: Point,
               board_size: tuple[int, int]) -> tuple[int, int]:
    """(column, row) as HexGridNumbering.getColumn/getRow report them (before offsets)."""
    max_rows, max_cols = _max_rows_cols(g, board_size)
    raw_col = raw_column(g, p)
    col = raw_col
    if g.sideways and n.v_descend:
        col = max_rows - col
    if not g.sideways and n.h_descend:
        col = max_cols - col
    row = raw_row(g, p)
    if not g.sideways and n.v_descend:
        row = max_rows - row
    if g.sideways and n.h_descend:
        row = max_cols - row
    if n.stagger and raw_col % 2 != 0:
        descending = n.h_descend if g.sideways else n.v_descend
        row = row - 1 if descending else row + 1
    return col, row


def part_name(value: int, kind: str, leading: int) -> str:
    """RegularGridNumbering.getName for one part."""
    s = "-" if value < 0 else ""
    value = abs(value)
    if kind == "A":
        while True:
            s += "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[value % 26]
            value -= 26
            if value < 0:
                return s
    while leading > 0 and value < 10 ** leading:
        s += "0"
        leading -= 1
    return s + str(value)


def part_value(text: str, kind: str) -> int:
    """RegularGridNumbering.parseName for one part."""
    if kind != "A":
        return int(text)
    negative = text.startswith("-")
    body = text[1:] if negative else text
    value = 26 * (len(body) - 1) + "ABCDEFGHIJKLMNOPQRSTUVWXYZ".index(body[-1])
    return -value if negative else value


def location_name(g: VassalHexGrid, n: VassalNumbering, p: Point,
                  board_size: tuple[int, int]) -> str:
    """HexGrid.locationName at board point p (VASSAL does not snap here)."""
    col, row = column_row(g, n, p, board_size)
    col_name = part_name(col + n.h_off, n.h_type, n.h_leading)
    row_name = part_name(row + n.v_off, n.v_type, n.v_leading)
    grid_location = col_name + n.sep + row_name if n.first == "H" else row_name + n.sep + col_name
    values = {"gridLocation": grid_location, "row": row_name, "column": col_name}
    return _expand(n.location_format, values)


def _expand(fmt: str, values: dict[str, str]) -> str:
    # FormattedString: $name$ is replaced by the property (unknown names by "").
    return re.sub(r"\$([^$]*)\$", lambda m: values.get(m.group(1), ""), fmt)


def _part_pattern(kind: str, leading: int) -> str:
    if kind == "A":
        return "-?(?:" + "|".join(c + "+" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ") + ")"
    return "-?[0-9]{%d,}" % (leading + 1)


def _location_regex(n: VassalNumbering) -> tuple[re.Pattern, int, int] | None:
    tokens = n.location_format.split("$")
    regex, col_group, row_group, groups = [], 0, 0, 0
    is_property = True
    for i, token in enumerate(tokens):
        is_property = not is_property
        last = i == len(tokens) - 1
        if not token:
            continue
        if not is_property or last:
            regex.append(re.escape(token))
        elif token == "gridLocation":
            col_pat = "(" + _part_pattern(n.h_type, n.h_leading) + ")"
            row_pat = "(" + _part_pattern(n.v_type, n.v_leading) + ")"
            if n.first == "H":
                regex += [col_pat, re.escape(n.sep), row_pat]
                col_group, row_group = groups + 1, groups + 2
            else:
                regex += [row_pat, re.escape(n.sep), col_pat]
                row_group, col_group = groups + 1, groups + 2
            groups += 2
        elif token == "row":
            regex.append("(" + _part_pattern(n.v_type, n.v_leading) + ")")
            groups += 1
            row_group = groups
        elif token == "column":
            regex.append("(" + _part_pattern(n.h_type, n.h_leading) + ")")
            groups += 1
            col_group = groups
    if not regex or not col_group or not row_group:
        return None
    return re.compile("".join(regex)), col_group, row_group


def get_location(g: VassalHexGrid, n: VassalNumbering, name: str,
                 board_size: tuple[int, int]) -> Point | None:
    """HexGrid.getLocation: board point of a location name, None where VASSAL throws
    BadCoords. With descending numbering this is not always the inverse of
    location_name (VASSAL takes the stagger parity from the descended column)."""
    compiled = _location_regex(n)
    if compiled is None:
        return None
    pattern, col_group, row_group = compiled
    m = pattern.fullmatch(name)
    if not m:
        return None
    row = part_value(m.group(row_group), n.v_type) - n.v_off
    col = part_value(m.group(col_group), n.h_type) - n.h_off
    max_rows, max_cols = _max_rows_cols(g, board_size)
    if n.stagger and col % 2 != 0:
        descending = n.h_descend if g.sideways else n.v_descend
        row = row + 1 if descending else row - 1
    if g.sideways:
        if n.v_descend:
            col = max_rows - col
        if n.h_descend:
            row = max_cols - row
    else:
        if n.h_descend:
            col = max_cols - col
        if n.v_descend:
            row = max_rows - row
    x = int(col * g.dx) + g.x0
    y = (int(row * g.dy) if col % 2 == 0 else int(row * g.dy + g.dy / 2)) + g.y0
    return _canon(g, (x, y))


# -- maps with margins and several boards (research §4.6) ----------------------------
@dataclass(frozen=True)
class BoardSlot:
    """A board placed in a map's board picker slot (column, row), with its pixel size."""

    name: str
    column: int
    row: int
    width: int
    height: int
    grid: VassalHexGrid | None = None
    numbering: VassalNumbering | None = None


@dataclass(frozen=True)
class VassalMap:
    """A Map's edge margin and boards, for converting map points to board points."""

    boards: tuple[BoardSlot, ...]
    edge_width: int = 0
    edge_height: int = 0

    def board_origin(self, board: BoardSlot) -> Point:
        """Map.setBoardBoundaries: edge + widths of boards left of it in its row, + heights
        of boards above it in its column."""
        widths = {(b.column, b.row): b.width for b in self.boards}
        heights = {(b.column, b.row): b.height for b in self.boards}
        x = self.edge_width + sum(widths.get((c, board.row), 0) for c in range(board.column))
        y = self.edge_height + sum(heights.get((board.column, r), 0) for r in range(board.row))
        return x, y

    def board_at(self, p: Point) -> tuple[BoardSlot, Point] | None:
        """The board containing map point p and the board-local point, or None (offboard)."""
        for b in self.boards:
            ox, oy = self.board_origin(b)
            if ox <= p[0] < ox + b.width and oy <= p[1] < oy + b.height:
                return b, (p[0] - ox, p[1] - oy)
        return None

    def location_name(self, p: Point) -> str:
        """Map.locationName for a map point (no decks): 'offboard' outside every board."""
        found = self.board_at(p)
        if found is None:
            return "offboard"
        b, local = found
        if b.grid is None or b.numbering is None:
            return b.name
        return location_name(b.grid, b.numbering, local, (b.width, b.height))

    def snap_to(self, p: Point, refine: bool = True) -> Point:
        found = self.board_at(p)
        if found is None or found[0].grid is None:
            return p
        b, local = found
        ox, oy = self.board_origin(b)
        sx, sy = snap_to(b.grid, local, refine)
        return sx + ox, sy + oy
