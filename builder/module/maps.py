"""Maps, boards, grids and box zones — and where a hex or a box is in map pixels.

* Main map: one Board per map image. A sheet-less grid (EotID) is one board; a sheeted grid (PLS) is one
  board per sheet in a single Map, laid out like the printed sheets (columns/rows from the sheets'
  origins) and preselected by the BoardPicker's <setup>. One Map keeps moves across a sheet seam
  ordinary moves (one window, one stack model), and each board's own HexGrid names its hexes with
  its sheet's IDs (A19.23), as the grid attributes come from builder.geometry.vassal_derive for that
  board image. The sheet images are trimmed at their seams so the boards join into one grid; a seam
  hex is on the board holding its centre and named with that sheet's ID.
* Off-map holding boxes: Zones named after the boxes (so a piece's location name is the box's
  name). When the map step draws the boxes beside the board (map.png), the board gets a ZonedGrid
  (box zones + the hex grid as background); when it draws them on their own image (map-boxes.png),
  they form a separate map "Boxes".
* Staging: a map of labelled boxes (drawn by the map step's box panel), per side: "To place: <side>" (set-up entries that are a player's
  choice), "Reinforcements: <side>" (arrivals without a turn: events, conditions) and
  "Reinforcements: <side>, Turn N" for every turn on which some scenario brings units.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from builder.errors import BuildError
from builder.geometry.vassal_derive import VassalBoardGrid, board_showing, derive_vassal_grid, local_name
from builder.geometry.vassal_grid import grid_attributes
from builder.vassal.buildfile import P
from builder.vassal.commands import BoardPicker

from builder.render.counter_build import counter_info
from builder.render.map_build import game_holds
from builder.render.map_legend import PLACE_SLACK

from . import cups, layers
from .deploy import REINFORCEMENTS, TO_PLACE, ScenarioTargets
from .images import STAGING_IMAGE, staging_panel

UNMOVED_KEY = "77,650"            # Ctrl+Alt+M: "mark all unmoved"; the turn trackers press it (behaviour.py)
from .names import side_name

MAIN_MAP, BOXES_MAP, STAGING_MAP = "Main Map", "Boxes", "Staging"
MAPPKG = P + "map."
BOARD = MAPPKG + "boardPicker.Board"
GRIDPKG = MAPPKG + "boardPicker.board."


@dataclass
class BoardPlan:
    name: str
    image: str                        # "" for an imageless board
    size: tuple[int, int]
    col: int = 0
    row: int = 0
    vgrid: VassalBoardGrid | None = None
    zones: dict = field(default_factory=dict)     # zone name -> (x, y, w, h) in board pixels
    offset: tuple[int, int] = (0, 0)              # board's top-left in map pixels (set by VASSAL's rule)


@dataclass
class MapPlan:
    name: str
    boards: list

    def selection(self) -> list[tuple[str, int, int]]:
        return [(b.name, b.col, b.row) for b in self.boards]


class Layout:
    """The module's maps and the map point of every hex and box."""

    def __init__(self, game, grid, images, *, draw: bool = True):
        # draw=False: the panels' geometry only, no images (the audit reads locations, not pictures)
        self.game, self.grid, self.draw = game, grid, draw
        boxes = {b["id"]: b for b in (game.map_doc or {}).get("boxes") or [] if isinstance(b, dict)}
        names = [b.get("name") or bid for bid, b in boxes.items()]
        # zones are named after the boxes; ids only if two boxes share a name
        self.box_zone = {bid: (b.get("name") or bid) if len(set(names)) == len(names) else bid
                         for bid, b in boxes.items()}
        self.box_where: dict[str, tuple[MapPlan, BoardPlan]] = {}
        self.zone_inner: dict[str, tuple[MapPlan, BoardPlan, tuple]] = {}   # zone -> where its counters go
        self.place_px = game_holds(game)[1]
        self.counter_px = counter_info(game)["image_px"]
        self.sides = [s["id"] for s in game.doc.get("sides") or []]
        self.turns = sorted({e["turn"] for sc in game.by_id["scenarios"].values()
                             for e in sc.get("reinforcements") or []
                             if isinstance(e, dict) and isinstance(e.get("turn"), int)})
        main, boxes_map = MapPlan(MAIN_MAP, []), None
        for mi in images.maps:
            zones = {self.box_zone[k]: r for k, r in mi.boxes.items() if k in self.box_zone}
            if mi.kind == "boxes":
                boxes_map = MapPlan(BOXES_MAP, [BoardPlan(BOXES_MAP, mi.file, mi.size, zones=zones)])
                self._boxes_on(boxes_map, mi)
                continue
            try:
                vg = derive_vassal_grid(grid, mi.sheet, board_origin=mi.board_origin, board_size=mi.size)
            except Exception as exc:   # GeometryError: a grid VASSAL cannot name as we do
                raise BuildError(f"board {mi.file}: no VASSAL hex grid names every hex: {exc}") from None
            name = f"Sheet {mi.sheet}" if mi.sheet else "Map"
            main.boards.append(BoardPlan(name, mi.file, mi.size, vgrid=vg, zones=zones))
            self._boxes_on(main, mi)
        _arrange(main.boards, [mi.board_origin for mi in images.maps if mi.kind == "board"])
        self.sheet_board = {b.vgrid.sheet: b for b in main.boards}
        self.maps = [main] + ([boxes_map] if boxes_map else []) + [self._staging()]
        self.main = main
        from .activation import add_display      # the data's Activation Display, before Staging
        add_display(self)
        from .turntrack import add_track         # the data's turn record track, before Staging
        add_track(self)

    def _boxes_on(self, plan: MapPlan, mi) -> None:
        for bid in mi.boxes:
            if bid in self.box_zone:
                self.box_where[bid] = (plan, plan.boards[-1])
                rect = mi.box_inner.get(bid) or mi.boxes[bid]
                self.zone_inner[self.box_zone[bid]] = (plan, plan.boards[-1], rect)

    def _staging(self) -> MapPlan:
        # every scenario's targets first: the Staging boxes are sized for the most any one scenario puts there
        self.targets = {sid: ScenarioTargets(self.game, self, sc) for sid, sc in self.game.by_id["scenarios"].items()}
        places: dict[str, int] = {}
        for t in self.targets.values():
            for zone, n in t.zone_places().items():
                places[zone] = max(places.get(zone, 0), n)
        rows = [(TO_PLACE, None), (REINFORCEMENTS, None)] + [(REINFORCEMENTS, t) for t in self.turns]
        names = [self.staging_zone(kind, sid, turn) for sid in self.sides for kind, turn in rows]
        png, size, zones, inner = staging_panel(self.grid, "Set-up choices and reinforcements", names,
                                                (places, self.place_px), draw=self.draw)
        self.extra_images = {STAGING_IMAGE: png}
        plan = MapPlan(STAGING_MAP, [BoardPlan(STAGING_MAP, STAGING_IMAGE, size, zones=zones)])
        for name, rect in inner.items():
            self.zone_inner[name] = (plan, plan.boards[0], rect)
        return plan

    # ------------------------------------------------------------------ points
    def staging_zone(self, kind: str, side: str | None, turn: int | None = None) -> str:
        return f"{kind}: {side_name(self.game, side)}" + (f", Turn {turn}" if turn is not None else "")

    def hex_point(self, hex_id: str) -> tuple[str, int, int]:
        return self.hex_place(hex_id)[:3]

    def hex_place(self, hex_id: str) -> tuple[str, int, int, str]:
        """Map, map pixel and the name VASSAL reports there: the board holding the hex's centre names it
        (a seam hex is on one board only, so 'C44.01' may be reported as its other ID 'A44.35')."""
        h = self.grid.parse(hex_id)
        if h is None:
            raise BuildError(f"set-up hex {hex_id!r} is not on the map")
        sheet = board_showing(self.grid, h)
        board = self.sheet_board.get(sheet)
        if board is None:
            raise BuildError(f"set-up hex {hex_id!r}: no board shows sheet {sheet!r}")
        bx, by = board.vgrid.board_point(self.grid.centre(h))
        name = hex_id if sheet is None else local_name(self.grid, sheet, h)
        return self.main.name, board.offset[0] + bx, board.offset[1] + by, name

    def place_point(self, zone: str, index: int) -> tuple[str, int, int, str]:
        """The centre of the index-th counter place of a zone: rows of places below the box's name,
        left to right, centred across the box (a place beyond the box's rows reuses its last row)."""
        plan, board, (x, y, w, h) = self.zone_inner[zone]
        px = self.place_px
        per_row = max(1, (w - PLACE_SLACK) // px)
        rows = max(1, (h - PLACE_SLACK) // px)
        col, row = index % per_row, min(index // per_row, rows - 1)
        cx = x + (w - per_row * px) // 2 + col * px + px // 2
        cy = y + PLACE_SLACK + row * px + px // 2
        return plan.name, board.offset[0] + cx, board.offset[1] + cy, zone

    def box_point(self, box_id: str) -> tuple[str, int, int, str] | None:
        where = self.box_where.get(box_id)
        if where is None:
            return None
        plan, board = where
        return zone_point(plan, board, self.box_zone[box_id])

    def staging_point(self, kind: str, side: str | None, turn: int | None = None) -> tuple[str, int, int, str]:
        plan = self.maps[-1]
        side = side if side in self.sides else (self.sides or [None])[0]
        zone = self.staging_zone(kind, side, turn if turn in self.turns else None)
        return zone_point(plan, plan.boards[0], zone)


def zone_point(plan: MapPlan, board: BoardPlan, zone: str) -> tuple[str, int, int, str]:
    """The zone's centre in map pixels, and the zone's name (what VASSAL reports there)."""
    x, y, w, h = board.zones[zone]
    return plan.name, board.offset[0] + x + w // 2, board.offset[1] + y + h // 2, zone


def _arrange(boards: list, origins: list) -> None:
    """Columns and rows from the sheets' image origins; offsets as VASSAL's Map.setBoardBoundaries:
    a board starts after the widths of the boards left of it in its row and the heights above it
    in its column (edge 0)."""
    xs, ys = sorted({o[0] for o in origins}), sorted({o[1] for o in origins})
    for b, o in zip(boards, origins):
        b.col, b.row = xs.index(o[0]), ys.index(o[1])
    for b in boards:
        x = sum(o.size[0] for o in boards if o.row == b.row and o.col < b.col)
        y = sum(o.size[1] for o in boards if o.col == b.col and o.row < b.row)
        b.offset = (x, y)


# ---------------------------------------------------------------------- buildFile
def add_maps(root, layout: Layout) -> None:
    for plan in layout.maps:
        _add_map(root, plan, layout)


def _add_map(root, plan: MapPlan, layout) -> None:
    m = root.add(P + "Map", allowMultiple=len(plan.boards) > 1, backgroundcolor="255,255,255",
                 buttonName=plan.name, color="255,0,0", edgeHeight=0, edgeWidth=0, launch=plan.name != MAIN_MAP,
                 mapName=plan.name, markMoved="Always", markUnmovedHotkey=UNMOVED_KEY, markUnmovedText="Unmoved",
                 markUnmovedTooltip="Mark all pieces on this map unmoved", thickness=3,
                 moveWithinFormat="$pieceName$ moves $previousLocation$ -> $location$ *",
                 moveToFormat="$pieceName$ moves $previousLocation$ -> $location$ *",
                 createFormat="$pieceName$ created in $location$ *")
    bp = m.add(MAPPKG + "BoardPicker", addColumnText="Add column", addRowText="Add row",
               boardPrompt="Select board", slotHeight=125, slotScale=0.2, slotWidth=350, title="Choose Boards")
    if len(plan.boards) > 1:
        # preselect every sheet in its printed place, so a new game needs no board dialog
        bp.add("setup", BoardPicker(plan.name, plan.selection()).encode())
    for b in plan.boards:
        attrs = dict(image=b.image, name=b.name, reversible=False)
        if not b.image:
            attrs.update(width=b.size[0], height=b.size[1], color="235,235,225")
        board = bp.add(BOARD, **attrs)
        _add_grid(board, b)
    m.add(MAPPKG + "StackMetrics", bottom="40,0", disabled=False, down="37,0", exSepX=6, exSepY=18,
          top="38,0", unexSepX=2, unexSepY=4, up="39,0")
    layers.add_to_map(m, layout.game)
    cups.add_draw_piles(m, plan, layout, layout.counter_px)
    for c in ("ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer", "MapCenterer",
              "StackExpander", "PieceMover", "KeyBufferer", "ImageSaver", "CounterDetailViewer"):
        m.add(MAPPKG + c)
    levels, start = zoom_levels(*_map_size(plan), plan.name == MAIN_MAP)
    m.add(MAPPKG + "Zoomer", zoomLevels=levels, zoomStart=start)
    m.add(MAPPKG + "Flare")
    m.add(P + "properties.GlobalProperties")
    m.add(MAPPKG + "SelectionHighlighters")
    m.add(MAPPKG + "HighlightLastMoved", color="255,0,0", enabled=True, thickness=2)


VIEW = (1800, 950)          # a typical map window, in screen pixels
STEPS = (0.25, 0.33, 0.5, 0.75, 1.0, 1.5, 2.0)


def zoom_levels(width: int, height: int, main: bool) -> tuple[str, int]:
    """(zoomLevels, zoomStart) for a map of this size: from the zoom that shows the whole map in a
    window up to 2x; the main map starts at 0.75 (counters readable, a good part of the map in view),
    a box map at the zoom that shows it whole, kept between 0.5 and 1."""
    fit = min(1.0, VIEW[0] / max(width, 1), VIEW[1] / max(height, 1))
    fit = max(0.05, round(fit, 2))
    levels = sorted({fit} | {s for s in STEPS if s > fit * 1.2}, reverse=True)
    want = 0.75 if main else min(1.0, max(fit, 0.5))
    start = min((z for z in levels if z >= want - 1e-9), default=levels[0])
    return ",".join(f"{z:g}" for z in sorted(levels)), levels.index(start) + 1


def _map_size(plan: MapPlan) -> tuple[int, int]:
    return (max(b.offset[0] + b.size[0] for b in plan.boards), max(b.offset[1] + b.size[1] for b in plan.boards))


def hex_grid_attrs(vg: VassalBoardGrid) -> tuple[dict, dict]:
    grid = dict(grid_attributes(vg.grid), color="0,0,0", visible="false", dotsVisible="false")
    numbering = dict(vg.numbering.attributes(), color="0,0,0", fontSize="9", hDrawOff="0", vDrawOff="0",
                     rotateText="0", visible="false")
    return grid, numbering


def _add_hex_grid(parent, vg: VassalBoardGrid) -> None:
    grid_attrs, num_attrs = hex_grid_attrs(vg)
    g = parent.add(GRIDPKG + "HexGrid", **grid_attrs)
    g.add(GRIDPKG + "mapgrid.HexGridNumbering", **num_attrs)


def _add_grid(board, b: BoardPlan) -> None:
    if not b.zones:
        if b.vgrid is not None:
            _add_hex_grid(board, b.vgrid)
        return
    zg = board.add(GRIDPKG + "ZonedGrid")
    for name, (x, y, w, h) in b.zones.items():
        zg.add(GRIDPKG + "mapgrid.Zone", name=name, locationFormat="$name$", useParentGrid=False,
               useHighlight=False, highlightProperty="",
               path=f"{x},{y};{x + w},{y};{x + w},{y + h};{x},{y + h}")
    if b.vgrid is not None:
        _add_hex_grid(zg, b.vgrid)
