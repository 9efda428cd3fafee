"""Audit of End of the Iron Dream logs: the research's example illegal moves (eotid.md 6.2)."""

from __future__ import annotations

import pytest

from builder.audit import audit_file
from builder.audit.rules import RuleSet
from builder.audit.rules.movement import movement_phase_ids
from builder.audit.rules.terrain import TerrainCosts
from test_audit_support import LogBuilder, game

AXIS, AXIS_OPERATIONAL, AXIS_STRATEGIC = 0, 4, 2          # player-turn and phase indices in the data


@pytest.fixture(scope="module")
def kit():
    return game("iron-dream")


def test_movement_phases_come_from_the_sequence_of_play(kit):
    assert movement_phase_ids(kit.ctx) == {
        ("axis-player-turn", "axis-operational-movement"), ("wa-player-turn", "wa-operational-movement"),
        ("soviet-player-turn", "soviet-operational-movement")}
    rs = RuleSet.for_game(kit.ctx)
    assert [r.id for r in rs.rules][:6] == ["STK-1", "prohibited-terrain", "movement-allowance", "phase-discipline",
                                        "arrival", "SETUP"]
    assert any("zones of control" in n for n in rs.not_checked)


def test_over_stacking_the_estuary(kit, tmp_path):
    """6.2 example 1: 80 Inf Y13 -> X12 where 25 Inf and 74 Inf are: 3 corps, X12 halves the limit to 2."""
    lb = LogBuilder(kit, {"ger-inf-25": "X12", "ger-inf-74": "X12", "ger-inf-80": "Y13"},
                    turn=5, player_turn=AXIS, phase=AXIS_OPERATIONAL)
    lb.move("ger-inf-80", "X12")
    r = audit_file(kit.ctx, lb.write(tmp_path / "x12.vlog"))
    assert [f.rule for f in r.findings] == ["STK-4"]
    f = r.findings[0]
    assert (f.turn, f.phase, f.unit, f.name, f.frm, f.to) == (
        5, "Operational Movement Phase", "ger-inf-80", "80", "Y13", "X12")
    assert f.reference == "8.4"
    assert "Axis has 3 stacking points in X12, limit 4 x 0.5 in Estuary (X12)" in f.message


def test_four_corps_are_legal_and_a_fifth_is_not(kit, tmp_path):
    start = {"ger-inf-25": "P10", "ger-inf-74": "P10", "ger-inf-80": "P10", "ger-inf-4": "P11",
             "ger-inf-5": "P11"}
    if not all(u in kit.defs for u in start):
        pytest.skip("roster changed")
    lb = LogBuilder(kit, start, turn=5, player_turn=AXIS, phase=AXIS_OPERATIONAL)
    lb.move("ger-inf-4", "P10")
    r = audit_file(kit.ctx, lb.write(tmp_path / "four.vlog"))
    assert r.findings == []
    lb.move("ger-inf-5", "P10")
    r = audit_file(kit.ctx, lb.write(tmp_path / "five.vlog"))
    assert [(f.rule, f.unit, f.entry) for f in r.findings] == [("STK-1", "ger-inf-5", 2)]


def test_move_too_long_over_mountains(kit, tmp_path):
    g = kit.report.grid
    lb = LogBuilder(kit, {"ger-inf-80": "N1", "ger-inf-74": "N1"}, turn=3, player_turn=AXIS,
                    phase=AXIS_OPERATIONAL)
    lb.move("ger-inf-74", "N2")
    lb.move("ger-inf-80", "K2")
    r = audit_file(kit.ctx, lb.write(tmp_path / "mtn.vlog"))
    cost = TerrainCosts(kit.ctx).cheapest(g.parse("N1"), g.parse("K2"), "non-mechanized", 5)
    assert cost == 7
    assert [(f.rule, f.unit, f.frm, f.to, f.turn) for f in r.findings] == [
        ("movement-allowance", "ger-inf-80", "N1", "K2", 3)]
    assert "costs 7 MP" in r.findings[0].message and "MA 5" in r.findings[0].message


def test_strategic_moves_are_not_judged_by_the_ma_rule(kit, tmp_path):
    lb = LogBuilder(kit, {"ger-inf-80": "N1"}, turn=3, player_turn=AXIS, phase=AXIS_STRATEGIC)
    lb.move("ger-inf-80", "K2")
    r = audit_file(kit.ctx, lb.write(tmp_path / "strat.vlog"))
    assert r.findings == []


def test_moving_into_the_sea(kit, tmp_path):
    lb = LogBuilder(kit, {"ger-inf-80": "Z3"}, turn=3, player_turn=AXIS, phase=AXIS_STRATEGIC)
    lb.move("ger-inf-80", "Z2")
    r = audit_file(kit.ctx, lb.write(tmp_path / "sea.vlog"))
    assert [(f.rule, f.frm, f.to, f.reference) for f in r.findings] == [
        ("prohibited-terrain", "Z3", "Z2", "14.17 A")]
    assert "All-sea, not playable" in r.findings[0].message


def test_mountain_units_cross_mountains_cheaper(kit, tmp_path):
    """21.1 B: mountain units pay rough for mountain; 21.2: the German paratroops move as mountain units.
    The same N1 -> K2 move that costs an infantry corps 7 MP is legal for the 49 Mtn corps (MA 5)."""
    g = kit.report.grid
    costs = TerrainCosts(kit.ctx)
    mtn = costs.cheapest(g.parse("N1"), g.parse("K2"), "mountain", 5)
    assert mtn < costs.cheapest(g.parse("N1"), g.parse("K2"), "non-mechanized", 5)
    assert kit.defs["ger-mtn-49"].properties["MovementClass"] == "mountain"
    assert kit.defs["ger-para-1"].properties["MovementClass"] == "mountain"
    lb = LogBuilder(kit, {"ger-mtn-49": "N1"}, turn=3, player_turn=AXIS, phase=AXIS_OPERATIONAL)
    lb.move("ger-mtn-49", "K2")
    r = audit_file(kit.ctx, lb.write(tmp_path / "mtn49.vlog"))
    assert mtn == 5 and r.findings == [], (mtn, r.findings)


def test_the_non_phasing_side_dragged_far_in_the_other_sides_movement_phase(kit, tmp_path):
    """Issue 13's newcomer case: a Soviet army dragged eight hexes during the Axis Operational Movement
    Phase. The data lets the non-phasing side retreat at most three hexes there (mobile assaults)."""
    lb = LogBuilder(kit, {"sov-inf-3": "N20", "ger-inf-80": "Y13"}, turn=3, player_turn=AXIS,
                    phase=AXIS_OPERATIONAL)
    lb.move("sov-inf-3", "F20")
    r = audit_file(kit.ctx, lb.write(tmp_path / "far.vlog"))
    assert [(f.rule, f.unit, f.frm, f.to) for f in r.findings] == [("phase-discipline", "sov-inf-3", "N20", "F20"),
                                                                   ("POL-6", "sov-inf-3", "N20", "F20")]   # F20 is rough Yugoslavia
    assert "moved 8 hexes" in r.findings[0].message and "at most 3" in r.findings[0].message
    assert not any(n.startswith("phase discipline") for n in r.not_checked)


# ---------------------------------------------------------------------- the engines' EotID data
def _ops(kit, units, turn, phase="axis-operational-movement"):
    from builder.audit.script import ScriptedGame
    return ScriptedGame(kit, units=units).at(turn=turn, phase=phase).start()


def _cost(kit, a, b, mclass="non-mechanized"):
    g = kit.report.grid
    return TerrainCosts(kit.ctx).cheapest(g.parse(a), g.parse(b), mclass, 99)


def test_enemy_zoc_costs_two_to_enter_and_two_to_leave(kit, tmp_path):
    """9.6, 10.6: V37 -> X37 is two clear hexes, but leaves and enters the Soviet army's ZOC twice."""
    lb = _ops(kit, {"ger-inf-1": "V37", "sov-inf-3": "W38"}, 3)
    lb.move("ger-inf-1", "X37")
    r = audit_file(kit.ctx, lb.write(tmp_path / "z.vlog"))
    assert [(f.rule, f.frm, f.to) for f in r.findings] == [("movement-allowance", "V37", "X37")]
    assert _cost(kit, "V37", "X37") == 2
    assert "costs 8 MP over the terrain and enemy ZOC" in r.findings[0].message
    lb = _ops(kit, {"ger-inf-1": "V37", "sov-inf-3": "W38"}, 3)
    lb.move("ger-inf-1", "W37")                    # EZOC to EZOC: 2 + 2 + 1 = 5, allowed (9.11)
    assert audit_file(kit.ctx, lb.write(tmp_path / "ok.vlog")).findings == []


def test_foul_weather_caps_the_ma_at_six(kit, tmp_path):
    assert _cost(kit, "T19", "O19", "mechanized") == 7
    for turn, expect in ((3, []), (10, ["movement-allowance"])):
        lb = _ops(kit, {"cw-b5": "T19"}, turn, "wa-operational-movement")
        lb.move("cw-b5", "O19")
        r = audit_file(kit.ctx, lb.write(tmp_path / f"w{turn}.vlog"))
        assert [f.rule for f in r.findings] == expect, turn
    assert "foul weather 7 -> 6 (25.11 B)" in r.findings[0].message


def test_out_of_supply_halves_the_ma(kit, tmp_path):
    target = "R19"
    assert _cost(kit, "T19", target) == 3
    from builder.audit.script import ScriptedGame
    lb = ScriptedGame(kit, units={"ger-inf-25": "T19"}).at(turn=3, phase="axis-operational-movement")
    lb.add_marker("oos-egs", "T19")                # OOS side up, in the start position
    lb.start().move("ger-inf-25", target)
    r = audit_file(kit.ctx, lb.write(tmp_path / "oos.vlog"))
    assert [(f.rule, f.unit) for f in r.findings] == [("movement-allowance", "ger-inf-25")]
    assert "out of supply 5 -> 2 (15.3 B, 5.1.5 D)" in r.findings[0].message


def test_german_reinforcements_move_double_on_their_arrival_turn(kit, tmp_path):
    target = "N21"
    assert 5 < _cost(kit, "T21", target) <= 10
    for turn, expect in ((4, []), (5, ["movement-allowance"])):
        lb = _ops(kit, {"ger-okh": "reinforcements:4"}, turn, "axis-reinforcement")
        if turn == 4:
            lb.place("ger-okh", "T21")
        lb.phase("axis-operational-movement")
        if turn == 5:
            lb.place("ger-okh", "T21")             # arrived on turn 4 (placed outside this log)
            lb.phase("axis-prepared-assault").phase("axis-operational-movement", turn=6)
        lb.move("ger-okh", target)
        r = audit_file(kit.ctx, lb.write(tmp_path / f"r{turn}.vlog"))
        assert [f.rule for f in r.findings if f.rule == "movement-allowance"] == expect, (turn, r.findings)


def test_strategic_movement_is_three_times_the_ma(kit, tmp_path):
    lb = _ops(kit, {"ger-inf-80": "T19"}, 3, "axis-strategic-movement")
    lb.move("ger-inf-80", "O19", "K18")            # 13: legal in two drags
    assert audit_file(kit.ctx, lb.write(tmp_path / "ok.vlog")).findings == []
    lb.move("ger-inf-80", "J19")                   # 16 from T19 > 15
    r = audit_file(kit.ctx, lb.write(tmp_path / "s.vlog"))
    assert [(f.rule, f.frm, f.to) for f in r.findings] == [("movement-allowance", "T19", "J19")]
    assert "MA 15" in r.findings[0].message and "x3 (strategic)" in r.findings[0].message
