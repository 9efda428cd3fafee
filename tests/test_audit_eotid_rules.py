"""End of the Iron Dream rule set (issue 14): each rule ID judged from a scripted .vlog of the shipped
module, a legal and an illegal case each, asserting the exact finding (rule ID, unit, hexes, reference)."""

from __future__ import annotations

import pytest

from builder.audit import audit_file
from builder.audit.rules import RuleSet
from builder.audit.rules.select import PlaceSet
from builder.audit.rules.terrain import TerrainCosts
from builder.audit.script import ScriptedGame, kit as _kit

AXIS_OPS, WA_OPS, SOV_OPS = "axis-operational-movement", "wa-operational-movement", "soviet-operational-movement"
AXIS_STRAT, WA_STRAT, SOV_STRAT = "axis-strategic-movement", "wa-strategic-movement", "soviet-strategic-movement"
AXIS_SEA, WA_NAVAL = "axis-sea-movement", "wa-naval-movement"


@pytest.fixture(scope="module")
def kit():
    return _kit("iron-dream")


def play(kit, tmp_path, units, turn, phase, steps, markers=None, name="t.vlog"):
    g = ScriptedGame(kit, units=units, turn=turn, phase=phase)
    for mid, where in (markers or {}).items():
        g.add_marker(mid, where)
    g.start()
    steps(g)
    return audit_file(kit.ctx, g.write(tmp_path / name))


def found(result):
    return [(f.rule, f.unit, f.frm, f.to) for f in result.findings]


def rules_of(result):
    return sorted({f.rule for f in result.findings})


def test_the_audit_names_at_least_30_rule_ids(kit):
    ids = [c["rule"] for c in RuleSet.for_game(kit.ctx).checked()]
    assert len(ids) == len(set(ids)) >= 30
    for rid in ["STK-1", "STK-2", "STK-3", "STK-4", "STK-5", "STK-6", "STK-7", "POL-1", "POL-2", "POL-3", "POL-6",
                "POL-7", "POL-8", "REP-18", "T1-1", "MAS-8", "T1-6", "SEA-12", "MAS-1", "MAS-2", "MAS-3", "MAS-4",
                "MAS-5", "MAS-6", "MAS-7", "MAS-9", "MAS-14", "STR-1", "STR-5", "STR-6", "MOV-14", "STR-10", "STR-11",
                "STR-14", "STR-15", "FRT-1", "FRT-2", "ZOC-3", "SEA-1", "SEA-4", "SEA-5", "SEA-9", "SEA-11", "REP-4", "REP-5", "REP-7", "REP-19"]:
        assert rid in ids, rid


# ---------------------------------------------------------------------- stacking (8.x)
def test_stk1_five_corps_and_stk2_markers_never_count(kit, tmp_path):
    units = {"ger-inf-25": "P10", "ger-inf-74": "P10", "ger-inf-80": "P10", "ger-inf-4": "P11",
             "ger-inf-5": "P11", "ger-alpenfestung": "P10"}
    legal = play(kit, tmp_path, units, 5, AXIS_OPS, lambda g: g.move("ger-inf-4", "P10"),
                 markers={"fort-2": "P10", "oos-egs": "P10"})
    assert legal.findings == []                   # 4 corps + Alpenfestung + fort + OOS marker
    bad = play(kit, tmp_path, units, 5, AXIS_OPS, lambda g: g.move("ger-inf-4", "P10").move("ger-inf-5", "P10"))
    assert found(bad) == [("STK-1", "ger-inf-5", "P11", "P10")]
    assert bad.findings[0].reference.startswith("8.1-8.6")
    assert "Axis has 5 stacking points in P10, limit 4" in bad.findings[0].message
    su = play(kit, tmp_path, {**units, "ger-su-5": "P11"}, 5, AXIS_OPS,
              lambda g: g.move("ger-inf-4", "P10").move("ger-su-5", "P10"))
    assert found(su) == [("STK-1", "ger-su-5", "P11", "P10")]       # an SU counts as a corps (8.1 B)


def test_stk3_soviet_fourth_unit_only_with_a_grp_or_su(kit, tmp_path):
    units = {"sov-inf-3": "P36", "sov-inf-5": "P36", "sov-inf-8": "P36", "sov-inf-13": "P37",
             "sov-grp-ba": "P37", "sov-su-1": "P37"}
    bad = play(kit, tmp_path, units, 3, SOV_OPS, lambda g: g.move("sov-inf-13", "P36"))
    assert found(bad) == [("STK-3", "sov-inf-13", "P37", "P36")]
    f = bad.findings[0]
    assert f.reference == "8.2, 21.3 A, 15.23 E, 8.6 B"
    assert "limit 3 (4 only with one of: cav-mech, supply)" in f.message
    assert play(kit, tmp_path, units, 3, SOV_OPS, lambda g: g.move("sov-grp-ba", "P36")).findings == []
    assert play(kit, tmp_path, units, 3, SOV_OPS, lambda g: g.move("sov-su-1", "P36")).findings == []
    five = play(kit, tmp_path, units, 3, SOV_OPS, lambda g: g.move("sov-grp-ba", "P36").move("sov-su-1", "P36"))
    assert found(five) == [("STK-3", "sov-su-1", "P37", "P36")] or found(five) == [("STK-1", "sov-su-1", "P37", "P36")]


def test_stk4_over_stacking_the_estuary(kit, tmp_path):
    """eotid.md 6.2 example 1: 80 Inf Y13 -> X12 where 25 and 74 Inf are: 3 corps where X12 halves the limit."""
    units = {"ger-inf-25": "X12", "ger-inf-74": "X13", "ger-inf-80": "Y13"}
    legal = play(kit, tmp_path, units, 5, AXIS_OPS, lambda g: g.move("ger-inf-74", "X12"))
    assert legal.findings == []
    bad = play(kit, tmp_path, units, 5, AXIS_OPS, lambda g: g.move("ger-inf-74", "X12").move("ger-inf-80", "X12"))
    assert found(bad) == [("STK-4", "ger-inf-80", "Y13", "X12")]
    f = bad.findings[0]
    assert (f.turn, f.phase, f.reference) == (5, "Operational Movement Phase", "8.4")
    assert "Axis has 3 stacking points in X12, limit 4 x 0.5 in Estuary (X12)" in f.message


def test_stk5_soviet_camp_and_western_allies_never_stack(kit, tmp_path):
    units = {"yug-army-1": "F23", "us-mech-6": "F24", "us-mech-4": "F24"}
    bad = play(kit, tmp_path, units, 12, WA_OPS, lambda g: g.move("us-mech-6", "F23"))
    assert found(bad) == [("STK-5", "us-mech-6", "F24", "F23")]
    assert bad.findings[0].reference == "4.4 A"
    assert "yug-army-1 '1Y' and us-mech-6 '6' share F23" in bad.findings[0].message
    units["us-mech-4"] = "F23"
    units.pop("yug-army-1")
    assert play(kit, tmp_path, units, 12, WA_OPS, lambda g: g.move("us-mech-6", "F23")).findings == []


def test_stk6_axis_romanians_never_stack_with_hungarians(kit, tmp_path):
    units = {"rom-army-3": "H29", "hun-army-2": "J25", "ger-inf-25": "H30"}
    bad = play(kit, tmp_path, units, 3, AXIS_OPS, lambda g: g.move("rom-army-3", "H30").place("hun-army-2", "H30"))
    assert ("STK-6", "hun-army-2") in [(f.rule, f.unit) for f in bad.findings]
    ok = play(kit, tmp_path, units, 3, AXIS_OPS, lambda g: g.move("rom-army-3", "H30"))
    assert ok.findings == []                        # Romanians may stack with Germans (3.4 C)


def test_stk7_stacking_on_arrival(kit, tmp_path):
    units = {"ger-inf-25": "T21", "ger-inf-74": "T21", "ger-inf-80": "T21", "ger-inf-4": "T21",
             "ger-inf-5": "replacement-army"}
    bad = play(kit, tmp_path, units, 3, "axis-reinforcement", lambda g: g.move("ger-inf-5", "T21"))
    assert found(bad) == [("STK-7", "ger-inf-5", "Replacement Army Holding Box", "T21")]
    assert "arriving units obey stacking" in bad.findings[0].message
    ok = play(kit, tmp_path, units, 3, "axis-reinforcement", lambda g: g.move("ger-inf-5", "T22"))
    assert ok.findings == []


# ---------------------------------------------------------------------- confinement (19.x, 20.x, 25.x, 26.6.8)
def test_pol1_hungarians_stay_in_hungary(kit, tmp_path):
    bad = play(kit, tmp_path, {"hun-army-2": "K26"}, 3, AXIS_OPS, lambda g: g.move("hun-army-2", "L27", "M26"))
    assert found(bad) == [("POL-1", "hun-army-2", "K26", "M26")]
    assert bad.findings[0].reference == "19.3 A"
    assert bad.findings[0].message.startswith("Hungarian units never leave Hungary: hun-army-2 moved to M26, outside")
    assert play(kit, tmp_path, {"hun-army-2": "K26"}, 3, AXIS_OPS, lambda g: g.move("hun-army-2", "K25")).findings == []


def test_pol2_axis_romanians_stay_in_romania(kit, tmp_path):
    bad = play(kit, tmp_path, {"rom-army-3": "H29"}, 3, AXIS_OPS, lambda g: g.move("rom-army-3", "E28"))
    assert found(bad)[:1] == [("POL-2", "rom-army-3", "H29", "E28")]
    assert play(kit, tmp_path, {"rom-army-3": "H29"}, 3, AXIS_OPS, lambda g: g.move("rom-army-3", "H30")).findings == []


def test_pol3_the_bulgarian_army_stays_in_sofia_until_the_red_army_enters(kit, tmp_path):
    bad = play(kit, tmp_path, {"bul-army": "C28"}, 3, AXIS_OPS, lambda g: g.move("bul-army", "D28"))
    assert found(bad) == [("POL-3", "bul-army", "C28", "D28")]
    freed = play(kit, tmp_path, {"bul-army": "C28", "sov-inf-3": "E29"}, 3, SOV_OPS,
                 lambda g: g.move("sov-inf-3", "E28").phase(AXIS_OPS, turn=4).move("bul-army", "D28"))
    assert "POL-3" not in rules_of(freed)


def test_pol3_germans_may_not_end_a_phase_in_axis_bulgaria(kit, tmp_path):
    bad = play(kit, tmp_path, {"ger-inf-25": "F26"}, 3, AXIS_OPS,
               lambda g: g.move("ger-inf-25", "E28").phase("axis-prepared-assault"))
    assert found(bad) == [("POL-3", "ger-inf-25", "", "E28")]
    assert "ends the Operational Movement Phase in E28" in bad.findings[0].message
    through = play(kit, tmp_path, {"ger-inf-25": "F26"}, 3, AXIS_OPS,
                   lambda g: g.move("ger-inf-25", "E28").move("ger-inf-25", "F26").phase("axis-prepared-assault"))
    assert through.findings == []


def test_pol6_yugoslavs_in_yugoslavia_and_other_soviets_only_clear_or_y(kit, tmp_path):
    bad = play(kit, tmp_path, {"yug-army-1": "F23"}, 3, SOV_OPS, lambda g: g.move("yug-army-1", "F24", "F25"))
    assert found(bad) == [("POL-6", "yug-army-1", "F23", "F25")]
    assert play(kit, tmp_path, {"yug-army-1": "F23"}, 3, SOV_OPS, lambda g: g.move("yug-army-1", "F22")).findings == []
    rough = play(kit, tmp_path, {"sov-inf-3": "F23"}, 3, SOV_OPS, lambda g: g.move("sov-inf-3", "E23"))
    assert found(rough) == [("POL-6", "sov-inf-3", "F23", "E23")]
    assert rough.findings[0].message.endswith("sov-inf-3 moved to E23 (rough), outside clear hexes")   # its terrain
    assert play(kit, tmp_path, {"sov-inf-3": "E24"}, 3, SOV_OPS, lambda g: g.move("sov-inf-3", "F23")).findings == []


def test_pol7_okh_stays_east_of_the_theatre_line(kit, tmp_path):
    bad = play(kit, tmp_path, {"ger-okh": "T21"}, 5, AXIS_OPS, lambda g: g.move("ger-okh", "T20"))
    assert found(bad) == [("POL-7", "ger-okh", "T21", "T20")]
    assert play(kit, tmp_path, {"ger-okh": "T21"}, 5, AXIS_OPS, lambda g: g.move("ger-okh", "T22")).findings == []


def test_pol8_the_65_zbv_moves_only_among_the_65_hexes(kit, tmp_path):
    bad = play(kit, tmp_path, {"ger-65-zbv": "V7"}, 3, AXIS_OPS, lambda g: g.move("ger-65-zbv", "U7"))
    assert found(bad) == [("POL-8", "ger-65-zbv", "V7", "U7")]
    assert "outside hexes marked 65" in bad.findings[0].message
    assert play(kit, tmp_path, {"ger-65-zbv": "V7"}, 3, AXIS_OPS, lambda g: g.move("ger-65-zbv", "V8")).findings == []


def test_rep18_greece_corps_enter_after_bulgaria_defects_on_the_south_edge(kit, tmp_path):
    units = {"ger-inf-68": "german-greece", "sov-inf-3": "H31"}
    early = play(kit, tmp_path, units, 6, AXIS_OPS, lambda g: g.move("ger-inf-68", "A22"))
    assert found(early) == [("REP-18", "ger-inf-68", "German Forces Greece Box", "A22")]
    assert early.findings[0].reference == "25.4 A, 19.2.2"
    units["sov-inf-3"] = "G29"                      # next to Bulgaria: it has defected (19.2.2)
    ok = play(kit, tmp_path, units, 6, AXIS_OPS, lambda g: g.move("ger-inf-68", "A22"))
    assert ok.findings == []
    bad = play(kit, tmp_path, units, 6, AXIS_OPS, lambda g: g.move("ger-inf-68", "A25"))
    assert found(bad) == [("REP-18", "ger-inf-68", "German Forces Greece Box", "A25")]
    assert bad.findings[0].reference == "25.4 B"


# ---------------------------------------------------------------------- Turn 1 (6.x)
def test_t1_1_turn_1_axis_movement_only_in_italy(kit, tmp_path):
    """eotid.md 6.2: German 58 Pz moves in the Axis Operational Movement Phase on Turn 1 (6.1)."""
    bad = play(kit, tmp_path, {"ger-pz-58": "L5"}, 1, AXIS_OPS, lambda g: g.move("ger-pz-58", "L6"))
    assert found(bad) == [("T1-1", "ger-pz-58", "L5", "L6")]
    assert bad.findings[0].reference == "6.1"
    ok = play(kit, tmp_path, {"ger-pz-14": "B13"}, 1, AXIS_OPS, lambda g: g.move("ger-pz-14", "C13"))
    assert ok.findings == []
    out = play(kit, tmp_path, {"ger-pz-14": "J11"}, 1, AXIS_OPS, lambda g: g.move("ger-pz-14", "K10"))
    assert found(out) == [("T1-1", "ger-pz-14", "J11", "K10")]


def test_t1_1_turn_1_strategic_movement_three_eastern_corps(kit, tmp_path):
    units = {f"ger-inf-{n}": f"R{c}" for n, c in ((1, 24), (2, 25), (4, 26), (5, 27))}
    units["ger-inf-80"] = "R12"

    def moves(n):
        return lambda g: [g.move(u, f"S{int(units[u][1:])}") for u in list(units)[:n]]
    assert play(kit, tmp_path, units, 1, AXIS_STRAT, moves(3)).findings == []
    bad = play(kit, tmp_path, units, 1, AXIS_STRAT, moves(4))
    assert ("T1-1", "ger-inf-5", "R27", "S27") in found(bad)
    west = play(kit, tmp_path, units, 1, AXIS_STRAT, lambda g: g.move("ger-inf-80", "S12"))
    assert found(west) == [("T1-1", "ger-inf-80", "R12", "S12")]


def test_t1_2_mas8_no_mobile_assaults_on_turn_1(kit, tmp_path):
    units = {"us-mech-6": "B13", "ger-pz-14": "C13"}
    bad = play(kit, tmp_path, units, 1, WA_OPS, lambda g: g.move("us-mech-6", "C13"))
    assert found(bad) == [("MAS-8", "us-mech-6", "B13", "C13")]
    assert bad.findings[0].reference == "6.2"
    assert play(kit, tmp_path, units, 2, WA_OPS, lambda g: g.move("us-mech-6", "C13")).findings == []


def test_t1_6_no_replacements_on_turn_1(kit, tmp_path):
    units = {"ger-inf-1": ("R24", 2)}
    bad = play(kit, tmp_path, units, 1, "axis-reinforcement", lambda g: g.flip("ger-inf-1", 1))
    assert [(f.rule, f.unit) for f in bad.findings] == [("T1-6", "ger-inf-1")]
    assert bad.findings[0].reference == "6.8"
    assert play(kit, tmp_path, units, 2, "axis-reinforcement", lambda g: g.flip("ger-inf-1", 1)).findings == []


def _invasion(kit, tmp_path, corps, hex_id, turn=1, name="inv.vlog"):
    units = {u: "eto" for u in corps}
    return play(kit, tmp_path, units, turn, WA_NAVAL,
                lambda g: [g.move(u, hex_id) for u in corps] and g.phase(WA_OPS), name=name)


def test_sea12_the_turn_1_invasion(kit, tmp_path):
    """eotid.md 6.2 example 4: US 7, US 15, B30 and C1 from the ETO box to Z14 on Turn 1."""
    corps = ["us-mech-7", "us-mech-15", "cw-b30", "can-c1"]
    bad = _invasion(kit, tmp_path, corps, "Z14")
    assert rules_of(bad) == ["SEA-11", "SEA-12"]
    assert [f.unit for f in bad.findings if f.rule == "SEA-11"] == corps          # not invadable (14.9)
    sea12 = [f for f in bad.findings if f.rule == "SEA-12"]
    assert [f.to for f in sea12[:4]] == ["Z14"] * 4 and sea12[0].reference == "14.11 A, 6.3 A, 4.10 C"
    assert "outside Turn 1 invasion coast (T2 to Z13)" in sea12[0].message
    assert _invasion(kit, tmp_path, corps, "V5").findings == []
    bordeaux = _invasion(kit, tmp_path, corps, "Q2")
    assert rules_of(bordeaux) == ["SEA-12"]                   # south of the Loire (6.3 A)
    three_us = _invasion(kit, tmp_path, ["us-mech-7", "us-mech-15", "us-mech-5", "can-c1"], "V5")
    assert rules_of(three_us) == ["SEA-12"]
    assert "at least 2 green corps, 2 tan corps" in three_us.findings[0].message
    units = {u: "eto" for u in corps + ["wa-su-1"]}
    with_su = play(kit, tmp_path, units, 1, WA_NAVAL,
                   lambda g: [g.move(u, "V5") for u in corps] and g.move("wa-su-1", "V7").phase(WA_OPS))
    assert found(with_su) == [("SEA-11", "wa-su-1", "ETO Holding Box", "V7")]
    assert with_su.findings[0].reference == "14.16 C"


# ---------------------------------------------------------------------- strategic movement (12.x)
def test_str6_strategic_move_next_to_the_enemy(kit, tmp_path):
    """eotid.md 6.2 example 5: 24 Pz strategically T21 -> T24 next to the Soviet 5th Shock Army in T25."""
    units = {"ger-pz-24": "T21", "sov-shock-5": "T25"}
    bad = play(kit, tmp_path, units, 8, AXIS_STRAT, lambda g: g.move("ger-pz-24", "T24"))
    assert sorted(found(bad)) == [("STR-5", "ger-pz-24", "T21", "T24"), ("STR-6", "ger-pz-24", "T21", "T24")]
    by = {f.rule: f for f in bad.findings}
    assert by["STR-6"].reference == "5.1.3 D" and by["STR-5"].reference == "12.3"
    assert "T24 is next to sov-shock-5 '5' in T25" in by["STR-6"].message       # the enemy's printed name too
    assert "entered T24, in an enemy zone of control" in by["STR-5"].message
    assert play(kit, tmp_path, units, 8, AXIS_STRAT, lambda g: g.move("ger-pz-24", "T23")).findings == []


def test_str1_at_most_three_german_strategic_movers(kit, tmp_path):
    units = {"ger-pz-24": "T21", "ger-inf-1": "T20", "ger-inf-2": "T19", "ger-inf-4": "T18"}

    def moves(n):
        return lambda g: [g.move(u, "S" + units[u][1:]) for u in list(units)[:n]]
    assert play(kit, tmp_path, units, 8, AXIS_STRAT, moves(3)).findings == []
    bad = play(kit, tmp_path, units, 8, AXIS_STRAT, moves(4))
    assert found(bad) == [("STR-1", "ger-inf-4", "T18", "S18")]
    assert "unit 4 of these to move in this phase; at most 3" in bad.findings[0].message


def test_str2_three_times_ma_and_never_across_the_dike(kit, tmp_path):
    """STR-2 is judged by movement-allowance (movement.phases: allowance_multiplier 3 for Axis strategic moves)."""
    units = {"ger-inf-25": "T21"}
    assert play(kit, tmp_path, units, 8, AXIS_STRAT, lambda g: g.move("ger-inf-25", "T14")).findings == []  # 13 MP
    bad = play(kit, tmp_path, units, 8, AXIS_STRAT, lambda g: g.move("ger-inf-25", "T12"))                  # 16 MP
    assert found(bad) == [("movement-allowance", "ger-inf-25", "T21", "T12")]
    assert "costs 16 MP" in bad.findings[0].message and "MA 15" in bad.findings[0].message
    # 10.9 B: the dike is closed to strategic moves; Z15 -> Z14 goes round by Y15 (1 + 3 MP)
    costs = TerrainCosts(kit.ctx, closed_hexsides={"dike"})
    g = kit.grid
    assert costs.step(g.parse("Z15"), g.parse("Z14"), "non-mechanized", 15) is None
    assert costs.cheapest(g.parse("Z15"), g.parse("Z14"), "non-mechanized", 15) == 4


def test_str10_str11_no_satellite_and_no_su_strategic_moves(kit, tmp_path):
    sat = play(kit, tmp_path, {"hun-army-2": "K26"}, 8, AXIS_STRAT, lambda g: g.move("hun-army-2", "K25"))
    assert found(sat) == [("STR-10", "hun-army-2", "K26", "K25")]
    su = play(kit, tmp_path, {"ger-su-5": "T21"}, 8, AXIS_STRAT, lambda g: g.move("ger-su-5", "T22"))
    assert found(su) == [("STR-11", "ger-su-5", "T21", "T22")]
    assert play(kit, tmp_path, {"ger-inf-1": "T21"}, 8, AXIS_STRAT, lambda g: g.move("ger-inf-1", "T22")).findings == []


def test_str14_str15_wa_and_soviet_strategic_moves(kit, tmp_path):
    units = {"us-mech-6": "P5", "ger-inf-25": "P9"}
    bad = play(kit, tmp_path, units, 8, WA_STRAT, lambda g: g.move("us-mech-6", "P8"))
    assert sorted(found(bad)) == [("STR-14", "us-mech-6", "P5", "P8"), ("STR-5", "us-mech-6", "P5", "P8")]
    assert play(kit, tmp_path, units, 8, WA_STRAT, lambda g: g.move("us-mech-6", "P7")).findings == []
    sov = {"sov-inf-3": "P36", "sov-inf-5": "Q36"}
    two = play(kit, tmp_path, sov, 8, SOV_STRAT, lambda g: g.move("sov-inf-3", "P37").move("sov-inf-5", "Q37"))
    assert found(two) == [("STR-15", "sov-inf-5", "Q36", "Q37")]
    assert play(kit, tmp_path, sov, 8, SOV_STRAT, lambda g: g.move("sov-inf-3", "P37")).findings == []


# ---------------------------------------------------------------------- sea movement (13.x, 14.x)
def test_sea1_one_german_baltic_sea_move_to_a_baltic_port(kit, tmp_path):
    units = {"ger-inf-25": "W30", "ger-inf-74": "V23"}
    assert play(kit, tmp_path, units, 8, AXIS_SEA, lambda g: g.move("ger-inf-25", "W28")).findings == []
    two = play(kit, tmp_path, units, 8, AXIS_SEA, lambda g: g.move("ger-inf-25", "W28").move("ger-inf-74", "Z19"))
    assert found(two) == [("SEA-1", "ger-inf-74", "V23", "Z19")]
    coast = play(kit, tmp_path, units, 8, AXIS_SEA, lambda g: g.move("ger-inf-25", "W31"))
    assert found(coast) == [("SEA-1", "ger-inf-25", "W30", "W31")]


def test_sea4_the_scheldt_move(kit, tmp_path):
    """eotid.md 6.2: German 2 Para X11 -> X12 in the Sea Movement Phase of Turn 12 (13.7 B: clear 1944 turns)."""
    foul = play(kit, tmp_path, {"ger-para-2": "X11"}, 12, AXIS_SEA, lambda g: g.move("ger-para-2", "X12"))
    assert found(foul) == [("SEA-4", "ger-para-2", "X11", "X12")]
    assert foul.findings[0].reference == "13.7 B"
    assert play(kit, tmp_path, {"ger-para-2": "X11"}, 5, AXIS_SEA, lambda g: g.move("ger-para-2", "X12")).findings == []
    mech = play(kit, tmp_path, {"ger-ss-pz-1": "X11"}, 5, AXIS_SEA, lambda g: g.move("ger-ss-pz-1", "X12"))
    assert found(mech) == [("SEA-4", "ger-ss-pz-1", "X11", "X12")]


def test_sea5_sea9_wa_sea_movement_quota_and_seas(kit, tmp_path):
    corps = ["us-mech-5", "us-mech-7", "us-mech-8", "us-mech-12", "us-mech-15"]
    units = {u: "eto" for u in corps}
    assert play(kit, tmp_path, units, 8, WA_NAVAL, lambda g: [g.move(u, "V4") for u in corps[:4]]).findings == []
    bad = play(kit, tmp_path, units, 8, WA_NAVAL, lambda g: [g.move(u, "V4") for u in corps[:4]] and
               g.move(corps[4], "V6"))
    assert found(bad) == [("SEA-5", "us-mech-15", "ETO Holding Box", "V6")]
    kiel = play(kit, tmp_path, units, 8, WA_NAVAL, lambda g: g.move("us-mech-5", "Z19"))
    assert found(kiel) == [("SEA-9", "us-mech-5", "ETO Holding Box", "Z19")]
    assert kiel.findings[0].message.endswith("us-mech-5 moved to Z19, which is a Baltic port")   # the sea by name


def test_place_sets_are_described_in_the_maps_printed_names(kit):
    """A place set in a message reads as the map prints it: a set of terrain types only is "marsh or mountain
    hexes" (not "any hex (marsh or mountain only)"), regions, seas and areas by their names, never their ids;
    and a hex in it is told by what it is (its terrain, its region, its port)."""
    ctx, h = kit.ctx, kit.ctx.grid.parse
    terrain = PlaceSet(ctx, {"terrain": ["marsh", "mountain"]})
    assert terrain.describe() == "marsh or mountain hexes"
    assert terrain.hex_is(h("J14")) == "J14 is mountain" and terrain.terrain_note(h("J14")) == " (mountain)"
    mixed = PlaceSet(ctx, {"regions": ["italy", "greece"], "hexes": ["J14", "J15"], "terrain": ["mountain"]})
    assert mixed.describe() == "mountain hexes in Greece, Italy or hexes J14, J15"
    assert PlaceSet(ctx, {"regions": ["yugoslavia"], "not": {"regions": ["red-y"]}}).describe() == \
        "Yugoslavia except Red-Y hexes (Greater Germany in Yugoslavia)"
    seas = PlaceSet(ctx, {"ports": ["baltic", "black-sea"]})
    assert seas.describe() == "Baltic or Black Sea ports" and seas.hex_is(h("Z19")) == "Z19 is a Baltic port"
    assert PlaceSet(ctx, {"hexes": ["X11", "X12"]}).describe() == "X11 or X12"
    assert PlaceSet(ctx, {"not": {"hexes": ["X11", "X12"]}}).describe() == "any hex except X11 or X12"
    coast = PlaceSet(ctx, {"regions": ["invadable-coast"]})
    assert coast.hex_is(next(iter(coast.hexes))).endswith(" is one of the Invadable coastal hexes")


# ---------------------------------------------------------------------- mobile assaults (11.x)
def test_mas2_mobile_assault_into_a_mountain_hex(kit, tmp_path):
    """eotid.md 6.2 example 2: US 6 (mech) J13 -> J14 where German 51 Mtn is; J14 is mountain (errata 2.12 C)."""
    bad = play(kit, tmp_path, {"us-mech-6": "J13", "ger-mtn-51": "J14"}, 5, WA_OPS,
               lambda g: g.move("us-mech-6", "J14"))
    assert found(bad) == [("MAS-2", "us-mech-6", "J13", "J14")]
    assert bad.findings[0].reference == "11.2 A"
    # what the hex is (mountain) and what the rule forbids, not "any hex (marsh or mountain only)"
    assert bad.findings[0].message == ("No mobile assault into marsh or mountain: us-mech-6 mobile-assaults J14 "
                                       "(ger-mtn-51 '51'): the target hex J14 is mountain; no mobile assault may "
                                       "target marsh or mountain hexes")
    ok = play(kit, tmp_path, {"us-mech-6": "F13", "ger-mtn-51": "F12"}, 5, WA_OPS,
              lambda g: g.move("us-mech-6", "F12"))
    assert ok.findings == []                        # F12 is not mountain (errata 2.12 C)


def test_mas1_only_mechanized_never_flak(kit, tmp_path):
    inf = play(kit, tmp_path, {"ger-inf-1": "T21", "sov-inf-3": "T22"}, 20, AXIS_OPS,
               lambda g: g.move("ger-inf-1", "T22"))
    assert found(inf) == [("MAS-1", "ger-inf-1", "T21", "T22")]
    assert inf.findings[0].reference == "11.1, 25.2 D"
    flak = play(kit, tmp_path, {"ger-flak-1": "T21", "sov-inf-3": "T22"}, 20, AXIS_OPS,
                lambda g: g.move("ger-flak-1", "T22"))
    assert found(flak) == [("MAS-1", "ger-flak-1", "T21", "T22")]
    pz = play(kit, tmp_path, {"ger-pz-24": "T21", "sov-inf-3": "T22"}, 20, AXIS_OPS,
              lambda g: g.move("ger-pz-24", "T22"))
    assert pz.findings == []


def test_mas3_not_launched_from_mountain(kit, tmp_path):
    bad = play(kit, tmp_path, {"us-mech-6": "J14", "ger-pz-14": "J13"}, 5, WA_OPS, lambda g: g.move("us-mech-6", "J13"))
    assert found(bad) == [("MAS-3", "us-mech-6", "J14", "J13")]
    assert bad.findings[0].reference == "11.2 B"
    assert bad.findings[0].message.endswith("the launch hex J14 is mountain; no mobile assault may be launched from "
                                            "marsh or mountain hexes")


def test_mas4_not_into_a_level_3_fort(kit, tmp_path):
    units = {"ger-pz-24": "T21", "sov-tank-1": "T23"}
    bad = play(kit, tmp_path, {**units, "ger-inf-1": "T22"}, 8, SOV_OPS, lambda g: g.move("sov-tank-1", "T22"),
               markers={"fort-3": "T22"})
    assert found(bad) == [("MAS-4", "sov-tank-1", "T23", "T22")]
    ok = play(kit, tmp_path, {**units, "ger-inf-1": "T22"}, 8, SOV_OPS, lambda g: g.move("sov-tank-1", "T22"),
              markers={"fort-2": "T22"})
    assert ok.findings == []


def test_mas5_the_mobile_assault_mp_cost(kit, tmp_path):
    """11.5: 1 MP to enter and 2 to assault after the approach (terrain in the target ignored); tank army MA 6."""
    g = kit.grid
    costs = TerrainCosts(kit.ctx)

    def needed(start):
        return costs.cheapest(g.parse(start), g.parse("T24"), "mechanized", 99) + 3 + \
            costs.hexside_extra(g.parse("T24"), g.parse("T23"), "mechanized", 6)
    assert needed("T26") <= 6 < needed("T28")
    units = {"sov-tank-1": "T26", "ger-inf-1": "T23"}
    assert play(kit, tmp_path, units, 8, SOV_OPS, lambda s: s.move("sov-tank-1", "T24", "T23")).findings == []
    far = {"sov-tank-1": "T28", "ger-inf-1": "T23"}
    bad = play(kit, tmp_path, far, 8, SOV_OPS, lambda s: s.move("sov-tank-1", "T24", "T23"))
    mas5 = [f for f in bad.findings if f.rule == "MAS-5"]     # (the approach may break the allowance too)
    assert [(f.unit, f.frm, f.to) for f in mas5] == [("sov-tank-1", "T28", "T23")]
    assert f"cost at least {needed('T28'):g} MP, more than its MA 6" in mas5[0].message


def test_mas6_assaulters_stacked_together_at_the_start(kit, tmp_path):
    units = {"sov-tank-1": "T24", "sov-tank-2": "U24", "ger-inf-1": "T23"}
    bad = play(kit, tmp_path, units, 8, SOV_OPS, lambda g: g.move("sov-tank-1", "T23").move("sov-tank-2", "T23"))
    assert found(bad) == [("MAS-6", "sov-tank-2", "U24", "T23")]
    units["sov-tank-2"] = "T24"
    assert play(kit, tmp_path, units, 8, SOV_OPS,
                lambda g: g.move("sov-tank-1", "T23").move("sov-tank-2", "T23")).findings == []


def test_mas7_foul_weather_first_hex_only(kit, tmp_path):
    units = {"sov-tank-1": "T25", "ger-inf-1": "T23"}
    bad = play(kit, tmp_path, units, 12, SOV_OPS, lambda g: g.move("sov-tank-1", "T24", "T23"))
    assert found(bad) == [("MAS-7", "sov-tank-1", "T25", "T23")]
    assert play(kit, tmp_path, units, 8, SOV_OPS, lambda g: g.move("sov-tank-1", "T24", "T23")).findings == []
    assert play(kit, tmp_path, {"sov-tank-1": "T24", "ger-inf-1": "T23"}, 12, SOV_OPS,
                lambda g: g.move("sov-tank-1", "T23")).findings == []


def test_mas9_tan_and_green_never_assault_together(kit, tmp_path):
    units = {"us-mech-6": "B13", "cw-b5": "B13", "ger-pz-14": "C13"}
    bad = play(kit, tmp_path, units, 5, WA_OPS, lambda g: g.move("us-mech-6", "C13").move("cw-b5", "C13"))
    assert ("MAS-9", "cw-b5", "B13", "C13") in found(bad)
    units = {"us-mech-6": "B13", "us-abn-18": "B13", "ger-pz-14": "C13"}
    air = play(kit, tmp_path, units, 8, WA_OPS, lambda g: g.move("us-mech-6", "C13").move("us-abn-18", "C13"))
    assert "MAS-9" not in rules_of(air)


def test_mas14_no_mobile_assault_across_the_dike(kit, tmp_path):
    bad = play(kit, tmp_path, {"us-mech-6": "Z15", "ger-inf-25": "Z14"}, 8, WA_OPS,
               lambda g: g.move("us-mech-6", "Z14"))
    assert ("MAS-14", "us-mech-6", "Z15", "Z14") in found(bad)


# ---------------------------------------------------------------------- replacements (7.x)
def test_rep4_rep5_step_budgets(kit, tmp_path):
    units = {"sov-inf-3": ("P36", 2), "sov-inf-5": ("P37", 2)}
    assert play(kit, tmp_path, units, 3, "soviet-replacement", lambda g: g.flip("sov-inf-3", 1)).findings == []
    two = play(kit, tmp_path, units, 3, "soviet-replacement", lambda g: g.flip("sov-inf-3", 1).flip("sov-inf-5", 1))
    assert [(f.rule, f.unit, f.reference) for f in two.findings] == [("REP-4", "sov-inf-5", "7.14")]
    elite = {"ger-pz-gd": ("T21", 3)}
    bad = play(kit, tmp_path, elite, 3, "axis-reinforcement", lambda g: g.flip("ger-pz-gd", 1))
    assert ("REP-5", "ger-pz-gd") in [(f.rule, f.unit) for f in bad.findings]
    assert play(kit, tmp_path, elite, 3, "axis-reinforcement", lambda g: g.flip("ger-pz-gd", 2)).findings == []


def test_rep7_rep19_irreplaceable_and_permanently_destroyed(kit, tmp_path):
    dead = play(kit, tmp_path, {"rom-army-1": "destroyed-axis"}, 3, "axis-reinforcement",
                lambda g: g.move("rom-army-1", "H30"))
    assert [(f.rule, f.unit) for f in dead.findings] == [("REP-7", "rom-army-1")]
    back = play(kit, tmp_path, {"ger-inf-34": "permanently-destroyed"}, 3, "axis-reinforcement",
                lambda g: g.move("ger-inf-34", "destroyed-axis"))
    assert [(f.rule, f.unit) for f in back.findings] == [("REP-19", "ger-inf-34")]
    ok = play(kit, tmp_path, {"ger-inf-34": "destroyed-axis"}, 3, "axis-reinforcement",
              lambda g: g.move("ger-inf-34", "T21"))
    assert ok.findings == []


def test_cli_json_names_the_rule_ids_checked(kit, tmp_path, capsys):
    from builder.cli import main
    log = ScriptedGame(kit, units={"ger-inf-25": "T21"}, turn=3, phase=AXIS_OPS).start() \
        .move("ger-inf-25", "T22").write(tmp_path / "clean.vlog")
    code = main(["audit", "iron-dream", str(log), "--json"])
    import json
    d = json.loads(capsys.readouterr().out)
    assert code == 0 and d["findings"] == []
    ids = [c["rule"] for c in d["checked"]]
    assert len(ids) >= 30 and {"STK-3", "POL-1", "MAS-2", "SEA-12", "STR-6", "REP-19"} <= set(ids)
    assert all(c["reference"] for c in d["checked"] if "-" in c["rule"] and c["rule"][0].isupper())


# ---------------------------------------------------------------------- a legal game
def _to(g, phase_id, turn):
    while g.current_phase()[0] != turn or g.current_phase()[2] != phase_id:
        g.next_phase()
    return g


def _three_turns(kit, invade=True):
    units = {"ger-pz-14": "B13", "ger-para-1": "B14", "us-mech-6": "A13", "cw-b10": "A16",
             "ger-inf-1": "T22", "ger-inf-2": ("U22", 2), "ger-inf-80": "S10", "ger-inf-10": "T32",
             "sov-tank-1": "T33", "sov-inf-3": "P38", "sov-inf-5": "Q39"}
    units.update({u: "eto" for u in ("us-mech-5", "us-mech-7", "us-mech-8", "cw-b30", "can-c1")})
    g = ScriptedGame(kit, units=units)
    g.start()
    # Turn 1
    _to(g, AXIS_STRAT, 1).move("ger-inf-1", "S22")
    _to(g, AXIS_OPS, 1).move("ger-pz-14", "C13")
    _to(g, WA_NAVAL, 1)
    for u in ("us-mech-5", "us-mech-7", "cw-b30", "can-c1") if invade else ():
        g.move(u, "V5")
    _to(g, WA_OPS, 1).move("cw-b10", "A17")
    _to(g, SOV_STRAT, 1).move("sov-inf-3", "P39")
    _to(g, SOV_OPS, 1).move("sov-inf-5", "Q38")
    # Turn 2
    _to(g, "axis-reinforcement", 2).flip("ger-inf-2", 1)
    _to(g, AXIS_STRAT, 2).move("ger-inf-80", "S12")
    _to(g, AXIS_OPS, 2).move("ger-inf-1", "S21").move("ger-pz-14", "C14")
    _to(g, WA_NAVAL, 2).move("us-mech-8", "V4")
    _to(g, WA_OPS, 2).move("us-mech-8", "U5")
    _to(g, SOV_OPS, 2).move("sov-inf-3", "P38")
    # Turn 3
    _to(g, AXIS_OPS, 3).move("ger-inf-2", "U21")
    _to(g, WA_OPS, 3).move("us-mech-8", "U6")
    _to(g, SOV_OPS, 3).move("sov-tank-1", "T32")          # a mobile assault: 3 MP of 6, clear, mechanized
    g.eliminate("ger-inf-10", "destroyed-axis")
    return _to(g, "soviet-stavka", 3)


def test_a_legal_three_turn_game_audits_clean(kit, tmp_path):
    """Turns 1-3, every phase of all three player-turns: strategic, sea and operational moves, the Turn 1
    invasion, a replacement step and a mobile assault, all legal."""
    r = audit_file(kit.ctx, _three_turns(kit).write(tmp_path / "three-turns.vlog"))
    assert r.findings == [], [f.line() for f in r.findings]
    assert [w for w in r.warnings if not w.startswith("SETUP: set-up not judged")] == []   # no scenario start
    assert r.turns_replayed == 3 and r.moves >= 17
    assert r.entries > 3 * 24                               # every phase of every player-turn was logged
    # the same game without the mandatory Turn 1 invasion: exactly that is reported
    r = audit_file(kit.ctx, _three_turns(kit, invade=False).write(tmp_path / "no-invasion.vlog"))
    assert [(f.rule, f.turn) for f in r.findings] == [("SEA-12", 1)]
    assert "no landing in Turn 1 invasion coast (T2 to Z13)" in r.findings[0].message


def test_a_misspelt_id_in_the_rules_is_a_validation_error(tmp_path):
    """A typo in a rule's region, nationality or box would make the rule judge nothing: validate says so,
    with file and line."""
    import shutil
    from pathlib import Path

    from builder.gamedata.validate import validate_game
    repo = Path(__file__).resolve().parents[1]
    shutil.copytree(repo / "counters" / "iron-dream", tmp_path / "counters" / "iron-dream")
    shutil.copytree(repo / "maps" / "iron-dream", tmp_path / "maps" / "iron-dream")
    shutil.copy(repo / "maps" / "iron-dream.yaml", tmp_path / "maps" / "iron-dream.yaml")
    rules = tmp_path / "counters" / "iron-dream" / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    text = text.replace("allowed: {regions: [hungary]}", "allowed: {regions: [hungry]}", 1)
    text = text.replace("units: {nationalities: [romanian], sides: [axis]}", "units: {nationalities: [rumanian], sides: [axis]}", 1)
    text = text.replace("from_boxes: [german-greece]", "from_boxes: [greece]", 1)
    rules.write_text(text, encoding="utf-8")
    r = validate_game(str(tmp_path / "counters" / "iron-dream"))
    msgs = [d.format() for d in r.errors]
    assert any("rules.yaml:" in m and "unknown region 'hungry'; did you mean 'hungary'?" in m for m in msgs), msgs
    assert any("unknown nationality 'rumanian'; did you mean 'romanian'?" in m for m in msgs), msgs
    assert any("unknown box 'greece'" in m for m in msgs), msgs
    assert len(msgs) == 3


def test_crossing_an_errata_blocked_hexside(kit, tmp_path):
    """eotid.md 6.2 example 3: L15/K15 is blocked (errata 2.12 A, not printed on the map); the one-hex minimum
    does not cover it (10.4 B). 1 Para (mountain movement, MA 5) reaches K15 round the block for 4 MP:
    legal; an infantry corps (MA 5) needs 6 MP that way: illegal."""
    g = kit.grid
    costs = TerrainCosts(kit.ctx)
    assert costs.step(g.parse("L15"), g.parse("K15"), "mountain", 5) is None
    assert costs.cheapest(g.parse("L15"), g.parse("K15"), "mountain", 5) == 4
    ok = play(kit, tmp_path, {"ger-para-1": "L15"}, 5, AXIS_OPS, lambda s: s.move("ger-para-1", "K15"))
    assert ok.findings == []
    bad = play(kit, tmp_path, {"ger-inf-80": "L15"}, 5, AXIS_OPS, lambda s: s.move("ger-inf-80", "K15"))
    assert found(bad) == [("movement-allowance", "ger-inf-80", "L15", "K15")]
    assert "costs 6 MP" in bad.findings[0].message
    # a player who moved one hex is told why the step itself does not count
    assert bad.findings[0].message.endswith("; the direct step is barred: Blocked hexside between L15 and K15")


def test_frt1_frt2_fort_factors(kit, tmp_path):
    """eotid.md 6.2: a fifth fort factor in one turn, a second factor in one hex, any factor in Berlin."""
    def forts(hexes, turn=3):
        def steps(g):
            for h in hexes:
                g.add_marker("fort-1", h)
        return play(kit, tmp_path, {}, turn, "axis-reinforcement", steps)
    assert forts(["T20", "T22", "T23", "S20"]).findings == []
    fifth = forts(["T20", "T22", "T23", "S20", "S21"])
    assert [(f.rule, f.to) for f in fifth.findings] == [("FRT-1", "S21")]
    assert "factor 5 this player-turn (in S21), at most 4" in fifth.findings[0].message
    berlin = forts(["T21"])
    assert [(f.rule, f.to, f.reference) for f in berlin.findings] == [("FRT-2", "T21", "22.1 A, D-E, 25.1 A")]
    assert [(f.rule, f.to) for f in forts(["P5"]).findings] == [("FRT-2", "P5")]          # France
    assert [(f.rule, f.to) for f in forts(["T20"], turn=1).findings] == [("FRT-1", "T20")]

    def two_in_one(g):                       # level 1, then level 2, in one hex in one player-turn
        g.add_marker("fort-1", "T20")
        g.add_marker("fort-2", "T20")
    bad = play(kit, tmp_path, {}, 3, "axis-reinforcement", two_in_one)
    assert [(f.rule, f.to) for f in bad.findings] == [("FRT-1", "T20")]
    assert "2 factors in T20 this player-turn, at most 1" in bad.findings[0].message


def test_mov14_supply_units_into_friendly_hexes_only(kit, tmp_path):
    """eotid.md 6.2: a Soviet SU moves alone into T24 while a German unit is in T23 and no Soviet unit is in
    T24 (15.23 F). A Soviet army took T24 and left it (Soviet-controlled as its last occupier, 4.1)."""
    units = {"sov-su-1": "T25", "ger-inf-1": "T23", "sov-inf-3": "T25"}
    bad = play(kit, tmp_path, units, 8, SOV_OPS,
               lambda g: g.move("sov-inf-3", "T24").move("sov-inf-3", "T25").move("sov-su-1", "T24"))
    assert found(bad) == [("MOV-14", "sov-su-1", "T25", "T24")]
    assert "in an enemy zone of control with no friendly unit there" in bad.findings[0].message
    ok = play(kit, tmp_path, units, 8, SOV_OPS, lambda g: g.move("sov-inf-3", "T24").move("sov-su-1", "T24"))
    assert ok.findings == []
    enemy = play(kit, tmp_path, {"sov-su-1": "T27"}, 8, SOV_OPS, lambda g: g.move("sov-su-1", "T26"))
    assert found(enemy) == [("MOV-14", "sov-su-1", "T27", "T26")]      # T26 is still German-controlled
    assert "controlled by axis" in enemy.findings[0].message


def _zoc_after(kit, path):
    from builder.audit.replay import Replayer, read_commands
    from builder.audit.report import AuditResult
    rs = RuleSet.for_game(kit.ctx)
    rs.bind(AuditResult("iron-dream", str(path)))
    Replayer(kit.ctx, [rs]).run(read_commands(path))
    return rs.engines.zoc


def test_zoc3_no_axis_zoc_into_an_invasion_port_and_landing_in_an_enemy_zoc(kit, tmp_path):
    """7.2 A / 9.4: German ZOC reaches port cities but not an invasion-port hex; 7.2 B: a WA unit lands at a
    port city inside an enemy ZOC only where another WA combat unit already is."""
    g = kit.grid
    plain = ScriptedGame(kit, units={"ger-inf-1": "U5"}, turn=8, phase=WA_NAVAL).start()
    assert _zoc_after(kit, plain.write(tmp_path / "plain.vlog")).enemy_zoc(g.parse("V5"), "western-allies")
    port = ScriptedGame(kit, units={"ger-inf-1": "U5"}, turn=8, phase=WA_NAVAL).start()
    port.add_marker("wa-invasion-port", "V5")
    z = _zoc_after(kit, port.write(tmp_path / "port.vlog"))
    assert not z.enemy_zoc(g.parse("V5"), "western-allies") and z.enemy_zoc(g.parse("V4"), "western-allies")
    units = {"ger-inf-1": "U4", "us-mech-5": "eto", "us-mech-7": "eto"}
    bad = play(kit, tmp_path, units, 8, WA_NAVAL, lambda s: s.move("us-mech-5", "V4"))
    assert found(bad) == [("ZOC-3", "us-mech-5", "ETO Holding Box", "V4")]
    assert bad.findings[0].reference == "7.2 B"
    ok = play(kit, tmp_path, {**units, "us-mech-7": "V4"}, 8, WA_NAVAL, lambda s: s.move("us-mech-5", "V4"))
    assert ok.findings == []
