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
