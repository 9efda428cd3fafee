"""Set-up areas described from the map data (builder.gamedata.places): regions, rows, distances, coasts,
exclusions; the validator's messages for a place set naming what does not exist; and the EotID areas
the rulebook gives in words, resolved to the hexes the rules describe."""

from __future__ import annotations

import re

import pytest

from builder.cli import main
from builder.gamedata.validate import validate_game
from test_module_support import report

# The tiny game's map (flat hexes, columns A-J, rows 1-10 running south) with two regions and a symbol.
PLACES_MAP = """
terrain_types:
  - {id: clear, name: Clear, color: "#EEEEEE", movement: {all: 1}}
  - {id: lake, name: Lake, color: "#2244CC", movement: {all: prohibited}, playable: false}
terrain:
  default: clear
  hexes: {A1: lake, A2: lake}
regions:
  - {id: west, name: West, kind: nation, hexes: [A1, A2, A3, B1, B2, B3, C1, C2, C3]}
  - {id: west-hills, name: West hills, kind: region, parent: west, hexes: [A4]}
setup_areas:
  - {id: west-south, name: West on or south of row 2, places: {regions: [west], rows: {from: 2}}}
  - {id: near-e5, name: Within 1 of E5, places: {within: {distance: 1, of: {hexes: [E5]}}}}
  - {id: west-shore, name: West next to the lake, places: {regions: [west], adjacent_to: {terrain: [lake]}, not: {terrain: [lake]}}}
  - {id: both, name: Both, places: {areas: [near-e5, west-south], not: {hexes: [E5]}}}
  - {id: loop, name: Names itself, places: {areas: [loop, near-e5]}}
"""


def _tiny(tiny_game, extra=PLACES_MAP):
    map_ = tiny_game / "map.yaml"
    map_.write_text(map_.read_text() + extra)
    return map_


def test_places_select_regions_rows_distances_coasts_and_exclusions(tiny_game):
    _tiny(tiny_game)
    r = validate_game(str(tiny_game / "game.yaml"))
    assert r.ok, [d.message for d in r.errors]
    g = r.model
    # rows run south on this map: 'from 2' keeps rows 2 and beyond; the child region's A4 comes along
    assert g.area_hexes("west-south") == ["A2", "A3", "A4", "B2", "B3", "C2", "C3"]
    assert sorted(g.area_hexes("near-e5")) == sorted(["E5", *(r.grid.name(h) for h in r.grid.neighbours(r.grid.parse("E5")))])
    assert len(g.area_hexes("near-e5")) == 7
    assert g.area_hexes("west-shore") == ["A3", "B1", "B2"]        # next to a lake hex, not one itself
    assert set(g.area_hexes("both")) == (set(g.area_hexes("near-e5")) | set(g.area_hexes("west-south"))) - {"E5"}
    assert set(g.area_hexes("loop")) == set(g.area_hexes("near-e5"))   # read once, no endless recursion


def test_place_set_names_that_do_not_exist_are_errors_at_their_line(capsys, tiny_game):
    map_ = _tiny(tiny_game, PLACES_MAP + "  - {id: bad, name: Bad, places: {regions: [wset], rows: {from: Q},"
                 " within: {distance: 2, of: {symbols: [moon], hexes: [Z99]}}, adjacent_to: {areas: [nowhere]}}}\n")
    code = main(["validate", str(tiny_game / "game.yaml")])
    out = capsys.readouterr().out
    assert code == 1
    line = next(n for n, text in enumerate(map_.read_text().splitlines(), 1) if "id: bad" in text)
    errs = [l for l in out.splitlines() if re.match(r"^[^:]+:\d+:\d+: (?!warning)", l)]
    assert all(f"map.yaml:{line}:" in e for e in errs), errs
    text = "\n".join(errs)
    assert "setup_areas[5].places.regions[0]" in text and "wset" in text and "did you mean 'west'" in text
    assert "setup_areas[5].places.rows.from: 'Q' is not a row label of this grid" in text
    assert "setup_areas[5].places.within.of.symbols[0]: no location carries the symbol 'moon'" in text
    assert "setup_areas[5].places.within.of.hexes[0]: 'Z99' is not a hex of this map" in text
    assert "setup_areas[5].places.adjacent_to.areas[0]" in text and "nowhere" in text
    assert len(errs) == 5
    assert "Traceback" not in out


def test_places_schema_is_closed(capsys, tiny_game):
    _tiny(tiny_game, PLACES_MAP + "  - {id: typo, name: Typo, places: {region: [west]}}\n")
    assert main(["validate", str(tiny_game / "game.yaml")]) == 1
    out = capsys.readouterr().out
    assert "setup_areas[5].places" in out and "region" in out


@pytest.fixture(scope="module")
def eotid():
    return report("iron-dream")      # the validated game, shared with the module tests (cached)


def test_eotid_word_areas_resolve_to_the_hexes_the_rules_describe(eotid):
    g, grid = eotid.model, eotid.grid
    region = {r["id"]: set(r["hexes"]) for r in g.map_doc["regions"]}
    area = lambda a: set(g.area_hexes(a))                      # noqa: E731
    row = lambda h: grid.parse(h).row                          # noqa: E731
    # 3.3 A: Yugoslav hexes on or north of row F (rows run north: F and later letters)
    assert area("yugoslavia-north-of-f") == {h for h in region["yugoslavia"] if row(h) >= row("F1")}
    assert "F23" in area("yugoslavia-north-of-f") and "E23" not in area("yugoslavia-north-of-f")
    # 3.7 C: France on or south of row M
    assert area("s-france-panzer") == {h for h in region["france"] if row(h) <= row("M1")}
    # 3.8 B: France and the Benelux
    assert area("france-benelux") == region["france"] | region["belgium"] | region["netherlands"] | region["luxembourg"]
    # 3.7 B: French hexes on the Mediterranean coast, Marseille among them
    med = {grid.parse(h) for h in region["mediterranean"]}
    assert area("french-med-coast") == {h for h in region["france"] if set(grid.neighbours(grid.parse(h))) & med}
    assert "I8" in area("french-med-coast")
    # 3.4 E: within four hexes of a swastika hex, none Soviet at the start
    swastikas = [grid.parse(h) for h in g.area_hexes("eastern-front-swastika")]
    su = area("german-east-su")
    assert su and all(min(grid.distance(grid.parse(h), s) for s in swastikas) <= 4 for h in su)
    assert not su & (region["ussr"] | area("soviet-red-star"))
    # 3.2: partisans inland in Albania/Montenegro or on their Serbian/Croatian border
    part = area("yugoslav-partisan")
    assert part and part <= region["albania"] | region["montenegro"] | region["serbia"] | region["croatia"]
    # 27.3 I: within 1 of Konigsberg (W30), within 2 of Riga (Y35)
    assert area("lhj-konigsberg") == {grid.name(h) for h in grid.all_hexes() if grid.distance(h, grid.parse("W30")) <= 1}
    assert all(grid.distance(grid.parse(h), grid.parse("Y35")) <= 2 for h in area("lhj-riga"))
    # 27.3 G, 27.4: the triangle line splits Soviet from NATO territory; Trieste and Prague are NATO's
    soviet, nato = area("lhj-soviet-territory"), area("lhj-nato-territory")
    assert area("lhj-triangle-line") <= soviet and not soviet & nato
    assert {"T21", "W30", "Y35", "M22"} <= soviet and {"W18", "U18", "M16", "H17", "Q21"} <= nato
    assert not nato & region["yugoslavia"] - {"H17"} and not nato & region["turkey"]
    assert {h for h in area("lhj-nato-south-of-n") if row(h) >= row("N1")} == set()
    assert area("lhj-yugoslavia") == region["yugoslavia"] - {"H17"}
    alpen = area("alpenfestung-munich")                        # 26.6.6 A: the three mountain hexes next to Munich
    assert len(alpen) == 3 and all(grid.parse(h) in grid.neighbours(grid.parse("M16")) for h in alpen)


def test_the_triangle_line_is_one_connected_line_from_the_baltic_to_yugoslavia(eotid):
    g, grid = eotid.model, eotid.grid
    line = [grid.parse(h) for h in g.area_hexes("lhj-triangle-line")]
    sea = {grid.parse(h) for r in g.map_doc["regions"] if r.get("kind") == "sea" for h in r["hexes"]}
    yugo = {grid.parse(h) for r in g.map_doc["regions"] if r["id"] == "yugoslavia" for h in r["hexes"]}
    seen, todo = {line[0]}, [line[0]]
    while todo:
        h = todo.pop()
        for n in grid.neighbours(h):
            if n in line and n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(line)
    assert any(set(grid.neighbours(h)) & sea for h in line)       # reaches the Baltic coast
    assert any(set(grid.neighbours(h)) & yugo for h in line)      # and the Yugoslav border
