"""The engines' data (zones_of_control, control, movement) is cross-checked: a misspelt id is an error
at its file:line:col, not a rule silently judged without it."""

from __future__ import annotations

from builder.gamedata.validate import validate_game
from test_audit_support import tiny_copy

GOOD = """
zones_of_control:
  not_into_terrain: [lake]
  not_across_hexsides: [river]
  rigid: [foot]
control:
  initial: [{side: red, default: true}]
movement:
  phases: [{kind: movement, who: phasing, movement: operational, sides: [blue]}]
  modifiers: [{when: {weather: [clear]}, max: 2}]
"""
BAD = """
zones_of_control:
  not_into_terrain: [lakes]
  not_across_hexsides: [rivr]
  rigid: [feet]
  confined: [{nationalities: [red-army], regions: [nowhere]}]
control:
  initial: [{side: green, default: true}, {side: blue, hexes: [Z99]}]
movement:
  phases: [{kind: movement, who: phasing, movement: operational, sides: [blu]}]
  modifiers: [{when: {weather: [snow], markers: ["oos:sideways"]}, max: 2}]
"""


def test_engine_data_that_names_known_ids_validates(tmp_path):
    assert validate_game(str(tiny_copy(tmp_path, game_extra=GOOD))).ok


def test_every_unknown_id_in_the_engine_data_is_one_error_with_its_place(tmp_path):
    r = validate_game(str(tiny_copy(tmp_path, game_extra=BAD)))
    got = {(d.path, d.message.split(";")[0].split(" (known")[0]) for d in r.errors}
    assert {
        ("zones_of_control.not_into_terrain[0]", "unknown terrain type 'lakes'"),
        ("zones_of_control.not_across_hexsides[0]", "unknown hexside type 'rivr'"),
        ("zones_of_control.rigid[0]", "unknown movement class 'feet'"),
        ("zones_of_control.confined[0].regions[0]", "unknown region or area 'nowhere'"),
        ("control.initial[0].side", "unknown side 'green'"),
        ("control.initial[1].hexes[0]", "'Z99' is not a hex of this map"),
        ("movement.phases[0].sides[0]", "unknown side 'blu'"),
        ("movement.modifiers[0].when.weather[0]", "unknown weather 'snow'"),
        ("movement.modifiers[0].when.markers[0]", "unknown marker 'oos'"),
    } <= got, sorted(got)
    assert all(d.file.endswith("game.yaml") and d.line > 1 for d in r.errors if d.path.startswith(
        ("zones_of_control", "control", "movement")))
