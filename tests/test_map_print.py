"""What a printed map shows beyond terrain: hex numbers per the series' rule (BCS 1.0e), a compass where north is
not up, invasion arrows pointing from sea to coast as the legend shows them, and a legend entry for every
printed mark. Computed from the data (no full map drawn), plus one small drawing of the legend."""

from __future__ import annotations

import pytest
from PIL import Image

from builder.gamedata.validate import validate_game
from builder.geometry.vassal_derive import board_showing, local_name
from builder.render import map_data, map_image, map_legend


@pytest.fixture(scope="module")
def pls():
    report = validate_game("panzers-last-stand")
    return map_data.load(report.model.map_doc, report.grid)


@pytest.fixture(scope="module")
def eotid():
    report = validate_game("iron-dream")
    return map_data.load(report.model.map_doc, report.grid)


def test_pls_numbers_every_fifth_row_only(pls):
    grid = pls.grid
    rule = pls.doc["map"]["hex_numbers"]
    assert rule["every"] == 5
    numbered = [h for h in grid.all_hexes() if map_image.numbered(grid, h, rule)]
    for h in numbered:
        name = local_name(grid, board_showing(grid, h), h)
        assert int(name.split(".")[1]) % 5 == 0, name
    # every column of every sheet gets its numbered rows (.00 ... .35 where the sheet shows them)
    assert 0.15 < len(numbered) / len(grid) < 0.25
    assert {h.col for h in numbered} == {h.col for h in grid.all_hexes()}


def test_eotid_numbers_every_hex(eotid):
    assert all(map_image.numbered(eotid.grid, h, (eotid.doc.get("map") or {}).get("hex_numbers"))
               for h in eotid.grid.all_hexes())


def test_invasion_arrows_point_from_sea_to_the_coastal_hex(eotid):
    arrows = [(a, b) for kind, a, b in eotid.hexsides if kind["id"] == "invasion"]
    assert len(arrows) >= 30
    for a, b in arrows:
        target = eotid.arrow_target(a, b)
        assert target is not None, (eotid.grid.name(a), eotid.grid.name(b))
        other = b if target == a else a
        assert (eotid.terrain_of(target) or {}).get("playable", True) is not False
        assert (eotid.terrain_of(other) or {}).get("playable", True) is False
    assert "invasion" in eotid.arrow_kinds and "road" not in eotid.arrow_kinds   # the legend draws arrow and bar


def test_legend_lists_the_printed_set_up_marks(eotid):
    marks = dict(map_legend._marks_used(eotid))
    assert "65" in marks and {"H1", "R3"} <= set(marks)
    lay = map_legend.layout(eotid)
    assert [item for kind, item, *_ in lay.entries if kind == "mark"] == map_legend._marks_used(eotid)
    img = Image.new("RGB", (lay.width, lay.height), (255, 255, 255))
    map_legend.draw_panel(img, eotid, lay)   # draws without error, inside its rectangle


def test_pls_has_a_compass_with_north_to_the_left(pls):
    assert pls.doc["map"]["compass"]["north"] == "left"
    assert map_image.COMPASS_ANGLE["left"] == 180


def test_pls_compass_covers_no_road_river_place_or_number(pls):
    grid = pls.grid
    sheet = grid.spec.sheets[0].id
    left, top, width, height = map_image.board_rect(grid, sheet)
    cx, cy, r = map_image.compass_place(pls, sheet, (width, height), (left, top))
    disc = r * 1.15
    assert disc < cx < width - disc and disc < cy < height - disc          # on the board
    from builder.render import map_hexsides, map_lines
    strokes = [pts for _, _, pts in map_lines.polylines(pls)]
    strokes += [c for _, _, sides in pls.runs for c in map_hexsides.chains(grid, sides)]
    for pts in strokes:
        for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
            for k in range(11):
                x, y = x0 + (x1 - x0) * k / 10 - left, y0 + (y1 - y0) * k / 10 - top
                assert (x - cx) ** 2 + (y - cy) ** 2 > disc ** 2
    rule = pls.doc["map"]["hex_numbers"]
    for h in grid.all_hexes():
        x, y = grid.centre(h)
        x, y = x - left, y - top
        if h in pls.locations:
            assert (x - cx) ** 2 + (y - cy) ** 2 > disc ** 2, grid.name(h)
        if map_image.numbered(grid, h, rule):
            assert (x - cx) ** 2 + (y - grid.spec.hex_size * 0.36 - cy) ** 2 > disc ** 2, grid.name(h)


def test_legend_title_wraps_inside_the_panel_and_water_shows_its_shore(pls):
    from builder.render.colors import parse_color
    lay = map_legend.layout(pls)
    s = pls.grid.spec.hex_size
    lines = [(item, x, y) for kind, item, x, y in lay.entries if kind == "title"]
    assert " ".join(t for t, _, _ in lines) == pls.doc["map"]["title"] and len(lines) >= 2
    font = map_legend.title_font(s)
    boxes = [x for kind, _, x, _ in lay.entries if kind == "box"]
    assert all(x + font.getlength(t) <= min(boxes) for t, x, _ in lines)    # clear of the boxes' column
    img = Image.new("RGB", (lay.width, lay.height), (255, 255, 255))
    map_legend.draw_panel(img, pls, lay)
    x, y = next((x, y) for kind, item, x, y in lay.entries if kind == "terrain" and item["id"] == "lake")
    top = (round(x + s * 0.35), round(y + s * 0.35 - s * 0.34) + 1)     # just inside the sample's top corner
    assert img.getpixel(top) == parse_color(pls.terrain_types["lake"]["shore"])[:3]
