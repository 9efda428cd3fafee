"""Place names as a printed map shows them: only real place names are printed (a rule's name for a road junction, a
bridge or a scenario's edge limit is data, ``label: false``), each once, without rule references; each set clear of
every other name, town symbol, marker and hex number (map_labels), computed for the whole map of both games."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from PIL import Image, ImageDraw

from builder.gamedata.validate import validate_game
from builder.geometry.grid import Grid
from builder.render import map_data, map_labels, map_markers, map_numbers
from builder.render.map_style import Scale

SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "schemas" / "map.schema.json").read_text())
# Words of a rule's reference name, never of a printed place name.
RULE_WORDS = re.compile(r"\d|[()]|\b(exit|limit|junction|bridge|entry|area|supply|festung|hq)\b", re.I)


@pytest.fixture(scope="module", params=["iron-dream", "panzers-last-stand"])
def shipped(request):
    report = validate_game(request.param)
    assert report.ok
    return request.param, map_data.load(report.model.map_doc, report.grid)


def test_printed_names_are_place_names_not_rule_references(shipped):
    game, data = shipped
    printed = {data.grid.name(h): map_markers.printed_name(loc) for h, loc in data.locations.items()}
    assert [(h, n) for h, n in sorted(printed.items()) if n and RULE_WORDS.search(n)] == [], game


def test_pls_rule_named_locations_print_no_name():
    report = validate_game("panzers-last-stand")
    data = map_data.load(report.model.map_doc, report.grid)
    by_hex = {hex_id: data.locations[data.grid.parse(hex_id)] for hex_id in (
        "C22.07", "C16.08", "B1.28", "B1.22", "D1.14", "A20.03", "A21.05", "A20.00", "A20.01", "A20.05", "A20.06")}
    for hex_id in ("C22.07", "B1.28", "B1.22", "D1.14", "A20.03", "A21.05", "A20.00", "A20.01"):
        assert map_markers.printed_name(by_hex[hex_id]) is None, hex_id
        assert by_hex[hex_id]["name"], hex_id            # the rule name stays, for the rules and the audit
    assert by_hex["C22.07"]["vp"] == 1                    # its VP mark is still printed
    assert map_markers.markers_of(by_hex["C22.07"]) == ["vp"]
    assert map_markers.printed_name(by_hex["C16.08"]) == "Esztergom"   # the junction is the town's hex
    # a town of two hexes prints its name once
    assert [map_markers.printed_name(by_hex[h]) for h in ("A20.05", "A20.06")] == ["Komárom", None]


def test_printed_name_is_the_label_else_the_name():
    assert map_markers.printed_name({"hex": "A1", "name": "Tatabanya", "label": "Tatabánya"}) == "Tatabánya"
    assert map_markers.printed_name({"hex": "A1", "name": "Tatabanya"}) == "Tatabanya"
    assert map_markers.printed_name({"hex": "A1", "name": "Road junction", "label": False}) is None
    assert map_markers.printed_name({"hex": "A1"}) is None


@pytest.mark.parametrize("label", [True, "", 3, None])
def test_the_schema_refuses_a_label_that_is_neither_text_nor_false(label):
    errors = [e for e in Draft202012Validator(SCHEMA).iter_errors({"locations": [{"hex": "A1", "label": label}]})
              if list(e.absolute_path)[:1] == ["locations"]]
    assert [list(e.absolute_path) for e in errors] == [["locations", 0, "label"]], label


@pytest.mark.parametrize("label", [False, "Tatabánya"])
def test_the_schema_takes_text_or_false(label):
    errors = [e for e in Draft202012Validator(SCHEMA).iter_errors({"locations": [{"hex": "A1", "label": label}]})
              if list(e.absolute_path)[:1] == ["locations"]]
    assert errors == []


# ------------------------------------------------------------------------------------------- where names go

def _overlap(a, b) -> float:
    w, h = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _grow(b, by):
    return b[0] - by, b[1] - by, b[2] + by, b[3] + by


def _clashes(data) -> list[str]:
    """Every name box that overlaps another name, a town symbol or marker, a hex number or a region name."""
    lay = map_labels.layout(data)
    grid, sc = data.grid, Scale(data.grid.spec.hex_size)
    things = [(f"marker of {grid.name(h)}", b) for h, loc in data.locations.items()
              for b in map_markers.marker_boxes(loc, *grid.centre(h), sc)]
    things += [(f"number of {grid.name(h)}", m.box) for h, m in map_numbers.marks(data, grid.all_hexes(), sc).items()]
    things += [(f"region {r.text}", map_labels._text_box(r.text, r.font, r.x, r.y, "mm", 0))
               for r in map_labels.region_names(data, sc)]
    labels = sorted(lay.labels.items())
    bad = []
    for i, (h, label) in enumerate(labels):
        bad += [f"{label.text} over {what}" for what, b in things if _overlap(label.box, b) > 0]
        # two names keep a gap (touching, they read as one name)
        bad += [f"{label.text} against {other.text}" for _, other in labels[i + 1:]
                if _overlap(_grow(label.box, 2), other.box) > 0]
    return bad


def test_no_name_overlaps_another_name_a_symbol_or_a_hex_number(shipped):
    game, data = shipped
    lay = map_labels.layout(data)
    assert _clashes(data) == [], game
    assert lay.crowded == [], game
    # every printed name is placed, at full size (the maps have room: shrinking is the last resort)
    assert sorted(lay.labels) == sorted(h for h, loc in data.locations.items() if map_markers.printed_name(loc))
    assert [label.text for label in lay.labels.values() if label.scale < 1] == [], game
    # most names sit in the usual place, below their symbol
    below = sum(label.anchor == "ma" for label in lay.labels.values())
    assert below >= 0.8 * len(lay.labels), game


def test_names_stay_inside_the_maps_outer_edges(shipped):
    game, data = shipped
    x0, y0, x1, y1 = map_labels.map_bounds(data.grid, 0)
    for label in map_labels.layout(data).labels.values():
        b = label.box
        assert x0 <= b[0] and b[2] <= x1 and y0 <= b[1] and b[3] <= y1, (game, label.text)


def _drawn_box(draw_fn, size=400):
    """The bounding box of what draw_fn(draw) inks on a blank image whose origin is the image's middle."""
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw_fn(ImageDraw.Draw(img, "RGBA"), size / 2, size / 2)
    box = img.getchannel("A").getbbox()
    return None if box is None else (box[0] - size / 2, box[1] - size / 2, box[2] - size / 2, box[3] - size / 2)


def _inside(inner, outer, slack=1.0) -> bool:
    return (outer[0] - slack <= inner[0] and outer[1] - slack <= inner[1] and inner[2] <= outer[2] + slack
            and inner[3] <= outer[3] + slack)


@pytest.mark.parametrize("loc", [
    {"city": "capital", "vp": 25, "wehrkreis": "III", "economic": True, "supply_source": "axis"},
    {"city": "village", "symbol": "swastika", "fort": 3, "key_terrain": True},
    {"city": "town", "symbol": "65"}, {"symbol": "red-star"}, {"symbol": "H1", "port": True, "city": "city"}])
def test_marker_boxes_cover_what_the_markers_draw(loc):
    """The boxes the layout keeps names out of are where the markers really print (drawn and measured)."""
    sc = Scale(96)
    for m in map_markers.markers_of(loc):
        dx, dy = map_markers.MARKER_AT[m]
        drawn = _drawn_box(lambda d, x, y: map_markers.marker(d, m, loc, x + dx * 96, y + dy * 96, sc))
        box = map_markers.marker_box(m, loc, dx * 96, dy * 96, sc)
        assert drawn and _inside(drawn, box), (m, drawn, box)


def test_drawn_names_stay_inside_their_boxes(shipped):
    game, data = shipped
    for label in list(map_labels.layout(data).labels.values())[:25]:
        drawn = _drawn_box(lambda d, x, y: d.text((x, y), label.text, font=label.font, fill=(0, 0, 0, 255),
                                                  anchor=label.anchor, stroke_width=2, stroke_fill=(255, 255, 255, 255)),
                           size=600)
        box = tuple(v - o for v, o in zip(label.box, (label.x, label.y, label.x, label.y)))
        assert _inside(drawn, box), (game, label.text, drawn, box)


SPEC = {"orientation": "pointy", "stagger": "even", "hex_size": 96, "columns": {"first": 1, "last": 9},
        "rows": {"first": 1, "last": 7, "labels": "letters"}, "id": "{row}{col}", "rows_run": "north",
        "columns_run": "east"}


def _data(locations):
    grid = Grid.from_spec(SPEC)
    doc = {"grid": SPEC, "terrain_types": [{"id": "clear", "name": "Clear", "color": "#EEE8C8"}],
           "terrain": {"default": "clear"}, "locations": locations}
    return map_data.load(doc, grid)


def test_a_name_moves_off_its_neighbours_symbol_and_the_choice_is_deterministic():
    """Two towns side by side with long names: the first (by importance) stays below its circle, the second
    moves to a free place; the same data always gives the same layout."""
    locs = [{"hex": "D4", "name": "Szekesfehervar", "city": "city"}, {"hex": "D5", "name": "Pusztaszabolcs",
                                                                      "city": "town"}]
    data = _data(locs)
    lay = map_labels.layout(data)
    first, second = (lay.labels[data.grid.parse(h)] for h in ("D4", "D5"))
    assert first.anchor == "ma" and second.anchor != "ma"
    assert _clashes(data) == [] and lay.crowded == []
    again = map_labels.layout(_data(locs))
    assert [(v.x, v.y, v.anchor, v.scale) for v in again.labels.values()] == \
           [(v.x, v.y, v.anchor, v.scale) for v in lay.labels.values()]


def test_a_crowded_block_shrinks_names_only_when_no_place_is_free_and_reports_what_cannot_fit():
    block = [f"{r}{c}" for r in "CDE" for c in range(3, 7)]
    data = _data([{"hex": h, "name": f"Longplacename{h}", "city": "town", "vp": 1} for h in block])
    lay = map_labels.layout(data)
    assert len(lay.labels) == len(block)
    clashes = _clashes(data)
    # what overlaps is exactly what the layout reports as crowded, and each crowded name tried the smallest type
    crowded = {data.grid.name(h) for h in lay.crowded}
    assert crowded and {c.split(" over ")[0].replace("Longplacename", "") for c in clashes} <= crowded | set(block)
    assert all(lay.labels[h].scale == map_labels.SHRINK[-1] for h in lay.crowded)
    # a name that fits at full size was not shrunk
    assert any(v.scale == 1.0 for v in lay.labels.values())


def test_a_long_name_in_a_corner_hex_is_moved_inside_the_map():
    data = _data([{"hex": "A1", "name": "A very long place name on the edge", "city": "town"}])
    label = map_labels.layout(data).labels[data.grid.parse("A1")]
    x0, y0, x1, y1 = map_labels.map_bounds(data.grid, 0)
    assert x0 <= label.box[0] and label.box[2] <= x1 and label.box[3] <= y1


# ------------------------------------------------------------------------------------------- hex numbers

def _cap_height(font) -> int:
    img = Image.new("L", (400, 100), 0)
    ImageDraw.Draw(img).text((10, 80), "0123456789ABCZ", font=font, fill=255, anchor="ls")
    box = img.getbbox()
    return box[3] - box[1]


def _inside_polygon(p, poly) -> bool:
    inside = False
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
        if (y0 > p[1]) != (y1 > p[1]) and p[0] < x0 + (p[1] - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def test_hex_numbers_are_legible_at_the_modules_starting_zoom_and_fit_their_hex(shipped):
    """Hex IDs were 9 px capitals, about 6 px on screen at the module's 0.75 starting zoom: unreadable. They must
    keep 8 px capitals on screen at that zoom, and their knock-out plate must stay inside the hex."""
    from builder.module.maps import zoom_levels
    game, data = shipped
    grid, sc = data.grid, Scale(data.grid.spec.hex_size)
    x0, y0, x1, y1 = map_labels.map_bounds(grid, 0)      # the main map's size (all sheets joined)
    levels, start = zoom_levels(round(x1 - x0), round(y1 - y0), True)
    zoom = sorted((float(z) for z in levels.split(",")), reverse=True)[start - 1]   # zoomStart counts from the top
    cap = _cap_height(map_numbers.number_font(sc))
    assert cap * min(zoom, 1.0) >= 8, (game, cap, zoom)
    assert cap <= 0.13 * sc.size, game   # not crowding the hex art
    marks = map_numbers.marks(data, grid.all_hexes(), sc)
    widest = max((m for m in marks.values() if m.text), key=lambda m: m.box[2] - m.box[0])
    hx = grid.hex_at(widest.x, widest.y + sc.size * map_numbers.NUMBER_DY)
    b = widest.box
    for corner in ((b[0], b[1]), (b[2], b[1]), (b[0], b[3]), (b[2], b[3])):
        assert _inside_polygon(corner, grid.corners(hx)), (game, widest.text)


def test_no_marker_overlaps_a_hex_number(shipped):
    game, data = shipped
    grid, sc = data.grid, Scale(data.grid.spec.hex_size)
    marks = map_numbers.marks(data, grid.all_hexes(), sc)
    bad = []
    for h, loc in sorted(data.locations.items()):
        near = [marks[n] for n in grid.neighbours(h) + (h,) if n in marks]
        for m, b in zip(map_markers.markers_of(loc), map_markers.marker_boxes(loc, *grid.centre(h), sc)):
            bad += [f"{m} of {grid.name(h)} over {k.text or 'dot'}" for k in near if _overlap(b, k.box) > 0]
    assert bad == [], game


def test_every_pls_place_name_has_its_town_symbol():
    """A name printed without a town symbol floats: the reader cannot tell which hex it names."""
    report = validate_game("panzers-last-stand")
    data = map_data.load(report.model.map_doc, report.grid)
    floating = [n for loc in data.locations.values() if (n := map_markers.printed_name(loc)) and not loc.get("city")]
    assert floating == []
