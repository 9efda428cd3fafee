"""Property tests of the lattice maths over every orientation, stagger and direction."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builder.geometry import Grid, Hex, NotAdjacentError
from builder.geometry.lattice import Lattice
from geometry_support import GAMES, game_grid, grid_specs

# Other suites may share the machine: never fail on timing alone.
SLOW_OK = [HealthCheck.too_slow]

LATTICES = [Lattice(o, s) for o in ("pointy", "flat") for s in ("even", "odd")]
coords = st.integers(-60, 60)
hexes = st.builds(Hex, coords, coords)
lattices = st.sampled_from(LATTICES)


@given(lattices, hexes)
@settings(deadline=None, suppress_health_check=SLOW_OK)
def test_axial_round_trip(lat, h):
    assert lat.from_axial(*lat.to_axial(h)) == h


@given(lattices, hexes)
@settings(deadline=None, suppress_health_check=SLOW_OK)
def test_six_distinct_neighbours_symmetric(lat, h):
    ns = lat.neighbours(h)
    assert len(set(ns)) == 6 and h not in ns
    for n in ns:
        assert h in lat.neighbours(n)
        assert lat.distance(h, n) == 1


@given(lattices, hexes)
@settings(deadline=None, suppress_health_check=SLOW_OK)
def test_neighbours_follow_offset_rule(lat, h):
    # Same line: pos +-1; adjacent lines: pos and pos+1 if this line is shifted, else pos-1 and pos.
    line, pos = lat.line_pos(h)
    extra = 1 if lat.shifted(line) else -1
    expected = {lat.from_line_pos(line, pos - 1), lat.from_line_pos(line, pos + 1)}
    for dl in (-1, 1):
        expected |= {lat.from_line_pos(line + dl, pos), lat.from_line_pos(line + dl, pos + extra)}
    assert set(lat.neighbours(h)) == expected


@given(lattices, hexes, hexes, hexes)
@settings(deadline=None, suppress_health_check=SLOW_OK)
def test_distance_is_a_metric(lat, a, b, c):
    assert lat.distance(a, a) == 0
    assert lat.distance(a, b) == lat.distance(b, a)
    assert (lat.distance(a, b) == 0) == (a == b)
    assert lat.distance(a, c) <= lat.distance(a, b) + lat.distance(b, c)


@given(lattices, hexes, st.integers(-12, 12), st.integers(-12, 12))
@settings(deadline=None, suppress_health_check=SLOW_OK)
def test_distance_equals_greedy_steps(lat, a, dc, dr):
    # Some neighbour is always exactly one step closer, so greedy descent takes distance steps.
    b = Hex(a.col + dc, a.row + dr)
    steps, here = 0, a
    while here != b:
        here = min(lat.neighbours(here), key=lambda n: (lat.distance(n, b), n))
        steps += 1
        assert steps <= 30
    assert steps == lat.distance(a, b)


@given(lattices, hexes, hexes)
@settings(deadline=None, suppress_health_check=SLOW_OK)
def test_line(lat, a, b):
    path = lat.line(a, b)
    assert len(path) == lat.distance(a, b) + 1
    assert path[0] == a and path[-1] == b
    for p, q in zip(path, path[1:]):
        assert lat.distance(p, q) == 1
    assert lat.line(a, b) == path  # deterministic


@given(st.data())
@settings(max_examples=60, deadline=None, suppress_health_check=SLOW_OK)
def test_random_grids(data):
    g = Grid.from_spec(data.draw(grid_specs()))
    inside = g.all_hexes()
    a = data.draw(st.sampled_from(inside))
    b = data.draw(st.sampled_from(inside))
    for n in g.neighbours(a):
        assert a in g.neighbours(n) and g.contains(n)
        assert g.hexside(a, n) == g.hexside(n, a) == frozenset((a, n))
    if all(g.contains(n) for n in g.lattice.neighbours(a)):
        assert len(g.neighbours(a)) == 6
    if g.distance(a, b) != 1:
        with pytest.raises(NotAdjacentError):
            g.hexside(a, b)


@pytest.mark.parametrize("game", GAMES)
@given(data=st.data())
@settings(max_examples=200, deadline=None, suppress_health_check=SLOW_OK)
def test_game_grid_properties(game, data):
    g = game_grid(game)
    a, b, c = (data.draw(st.sampled_from(g.all_hexes())) for _ in range(3))
    assert g.distance(a, c) <= g.distance(a, b) + g.distance(b, c)
    path = g.line(a, b)
    assert len(path) == g.distance(a, b) + 1
    assert all(g.distance(p, q) == 1 for p, q in zip(path, path[1:]))
