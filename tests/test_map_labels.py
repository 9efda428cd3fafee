"""Place names as a printed map shows them: only real place names are printed (a rule's name for a road junction, a
bridge or a scenario's edge limit is data, ``label: false``), each once, without rule references."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from builder.gamedata.validate import validate_game
from builder.render import map_data, map_markers

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
