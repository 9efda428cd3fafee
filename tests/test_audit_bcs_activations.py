"""More PLS (BCS) rules from scripted logs with activations: each rule ID with a legal log that audits
clean and an illegal one with the exact finding; a legal game of two full turns (tests/bcs_log.py)."""

from __future__ import annotations

import pytest

from bcs_log import BcsLog, display_markers
from builder.audit import audit_file

S54 = "scenario-5-4"


def audit(lb, tmp_path, name="g.vlog"):
    return audit_file(lb.kit.ctx, lb.write(tmp_path / name))


def found(r, rule=None):
    return [(f.rule, f.unit, f.frm, f.to, f.message) for f in r.findings if rule is None or f.rule == rule]


def konrad(turn=None, phase="activations", units=None, **boxes):
    """Scenario 5.4 (7-11 Jan 45) with Formation Activation markers: boxes={'primary': {'axis': [...]}}."""
    markers = {}
    for box, sides in (boxes or {}).items():
        markers.update(display_markers(sides, box))
    return BcsLog(S54, turn=turn, phase=phase, markers=markers, units=units)


def done(lb, side, formation):
    return lb.move(lb.fam[formation], lb.box(f"{side}:done"))


# ---------------------------------------------------------------------- R12
def test_r12_no_entry_into_an_enemy_hex_except_jumping_hqs(tmp_path):
    lb = konrad(primary={"axis": ["ger-711inf"]})
    lb.activate("axis", "ger-711inf").move_unit("ger-i-731-inf-bn", "C19.11")
    r = audit(lb, tmp_path)
    assert found(r, "R12") == [("R12", "ger-i-731-inf-bn", "C19.10", "C19.11",
                                "enters C19.11, which holds enemy units (sov-iii-99-inf-rgt 'III/99')")]
    # a jump: only an enemy HQ in the hex (a save of 9 Jan 45 with the 23 Rfl Corps HQ next to I/731)
    ok = konrad(turn=8, primary={"axis": ["ger-711inf"]}, units={"sov-23rc-hq": ("C19.11", None),
                                                                  "sov-iii-99-inf-rgt": ("C25.20", None)})
    ok.activate("axis", "ger-711inf").move_unit("ger-i-731-inf-bn", "C19.11")
    assert found(audit(ok, tmp_path, "ok.vlog"), "R12") == []


# ---------------------------------------------------------------------- R13 (movement allowance)
def test_r13_movement_allowance_over_the_terrain(tmp_path):
    ok = konrad(primary={"axis": ["ger-96inf"]})
    ok.activate("axis", "ger-96inf").move_unit("ger-i-283-inf-bn", "C21.07")
    assert audit(ok, tmp_path, "ok.vlog").findings == []
    lb = konrad(primary={"axis": ["ger-96inf"]})
    lb.activate("axis", "ger-96inf").move_unit("ger-i-283-inf-bn", "C28.03")
    r = audit(lb, tmp_path)
    assert [(f.rule, f.unit, f.frm, f.to) for f in r.findings] == [("R13", "ger-i-283-inf-bn", "C22.07", "C28.03")]
    assert r.findings[0].message.startswith("cheapest path C22.07 -> C28.03 costs 8 MP")


# ---------------------------------------------------------------------- R19
def test_r19_flip_once_and_before_moving(tmp_path):
    ok = konrad(primary={"axis": ["ger-96inf"]})
    ok.activate("axis", "ger-96inf").flip("ger-96inf-hq", 2).flip("ger-i-283-inf-bn", 2)
    ok.move_unit("ger-i-283-inf-bn", "C21.07")
    assert audit(ok, tmp_path, "ok.vlog").findings == []
    twice = konrad(primary={"axis": ["ger-96inf"]})
    twice.activate("axis", "ger-96inf").flip("ger-i-283-inf-bn", 2).flip("ger-i-283-inf-bn", 1)
    assert found(audit(twice, tmp_path, "t.vlog")) == [
        ("R19", "ger-i-283-inf-bn", "C22.07", "C22.07", "flips a second time in the activation of 96 Inf Div")]
    late = konrad(primary={"axis": ["ger-96inf"]})
    late.activate("axis", "ger-96inf").move_unit("ger-i-283-inf-bn", "C21.07").flip("ger-i-283-inf-bn", 2)
    assert found(audit(late, tmp_path, "l.vlog")) == [
        ("R19", "ger-i-283-inf-bn", "C21.07", "C21.07", "flips after it moved in the activation of 96 Inf Div")]


# ---------------------------------------------------------------------- R26
def test_r26_no_move_from_ezoc_to_ezoc(tmp_path):
    lb = konrad(primary={"axis": ["ger-96inf"]})
    lb.activate("axis", "ger-96inf").move_unit("ger-96-fus-bicycle-bn", "C22.08")
    r = audit(lb, tmp_path)
    assert found(r, "R26") == [("R26", "ger-96-fus-bicycle-bn", "C22.09", "C22.08",
                                "moves from the zone of control of sov-37-gds-tk-bde '37 Gds' directly into that "
                                "of sov-30-gds-is-tk-rgt '30 Gds'")]
    ok = konrad(primary={"axis": ["ger-96inf"]})
    ok.activate("axis", "ger-96inf").move_unit("ger-i-283-inf-bn", "C21.07")
    assert found(audit(ok, tmp_path, "ok.vlog"), "R26") == []


# ---------------------------------------------------------------------- R32
def test_r32_command_radius_at_the_end_of_the_activation(tmp_path):
    def walk(to):
        lb = konrad(primary={"axis": ["ger-ss-3pz"]})
        lb.activate("axis", "ger-ss-3pz").move_unit("ger-i-5-ss-inf-bn", to)
        return done(lb, "axis", "ger-ss-3pz")
    assert audit(walk("C33.07"), tmp_path, "ok.vlog").findings == []
    assert found(audit(walk("C32.08"), tmp_path)) == [
        ("R32", "ger-i-5-ss-inf-bn", "", "C32.08",
         "ends the activation of 3 SS Pz Div 7 hexes from its HQ ger-ss-3pz-hq '3 SS' in C34.02, beyond its Command "
         "Radius 6")]


# ---------------------------------------------------------------------- R53
def test_r53_replacements(tmp_path):
    def repl(uid, steps, turn=7, phase="reinforcement", start_phase="turn-end"):
        lb = konrad(turn=6, phase=start_phase)
        if (turn, phase) != (6, start_phase):
            lb.to_phase(turn, phase)
        return lb.step_loss(uid, -steps)
    assert audit(repl("ger-i-283-inf-bn", 1), tmp_path, "ok.vlog").findings == []
    assert found(audit(repl("ger-9-3-ss-tgr-co", 1), tmp_path, "a.vlog")) == [
        ("R53", "ger-9-3-ss-tgr-co", "", "C41.07", "regains 1 step(s); units flagged heavy_tank never take replacements")]
    assert found(audit(repl("ger-i-283-inf-bn", 1, 6, "reinforcement", "reinforcement"), tmp_path, "b.vlog")) == [
        ("R53", "ger-i-283-inf-bn", "", "C22.07", "regains 1 step(s) on the scenario's first turn (no replacements then)")]
    assert found(audit(repl("ger-i-283-inf-bn", 1, 7, "activations"), tmp_path, "c.vlog")) == [
        ("R53", "ger-i-283-inf-bn", "", "C22.07",
         "regains 1 step(s) in the Activations Phase; replacements only in the reinforcement phase")]
    assert found(audit(repl("ger-i-284-inf-bn", 2), tmp_path, "d.vlog")) == [
        ("R53", "ger-i-284-inf-bn", "", "C15.09", "regains 2 steps this turn, more than 1 replacement per unit")]


# ---------------------------------------------------------------------- R56
def test_r56_clean_up_removes_obj_and_traffic(tmp_path):
    def act(clean):
        lb = konrad(primary={"axis": ["ger-96inf"]})
        lb.activate("axis", "ger-96inf")
        o = lb.add_marker("obj", "C23.08")
        if clean:
            lb.remove(o)
        return done(lb, "axis", "ger-96inf")
    assert audit(act(True), tmp_path, "ok.vlog").findings == []
    assert found(audit(act(False), tmp_path)) == [
        ("R56", "obj", "", "C23.08", "obj marker still in C23.08 after the activation of 96 Inf Div (Clean Up removes it)")]


# ---------------------------------------------------------------------- R57
def test_r57_turn_end_hqs_unused_and_the_turn_advances_by_one(tmp_path):
    def turn(unflip, to=7):
        lb = konrad(primary={"axis": ["ger-96inf"]})
        lb.activate("axis", "ger-96inf").flip("ger-96inf-hq", 2)
        done(lb, "axis", "ger-96inf").to_phase(6, "turn-end")
        if unflip:
            lb.flip("ger-96inf-hq", 1)
        return lb.to_phase(to, "reinforcement")
    assert audit(turn(True), tmp_path, "ok.vlog").findings == []
    assert found(audit(turn(False), tmp_path)) == [
        ("R57", "ger-96inf-hq", "", "C22.05", "turn 6 ends with the HQ on its Used side")]
    assert found(audit(turn(True, 8), tmp_path, "s.vlog")) == [
        ("R57", "turn", "", "", "the turn goes from 6 to 8, not to the next turn")]


# ---------------------------------------------------------------------- R59
def test_r59_allotments_once_per_turn_and_tiers(tmp_path):
    def seq(*acts, **boxes):
        lb = konrad(**boxes)
        for f in acts:
            lb.activate("axis", f)
            done(lb, "axis", f)
        return lb
    three = {"primary": {"axis": ["ger-96inf", "ger-711inf", "ger-ss-3pz"]}}
    assert audit(seq("ger-96inf", "ger-711inf", **three), tmp_path, "ok.vlog").findings == []
    assert [(f.rule, f.unit, f.message) for f in audit(seq("ger-96inf", "ger-711inf", "ger-ss-3pz", **three),
                                                        tmp_path).findings] == [
        ("R59", "ger-ss-3pz-hq", "3 SS Pz Div: primary activation number 3 this turn, the scenario allots 2")]
    assert [(f.rule, f.message) for f in audit(seq("ger-96inf", "ger-96inf", **three), tmp_path, "b.vlog").findings] \
        == [("R59", "96 Inf Div activates a second time this turn (not as its Second Activation)")]
    assert [(f.rule, f.message) for f in audit(seq("ger-96inf", available={"axis": ["ger-96inf"]}),
                                               tmp_path, "c.vlog").findings] == [
        ("R59", "96 Inf Div activates without spending an allotment (its marker came from no allotment box)")]
    tiers = {"primary": {"axis": ["ger-96inf"]}, "secondary": {"axis": ["ger-711inf"]}}
    assert [(f.rule, f.message) for f in audit(seq("ger-711inf", "ger-96inf", **tiers), tmp_path, "d.vlog").findings] \
        == [("R59", "96 Inf Div: a Tier 1 (primary) activation after a Tier 2 one this turn")]


# ---------------------------------------------------------------------- R61, R63
def test_r61_the_first_primary_allotment_activates_96_inf_div(tmp_path):
    def first(formation):
        lb = BcsLog("scenario-5-2", markers=display_markers({"axis": [formation]}, "primary"))
        return lb.activate("axis", formation)
    assert audit(first("ger-96inf"), tmp_path, "ok.vlog").findings == []
    assert [(f.rule, f.unit, f.message) for f in audit(first("ger-ss-5pz"), tmp_path).findings] == [
        ("R61", "ger-ss-5pz-hq", "the primary allotment activates 5 SS Pz Div; on this turn it must activate 96 Inf Div")]


def test_r63_first_player_on_the_first_turn(tmp_path):
    bad = BcsLog("scenario-5-2", markers=display_markers({"soviet": ["sov-80gd"]}, "secondary"))
    bad.activate("soviet", "sov-80gd")
    assert [(f.rule, f.unit, f.message) for f in audit(bad, tmp_path).findings] == [
        ("R63", "sov-80gd-hq", "the first activation of turn 1 is soviet's (80 Gds Div); the scenario's first player "
                               "is axis")]
    ok = BcsLog("scenario-5-8", markers=display_markers({"soviet": ["sov-5gtc"]}, "secondary"))
    ok.activate("soviet", "sov-5gtc")
    assert audit(ok, tmp_path, "ok.vlog").findings == []


# ---------------------------------------------------------------------- R62
def test_r62_budapest_and_reinforcement_activations(tmp_path):
    lb = konrad(primary={"axis": ["ger-96inf"]}, budapest={"axis": ["ger-711inf"], "soviet": ["sov-2gmc"]})
    lb.activate("axis", "ger-96inf")
    done(lb, "axis", "ger-96inf").activate("axis", "ger-711inf")
    done(lb, "axis", "ger-711inf").activate("soviet", "sov-2gmc")
    assert [(f.rule, f.message) for f in audit(lb, tmp_path).findings] == [
        ("R62", "711 Inf Div takes a budapest activation, allowed only to soviet"),
        ("R62", "2 Gds Mech Corps takes a budapest activation with its HQ in C29.12, more than 6 hexes from "
                "budapest-urban")]
    near = BcsLog("scenario-5-1", markers={**display_markers({"axis": ["ger-96inf"]}, "primary"),
                                            **display_markers({"soviet": ["sov-23rc"]}, "budapest")})
    near.activate("axis", "ger-96inf")
    near.move(near.fam["ger-96inf"], near.box("axis:done")).activate("soviet", "sov-23rc")
    assert audit(near, tmp_path, "ok.vlog").findings == []
    # a Reinforcement activation: the formation's HQ arrived this turn (41 Gds Div on 3 Jan 45), or not
    arr = BcsLog("scenario-5-2", markers=display_markers({"soviet": ["sov-41gd", "sov-80gd"]}, "reinforcement"))
    arr.to_phase(2, "reinforcement").move("sov-41gd-hq", "A63.34").to_phase(2, "activations")
    arr.activate("soviet", "sov-41gd")
    assert audit(arr, tmp_path, "ok2.vlog").findings == []
    arr.move(arr.fam["sov-41gd"], arr.box("soviet:done")).activate("soviet", "sov-80gd")
    assert [(f.rule, f.message) for f in audit(arr, tmp_path, "r.vlog").findings] == [
        ("R62", "80 Gds Div takes a reinforcement activation, but its HQ did not arrive this turn")]


# ---------------------------------------------------------------------- R66
def test_r66_scheduled_removals(tmp_path):
    gone = ["ger-96inf-ct", "ger-96inf-hq", "ger-i-284-inf-bn", "ger-ii-284-inf-bn", "ger-ii-287-inf-bn"]

    def play(remove):
        lb = BcsLog("scenario-5-9", turn=5, phase="turn-end")
        for uid in gone if remove else []:
            lb.remove(uid)
        return lb.to_phase(6, "reinforcement")
    assert audit(play(True), tmp_path, "ok.vlog").findings == []
    r = audit(play(False), tmp_path)
    assert sorted((f.rule, f.unit) for f in r.findings) == [("R66", uid) for uid in sorted(gone)]
    assert r.findings[0].message.endswith("after its removal (21 Feb 45)")


# ---------------------------------------------------------------------- R69
def test_r69_no_off_map_movement(tmp_path):
    def leave(to):
        lb = konrad(primary={"axis": ["ger-96inf"]})
        return lb.activate("axis", "ger-96inf").move_unit("ger-i-283-inf-bn", to)
    assert audit(leave("dead-pile-axis"), tmp_path, "ok.vlog").findings == []
    assert found(audit(leave("to-place"), tmp_path)) == [
        ("R69", "ger-i-283-inf-bn", "C22.07", "To place: Axis", "leaves the map for To place: Axis")]


# ---------------------------------------------------------------------- R04
def test_r04_soviets_never_enter_budapest_urban_hexes_in_5_4(tmp_path):
    def walk(to):
        lb = konrad(turn=8, secondary={"soviet": ["sov-23rc"]}, units={"sov-i-19-inf-rgt": ("C47.22", None),
                                                                       "sov-23rc-hq": ("C46.21", None)})
        return lb.activate("soviet", "sov-23rc").move_unit("sov-i-19-inf-rgt", to)
    assert audit(walk("C47.21"), tmp_path, "ok.vlog").findings == []
    assert found(audit(walk("C47.23"), tmp_path)) == [
        ("R04", "sov-i-19-inf-rgt", "C47.22", "C47.23",
         "enters C47.23, one of the Budapest Urban hexes, not playable for the Soviet side in this scenario")]
    # the region and the side by their printed names (the map's regions, the game's sides), never their ids
    message = found(audit(walk("C47.23"), tmp_path))[0][4]
    assert "Budapest Urban hexes" in message and "budapest-urban" not in message and "soviet " not in message


# ---------------------------------------------------------------------- two full turns, several activations
def test_a_legal_game_of_two_full_turns_audits_clean(tmp_path):
    lb = konrad(primary={"axis": ["ger-96inf", "ger-ss-3pz"], "soviet": ["sov-18tc"]},
                secondary={"axis": ["ger-711inf"], "soviet": ["sov-62gd", "sov-2gmc"]})
    for turn in (6, 7):
        if turn == 7:
            lb.to_phase(7, "reinforcement").step_loss("ger-i-283-inf-bn", -1)
            for side, f, box in (("axis", "ger-96inf", "primary"), ("axis", "ger-ss-3pz", "primary"),
                                 ("axis", "ger-711inf", "secondary"), ("soviet", "sov-18tc", "primary"),
                                 ("soviet", "sov-62gd", "secondary"), ("soviet", "sov-2gmc", "secondary")):
                lb.move(lb.fam[f], lb.box(f"{side}:{box}"))
            lb.to_phase(7, "activations")
        # Axis primary: 96 Inf Div flips its HQ, deploys and moves I/283, places and clears an OBJ
        lb.activate("axis", "ger-96inf").flip("ger-96inf-hq", 2)
        o = lb.add_marker("obj", "C23.08")
        if turn == 6:
            lb.flip("ger-i-283-inf-bn", 2).move_unit("ger-i-283-inf-bn", "C21.07")
        lb.remove(o)
        done(lb, "axis", "ger-96inf")
        # Soviet primary: 18 Tk Corps
        lb.activate("soviet", "sov-18tc").flip("sov-18tc-hq", 2)
        done(lb, "soviet", "sov-18tc")
        # Axis primary: 3 SS Pz Div moves I/5 SS within its Command Radius
        lb.activate("axis", "ger-ss-3pz").flip("ger-ss-3pz-hq", 2).move_unit("ger-i-5-ss-inf-bn",
                                                                              "C33.07" if turn == 6 else "C32.06")
        done(lb, "axis", "ger-ss-3pz")
        lb.activate("soviet", "sov-62gd").flip("sov-62gd-hq", 2)
        done(lb, "soviet", "sov-62gd")
        # Axis secondary with a Second Activation on a 6 (711 Inf HQ Activation Roll 4)
        lb.activate("axis", "ger-711inf").flip("ger-711inf-hq", 2).roll("1d6", "6")
        lb.activate("axis", "ger-711inf", "second")
        done(lb, "axis", "ger-711inf")
        lb.activate("soviet", "sov-2gmc")
        done(lb, "soviet", "sov-2gmc")
        lb.to_phase(turn, "turn-end")
        for hq in ("ger-96inf-hq", "sov-18tc-hq", "ger-711inf-hq", "sov-62gd-hq", "ger-ss-3pz-hq"):
            lb.flip(hq, 1)
    lb.to_phase(8, "reinforcement")
    r = audit(lb, tmp_path)
    assert r.findings == []
    assert r.turns_replayed == 3 and len(lb.entries) > 60


# ---------------------------------------------------------------------- R15 (prohibited terrain)
def test_r15_no_entry_into_prohibited_terrain(tmp_path):
    def move(to):
        lb = konrad(turn=7, primary={"soviet": ["sov-2gmc"]})
        return lb.activate("soviet", "sov-2gmc").move_unit("sov-4-gds-mech-bde", to)
    assert found(audit(move("C28.07"), tmp_path)) == [
        ("R15", "sov-4-gds-mech-bde", "C29.08", "C28.07", "C28.07 is Forest, prohibited to truck")]
    assert found(audit(move("C30.08"), tmp_path, "ok.vlog"), "R15") == []


# ---------------------------------------------------------------------- the CLI names the rules it checks
def test_audit_json_names_the_rule_ids_it_checks(tmp_path, capsys):
    from builder.cli import main
    lb = konrad(primary={"axis": ["ger-96inf", "ger-711inf", "ger-ss-3pz"]})
    for f in ("ger-96inf", "ger-711inf", "ger-ss-3pz"):
        lb.activate("axis", f)
        done(lb, "axis", f)
    lb.add_marker("obj", "C23.08")
    lb.activate("axis", "ger-96inf")
    code = main(["audit", "panzers-last-stand", str(lb.write(tmp_path / "g.vlog")), "--json"])
    import json
    out = json.loads(capsys.readouterr().out.splitlines()[0])
    assert code == 1
    ids = {c["rule"] for c in out["checked"]}
    assert len({i for i in ids if i.startswith("R")}) >= 15
    assert {"R01", "R13", "R32", "R59", "R60", "R64"} <= ids
    assert [(f["rule"], f["unit"]) for f in out["findings"]] == [
        ("R59", "ger-ss-3pz-hq"), ("R59", "ger-96inf-hq"), ("R56", "obj")]
    assert any(n.startswith("R52 ") for n in out["not_checked"])
