"""The audit reads our modules' own scenario saves (every unit where the module put it, turn and
phase from the scenario's tracker) and applies BCS stacking (Panzers Last Stand) from the data."""

from __future__ import annotations

from pathlib import Path

import pytest

from builder.audit import audit_file
from builder.audit.replay import Replayer
from builder.module import pieces, setups, turns
from builder.render import counter_build
from test_audit_support import LogBuilder, game


@pytest.mark.parametrize("name", ["iron-dream", "panzers-last-stand"])
def test_scenario_saves_replay_to_the_modules_locations(name):
    kit = game(name)
    g = kit.report.model
    counters = {(pid, face): Path(rel).name for pid, face, rel in counter_build.counter_images(g)}
    defs = pieces.build_defs(g, counters)
    _, cal_of = turns.calendars(g)
    for sid, sc in g.by_id["scenarios"].items():
        plan = setups.ScenarioPlan(g, kit.layout, defs, sc)
        replayer = Replayer(kit.ctx, [])
        stats = replayer.run(plan.commands(cal_of.get(sid)))
        expected = [(p.d.key, p.location, p.level) for p in plan.placements if p.d.kind == "unit"]
        got = [(u.unit_id, u.location.name, u.level) for u in replayer.pos.units.values()]
        assert got == expected, sid
        assert stats.warnings == [], sid
        first = sc.get("first_turn") or (sc.get("turns") or g.doc["turns"])[0]["turn"]
        assert replayer.pos.turn == first, sid
        assert replayer.pos.phase.phase_id, sid


AT = "A10.10"


@pytest.fixture(scope="module")
def pls():
    return game("panzers-last-stand")


def test_bcs_two_combat_units_hq_and_trains_do_not_count(pls, tmp_path):
    start = {"ger-153-fus": AT, "ger-i-716-inf-bn": AT, "ger-153fa-hq": "A10.11", "ger-153fa-ct": "A10.11",
             "ger-16-xvii-alarm-bn": "A10.09"}
    lb = LogBuilder(pls, start, phase=4)
    lb.move("ger-153fa-hq", AT).move("ger-153fa-ct", AT)
    r = audit_file(pls.ctx, lb.write(tmp_path / "ok.vlog"))
    assert r.findings == []
    lb.move("ger-16-xvii-alarm-bn", AT)
    r = audit_file(pls.ctx, lb.write(tmp_path / "bad.vlog"))
    assert [(f.rule, f.unit, f.frm, f.to, f.reference) for f in r.findings] == [
        ("R06", "ger-16-xvii-alarm-bn", "A10.09", AT, "BCS 4.2")]   # the PLS rules data names it R06
    assert "3 stacking points in A10.10, limit 2" in r.findings[0].message
    assert "ger-153fa-hq '153 FA' (0)" in r.findings[0].message


def test_bcs_units_in_support_do_not_count(pls, tmp_path):
    start = {"ger-153-fus": AT, "ger-i-716-inf-bn": AT, "ger-16-xvii-alarm-bn": "A10.09"}
    lb = LogBuilder(pls, start, phase=4, status={"ger-16-xvii-alarm-bn": "Support"})
    lb.move("ger-16-xvii-alarm-bn", AT)
    r = audit_file(pls.ctx, lb.write(tmp_path / "support.vlog"))
    assert r.findings == []
