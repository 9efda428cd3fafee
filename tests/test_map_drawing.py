"""How a printed map draws what its data gives: rivers and streams as continuous strokes along their hexsides (not
side by side, breaking at every corner), hex numbers legible where a road or railway runs through them, water
with a shoreline shaped by its hexes, and legend symbols drawn by the map's own code from the map's own values."""

from __future__ import annotations

import math

import pytest
import yaml
from PIL import Image

from builder.gamedata.validate import validate_game
from builder.render import map_build, map_data, map_hexsides, map_image, map_legend, map_markers
from builder.render.colors import parse_color
from builder.render.map_style import Scale

from test_map_validation import TERRAIN_MAP


def _rgb(colour):
    return parse_color(colour)[:3]


@pytest.fixture(scope="module", params=["iron-dream", "panzers-last-stand"])
def shipped(request):
    report = validate_game(request.param)
    assert report.ok
    return map_data.load(report.model.map_doc, report.grid)


def _dist_to_polyline(p, pts) -> float:
    best = math.inf
    for a, b in zip(pts, pts[1:]):
        dx, dy = b[0] - a[0], b[1] - a[1]
        t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / ((dx * dx + dy * dy) or 1)))
        best = min(best, math.dist(p, (a[0] + dx * t, a[1] + dy * t)))
    return best


def test_each_river_is_one_continuous_chain_of_its_sides(shipped):
    grid = shipped.grid
    size = grid.spec.hex_size
    chained = 0
    for kind, name, sides in shipped.runs:
        if kind.get("style", "line") not in map_hexsides.CHAINED:
            continue
        lines = map_hexsides.chains(grid, sides)
        # every side drawn once: consecutive points of a line are the two corners of a listed side
        drawn = [frozenset((map_hexsides.corner_key(p), map_hexsides.corner_key(q)))
                 for line in lines for p, q in zip(line, line[1:])]
        listed = {frozenset(map(map_hexsides.corner_key, map_hexsides.side_corners(grid, a, b))) for a, b in sides}
        assert sorted(map(sorted, drawn)) == sorted(map(sorted, listed)), name
        assert len(lines) == 1, f"{name} is drawn in {len(lines)} pieces"
        # the drawn stroke bends round the corners but stays on the sides (within 0.08 hex)
        stroke = map_hexsides.rounded(lines[0])
        assert stroke[0] == lines[0][0] and stroke[-1] == lines[0][-1]
        assert max(_dist_to_polyline(p, lines[0]) for p in stroke) < size * 0.08, name
        assert max(_dist_to_polyline(c, stroke) for c in lines[0]) < size * 0.08, name
        chained += 1
    assert chained >= 10


def test_a_stream_wave_is_continuous_and_gentle():
    pts = [(0.0, 0.0), (50.0, 0.0), (75.0, 43.0), (125.0, 43.0)]
    line = map_hexsides.wavy(map_hexsides.rounded(pts), amplitude=2.0, wavelength=28.0)
    assert line[0] == pts[0] and line[-1] == pts[-1]
    assert max(math.dist(p, q) for p, q in zip(line, line[1:])) < 5          # no jumps
    assert max(_dist_to_polyline(p, pts) for p in line) < 2.0 + 6.5           # the wave plus the corner rounding


def test_chains_split_at_a_gap_and_keep_every_side():
    report = validate_game("iron-dream")
    grid = report.grid
    sides = [(grid.parse(a), grid.parse(b)) for a, b in (("M20", "M21"), ("M21", "N20"), ("C3", "C4"))]
    lines = map_hexsides.chains(grid, sides)
    assert sorted(len(line) for line in lines) == [2, 3]


TINY = yaml.safe_load(TERRAIN_MAP)


@pytest.fixture
def tiny_report(tiny_game):
    doc = dict(TINY)
    doc["terrain_types"] = [dict(t, shore="#102080") if t["id"] == "lake" else t for t in doc["terrain_types"]]
    doc["hexside_types"] = doc["hexside_types"] + [
        {"id": "stream", "name": "Stream", "color": "#00C0FF", "width": 0.05, "style": "wavy"}]
    doc["hexsides"] = doc["hexsides"] + [{"type": "stream", "sides": [["F2", "G2"], ["F2", "G3"], ["F3", "G3"],
                                                                     ["F3", "G4"], ["F4", "G4"]]}]
    (tiny_game / "map.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
    report = validate_game(str(tiny_game / "game.yaml"))
    assert report.ok, [e.format() for e in report.errors]
    return report


def test_the_drawn_stream_follows_its_sides_without_a_break(tiny_report):
    doc, grid = tiny_report.model.map_doc, tiny_report.grid
    (info, img), = map_build.render(doc, grid)
    ox, oy = info.grid_offset
    blue = _rgb("#00C0FF")
    sides = [(grid.parse(a), grid.parse(b)) for a, b in doc["hexsides"][-1]["sides"]]
    line, = map_hexsides.chains(grid, sides)
    stroke = map_hexsides.rounded(line)

    def near(x, y, r=4):
        return any(img.getpixel((round(x + ox + dx), round(y + oy + dy)))[:3] == blue
                   for dx in range(-r, r + 1) for dy in range(-r, r + 1))

    for (x0, y0), (x1, y1) in zip(stroke, stroke[1:]):   # every 2 pixels along the stroke: stream ink nearby
        n = max(1, round(math.dist((x0, y0), (x1, y1)) / 2))
        for k in range(n + 1):
            assert near(x0 + (x1 - x0) * k / n, y0 + (y1 - y0) * k / n)
    for h in {h for s in sides for h in s}:   # and none at the hexes' centres (it runs along sides, not across)
        x, y = grid.centre(h)
        assert not near(x, y, r=8), grid.name(h)


def test_hex_numbers_stay_legible_where_a_road_runs_through_them(tiny_report):
    doc, grid = tiny_report.model.map_doc, tiny_report.grid
    (info, img), = map_build.render(doc, grid)
    ox, oy = info.grid_offset
    road, ink = _rgb("#AA3300"), (40, 40, 40)
    sc = Scale(grid.spec.hex_size)
    from builder.render import fonts
    from PIL import ImageDraw
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    for hid in ("A2", "A3"):   # the road A1-A2-A3 runs straight through the tops of these hexes, under the numbers
        x, y = grid.centre(grid.parse(hid))
        left, top, right, bottom = map_image.number_plate(probe, hid, x + ox, y + oy - sc.size * 0.36,
                                                          fonts.font(sc.id_font), 1)
        box = [img.getpixel((i, j))[:3] for i in range(math.ceil(left), int(right)) for j in range(math.ceil(top), int(bottom))]
        assert road not in box, hid
        assert ink in box, hid
        # just above and below the plate the road shows: it is interrupted, not moved
        assert img.getpixel((round(x + ox), math.floor(top) - 3))[:3] == road
        assert img.getpixel((round(x + ox), math.ceil(bottom) + 3))[:3] == road


def test_water_has_a_shoreline_along_its_sides_with_land(tiny_report):
    doc, grid = tiny_report.model.map_doc, tiny_report.grid
    (info, img), = map_build.render(doc, grid)
    ox, oy = info.grid_offset
    shore = _rgb("#102080")

    def mid(a, b):
        (ax, ay), (bx, by) = (grid.centre(grid.parse(h)) for h in (a, b))
        return round((ax + bx) / 2 + ox), round((ay + by) / 2 + oy)

    assert img.getpixel(mid("C5", "C6")) == shore       # lake C5 beside forest C6
    assert img.getpixel(mid("B4", "C4")) == shore       # and beside clear B4
    assert img.getpixel(mid("C4", "C5")) != shore       # two lake hexes: one body of water, no line between


def test_the_legend_draws_the_maps_own_symbols_and_values():
    report = validate_game("iron-dream")
    data = map_data.load(report.model.map_doc, report.grid)
    values = sorted({loc["vp"] for loc in data.locations.values() if loc.get("vp") is not None})
    samples = map_legend.symbol_samples(data, "vp")
    assert [loc["vp"] for _, loc in samples] == values[:4] and 1 in values
    sizes = {loc.get("city") for loc in data.locations.values()}
    assert {loc["city"] for _, loc in map_legend.symbol_samples(data, "city")} == sizes & {"village", "town", "city",
                                                                                          "major-city"}
    # the map and its legend draw their markers with the same function, from the same values
    calls = []
    real = map_markers.marker

    def record(draw, name, loc, x, y, sc):
        calls.append((name, dict(loc)))
        return real(draw, name, loc, x, y, sc)

    try:
        map_markers.marker = record
        (info, img), = map_build.render(report.model.map_doc, report.grid)
    finally:
        map_markers.marker = real
    on_map = sorted({loc["vp"] for name, loc in calls if name == "vp" and len(loc) > 1})
    in_legend = sorted({loc["vp"] for name, loc in calls if name == "vp" and len(loc) == 1})
    assert on_map == values and in_legend == values[:4]
    # the legend's first VP sample prints its value in the marker's red where the map prints a 1
    lay = map_legend.layout(data, min_height=map_image.board_rect(report.grid, None)[3])   # as map_build lays it out
    x, y = next((x, y) for kind, item, x, y in lay.entries if kind == "symbol" and item == "vp")
    (cx, cy), *_ = map_legend.sample_centres(len(samples), x + map_image.board_rect(report.grid, None)[2], y,
                                             report.grid.spec.hex_size)
    r = round(report.grid.spec.hex_size * 0.06)
    assert any(img.getpixel((round(cx) + i, round(cy) + j))[:3] == (200, 20, 20)
               for i in range(-r, r + 1) for j in range(-r, r + 1))


def test_lake_velence_is_the_16_hex_triangle_its_data_gives(shipped):
    grid = shipped.grid
    if not grid.spec.has_sheets:
        pytest.skip("Lake Velence is on the PLS map")
    region = shipped.regions["lake-velence"]
    assert region["kind"] == "lake" and "hexes" in region.get("authored", {})
    hexes = {grid.parse(h) for h in region["hexes"]}
    assert len(hexes) == 16
    assert all((shipped.terrain_of(h) or {}).get("id") == "lake" for h in hexes)
    # the water is exactly the region: one piece, no lake hex beside it that the region leaves out
    seen, todo = {next(iter(hexes))}, [next(iter(hexes))]
    while todo:
        for n in shipped.grid.neighbours(todo.pop()):
            if n not in seen and (shipped.terrain_of(n) or {}).get("id") == "lake":
                seen.add(n)
                todo.append(n)
    assert seen == hexes
    # a triangle: widest at its west end (low rows), narrowing row by row to one hex at the east end
    widths = [sum(1 for h in hexes if h.row == r) for r in sorted({h.row for h in hexes})]
    assert widths == sorted(widths, reverse=True) and widths[-1] == 1 and widths[0] >= 3


def test_no_line_runs_through_water(shipped):
    for kind, path in shipped.lines:
        wet = [shipped.grid.name(h) for h in path if (shipped.terrain_of(h) or {}).get("playable", True) is False]
        assert not wet, f"{kind['id']} runs through {wet}"
