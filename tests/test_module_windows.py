"""What a player sees in the module's windows, from the data: the Weather marker starts on the face of the
scenario's first turn's weather; the box windows carry their own headings (each side's activation boxes
together, under the side's name; the turn track without an 'Off-map boxes' subtitle); each turn tracker's
button says whose calendar it is; the palette names marker kinds by their data names."""

from __future__ import annotations

import copy

import pytest

from builder.gamedata.model import Game
from builder.module import activation, palettes, turns, turntrack
from test_module_support import buildfile, plans, report

FACE = {1: "front", 2: "back"}


def _weather_face(plan) -> str:
    p = next(p for p in plan.placements if p.d.key == "weather")
    return p.d.levels[p.level - 1][1]


def test_the_weather_marker_starts_on_the_first_turns_weather():
    game = report("panzers-last-stand").model
    faces = {}
    for sid, plan in plans("panzers-last-stand").items():
        weather = game.by_id["scenarios"][sid]["first_turn_weather"]
        face = _weather_face(plan)
        text = game.by_id["markers"]["weather"][face]["text"]
        assert game.by_id["weather"][weather]["name"] in text, (sid, weather, text)
        faces[weather] = face
    assert faces == {"good": "front", "normal": "back", "poor": "back"}


def test_a_marker_naming_no_weather_and_a_scenario_without_weather_start_on_the_front():
    game = report("panzers-last-stand").model
    sc = dict(game.by_id["scenarios"]["scenario-5-4"])
    assert turntrack.starting_face(game, sc, "weather") == "back"          # poor
    assert turntrack.starting_face(game, sc, "game-turn") == "front"
    sc.pop("first_turn_weather")
    assert turntrack.first_weather(game, sc) is None                      # the calendar gives none either
    assert turntrack.starting_face(game, sc, "weather") == "front"
    sc["first_turn_weather"] = "no-such-weather"
    assert turntrack.starting_face(game, sc, "weather") == "front"


def test_the_calendars_weather_is_used_where_the_scenario_gives_none():
    doc = copy.deepcopy(report("panzers-last-stand").model.doc)
    doc["turns"][0]["weather"] = "normal"
    sc = next(s for s in doc["scenarios"] if s["id"] == "scenario-5-1")
    sc.pop("first_turn_weather")
    game = Game.from_documents(doc)
    assert turntrack.first_weather(game, game.by_id["scenarios"]["scenario-5-1"])["id"] == "normal"
    assert turntrack.starting_face(game, game.by_id["scenarios"]["scenario-5-1"], "weather") == "back"


def test_the_activation_display_keeps_each_sides_boxes_together():
    from test_module_support import layout
    lay = layout("panzers-last-stand")
    game = report("panzers-last-stand").model
    zones = activation.zones(game)
    plan = lay.display_map
    rects = plan.boards[0].zones
    columns = {}
    for name, (side, _) in zones.items():
        x = rects[name][0]
        columns.setdefault(x, set()).add(side)
    assert all(len(sides) == 1 for sides in columns.values()), columns        # no column mixes the sides
    xs = {side: [rects[n][0] for n, (s, _) in zones.items() if s == side] for side in ("axis", "soviet")}
    assert max(xs["axis"]) < min(xs["soviet"])                                 # the Axis columns, then the Soviet


def test_box_windows_have_their_own_headings():
    from builder.module.images import _panel_layout
    from test_module_support import layout
    lay = layout("panzers-last-stand")
    game = report("panzers-last-stand").model
    names = list(activation.zones(game))
    groups = [("Axis", names[:len(names) // 2]), ("Soviet", names[len(names) // 2:])]
    _, panel = _panel_layout(lay.grid, "Activation Display", names, None, groups)
    headings = [e[1] for e in panel.entries if e[0] == "heading"]
    assert headings == ["Axis", "Soviet"]
    _, panel = _panel_layout(lay.grid, "Turn Record Track", turntrack.zones(game), None,
                             [(None, turntrack.zones(game))])
    assert [e for e in panel.entries if e[0] == "heading"] == []
    _, panel = _panel_layout(lay.grid, "Staging", names, None)      # a plain box panel keeps its heading
    assert [e[1] for e in panel.entries if e[0] == "heading"] == ["Off-map boxes"]


def test_every_turn_button_names_its_calendar():
    for game_name in ("iron-dream", "panzers-last-stand"):
        cals, _ = turns.calendars(report(game_name).model)
        buttons = [c.get("buttonText") for c in buildfile(game_name).root.iter("TurnTracker")]
        assert buttons == [c.button for c in cals]
        assert len(set(buttons)) == len(buttons)
        assert "Turn" not in buttons                                         # beside others, never a bare 'Turn'
    cals, _ = turns.calendars(report("panzers-last-stand").model)
    assert cals[0].button == "Turn (2 Jan 45 – 27 Jan 45)"
    assert cals[1].button == "Turn (Operation Southwind (Small))"
    assert "Operation Konrad III (Big)" in cals[0].users


@pytest.mark.parametrize("game_name", ["iron-dream", "panzers-last-stand"])
def test_marker_palette_groups_are_named_from_the_data(game_name):
    game = report(game_name).model
    names = {k["id"]: k["name"] for k in game.doc["marker_kinds"]}
    windows = list(buildfile(game_name).root.children("PieceWindow"))
    groups = [c.get("entryName") for c in windows[0].iter("PanelWidget")]
    assert groups
    for label in groups:
        base = label.split(" 1/")[0].split(" 2/")[0].split(":")[0]
        assert base in names.values(), label
    assert palettes.kind_label("step-loss") == "Step loss"


def test_a_name_for_a_kind_no_marker_has_is_refused():
    import json
    from builder.gamedata.crossref import Checker
    doc = json.loads(json.dumps(report("panzers-last-stand").model.doc))     # plain data, no source positions
    doc["marker_kinds"] += [{"id": "no-such-kind", "name": "Nothing"}, {"id": "snafu", "name": "Again"}]
    checker = Checker(Game.from_documents(doc))
    checker.markers()
    messages = [d.message for d in checker.out]
    assert "no marker has kind 'no-such-kind'" in messages
    assert "kind 'snafu' is named twice" in messages
