"""Audit of the tiny example game (its map extended with terrain costs in a temporary copy)."""

from __future__ import annotations

import pytest

from builder.audit import audit_file
from builder.audit.context import AuditContext
from builder.audit.replay import Replayer, Visitor, read_commands
from test_audit_support import LogBuilder, game, tiny_copy

START = {"blue-1": "B3", "blue-2": "B3", "blue-3": "B4", "red-1": "H5"}


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    return game(str(tiny_copy(tmp_path_factory.mktemp("audit-tiny"))))


def audit(kit, lb, tmp_path, name="game.vlog"):
    return audit_file(kit.ctx, lb.write(tmp_path / name))


def rules_of(result):
    return [f.rule for f in result.findings]


def test_legal_moves_have_no_finding(kit, tmp_path):
    lb = LogBuilder(kit, START)
    lb.move("blue-1", "C3")            # forest, 2 of MA 4
    lb.move("blue-3", "B9")            # five clear hexes, MA 6
    lb.move("blue-3", "B4")            # back where it began: cost 0 from its phase start
    r = audit(kit, lb, tmp_path)
    assert r.findings == [] and r.moves == 3 and r.turns_replayed == 1
    assert not r.warnings


def test_stacking_over_the_limit(kit, tmp_path):
    lb = LogBuilder(kit, START)
    lb.move("blue-3", "B3")            # blue-1, blue-2 already there: 3 > limit 2
    r = audit(kit, lb, tmp_path)
    assert rules_of(r) == ["stacking"]
    f = r.findings[0]
    assert (f.turn, f.phase, f.unit, f.name, f.frm, f.to, f.entry) == (1, "Movement", "blue-3", "3", "B4", "B3", 1)
    assert "Blue has 3 stacking points in B3, limit 2" in f.message
    assert "blue-1" in f.message and "blue-2" in f.message


def test_stacking_counts_per_side_and_a_dragged_stack_once(kit, tmp_path):
    lb = LogBuilder(kit, {**START, "red-1": "C5"}, turn=2)        # turn 2: not the scenario's set-up
    lb.move("red-1", "B3")             # Red next to two Blue units: per side, so legal
    lb.move_stack("s1", ["blue-1", "blue-2"], "B4")   # the stack joins blue-3: 3 > 2, one finding
    r = audit(kit, lb, tmp_path)
    assert rules_of(r) == ["stacking"]
    assert r.findings[0].to == "B4" and r.findings[0].entry == 2
    assert r.moves == 3


def test_stacking_exempt_status_and_weights_come_from_data(kit, tmp_path):
    from builder.audit.rules.stacking import Stacking
    rule = Stacking.from_context(kit.ctx)
    rule.exempt = {"Support"}
    rule.weights = {"armor": 0.0}
    lb = LogBuilder(kit, START)
    ctx_units = {}

    class Grab(Visitor):
        def end(self, pos):
            ctx_units.update({u.unit_id: u for u in pos.units.values()})

    Replayer(kit.ctx, [Grab()]).run(read_commands(lb.write(tmp_path / "s.vsav")))
    assert rule.weight(ctx_units["blue-3"]) == 0.0
    u = ctx_units["blue-1"]
    u.status = "Support"
    assert rule.weight(u) == 0.0


def test_move_too_long_for_its_ma_over_terrain(kit, tmp_path):
    lb = LogBuilder(kit, START)
    lb.move("blue-2", "E3")            # C3, D3 forest (2 each) + E3 clear = 5 > MA 4
    r = audit(kit, lb, tmp_path)
    assert rules_of(r) == ["movement-allowance"]
    f = r.findings[0]
    assert (f.unit, f.frm, f.to, f.turn, f.phase) == ("blue-2", "B3", "E3", 1, "Movement")
    assert "costs 5 MP" in f.message and "MA 4" in f.message and "Front face" in f.message


def test_ma_of_the_face_showing_and_segments_add_up(kit, tmp_path):
    lb = LogBuilder(kit, START)
    lb.flip("blue-3", 2)
    lb.move("blue-3", "C4")            # 3 of MA 6 (Back_movement)
    lb.move("blue-3", "E4")            # from B4 the cheapest is 7 > 6
    r = audit(kit, lb, tmp_path)
    assert rules_of(r) == ["movement-allowance"]
    f = r.findings[0]
    assert f.frm == "B4" and "costs 7 MP" in f.message and "Back face" in f.message


def test_roads_and_rivers(kit, tmp_path):
    lb = LogBuilder(kit, {**START, "blue-1": "B8"}, turn=2)
    lb.move("blue-1", "E8")            # along the road: 3 x 0.5 instead of 2+2+1
    lb.move("red-1", "H6")             # red's move in blue's phase: not judged
    r = audit(kit, lb, tmp_path)
    assert r.findings == []
    from builder.audit.rules.terrain import TerrainCosts
    g = kit.report.grid
    costs = TerrainCosts(kit.ctx)
    assert costs.step(g.parse("H5"), g.parse("H6"), "foot", 3) == 3.0      # clear 1 + river 2
    assert costs.cheapest(g.parse("B8"), g.parse("E8"), "foot", 4) == 1.5


def test_moves_outside_movement_phases_are_not_judged(kit, tmp_path):
    lb = LogBuilder(kit, START, phase=1)              # Blue Combat phase
    lb.move("blue-2", "E3")
    lb.phase(1, 1, 0)                                 # Red Movement: blue units are not phasing
    lb.move("blue-1", "E3")
    r = audit(kit, lb, tmp_path)
    assert r.findings == []


def test_phase_changes_reach_the_findings(kit, tmp_path):
    lb = LogBuilder(kit, START, phase=1)
    lb.phase(2, 1, 0)
    lb.move("red-1", "D5")                            # H5 -> D5: three clear, D5 forest 2 > MA 3
    r = audit(kit, lb, tmp_path)
    assert rules_of(r) == ["movement-allowance"]
    assert (r.findings[0].turn, r.findings[0].phase) == (2, "Movement")
    assert r.turns_replayed == 2


def test_prohibited_terrain(kit, tmp_path):
    lb = LogBuilder(kit, {**START, "blue-3": "H8", "blue-1": "H8"}, turn=2)
    lb.move("red-1", "G5")             # lake: playable false
    lb.move("blue-3", "H7")            # swamp: prohibited to tracked
    lb.move("blue-1", "H7")            # swamp costs foot 3: legal
    r = audit(kit, lb, tmp_path)
    assert rules_of(r) == ["prohibited-terrain", "prohibited-terrain"]
    lake, swamp = r.findings
    assert (lake.unit, lake.frm, lake.to, lake.reference) == ("red-1", "H5", "G5", "T3 lakes")
    assert "not playable" in lake.message
    assert (swamp.unit, swamp.to) == ("blue-3", "H7") and "prohibited to tracked" in swamp.message


def test_undone_moves_are_not_judged(kit, tmp_path):
    from builder.vassal.commands import Compound, Log, Undo
    lb = LogBuilder(kit, START)
    lb.move("blue-3", "B3")
    bad = lb.entries.pop()
    lb.entries.append(Compound([Log(Undo("true")), bad, Log(Undo("false"))]))
    r = audit(kit, lb, tmp_path)
    assert r.findings == [] and r.moves == 1


def test_position_tracks_flips_removals_and_boxes(kit, tmp_path):
    lb = LogBuilder(kit, {**START, "red-2": "staging"})
    lb.flip("blue-1", 2).remove("blue-2").move("red-2", "J5")
    seen = []

    class Events(Visitor):
        def flip(self, ev, pos):
            seen.append(("flip", ev.unit.unit_id, ev.old_level, ev.new_level))

        def remove(self, ev, pos):
            seen.append(("remove", ev.unit.unit_id))

        def move(self, ev, pos):
            seen.append(("move", ev.unit.unit_id, ev.frm.kind, ev.frm.name, ev.to.name))

        def end(self, pos):
            u = next(u for u in pos.units.values() if u.unit_id == "blue-1")
            seen.append(("factor", pos.factor(u, "attack")))

    stats = Replayer(kit.ctx, [Events()]).run(read_commands(lb.write(tmp_path / "e.vlog")))
    assert seen == [("flip", "blue-1", 1, 2), ("remove", "blue-2"),
                    ("move", "red-2", "zone", "Reinforcements: Red", "J5"), ("factor", "2")]
    assert stats.units == 5 and stats.is_log


def test_context_names_hexes_as_the_module_places_them(kit):
    ctx: AuditContext = kit.ctx
    for hex_id in ("A1", "B3", "E5", "J10"):
        m, x, y = kit.layout.hex_point(hex_id)
        loc = ctx.locate(m, x, y)
        assert (loc.name, loc.kind, loc.hex) == (hex_id, "hex", kit.report.grid.parse(hex_id))
    assert ctx.locate("Main Map", -5, -5).name == "offboard"


def test_commands_for_pieces_never_added_are_warnings(kit, tmp_path):
    from builder.vassal.commands import ChangePiece, Log, MovePiece
    lb = LogBuilder(kit, START)
    lb.entries.append(Log(MovePiece("ghost", "Main Map", 10, 10, None, "Main Map", 0, 0, None)))
    lb.entries.append(Log(ChangePiece("ghost2", "x")))
    lb.move("blue-1", "C3")
    r = audit(kit, lb, tmp_path)
    assert r.findings == [] and r.moves == 1
    assert r.warnings == ["2 command(s) name 2 piece id(s) the save never added (ignored), e.g. ghost, ghost2"]
