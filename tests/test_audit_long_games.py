"""A long scripted legal game per shipped game audits to zero findings: every phase of several turns
pressed through on the tracker, moves in the phases that allow them (strategic, operational,
retreats and advances in combat, placements of reinforcements), multi-drag moves, flips, the one-hex
minimum move through enemy ZOC. The same games with one illegal step each give exactly that finding."""

from __future__ import annotations

import pytest

from builder.audit import audit_file
from builder.audit.script import ScriptedGame
from test_audit_support import game


def to(g: ScriptedGame, turn: int, phase: str) -> ScriptedGame:
    """Press the tracker's Next button until (turn, phase), as a player would (one entry per press)."""
    for _ in range(500):
        t, _, ph = g.current_phase()
        if (t, ph) == (turn, phase):
            return g
        g.next_phase()
    raise AssertionError(f"never reached turn {turn} {phase}")


def eotid_game(extra=None):
    kit = game("iron-dream")
    units = {"ger-inf-1": "V37", "sov-inf-3": "W38", "ger-inf-25": "T19", "ger-inf-74": "T20",
             "ger-inf-80": "U16", "cw-b5": "A13", "ger-para-1": "B13", "sov-tank-1": "O38"}
    # from Turn 2: Turn 1 limits Axis movement to Italy and three eastern strategic movers and needs the
    # WA invasion (EotID 6.1, 6.3: T1-1, SEA-12)
    g = ScriptedGame(kit, scenario="iron-dream", units=units, turn=2).start()
    to(g, 2, "axis-strategic-movement").move("ger-inf-80", "T18", "S21")      # 3 x MA, two drags
    to(g, 2, "axis-operational-movement")
    g.move("ger-inf-25", "T20", "U21").move("ger-inf-74", "S20")
    to(g, 2, "axis-prepared-assault")
    g.flip("ger-inf-1").move("sov-inf-3", "X38").move("ger-inf-1", "W38")    # step loss, retreat, advance
    to(g, 2, "wa-operational-movement").move("cw-b5", "A14")                  # EZOC to EZOC, one hex
    to(g, 2, "soviet-operational-movement").move("sov-tank-1", "O39")
    to(g, 3, "axis-operational-movement").move("ger-inf-25", "U22", "T23")
    to(g, 3, "soviet-operational-movement").move("sov-inf-3", "X39")
    to(g, 4, "axis-reinforcement").place("ger-okh", "T21")                    # on its turn, at its hex
    to(g, 4, "axis-operational-movement").move("ger-inf-74", "S22").move("ger-okh", "T22", "U23")
    if extra:
        extra(g)
    to(g, 5, "axis-reinforcement")
    return kit, g


def bcs_game(extra=None):
    kit = game("panzers-last-stand")
    units = {"ger-153-fus": "A10.10", "ger-i-716-inf-bn": "A10.11", "ger-16-xvii-alarm-bn": "A5.20",
             "sov-i-151-inf-rgt": "A25.25"}
    g = ScriptedGame(kit, units=units).start()
    for turn in (1, 2, 3):
        to(g, turn, "activations")
        g.move("ger-153-fus", "A11.11" if turn % 2 else "A10.10")
        g.move("ger-16-xvii-alarm-bn", "A5.21" if turn % 2 else "A5.20")
        g.move("sov-i-151-inf-rgt", "A25.26" if turn % 2 else "A25.25")
        g.flip("ger-i-716-inf-bn")                                            # Move <-> Deployed side
    if extra:
        extra(g)
    to(g, 4, "reinforcement")
    return kit, g


@pytest.mark.parametrize("make", [eotid_game, bcs_game], ids=["iron-dream", "panzers-last-stand"])
def test_a_long_legal_game_has_no_findings(make, tmp_path):
    kit, g = make()
    r = audit_file(kit.ctx, g.write(tmp_path / "long.vlog"))
    assert r.findings == [], [f.line() for f in r.findings]
    assert not [w for w in r.warnings if "could not be interpreted" in w or "never added" in w], r.warnings
    assert r.turns_replayed >= 4 and r.moves >= 9 and r.entries >= 30


def test_one_illegal_step_in_the_long_eotid_game(tmp_path):
    def cheat(g):          # a Soviet army dragged across the map in the Axis movement phase
        g.move("sov-tank-1", "N39", "M39", "L39", "K39", "J39")
    kit, g = eotid_game(cheat)
    r = audit_file(kit.ctx, g.write(tmp_path / "cheat.vlog"))
    assert [(f.rule, f.unit, f.turn) for f in r.findings] == [("phase-discipline", "sov-tank-1", 4)]


def test_one_illegal_step_in_the_long_bcs_game(tmp_path):
    def cheat(g):          # in the Game-Turn End phase nobody moves
        to(g, 3, "turn-end").move("ger-153-fus", "A12.12")
    kit, g = bcs_game(cheat)
    r = audit_file(kit.ctx, g.write(tmp_path / "cheat.vlog"))
    assert [(f.rule, f.unit, f.turn, f.to) for f in r.findings] == [("phase-discipline", "ger-153-fus", 3, "A12.12")]


def test_eotid_set_up_outside_its_area_is_a_finding(tmp_path):
    kit = game("iron-dream")
    g = ScriptedGame(kit, scenario="iron-dream", units={"sov-tank-1": "O39", "cw-b5": "A13"}).start()
    r = audit_file(kit.ctx, g.write(tmp_path / "setup.vlog"))
    assert [(f.rule, f.unit, f.to) for f in r.findings] == [("SETUP", "sov-tank-1", "O39")]
    assert "soviet-red-star" in r.findings[0].message


def test_eotid_set_up_moves_are_judged_by_the_set_up_and_later_positions_are_not(tmp_path):
    """Moves before the tracker first moves, in a log at the scenario's start, are the players' set-up:
    judged where they go by the set-up rule, not by phase discipline or the movement allowance."""
    kit = game("iron-dream")
    g = ScriptedGame(kit, scenario="iron-dream", units={"sov-inf-8": "to-place"}).start()
    g.move("sov-inf-5", "W38").place("sov-inf-8", "T21")   # a red-star hex; Berlin is not one
    g.move("bul-army", "C27")                              # a fixed set-up: a move, in the wrong phase
    g.next_phase().move("ger-pz-3", "V36")                 # the game has begun: a move in the supply phase
    r = audit_file(kit.ctx, g.write(tmp_path / "place.vlog"))
    assert [(f.rule, f.unit, f.entry) for f in r.findings] == [
        ("STK-3", "sov-inf-5", 1),            # a 4th Soviet army in W38 without a GRP or SU (8.2)
        ("SETUP", "sov-inf-8", 2), ("phase-discipline", "bul-army", 3),
        ("POL-3", "bul-army", 3),             # the Bulgarian army leaves Sofia (19.2)
        ("phase-discipline", "ger-pz-3", 5)]
    # the same position on turn 5: a game in progress, not judged as a set-up
    later = ScriptedGame(kit, scenario="iron-dream", units={"sov-tank-1": "O39"}).at(turn=5).start()
    r = audit_file(kit.ctx, later.write(tmp_path / "later.vsav"))
    assert [f for f in r.findings if f.rule == "SETUP"] == []
    assert any(w.startswith("SETUP: set-up not judged: the position is turn 5") for w in r.warnings)
