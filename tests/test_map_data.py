"""The shipped maps hold what the rulebooks say about their terrain, and mark the rest as authored."""

import pytest

from builder.gamedata import mapterrain
from builder.gamedata.validate import validate_game


@pytest.fixture(scope="module")
def eotid():
    report = validate_game("iron-dream")
    assert report.ok, [e.format() for e in report.errors[:5]]
    layer, _ = mapterrain.resolve(report.model.map_doc, report.grid)
    return report, layer


@pytest.fixture(scope="module")
def pls():
    report = validate_game("panzers-last-stand")
    assert report.ok, [e.format() for e in report.errors[:5]]
    layer, _ = mapterrain.resolve(report.model.map_doc, report.grid)
    return report, layer


def sides_of(doc, grid, kind):
    return {frozenset(grid.parse(h) for h in pair) for run in doc["hexsides"] if run["type"] == kind
            for pair in run["sides"]}


def region(doc, rid):
    return next(r for r in doc["regions"] if r["id"] == rid)


def test_eotid_terrain_stated_in_the_rulebook(eotid):
    report, layer = eotid
    t = lambda hid: layer.terrain(report.grid.parse(hid))  # noqa: E731
    assert t("X12") == "estuary"                                        # 8.4
    assert {t(h) for h in ("X13", "Y13", "Y14", "Z13", "Z14")} == {"marsh"}   # 26.6.5 A
    assert t("J14") == "mountain" and t("F12") != "mountain"            # errata 2.12 C
    assert t("T21") == "clear"                                          # Berlin moves as clear (25.1)


def test_eotid_hexsides_stated_in_the_rulebook(eotid):
    report, _ = eotid
    doc, grid = report.model.map_doc, report.grid
    pair = lambda a, b: frozenset((grid.parse(a), grid.parse(b)))  # noqa: E731
    blocked = sides_of(doc, grid, "blocked")
    for a, b in [("L15", "K15"), ("L15", "K16"), ("L16", "K16"), ("K16", "K17"), ("K17", "J17"), ("K18", "J17"),
                 ("I18", "J18"), ("X11", "X12")]:
        assert pair(a, b) in blocked, (a, b)
    assert sides_of(doc, grid, "dike") == {pair("Z14", "Z15")}
    invasion = sides_of(doc, grid, "invasion")
    assert sum(grid.parse("X9") in s for s in invasion) == 3            # three arrows (14.9)
    assert not any(grid.parse("Z14") in s for s in invasion)            # not invadable (14.9)
    assert len(sides_of(doc, grid, "road")) == 3                        # Cluj, Salzburg, Innsbruck (10.10)
    major = {r["name"] for r in doc["hexsides"] if r["type"] == "major-river"}
    assert {"Rhine", "Danube", "Oder", "Vistula", "Po"} <= major


def test_eotid_every_hex_has_terrain_nation_or_sea(eotid):
    report, layer = eotid
    doc, grid = report.model.map_doc, report.grid
    seas = {h for r in doc["regions"] if r.get("kind") == "sea" for h in r["hexes"]}
    nations = {h for r in doc["regions"] if r.get("kind") == "nation" for h in r["hexes"]}
    assert {r["id"] for r in doc["regions"] if r.get("kind") == "sea"} == {
        "atlantic", "mediterranean", "adriatic", "baltic", "black-sea"}
    for h in grid.all_hexes():
        name = grid.name(h)
        if layer.terrain(h) == "sea":
            assert name in seas and name not in nations, name
        else:
            assert name in nations, name
    assert len(layer.by_hex) > 300                                       # not just the default
    nation = {h: r["id"] for r in doc["regions"] if r.get("kind") == "nation" for h in r["hexes"]}
    assert nation["T21"] == "germany" and nation["C28"] == "bulgaria" and nation["F23"] == "yugoslavia"
    assert "R17" in region(doc, "greater-germany")["hexes"]              # 15.21.1 B


def test_eotid_named_places_and_setup_symbols(eotid):
    report, _ = eotid
    doc = report.model.map_doc
    by_name = {loc.get("name"): loc for loc in doc["locations"] if loc.get("name")}
    for place in ("Warsaw", "Prague", "Königsberg", "Munich", "Vienna", "Bucharest", "Budapest", "Ploesti",
                  "Nagykanizsa", "Rome", "Kiev", "Odessa", "Minsk", "Vitebsk", "Bobruisk", "Riga", "Trieste"):
        assert place in by_name, place
    assert by_name["Warsaw"]["vp"] == 5 and by_name["Königsberg"]["vp"] == 3   # 26.1 B
    symbols = [loc.get("symbol") for loc in doc["locations"]]
    assert symbols.count("white-star") == 4                               # 3.11 C
    assert symbols.count("swastika") >= 8 and symbols.count("red-star") >= 8
    assert {"R3", "R4", "H1", "H2", "H3"} <= set(symbols)                 # 3.1 C
    wehrkreis = {loc["wehrkreis"] for loc in doc["locations"] if loc.get("wehrkreis")}
    assert {"I", "II", "III", "IV", "V", "VII", "IX", "X", "XI", "XII", "XIII", "XVII"} <= wehrkreis


def test_generated_terrain_is_marked_authored(eotid, pls):
    for report, _ in (eotid, pls):
        terrain = report.model.map_doc["terrain"]
        assert "rows" in terrain["authored"] and len(terrain["rows"]) > 20
        for run in report.model.map_doc["hexsides"]:
            assert run.get("source") or run.get("authored"), run.get("name")


def test_pls_terrain_named_in_the_rulebook(pls):
    report, layer = pls
    doc, grid = report.model.map_doc, report.grid
    t = lambda hid: layer.terrain(grid.parse(hid))  # noqa: E731
    assert t("C44.27") == "urban" and t("C45.29") == "urban"            # Buda and Pest (5.1, PLS 2.3)
    urban = region(doc, "budapest-urban")["hexes"]
    assert len(urban) > 50 and all(t(h) == "urban" for h in urban)
    counts = {}
    for h in grid.all_hexes():
        counts[layer.terrain(h)] = counts.get(layer.terrain(h), 0) + 1
    assert counts["lake"] > 20 and counts["wooded-hills"] > 100           # Balaton, Velence; Vertes and others
    # the Danube runs between Komarom's north-bank hexes and the bridge hex on the south bank (PLS 1.12)
    danube = sides_of(doc, grid, "danube")
    komarom = frozenset((grid.parse("A20.05"), grid.parse("A21.05")))
    assert komarom in danube and komarom in sides_of(doc, grid, "bridge")
    left = set(region(doc, "danube-left-bank")["hexes"])
    assert "C45.29" in left and "C44.27" not in left                     # Pest and Buda on either bank
    assert "A10.28" in left and "A40.24" not in left                     # Kobolkut north, Tatabanya south


def test_pls_roads_and_railroads_connect_named_places(pls):
    report, _ = pls
    doc, grid = report.model.map_doc, report.grid
    kinds = {line["type"] for line in doc["lines"]}
    assert kinds == {"primary-road", "secondary-road", "track", "railroad"}
    on_lines = {h for line in doc["lines"] for h in line["path"]}
    for hid in ("C44.27", "A40.24", "C47.03"):                           # Buda, Tatabanya, Bicske
        assert grid.name(grid.parse(hid)) in on_lines, hid
