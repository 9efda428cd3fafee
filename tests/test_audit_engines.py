"""The derived-state engines (builder.audit.engines) and the generic rules on them, on the tiny game
with rules data of its own (in a temporary copy): zones of control, control, the activity ledger,
arrivals, phase discipline, movement over enemy ZOC with modifiers and the one-hex minimum move.
Every case is a scripted .vlog (builder.audit.script) replayed by the audit."""

from __future__ import annotations

import pytest

from builder.audit import audit_file
from builder.audit.replay import Replayer, Visitor, read_commands
from builder.audit.rules import RuleSet
from builder.audit.script import ScriptedGame
from test_audit_support import game, tiny_copy

EAST = [f"{c}{r}" for c in "FGHIJ" for r in range(1, 11)]
MAP_EXTRA = f"""
regions:
  - {{id: west, name: West, kind: region, hexes: [A1, A2, A3, A4, A5, B1, B2, B3, B4, B5]}}
  - {{id: east, name: East, kind: region, hexes: [{", ".join(EAST)}]}}
"""
RULES = """
zones_of_control:
  rule: "Z1"
  projected_by: {not_faces: [back]}
  not_into_terrain: [lake]
  not_across_hexsides: [river]
  confined: [{nationalities: [red-army], regions: [east], rule: "Z5"}]
  enter_cost: 1
  leave_cost: 1
  negated_by_friendly: [retreat]
control:
  rule: "C1"
  by: [occupation, zoc]
  initial:
    - {side: blue, regions: [west]}
    - {side: red, default: true}
movement:
  rule: "M0"
  once_rule: "M8"
  minimum_move: {rule: "M4"}
  phases:
    - {kind: movement, who: phasing, movement: operational, once: true, rule: "M1"}
    - {kind: combat, who: any, movement: retreat-advance, max_hexes: 1, rule: "M2"}
  modifiers:
    - {name: "rain", when: {weather: [clear], units: [blue-hq]}, max: 1, rule: "M9"}
"""
START = {"blue-1": "B3", "blue-2": "B3", "blue-3": "B4", "red-1": "H5"}
BLUE_MOVE, BLUE_COMBAT, RED_MOVE = ("move", "blue-turn"), ("combat", "blue-turn"), ("move", "red-turn")


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    return game(str(tiny_copy(tmp_path_factory.mktemp("audit-engines"), MAP_EXTRA, RULES)))


def script(kit, units=None, turn=2, at=BLUE_MOVE):
    """Turn 2 by default: not the scenario's set-up, and red-2's arrival turn."""
    g = ScriptedGame(kit, units={**START, **(units or {})})
    return g.at(turn=turn, phase=at[0], player_turn=at[1]).start()


def audit(kit, g, tmp_path, name="game.vlog"):
    r = audit_file(kit.ctx, g.write(tmp_path / name))
    assert not [w for w in r.warnings if "could not be interpreted" in w], r.warnings
    return r


def found(r):
    return [(f.rule, f.unit, f.frm, f.to) for f in r.findings]


class Engines(Visitor):
    """Runs the game's rule set and keeps its engines to look at after the replay."""

    def __init__(self, kit):
        self.rs = RuleSet.for_game(kit.ctx)
        self.snapshots = []

    def replay(self, kit, path):
        from builder.audit.report import AuditResult
        self.rs.bind(AuditResult("tiny", str(path)))
        Replayer(kit.ctx, [self.rs, self]).run(read_commands(path))
        return self.rs.engines


def engines_after(kit, g, tmp_path):
    return Engines(kit).replay(kit, g.write(tmp_path / "e.vlog"))


def H(kit, name):
    return kit.report.grid.parse(name)


# ---------------------------------------------------------------------- zones of control
def test_zoc_covers_the_hex_and_its_neighbours_except_blocked_terrain_and_hexsides(kit, tmp_path):
    e = engines_after(kit, script(kit), tmp_path)
    z = e.zoc
    red = next(u for u in z.ctx.defs if u == "red-1")
    assert red
    zone = {kit.report.grid.name(h) for h, c in z.count.items() if "red" in c}
    # H5's neighbours: G5 is a lake (not_into_terrain); H6 is across the river (not_across_hexsides)
    neighbours = {kit.report.grid.name(n) for n in kit.report.grid.neighbours(H(kit, "H5"))}
    assert zone == {"H5"} | neighbours - {"G5", "H6"}
    assert z.enemy_zoc(H(kit, "H4"), "blue") and not z.enemy_zoc(H(kit, "H4"), "red")


def test_zoc_follows_moves_faces_and_removals(kit, tmp_path):
    g = script(kit)
    g.move("blue-3", "E4")
    e1 = engines_after(kit, g, tmp_path)
    assert e1.zoc.enemy_zoc(H(kit, "E5"), "red") and not e1.zoc.enemy_zoc(H(kit, "B5"), "red")
    g.flip("blue-3", 2)                                  # not_faces: [back]
    e2 = engines_after(kit, g, tmp_path)
    assert not e2.zoc.enemy_zoc(H(kit, "E5"), "red")
    g.flip("blue-3", 1).remove("blue-3")
    e3 = engines_after(kit, g, tmp_path)
    assert not e3.zoc.enemy_zoc(H(kit, "E5"), "red")


def test_confined_zoc_stays_inside_its_region(kit, tmp_path):
    g = script(kit, units={"red-1": "F3"})               # F3 is on the East region's edge (columns F-J)
    e = engines_after(kit, g, tmp_path)
    zone = {kit.report.grid.name(h) for h, c in e.zoc.count.items() if "red" in c}
    assert zone and zone <= set(EAST) and "F3" in zone
    assert not any(n.startswith("E") for n in zone)


# ---------------------------------------------------------------------- control
def test_control_initial_owner_occupation_zoc_and_history(kit, tmp_path):
    g = script(kit, units={"red-1": "H5"})
    e0 = engines_after(kit, g, tmp_path)
    assert e0.control.owner(H(kit, "A1")) == "blue" and e0.control.owner(H(kit, "J9")) == "red"
    g.move("blue-3", "E4", "G8")                         # through E4 (occupied, then left) to G8
    e = engines_after(kit, g, tmp_path)
    c = e.control
    assert c.owner(H(kit, "G8")) == "blue" and c.owner(H(kit, "E4")) == "blue"   # last occupier keeps it
    assert c.owner(H(kit, "G9")) == "blue"               # empty, in Blue's ZOC only
    assert [(x.entry, x.side, x.how) for x in c.history(H(kit, "G8"))] == [(2, "blue", "occupation")]
    assert c.owner(H(kit, "G6")) == "red"                # both sides' ZOC: contested, unchanged


# ---------------------------------------------------------------------- ledger
def test_ledger_counts_moves_kinds_and_finished_units(kit, tmp_path):
    g = script(kit)
    g.move("blue-1", "C3", "C4").move("blue-3", "C5").flip("blue-2", 2)
    led = engines_after(kit, g, tmp_path).ledger
    a = led.get("blue-1")
    assert (a.moves, a.kinds, a.start.name, a.entries) == (2, {"operational": 2}, "B3", [1, 2])
    assert led.finished == {"blue-1"} and led.get("blue-2").flips == 1
    g.next_phase()                                       # a new phase: a new ledger
    led = engines_after(kit, g, tmp_path).ledger
    assert led.get("blue-1") is None and led.finished == set()


# ---------------------------------------------------------------------- phase discipline
def test_phase_discipline_other_side_and_second_moves(kit, tmp_path):
    g = script(kit)
    g.move("blue-1", "C3", "C4")                         # two drags in a row: one move, legal
    g.move("red-1", "I5")                                # Red moves in Blue's movement phase
    g.move("blue-3", "C5").move("blue-1", "D4")          # blue-1 again after blue-3 moved
    r = audit(kit, g, tmp_path)
    assert found(r) == [("phase-discipline", "red-1", "H5", "I5"), ("phase-discipline", "blue-1", "C4", "D4")]
    assert r.findings[0].reference == "M0"
    assert "non-phasing side may not move" in r.findings[0].message
    assert r.findings[1].reference == "M8" and "moved again" in r.findings[1].message


def test_retreats_in_combat_phases_within_their_hexes(kit, tmp_path):
    g = script(kit, at=BLUE_COMBAT)
    g.move("red-1", "I5")                                # one hex: a retreat, legal for either side
    g.move("blue-3", "B6")                               # two hexes: more than max_hexes 1
    r = audit(kit, g, tmp_path)
    assert found(r) == [("phase-discipline", "blue-3", "B4", "B6")]
    assert "moved 2 hexes" in r.findings[0].message and "at most 1" in r.findings[0].message


# ---------------------------------------------------------------------- movement over ZOC
def test_enemy_zoc_costs_enter_and_leave(kit, tmp_path):
    # blue-1 (foot, MA 4) E4 -> I5: four clear hexes, but I5 lies in red-1's ZOC and every way there
    # crosses its ZOC (+1 to enter a ZOC hex, +1 to leave one): 6 > 4
    g = script(kit, units={"blue-1": "E4"})
    g.move("blue-1", "I5")
    r = audit(kit, g, tmp_path)
    assert found(r) == [("movement-allowance", "blue-1", "E4", "I5")]
    assert "costs 6 MP over the terrain and enemy ZOC" in r.findings[0].message
    g2 = script(kit, units={"blue-1": "E4"})
    g2.move("blue-1", "G4")                              # outside the ZOC: 2, legal
    assert audit(kit, g2, tmp_path, "ok.vlog").findings == []


def test_minimum_move_one_hex_whatever_it_costs(kit, tmp_path):
    # blue-hq's MA 6 is capped at 1 by the 'rain' modifier; C3 is forest (2): as its single move of one
    # hex it is legal (movement.minimum_move), a second drag on to D3 is not
    g = script(kit, units={"blue-hq": "B3"})
    g.move("blue-hq", "C3")
    assert audit(kit, g, tmp_path).findings == []
    g.move("blue-hq", "D3")
    r = audit(kit, g, tmp_path, "two.vlog")
    assert found(r) == [("movement-allowance", "blue-hq", "B3", "D3")]
    assert "MA 1" in r.findings[0].message and "rain 6 -> 1 (M9)" in r.findings[0].message


def test_without_minimum_move_a_one_hex_move_over_the_ma_is_a_finding(tmp_path):
    kit = game(str(tiny_copy(tmp_path, MAP_EXTRA, RULES.replace('  minimum_move: {rule: "M4"}\n', ""))))
    g = script(kit, units={"blue-hq": "B3"})
    g.move("blue-hq", "C3")
    assert found(audit(kit, g, tmp_path)) == [("movement-allowance", "blue-hq", "B3", "C3")]


# ---------------------------------------------------------------------- arrivals
def test_arrivals_on_time_early_and_elsewhere(kit, tmp_path):
    ok = ScriptedGame(kit, units={**START, "red-2": "reinforcements:2"}).at(turn=2, phase="move",
                                                                            player_turn="red-turn").start()
    ok.move("red-2", "J5", "J6")                         # enters at J5, then one more hex: 1 + 1 <= 3
    r = audit(kit, ok, tmp_path, "ok.vlog")
    assert r.findings == [], r.findings
    early = ScriptedGame(kit, units={**START, "red-2": "reinforcements:2"}).at(turn=1, phase="move",
                                                                               player_turn="red-turn").start()
    early.move("red-2", "J4")
    r = audit(kit, early, tmp_path, "early.vlog")
    # J4 is one hex on from its entry hex J5, in a phase where it may move: entered and moved on in one drag
    # (its MPs are counted from J5 by the movement allowance), so only the date is wrong
    assert found(r) == [("arrival", "red-2", "Reinforcements: Red, Turn 2", "J4")]
    assert "before its turn 2" in r.findings[0].message
    elsewhere = ScriptedGame(kit, units={**START, "red-2": "reinforcements:2"}).at(turn=2, phase="move",
                                                                                   player_turn="blue-turn").start()
    elsewhere.move("red-2", "J4")                        # in Blue's Movement Phase: it may not move, place judged
    msgs = [f.message for f in audit(kit, elsewhere, tmp_path, "elsewhere.vlog").findings if f.rule == "arrival"]
    assert msgs == ["enters at J4, outside its entry hexes (J5)"]


def test_an_arrival_counts_its_moves_from_the_entry_hex(kit, tmp_path):
    g = ScriptedGame(kit, units={**START, "red-2": "reinforcements:2"}).at(turn=2, phase="move",
                                                                           player_turn="red-turn").start()
    g.move("red-2", "J5", "F5")                          # J5 (1) + I5, H5 ... F5: 5 > 3
    r = audit(kit, g, tmp_path)
    assert [(f.rule, f.frm, f.to) for f in r.findings] == [("movement-allowance", "J5", "F5")]
    assert "counted from its entry hex" in r.findings[0].message


def test_units_in_neither_the_set_up_nor_the_reinforcements(kit, tmp_path):
    g = script(kit)
    g.place("blue-hq", "B5")                             # added from the palette during play
    r = audit(kit, g, tmp_path)
    assert [(f.rule, f.unit) for f in r.findings] == [("arrival", "blue-hq")]
    assert "neither in the scenario's set-up nor among its reinforcements" in r.findings[0].message


def test_not_checked_shrinks_with_the_data(kit):
    rs = RuleSet.for_game(kit.ctx)
    text = " | ".join(rs.not_checked)
    assert "the data has no zones_of_control" not in text and "the data has no movement.phases" not in text
    assert "phase-discipline" in [r.id for r in rs.rules]


def test_path_search_stops_in_enemy_zoc_and_refuses_zoc_to_zoc(kit):
    """TerrainCosts.path with ZocCosts: a wall of EZOC hexes (column E) can be entered, not passed
    through, by a unit that must stop; zoc_to_zoc: false forbids E-to-E steps."""
    from builder.audit.rules.terrain import TerrainCosts, ZocCosts
    g = kit.report.grid
    wall = frozenset(g.parse(f"E{r}") for r in range(1, 11))
    tc = TerrainCosts(kit.ctx)
    start, goal = g.parse("F3"), g.parse("D3")             # D3 forest (foot 2) beyond the wall
    free = tc.cheapest(start, goal, "foot", 9)
    costly = tc.cheapest(start, goal, "foot", 9, zoc=ZocCosts(wall, ("w", 1), 1, 1, False, True))
    assert free is not None and costly == free + 2               # +1 into the wall, +1 out of it
    assert tc.cheapest(start, goal, "foot", 9, zoc=ZocCosts(wall, ("w", 2), 1, 1, True, True)) is None
    assert tc.cheapest(start, g.parse("E3"), "foot", 9, zoc=ZocCosts(wall, ("w", 2), 1, 1, True, True)) == 2
    cost, path = tc.path(g.parse("E3"), g.parse("E6"), "foot", 9, zoc=ZocCosts(wall, ("w", 3), 0, 0, False, True))
    assert [g.name(h) for h, _ in path][0] == "E3" and cost == 3
    no_z2z = ZocCosts(wall, ("w", 4), 0, 0, False, False)
    cost2, path2 = tc.path(g.parse("E3"), g.parse("E6"), "foot", 9, zoc=no_z2z)
    assert cost2 > cost and not any(h in wall for h, _ in path2[1:-1])


def test_bcs_no_move_from_one_enemy_zoc_hex_into_another(tmp_path):
    """BCS 4.3d (zones_of_control.zoc_to_zoc: false): A25.27 and A24.28 both lie in the Soviet
    regiment's ZOC; stepping between them is illegal even as a one-hex move, and the way round (5 MP)
    is more than the Deployed side's MA 3; leaving the ZOC is legal."""
    pls = game("panzers-last-stand")
    units = {"ger-153-fus": ("A25.27", 2), "sov-i-151-inf-rgt": "A25.28"}
    bad = ScriptedGame(pls, units=units).at(phase="activations").start().move("ger-153-fus", "A24.28")
    r = audit_file(pls.ctx, bad.write(tmp_path / "z2z.vlog"))
    assert [(f.rule, f.frm, f.to) for f in r.findings] == [("R13", "A25.27", "A24.28")]   # the PLS rules data names the movement check R13
    ok = ScriptedGame(pls, units=units).at(phase="activations").start().move("ger-153-fus", "A25.26")
    assert audit_file(pls.ctx, ok.write(tmp_path / "ok.vlog")).findings == []


def test_eotid_initial_control_and_a_hex_taken(tmp_path):
    eot = game("iron-dream")
    g = ScriptedGame(eot, units={"sov-inf-3": "S20"}).at(turn=3, phase="soviet-operational-movement").start()
    g.move("sov-inf-3", "T20")                            # into Germany, next to Berlin
    e = engines_after(eot, g, tmp_path)
    c, grid = e.control, eot.report.grid
    assert (c.initial(grid.parse("A13")), c.initial(grid.parse("W38")), c.initial(grid.parse("T21")),
            c.initial(grid.parse("K33"))) == ("western-allies", "soviet", "axis", "soviet")
    assert c.owner(grid.parse("T20")) == "soviet" and c.history(grid.parse("T20")) == []   # by ZOC at the start
    assert [(x.entry, x.side, x.how) for x in c.history(grid.parse("T21"))] == [(1, "soviet", "zoc")]
    assert c.owner(grid.parse("S20")) == "soviet" and c.history(grid.parse("S20")) == []   # the start's
    assert c.owner(grid.parse("T23")) == "axis"           # out of reach: the initial owner


def test_eotid_reinforcement_phase_is_for_placements_only(tmp_path):
    eot = game("iron-dream")
    g = ScriptedGame(eot, units={"ger-inf-25": "T19"}).at(turn=3, phase="axis-reinforcement").start()
    g.move("ger-inf-25", "T20")
    r = audit_file(eot.ctx, g.write(tmp_path / "p.vlog"))
    assert [(f.rule, f.unit) for f in r.findings] == [("phase-discipline", "ger-inf-25")]
    assert "only units coming onto the map" in r.findings[0].message


def test_a_movement_finding_carries_its_cheapest_path(kit, tmp_path):
    g = script(kit, units={"blue-1": "E4"})
    g.move("blue-1", "I5")
    f = audit(kit, g, tmp_path).findings[0]
    assert f.allowance == 4 and f.path[0] == ("E4", 0.0) and f.path[-1][0] == "I5"
    assert sum(c for _, c in f.path) == 6


def test_eotid_wa_reinforcements_arrive_in_a_holding_box_on_their_turn(tmp_path):
    eot = game("iron-dream")
    assert eot.layout.box_point("eto") is not None

    def log(turn, where):
        g = ScriptedGame(eot, scenario="iron-dream", units={"us-mech-3": "reinforcements:9"})
        g.at(turn=turn, phase="wa-replacement").start().move("us-mech-3", where)
        return audit_file(eot.ctx, g.write(tmp_path / f"{turn}-{where}.vlog"))

    assert [f for f in log(9, "eto").findings if f.rule == "arrival"] == []
    early = [f.message for f in log(8, "eto").findings if f.rule == "arrival"]
    assert early == ["arrives on turn 8, before its turn 9"]
    direct = [f.message for f in log(9, "T19").findings if f.rule == "arrival"]
    assert len(direct) == 1 and "it arrives in" in direct[0]


def test_eotid_no_retreat_into_an_unnegated_enemy_zoc(tmp_path):
    """9.10, 18.19 C: the Soviet army retreating in the Axis assault phase may not end in W37 (in the
    ZOC of the German corps at V37) unless a Soviet unit there negates it."""
    eot = game("iron-dream")

    def retreat(units):
        g = ScriptedGame(eot, units=units).at(turn=3, phase="axis-prepared-assault").start()
        return audit_file(eot.ctx, g.move("sov-inf-3", "W37").write(tmp_path / f"{len(units)}.vlog"))

    r = retreat({"ger-inf-1": "V37", "sov-inf-3": "X37"})
    assert [(f.rule, f.unit, f.to) for f in r.findings] == [("phase-discipline", "sov-inf-3", "W37")]
    assert "enemy zone of control" in r.findings[0].message
    assert retreat({"ger-inf-1": "V37", "sov-inf-3": "X37", "sov-inf-5": "W37"}).findings == []
