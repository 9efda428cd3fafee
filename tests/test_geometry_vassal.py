"""VASSAL HexGrid maths (research/vassal-format.md §5) and attributes derived from our grids."""
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builder.geometry import Grid
from builder.geometry.vassal_derive import board_bounds, derive_all, derive_vassal_grid, local_name, on_board
from builder.geometry.vassal_grid import (BoardSlot, VassalHexGrid, VassalMap, VassalNumbering,
                                          get_location, grid_attributes, location_name,
                                          part_name, part_value, raw_column, raw_row, snap_to)
from geometry_support import GAMES, game_grid, grid_specs

# Other suites may share the machine: never fail on timing alone.
SLOW_OK = [HealthCheck.too_slow]

# -- §5.6 worked examples -----------------------------------------------------------
GRID_A = VassalHexGrid(dx=60, dy=69, x0=40, y0=35)
SIZE_A = (1200, 900)


@pytest.mark.parametrize("p,snap,raw,plain,staggered", [
    ((40, 35), (40, 35), (0, 0), "0101", "0101"),
    ((100, 70), (100, 69), (1, 0), "0201", "0202"),
    ((100, 0), (100, 0), (1, -1), "0200", "0201"),
    ((131, 117), (160, 104), (2, 1), "0302", "0302"),
    ((73, 60), (100, 69), (1, 0), "0201", "0202"),
    ((700, 500), (700, 483), (11, 6), "1207", "1208"),
])
def test_example_a(p, snap, raw, plain, staggered):
    for refine in (True, False):
        assert snap_to(GRID_A, p, refine) == snap
    assert (raw_column(GRID_A, snap), raw_row(GRID_A, snap)) == raw
    assert location_name(GRID_A, VassalNumbering(stagger=False), snap, SIZE_A) == plain
    assert location_name(GRID_A, VassalNumbering(stagger=True), snap, SIZE_A) == staggered


def test_example_a_get_location():
    plain, stag = VassalNumbering(stagger=False), VassalNumbering(stagger=True)
    assert get_location(GRID_A, plain, "0201", SIZE_A) == (100, 69)
    assert get_location(GRID_A, stag, "0201", SIZE_A) == (100, 1)
    assert get_location(GRID_A, stag, "0202", SIZE_A) == (100, 69)
    assert get_location(GRID_A, stag, "1208", SIZE_A) == (700, 483)
    assert get_location(GRID_A, stag, "12O8", SIZE_A) is None


GRID_B = VassalHexGrid(dx=60, dy=69, x0=35, y0=40, sideways=True)
NUM_B = VassalNumbering(h_type="A", h_off=0, v_type="N", v_leading=0, v_off=1, stagger=False)


@pytest.mark.parametrize("p,snap,raw,name", [
    ((40, 35), (40, 35), (0, 0), "A1"),
    ((109, 35), (109, 35), (0, 1), "A2"),
    ((75, 95), (74, 95), (1, 0), "B1"),
    ((144, 95), (143, 95), (1, 1), "B2"),
    ((179, 1655), (212, 1655), (27, 2), "BB3"),
])
def test_example_b(p, snap, raw, name):
    assert snap_to(GRID_B, p) == snap
    assert (raw_column(GRID_B, snap), raw_row(GRID_B, snap)) == raw
    assert location_name(GRID_B, NUM_B, snap, (900, 1200)) == name


def test_example_b_get_location():
    assert get_location(GRID_B, NUM_B, "C28", (900, 1200)) == (1903, 155)


def test_map_edge_offset():
    board = BoardSlot("main", 0, 0, 1200, 900, GRID_A, VassalNumbering(stagger=False))
    m = VassalMap((board,), edge_width=20, edge_height=10)
    assert m.board_at((120, 79)) == (board, (100, 69))
    assert m.location_name((120, 79)) == "0201"
    assert m.location_name((5, 5)) == "offboard"
    assert m.snap_to((121, 81)) == (120, 79)


def test_board_slots_offsets():
    boards = tuple(BoardSlot(n, c, r, w, h) for n, c, r, w, h in
                   [("a", 0, 0, 100, 50), ("b", 1, 0, 80, 60), ("c", 0, 1, 90, 40),
                    ("d", 1, 1, 70, 30)])
    m = VassalMap(boards, edge_width=7, edge_height=3)
    assert [m.board_origin(b) for b in boards] == [(7, 3), (107, 3), (7, 53), (97, 63)]


@pytest.mark.parametrize("value,kind,leading,text", [
    (5, "N", 1, "05"), (12, "N", 1, "12"), (5, "N", 2, "005"), (50, "N", 2, "050"),
    (-3, "N", 1, "-03"), (7, "N", 0, "7"), (0, "A", 0, "A"), (25, "A", 0, "Z"),
    (26, "A", 0, "AA"), (27, "A", 0, "BB"), (51, "A", 0, "ZZ"), (52, "A", 0, "AAA")])
def test_part_names(value, kind, leading, text):
    assert part_name(value, kind, leading) == text
    assert part_value(text, kind) == value


def test_edges_and_corners_legal():
    g = VassalHexGrid(dx=60, dy=69, x0=40, y0=35, edges_legal=True)
    assert snap_to(g, (41, 36)) == (40, 35)            # near the centre: the centre
    ex, ey = snap_to(g, (40, 70))                       # near the side below (40, 35)
    assert (ex, ey) == (40, 69)
    g = VassalHexGrid(dx=60, dy=69, x0=40, y0=35, corners_legal=True)
    vx, vy = snap_to(g, (61, 1))                        # near the top right corner
    assert math.dist((vx, vy), (60, 0.5)) < 2
    g = VassalHexGrid(dx=60, dy=69, x0=40, y0=35, snap_to=False)
    assert snap_to(g, (61, 1)) == (61, 1)


def test_attribute_strings():
    attrs = grid_attributes(GRID_B)
    assert attrs["sideways"] == "true" and attrs["x0"] == "35" and float(attrs["dx"]) == 60
    n = NUM_B.attributes()
    assert (n["hType"], n["hOff"], n["vLeading"], n["stagger"]) == ("A", "0", "0", "false")


# -- derived attributes: every hex of both games --------------------------------------
def shown(grid: Grid, board):
    """The sheet's hexes whose centre is on its board (a seam hex trimmed off is on the neighbour's board)."""
    return [hx for hx in grid.extent(board.sheet).hexes() if on_board(board.board_point(grid.centre(hx)),
                                                                        board.board_size)]


def _check_board(grid: Grid, board, hexes):
    for hx in hexes:
        p = board.board_point(grid.centre(hx))
        assert on_board(p, board.board_size)
        want = local_name(grid, board.sheet, hx)
        assert location_name(board.grid, board.numbering, p, board.board_size) == want
        snapped = snap_to(board.grid, p)
        assert math.dist(snapped, p) <= 3.0   # VASSAL truncates dy*ny and dy/2; we round
        assert location_name(board.grid, board.numbering, snapped, board.board_size) == want
        back = get_location(board.grid, board.numbering, want, board.board_size)
        assert back is not None and snap_to(board.grid, back) == snapped


@pytest.mark.parametrize("game", GAMES)
def test_game_every_hex_named_by_vassal(game):
    grid = game_grid(game)
    boards = derive_all(grid)
    assert len(boards) == max(1, len(grid.spec.sheets) if grid.spec.has_sheets else 1)
    for board in boards:
        _check_board(grid, board, shown(grid, board))


def test_eotid_attributes():
    grid = game_grid("iron-dream")
    (board,) = derive_all(grid)
    assert board.grid.sideways is True
    assert board.grid.dy == 96 and math.isclose(board.grid.dx, 96 * math.sqrt(3) / 2)
    n = board.numbering
    assert (n.h_type, n.v_type, n.v_descend, n.location_format) == ("A", "N", True, "$column$$row$")


def test_bcs_multi_board_map():
    grid = game_grid("panzers-last-stand")
    boards = {b.sheet: b for b in derive_all(grid)}
    assert {b.numbering.location_format for b in boards.values()} == \
        {"A$column$.$row$", "B$column$.$row$", "C$column$.$row$", "D$column$.$row$"}
    assert all(not b.grid.sideways for b in boards.values())
    # Rows grow up the sheet and columns to the right: C D on top, A B below.
    slots = {"C": (0, 0), "D": (1, 0), "A": (0, 1), "B": (1, 1)}
    vmap = VassalMap(tuple(BoardSlot(s, *slots[s], *boards[s].board_size, boards[s].grid,
                                     boards[s].numbering) for s in "CDAB"),
                     edge_width=40, edge_height=25)
    by_name = {b.name: b for b in vmap.boards}
    # One continuous grid: every board maps the Grid frame to map pixels by the same translation ...
    shifts = {(vmap.board_origin(by_name[s])[0] - b.board_origin[0], vmap.board_origin(by_name[s])[1] - b.board_origin[1])
              for s, b in boards.items()}
    assert len(shifts) == 1
    (sx, sy), = shifts
    # ... and every hex of the map, seams included, is on exactly one board, which names it by one of its IDs.
    for hx in grid.all_hexes():
        cx, cy = grid.centre(hx)
        p = (round(cx + sx), round(cy + sy))
        holders = [s for s, b in boards.items() if on_board(b.board_point((cx, cy)), b.board_size)]
        assert len(holders) == 1, (grid.names(hx), holders)
        assert vmap.board_at(p)[0].name == holders[0]
        assert vmap.location_name(p) in grid.names(hx)
        assert vmap.location_name(p) == local_name(grid, holders[0], hx)


def test_bcs_boards_tile_without_overlap_or_gap():
    grid = game_grid("panzers-last-stand")
    rects = {s: board_bounds(grid, s) for s in "ABCD"}
    ax, ay, aw, ah = rects["A"]
    assert rects["B"][0] == ax + aw and rects["B"][1] == ay and rects["B"][3] == ah       # B right of A
    assert rects["C"][1] + rects["C"][3] == ay and rects["C"][0] == ax and rects["C"][2] == aw   # C above A
    assert rects["D"][0] == rects["B"][0] and rects["D"][1] == rects["C"][1]
    # The seam cuts lie between the hexes only one sheet has: A63.r / B1.r is one hex, on exactly one board.
    for a, b in (("A63.14", "B1.14"), ("A44.35", "C44.01"), ("C63.09", "D1.09"), ("B35.35", "D35.01")):
        assert grid.parse(a) == grid.parse(b)


def test_board_bounds_cover_sheet():
    grid = game_grid("panzers-last-stand")
    x, y, w, h = board_bounds(grid, "B")
    left, top, right, bottom = grid.pixel_bounds(grid.extent("B").hexes())
    # Outer edges (B is bottom right) hold whole hexes; seam edges every hex only B has.
    assert x + w >= right and y + h >= bottom
    only_b = set(grid.extent("B").hexes()) - {h for s in "ACD" for h in grid.extent(s).hexes()}
    assert all(x <= grid.centre(hx)[0] < x + w and y <= grid.centre(hx)[1] < y + h for hx in only_b)


@given(st.data())
@settings(max_examples=60, deadline=None, suppress_health_check=SLOW_OK)
def test_random_grids_derive(data):
    spec = data.draw(grid_specs(max_size=12, sheets=data.draw(st.booleans())))
    grid = Grid.from_spec(spec)
    for board in derive_all(grid):  # check=True verifies every hex on the board
        _check_board(grid, board, shown(grid, board))
    if grid.spec.has_sheets:   # every hex is on some board
        boards = derive_all(grid, check=False)
        for hx in grid.all_hexes():
            assert any(on_board(b.board_point(grid.centre(hx)), b.board_size) for b in boards
                       if hx in set(grid.extent(b.sheet).hexes())), grid.names(hx)


def test_explicit_board_placement():
    grid = game_grid("iron-dream")
    w, h = grid.image_size
    board = derive_vassal_grid(grid, board_origin=(-30, -20), board_size=(int(w) + 60, int(h) + 40))
    _check_board(grid, board, grid.all_hexes())
