"""The two shipped games' grids: facts from the rule analyses, exhaustive identities."""
import pytest

from builder.geometry import Grid, Hex
from geometry_support import GAMES, game_grid, game_spec


@pytest.fixture(scope="module")
def eotid() -> Grid:
    return game_grid("iron-dream")


@pytest.fixture(scope="module")
def bcs() -> Grid:
    return game_grid("panzers-last-stand")


def names(grid, hexes):
    return sorted(grid.name(h) for h in hexes)


# -- End of the Iron Dream (eotid.md 2.1) ---------------------------------------------
def test_r17_neighbours(eotid):
    assert names(eotid, eotid.neighbours(eotid.parse("R17"))) == \
        ["Q17", "Q18", "R16", "R18", "S17", "S18"]


@pytest.mark.parametrize("pair", ["R16/S17", "S17/S18", "S18/R18", "R18/Q18", "Q18/Q17",
                                  "Q17/R16"])
def test_r17_ring_pairs_adjacent(eotid, pair):
    # 15.21.1 B: the six "mutually adjacent pairs" around R17.
    a, b = (eotid.parse(x) for x in pair.split("/"))
    assert eotid.distance(a, b) == 1


@pytest.mark.parametrize("pair", [
    "L15/K15", "L15/K16", "L16/K16", "K16/K17", "K17/J17", "K18/J17", "I18/J18",  # 2.12 A
    "X11/X12", "Z14/Z15", "V4/U4", "V4/U5", "V5/V4", "V5/V6", "V5/U5", "V5/U6", "U6/T6",
    "T24/T23", "T24/T25", "T24/S25", "T24/U25", "G31/G32", "G32/F31", "F31/G31",
    "F32/F33", "F33/G33", "G33/F32"])
def test_rule_adjacencies(eotid, pair):
    a, b = (eotid.parse(x) for x in pair.split("/"))
    assert eotid.hexside(a, b) == frozenset((a, b))


@pytest.mark.parametrize("a,b,d", [("T21", "R23", 3), ("T21", "U16", 6), ("R17", "R17", 0)])
def test_sample_distances(eotid, a, b, d):
    assert eotid.distance(eotid.parse(a), eotid.parse(b)) == d


def test_opposite_parity_fails_r17():
    spec = dict(game_spec("iron-dream"), stagger="odd")
    g = Grid.from_spec(spec)
    assert names(g, g.neighbours(g.parse("R17"))) != ["Q17", "Q18", "R16", "R18", "S17", "S18"]


def test_eotid_distance_formula(eotid):
    # eotid.md 2.1: r = i - 1, q = c - (r - (r mod 2)) / 2, dist = (|dq|+|dr|+|dq+dr|)/2.
    def axial(h):
        r = h.row - 1
        return h.col - (r - r % 2) // 2, r

    hexes = eotid.all_hexes()
    for a in hexes[::37]:
        qa, ra = axial(a)
        for b in hexes:
            qb, rb = axial(b)
            dq, dr = qa - qb, ra - rb
            assert eotid.distance(a, b) == (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def test_eotid_ids_and_rows(eotid):
    assert eotid.name(Hex(28, 3)) == "C28"
    assert eotid.parse("A1") == Hex(1, 1) and eotid.parse("Z39") == Hex(39, 26)
    for bad in ("AA1", "a1", "C 28", "C028", "C0", "R40", ""):
        assert eotid.parse(bad) is None
    # Row A is south, i.e. lower in the image; columns grow east (right).
    assert eotid.centre(eotid.parse("A1"))[1] > eotid.centre(eotid.parse("Z1"))[1]
    assert eotid.centre(eotid.parse("A2"))[0] > eotid.centre(eotid.parse("A1"))[0]
    # Even-lettered rows sit half a hex east of the odd ones.
    dx = eotid.centre(eotid.parse("B5"))[0] - eotid.centre(eotid.parse("A5"))[0]
    assert dx == pytest.approx(48)


# -- Panzers Last Stand / BCS (pls_bcs.md 2.1-2.2) -----------------------------------
@pytest.mark.parametrize("a,b", [("A63.14", "B1.14"), ("A63.34", "B1.34"), ("C63.09", "D1.09"),
                                 ("A44.35", "C44.01"), ("B35.35", "D35.01")])
def test_seams_are_one_hex(bcs, a, b):
    h = bcs.parse(a)
    assert h is not None and bcs.parse(b) == h
    assert bcs.name(h) == a and b in bcs.names(h)


def test_seam_corner_has_four_names(bcs):
    h = bcs.parse("A63.35")
    assert bcs.names(h) == ("A63.35", "B1.35", "C63.01", "D1.01")


def test_bcs_id_format(bcs):
    import re
    pattern = re.compile(r"^[A-D]([1-9]|[1-5][0-9]|6[0-3])\.[0-3][0-9]$")
    for h in bcs.all_hexes():
        for n in bcs.names(h):
            assert pattern.match(n), n
    assert bcs.parse("B21.32") is not None
    for bad in ("B21.3", "B021.32", "E1.01", "A64.01", "A1.36", "b21.32"):
        assert bcs.parse(bad) is None


def test_bcs_same_column_neighbours(bcs):
    # The only adjacency the text gives: c.r and c.r+-1.
    h = bcs.parse("B21.32")
    assert bcs.parse("B21.31") in bcs.neighbours(h) and bcs.parse("B21.33") in bcs.neighbours(h)


def test_bcs_orientation_and_directions(bcs):
    # Rows grow up the printed sheet ("two hexes above the .30 row"), columns to the right.
    x30, y30 = bcs.centre(bcs.parse("B21.30"))
    x32, y32 = bcs.centre(bcs.parse("B21.32"))
    assert x32 == pytest.approx(x30) and y32 == pytest.approx(y30 - 2 * 96)
    assert bcs.centre(bcs.parse("B22.30"))[0] > x30


def test_bcs_canonical_is_first_sheet(bcs):
    for h in bcs.all_hexes():
        assert bcs.name(h)[0] == bcs.sheets_of(h)[0]


# -- both games, every hex ----------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_every_name_centre_name(game):
    g = game_grid(game)
    seen = set()
    for h in g.all_hexes():
        for n in g.names(h):
            assert g.parse(n) == h
            assert n not in seen
            seen.add(n)
        x, y = g.centre(h)
        assert g.hex_at(x, y) == h
        assert g.name(g.hex_at(x, y)) == g.name(h)
        w, hgt = g.image_size
        assert 0 < x < w and 0 < y < hgt


@pytest.mark.parametrize("game", GAMES)
def test_every_hex_neighbours(game):
    g = game_grid(game)
    for h in g.all_hexes():
        ns = g.neighbours(h)
        assert len(ns) == len(set(ns)) <= 6
        for n in ns:
            assert h in g.neighbours(n)
            assert g.distance(h, n) == 1
            assert g.hexside(h, n) == g.hexside(n, h)
        if all(g.contains(n) for n in g.lattice.neighbours(h)):
            assert len(ns) == 6


@pytest.mark.parametrize("game", GAMES)
def test_all_hexes_deterministic(game):
    g = game_grid(game)
    assert list(g.all_hexes()) == sorted(g.all_hexes())
    assert Grid.from_spec(game_spec(game)).all_hexes() == g.all_hexes()
