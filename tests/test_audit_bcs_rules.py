"""Panzers Last Stand (BCS) rules judged from scripted logs with activations (tests/bcs_log.py): for every
rule ID of counters/panzers-last-stand/rules.yaml a legal log that audits clean and an illegal one with the
exact finding; the examples of pls_bcs.md 6.2; a legal game of two full turns."""

from __future__ import annotations

import pytest

from bcs_log import BcsLog, display_markers
from builder.audit import audit_file


def audit(lb, tmp_path, name="g.vlog"):
    return audit_file(lb.kit.ctx, lb.write(tmp_path / name))


def found(r, rule=None):
    return [(f.rule, f.unit, f.frm, f.to, f.message) for f in r.findings if rule is None or f.rule == rule]




# ---------------------------------------------------------------------- pls_bcs.md 6.2 #1, R40
@pytest.mark.parametrize("hq,frm,to", [("ger-buda-hq", "C44.27", "C44.26"), ("ger-pest-hq", "C45.29", "C45.28")])
def test_r40_festung_hq_never_moves(hq, frm, to, tmp_path):
    lb = BcsLog("scenario-5-1", markers={**display_markers({"axis": ["ger-96inf"]}, "primary"),
                                          **display_markers({"axis": ["ger-buda", "ger-pest"]}, "secondary")})
    lb.activate("axis", "ger-96inf").move(lb.fam["ger-96inf"], lb.box("axis:done"))
    lb.activate("axis", hq.replace("-hq", ""))
    assert audit(lb, tmp_path, "ok.vlog").findings == []
    lb.move_unit(hq, to)
    assert found(audit(lb, tmp_path)) == [("R40", hq, frm, to, f"{'Buda' if 'buda' in hq else 'Pest'} never moves")]


# ---------------------------------------------------------------------- 6.2 #2, R07
def traffic(into):
    lb = BcsLog("scenario-5-2", markers={**display_markers({"axis": ["ger-96inf"]}, "primary"),
                                          **display_markers({"axis": ["ger-ss-5pz"]}, "secondary")})
    lb.activate("axis", "ger-96inf").move(lb.fam["ger-96inf"], lb.box("axis:done")).activate("axis", "ger-ss-5pz")
    t = lb.add_marker("traffic", "A26.11")          # I/5 SS Pz Bn fired an Engagement (BCS 5.2d v)
    lb.move_unit("ger-i-9-ss-inf-bn", into).remove(t)
    return lb.move(lb.fam["ger-ss-5pz"], lb.box("axis:done"))


def test_r07_no_entry_into_a_full_hex_with_traffic(tmp_path):
    assert audit(traffic("A26.12"), tmp_path, "ok.vlog").findings == []
    r = audit(traffic("A26.11"), tmp_path)
    assert found(r, "R07") == [("R07", "ger-i-9-ss-inf-bn", "A26.10", "A26.11",
                                "enters A26.11, which has a traffic marker and already 2 combat units "
                                "(ger-i-5-ss-pz-bn 'I/5 SS', ger-ii-9-ss-inf-bn 'II/9 SS')")]
    assert [f.rule for f in r.findings] == ["R07", "R06"]


# ---------------------------------------------------------------------- 6.2 #3, R27 (and R63, R61 in passing)
def hq_walk(prepared: bool):
    lb = BcsLog("scenario-5-2", markers={**display_markers({"axis": ["ger-96inf"]}, "primary"),
                                          **display_markers({"axis": ["ger-ss-5pz"], "soviet": ["sov-80gd"]},
                                                            "secondary")})
    lb.activate("axis", "ger-96inf").move(lb.fam["ger-96inf"], lb.box("axis:done"))
    lb.activate("soviet", "sov-80gd")
    if prepared:
        lb.flip("sov-1-217-gds-inf-bn", 2)                    # its Deployed (Attack-Capable) side
    lb.move(lb.fam["sov-80gd"], lb.box("soviet:done"))
    lb.activate("axis", "ger-ss-5pz").flip("ger-ss-5pz-hq", 2).move_unit("ger-ss-5pz-hq", "A26.15")
    return lb


def test_r27_hq_never_walks_into_an_ezoc(tmp_path):
    assert audit(hq_walk(False), tmp_path, "ok.vlog").findings == []
    assert found(audit(hq_walk(True), tmp_path)) == [
        ("R27", "ger-ss-5pz-hq", "A26.11", "A26.15",
         "enters A26.15, in the zone of control of sov-1-217-gds-inf-bn '1/217 Gds', not negated by a friendly unit")]


# ---------------------------------------------------------------------- 6.2 #4, R21
def csabdi(level: int, obj: bool):
    # a save of 4 Jan 45: I/979 (Bieber) next to Csabdi, its HQ near, 32 Inf Bde gone from Csabdi
    lb = BcsLog("scenario-5-2", turn=3, markers=display_markers({"axis": ["ger-bieber"]}, "secondary"),
                units={"ger-i-979-inf-bn": ("A44.34", level), "ger-bieber-hq": ("A44.30", None),
                       "sov-32-inf-bde": ("C46.05", None)})
    lb.activate("axis", "ger-bieber")
    o = lb.add_marker("obj", "A44.35") if obj else None
    lb.move_unit("ger-i-979-inf-bn", "A44.35")
    if o:
        lb.remove(o)
    return lb.move(lb.fam["ger-bieber"], lb.box("axis:done"))


def test_r21_vp_hex_only_with_an_obj_never_unprepared(tmp_path):
    assert audit(csabdi(2, True), tmp_path, "ok.vlog").findings == []
    bad = csabdi(2, False)
    at = bad.hex_of("ger-i-979-inf-bn")        # Csabdi: A44.35 = C44.01 on the seam, as VASSAL names it there
    assert bad.kit.grid.parse(at) == bad.kit.grid.parse("A44.35")
    assert found(audit(bad, tmp_path)) == [
        ("R21", "ger-i-979-inf-bn", "A44.34", at, f"enters the enemy-controlled VP hex {at} with no OBJ marker there")]
    assert found(audit(csabdi(1, True), tmp_path, "u.vlog")) == [
        ("R21", "ger-i-979-inf-bn", "A44.34", at, f"an Unprepared unit enters the enemy-controlled VP hex {at}")]


# ---------------------------------------------------------------------- 6.2 #5, R64
def arrival(turn, phase, where):
    lb = BcsLog("scenario-5-2")
    if (turn, phase) != (1, "activations"):
        lb.to_phase(turn, phase)
    return lb.move("sov-41gd-hq", where)


def test_r64_reinforcement_on_its_date_at_its_hex_in_the_reinforcement_phase(tmp_path):
    ok = arrival(2, "reinforcement", "A63.34")
    assert audit(ok, tmp_path, "ok.vlog").findings == []
    name = lambda h: ok.kit.ctx.locate(*ok.kit.point(h)).name    # noqa: E731 - A63.x is B1.x on the seam
    staging = "Reinforcements: Soviet, Turn 2"
    assert found(audit(arrival(1, "activations", "A63.34"), tmp_path, "a.vlog")) == [
        ("R64", "sov-41gd-hq", staging, name("A63.34"), "arrives on turn 1, before its turn 2")]
    assert found(audit(arrival(2, "reinforcement", "A63.33"), tmp_path, "b.vlog")) == [
        ("R64", "sov-41gd-hq", staging, name("A63.33"),
         f"enters at {name('A63.33')}, outside its entry hexes (A63.34)")]
    assert found(audit(arrival(2, "activations", "A63.34"), tmp_path, "c.vlog")) == [
        ("R64", "sov-41gd-hq", staging, name("A63.34"),
         "placed in the Activations Phase; it must be placed in its entry hex in the reinforcement phase")]


def entering_combat_unit(*path):
    """41 Gds Div's Reinforcement activation on 3 Jan 45: its HQ placed at A63.34 in the Reinforcement
    Phase, then 1/122 Gds Inf Bn dragged from its Reinforcements box along *path*."""
    lb = BcsLog("scenario-5-2", markers=display_markers({"soviet": ["sov-41gd"]}, "reinforcement"))
    lb.to_phase(2, "reinforcement").move("sov-41gd-hq", "A63.34").to_phase(2, "activations")
    lb.activate("soviet", "sov-41gd").move("sov-1-122-gds-inf-bn", *path)
    return lb.move(lb.fam["sov-41gd"], lb.box("soviet:done"))


def test_r64_a_combat_unit_enters_and_moves_on_in_one_drag(tmp_path):
    """BCS 2.1d v: a combat unit enters in its own activation, its MPs counted from the entry hex. Dragged
    straight from its box to a hex beyond the entry hex, it has arrived where it may: the place is judged
    as a distance (the movement allowance's R13), as when it is dragged through the entry hex (a false R64
    'outside its entry hexes' before)."""
    assert audit(entering_combat_unit("A63.34", "A60.32"), tmp_path, "two.vlog").findings == []
    assert audit(entering_combat_unit("A60.32"), tmp_path, "one.vlog").findings == []
    far = audit(entering_combat_unit("A55.30"), tmp_path, "far.vlog")   # 9 MP from the entry hex
    assert [f.rule for f in far.findings] == ["R13"]
    assert "counted from its entry hex" in far.findings[0].message
    # in the Reinforcement Phase, where it may not move, the place is judged: the entry hex or nothing
    lb = BcsLog("scenario-5-2", markers=display_markers({"soviet": ["sov-41gd"]}, "reinforcement"))
    lb.to_phase(2, "reinforcement").move("sov-41gd-hq", "A63.34").move("sov-1-122-gds-inf-bn", "A60.32")
    assert found(audit(lb, tmp_path, "placed.vlog")) == [
        ("R64", "sov-1-122-gds-inf-bn", "Reinforcements: Soviet, Turn 2", "A60.32",
         "enters at A60.32, outside its entry hexes (A63.34)")]


def test_r64_findings_name_the_rules_reference(tmp_path):
    """A reinforcement entry with no source of its own gives the data's reference of R64."""
    r = audit(arrival(1, "activations", "A63.34"), tmp_path)
    assert [(f.rule, f.reference) for f in r.findings] == [("R64", "BCS 2.1a-d; PLS 5.x")]


# ---------------------------------------------------------------------- 6.2 extra: R54, R60 (Fat-4 75/37 Rfl Corps)
def second(formation, roll=None):
    lb = BcsLog("scenario-5-1", markers={**display_markers({"axis": ["ger-96inf"]}, "primary"),
                                          **display_markers({"soviet": [formation]}, "secondary")})
    lb.activate("axis", "ger-96inf").move(lb.fam["ger-96inf"], lb.box("axis:done")).activate("soviet", formation)
    if roll is not None:
        lb.roll("1d6", str(roll), "Soviet")
    return lb.activate("soviet", formation, "second").move(lb.fam[formation], lb.box("soviet:done"))


def test_r54_r60_fat4_formation_never_takes_a_second_activation(tmp_path):
    r = audit(second("sov-75rc", 6), tmp_path)
    msg = "75 Rfl Corps takes a Second Activation with fatigue-4 on its HQ"
    assert [(f.rule, f.unit, f.message) for f in r.findings] == [("R54", "sov-75rc-hq", msg), ("R60", "sov-75rc-hq", msg)]


def test_r60_second_activation_needs_the_roll(tmp_path):
    hq = "sov-18tc-hq"
    assert audit(second("sov-18tc", 5), tmp_path, "ok.vlog").findings == []
    bad = [(f.rule, f.unit, f.message) for f in audit(second("sov-18tc", 2), tmp_path).findings]
    assert bad == [("R60", hq, "Second Activation of 18 Tk Corps on a roll of 2, below its Activation Roll 5")]
    none = [(f.rule, f.message) for f in audit(second("sov-18tc"), tmp_path, "n.vlog").findings]
    assert none == [("R60", "Second Activation of 18 Tk Corps with no 1d6 roll in the log since its activation")]
