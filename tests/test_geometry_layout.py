"""Pixel layout: centres, hex_at, corners and image bounds, on random grids."""
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builder.geometry import Grid, Hex
from geometry_support import grid_specs

# Other suites may share the machine: never fail on timing alone.
SLOW_OK = [HealthCheck.too_slow]

_UNIT = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)}


@given(st.data())
@settings(max_examples=80, deadline=None, suppress_health_check=SLOW_OK)
def test_centre_hex_at_identity_and_geometry(data):
    spec = data.draw(grid_specs())
    g = Grid.from_spec(spec)
    size = spec["hex_size"]
    w, h = g.image_size
    for hx in g.all_hexes():
        x, y = g.centre(hx)
        assert g.hex_at(x, y) == hx
        assert g.parse(g.name(g.hex_at(x, y))) == hx
        for cx, cy in g.corners(hx):
            assert math.isclose(math.dist((x, y), (cx, cy)), size / math.sqrt(3))
            assert -1e-6 <= cx <= w + 1e-6 and -1e-6 <= cy <= h + 1e-6
        for n in g.neighbours(hx):
            assert math.isclose(math.dist((x, y), g.centre(n)), size)
    # The whole-hex bounding box starts at the margin.
    xs = [c[0] for hx in g.all_hexes() for c in g.corners(hx)]
    ys = [c[1] for hx in g.all_hexes() for c in g.corners(hx)]
    assert math.isclose(min(xs), spec["margin"], abs_tol=1e-6) or min(xs) > spec["margin"]
    assert math.isclose(min(ys), spec["margin"], abs_tol=1e-6) or min(ys) > spec["margin"]


@given(st.data())
@settings(max_examples=80, deadline=None, suppress_health_check=SLOW_OK)
def test_hex_at_points_inside_a_hex(data):
    spec = data.draw(grid_specs())
    g = Grid.from_spec(spec)
    hx = data.draw(st.sampled_from(g.all_hexes()))
    angle = data.draw(st.floats(0, 2 * math.pi))
    # Anything within the inscribed circle (radius size/2) belongs to the hex.
    radius = data.draw(st.floats(0, 0.499)) * spec["hex_size"]
    x, y = g.centre(hx)
    assert g.hex_at(x + radius * math.cos(angle), y + radius * math.sin(angle)) == hx


@given(st.data())
@settings(max_examples=60, deadline=None, suppress_health_check=SLOW_OK)
def test_runs_point_the_right_way(data):
    spec = data.draw(grid_specs())
    g = Grid.from_spec(spec)
    c0, r0 = spec["columns"]["first"], spec["rows"]["first"]
    a = Hex(c0, r0)
    for key, step in (("columns_run", (2, 0)), ("rows_run", (0, 2))):
        b = Hex(a.col + step[0], a.row + step[1])
        (xa, ya), (xb, yb) = g.layout.centre(a), g.layout.centre(b)
        ux, uy = _UNIT[spec[key]]
        # Two steps along an index move straight along its direction (shifts cancel).
        assert (xb - xa) * ux + (yb - ya) * uy > 0
        assert math.isclose((xb - xa) * uy - (yb - ya) * ux, 0, abs_tol=1e-6)


def test_hex_at_off_grid_is_none():
    g = Grid.from_spec({"orientation": "flat", "stagger": "odd", "hex_size": 50,
                        "columns": {"first": 1, "last": 3}, "rows": {"first": 1, "last": 3},
                        "id": "{col:02}{row:02}"})
    assert g.hex_at(-100, -100) is None
    assert g.hex_at(1e6, 5) is None
