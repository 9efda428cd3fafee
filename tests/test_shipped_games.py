"""The shipped games validate cleanly and hold what their issues promise."""

import json

import pytest

from builder.cli import main
from builder.gamedata.validate import validate_game


@pytest.fixture(scope="module")
def iron_dream():
    return validate_game("iron-dream")


@pytest.fixture(scope="module")
def pls():
    return validate_game("panzers-last-stand")


def test_iron_dream_is_valid(iron_dream):
    assert iron_dream.errors == []


def test_iron_dream_counts(iron_dream):
    s = iron_dream.summary
    assert s["units"] >= 190
    assert set(s["units_by_side"]) == {"axis", "western-allies", "soviet"}
    assert s["scenarios"] == 2
    game = iron_dream.model
    # Every unit counted in the summary is a unit of the data, and counters include markers.
    combat = [u for u in game.units.values() if game.is_combat(u)]
    assert len(combat) == s["units"]
    markers = sum(m.get("quantity", 1) for m in game.by_id["markers"].values())
    assert s["counters"] == sum(game.counter_count(u) for u in game.units.values()) + markers


def test_iron_dream_rulebook_facts(iron_dream):
    game = iron_dream.model
    turns = game.doc["turns"]
    assert len(turns) == 23
    foul = [t["turn"] for t in turns if t.get("weather") == "foul"]
    assert foul == list(range(10, 20))  # 25.11 A
    sides = [block.get("side") for block in game.doc["sequence"]]
    assert [s for s in sides if s] == ["axis", "western-allies", "soviet"]  # 5.0
    # Three-step elite corps use two counters (7.16 B).
    elite = [u for u in game.units.values() if u.get("steps") == 3]
    assert len(elite) >= 3 and all(game.counter_count(u) == 2 for u in elite)
    # The Bulgarian army starts in Sofia, C28 (3.1).
    scen = next(s for s in game.doc["scenarios"] if s["id"] == "iron-dream")
    bulgarian = [u for u, unit in game.units.items() if unit.get("nationality") == "bulgarian"]
    placed = {e.get("unit"): e for e in scen["setup"] if e.get("unit")}
    assert any(placed.get(b, {}).get("hex") == "C28" for b in bulgarian)
    # Flak corps attack is the letter S (errata 2.1 H).
    flak = [u for u in game.units.values() if u.get("type") == "flak"]
    assert flak and all(u["front"]["attack"] == "S" for u in flak)


def test_pls_is_valid_with_enough_counters(pls):
    assert pls.errors == []
    assert pls.summary["counters"] >= 800
    assert pls.summary["scenarios"] == 10


def test_every_shipped_authored_value_has_a_reason(iron_dream, pls):
    for report in (iron_dream, pls):
        assert report.summary["authored"] > 0
        for a in report.authored:
            assert a.reason.strip() and a.line > 0, a


def test_json_summary_matches_report(capsys, iron_dream):
    assert main(["validate", "iron-dream", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["units"] == iron_dream.summary["units"]
    assert data["counters"] == iron_dream.summary["counters"]
    assert data["authored"] == iron_dream.summary["authored"]
    assert data["errors"] == []


def test_authored_listing_names_files_and_lines(capsys):
    assert main(["validate", "iron-dream", "--authored"]) == 0
    lines = [l for l in capsys.readouterr().out.splitlines() if l.startswith("authored: ")]
    assert len(lines) > 50
    assert all(l.split(" ", 1)[1].split(":")[0].startswith("counters/iron-dream/") or
               l.split(" ", 1)[1].startswith("maps/") for l in lines)
