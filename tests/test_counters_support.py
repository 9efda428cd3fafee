"""Shared helpers for the counter and sheet tests (no tests here): a small in-memory game that uses every
layout feature (BCS-style boxes and colours, steps, formation bars, extra counters, markers with quantities)."""

from __future__ import annotations

import copy
from pathlib import Path

from builder.gamedata.model import Game

REPO = Path(__file__).resolve().parents[1]
TINY = REPO / "examples" / "tiny-game" / "game.yaml"

BCS_DOC = {
    "game": {"id": "bcs-test", "title": "BCS test", "map": "none.yaml",
             "counter": {"size_mm": 15.875, "image_px": 75, "print_dpi": 200}},
    "sides": [{"id": "axis", "name": "Axis"}, {"id": "allies", "name": "Allies"}],
    "nationalities": [
        {"id": "ger", "name": "German", "side": "axis", "text": "#000000", "background": "#9AA5B1"},
        {"id": "ss", "name": "SS", "side": "axis", "text": "#FFFFFF", "background": "#202020", "band": "#C0C0C0"},
        {"id": "sov", "name": "Soviet", "side": "allies", "text": "#000000", "background": "#C9A86A",
         "symbol_fill": "#E8D8B0"},
    ],
    "movement_classes": [{"id": "leg", "name": "Leg"}, {"id": "track", "name": "Track", "mechanized": True}],
    "unit_types": [
        {"id": "pz", "name": "Panzer", "symbol": ["armor"], "movement_class": "track"},
        {"id": "pzg", "name": "Panzergrenadier", "symbol": ["armor", "infantry"], "movement_class": "track"},
        {"id": "inf", "name": "Infantry", "symbol": ["infantry"], "movement_class": "leg"},
        {"id": "art", "name": "Artillery", "symbol": ["artillery"], "movement_class": "leg", "text": "150"},
        {"id": "hq", "name": "HQ", "symbol": ["hq"], "movement_class": "track", "combat": False},
    ],
    "sizes": [{"id": "bn", "name": "Battalion", "mark": "II"}, {"id": "kg", "name": "Kampfgruppe", "mark": "KG"}],
    "values": [
        {"id": "ar", "name": "Action rating", "kind": "integer", "max_length": 1},
        {"id": "av", "name": "Armor value", "kind": "integer", "max_length": 2},
        {"id": "av_type", "name": "AV type", "kind": "choice", "choices": ["full", "partial"]},
        {"id": "range", "name": "Range", "kind": "integer"},
        {"id": "ma", "name": "Movement", "kind": "integer", "max_length": 2},
    ],
    "formations": [{"id": "5ss", "name": "5SS", "side": "axis", "nationality": "ss", "color": "#D02020"}],
    "layouts": [{"id": "bcs", "slots": [
        {"at": "top", "show": "formation-bar"},
        {"at": "top-left", "text": "{name}", "size": 0.15},
        {"at": "top", "show": "size"},
        {"at": "center", "show": "symbol"},
        {"at": "symbol-right", "show": "steps"},
        {"at": "bottom-left", "text": "{ar}", "bold": True},
        {"at": "bottom", "text": "{av}", "bold": True, "box_by": {"value": "av_type", "boxes": {
            "full": {"fill": "#FFFFFF", "outline": "#000000", "text": "#C00000"},
            "partial": {"fill": "#FFFF00", "text": "#000000"}}}},
        {"at": "symbol-left", "text": "{range}"},
        {"at": "bottom-right", "text": "{ma}", "bold": True,
         "color_by": {"value": "movement_class", "colors": {"track": "#D00000"}}},
    ]}],
    "units": [
        {"id": "ss-pz-1", "name": "I/5", "nationality": "ss", "formation": "5ss", "type": "pz", "size": "bn",
         "steps": 2, "front": {"ar": 4, "av": 2, "av_type": "full", "ma": 12},
         "back": {"ar": 3, "av": 1, "av_type": "partial", "ma": 12}},
        {"id": "ger-pzg", "name": "II/9", "nationality": "ger", "type": "pzg", "size": "kg", "steps": 3,
         "front": {"ar": 3, "av": 1, "av_type": "partial", "ma": 10}, "back": {"ar": 2, "ma": 10},
         "extra_counters": [{"front": {"ar": 2, "ma": 10}, "back": {"ar": 1, "ma": 10}}]},
        {"id": "ger-art", "name": "AR", "nationality": "ger", "type": "art", "size": "bn", "steps": 1,
         "front": {"range": 10, "ma": 5}},
        {"id": "sov-inf", "name": "12", "nationality": "sov", "type": "inf", "size": "bn", "steps": 1,
         "front": {"ar": 2, "ma": 6}},
        {"id": "sov-hq", "name": "HQ", "nationality": "sov", "type": "hq", "size": "kg", "steps": 0,
         "front": {"ma": 8}, "back": {"ma": 4}},
    ],
    "markers": [
        {"id": "fatigue", "name": "Fatigue", "quantity": 5, "front": {"text": "Fat-1", "subtext": "fatigue"},
         "back": {"text": "Fat-2", "background": "#FFD000"}},
        {"id": "used", "name": "Used", "side": "axis", "quantity": 3,
         "front": {"text": "USED", "background": "#FFFFFF", "color": "#C00000", "pattern": "stripe"}},
        {"id": "dg", "name": "DG", "nationality": "sov", "quantity": 2,
         "front": {"text": "DG", "pattern": "checks"}},
    ],
}


def bcs_doc() -> dict:
    return copy.deepcopy(BCS_DOC)


def bcs_game(doc: dict | None = None) -> Game:
    return Game.from_documents(doc or bcs_doc())


def tiny_game() -> Game:
    from builder.gamedata.validate import validate_game
    report = validate_game(str(TINY))
    assert report.ok, [d.format() for d in report.errors]
    return report.model
