"""Panzers Last Stand (BCS) rules judged by the audit, configured by counters/panzers-last-stand/rules.yaml.

Each rule: a legal and an illegal case, asserting the exact finding (rule ID, unit, message)."""

from __future__ import annotations

from pathlib import Path

import pytest

from builder.audit import audit_file
from builder.audit.rules import RuleSet
from builder.module import pieces, setups, turns
from builder.render import counter_build
from builder.vassal.savefile import SaveFile
from test_audit_support import game


@pytest.fixture(scope="module")
def pls():
    return game("panzers-last-stand")


@pytest.fixture(scope="module")
def plans(pls):
    g = pls.report.model
    counters = {(pid, face): Path(rel).name for pid, face, rel in counter_build.counter_images(g)}
    defs = pieces.build_defs(g, counters)
    _, cal_of = turns.calendars(g)

    def plan(sid):
        sc = g.by_id["scenarios"][sid]
        return setups.ScenarioPlan(g, pls.layout, defs, sc), cal_of.get(sid)
    return plan


def scenario_save(plans, sid, path, named=True):
    plan, cal = plans(sid) if isinstance(sid, str) else sid
    if named:
        path.write_bytes(setups.save_bytes(plan, cal, "Panzers Last Stand: The Battles for Budapest, 1945", "1"))
    else:
        path.write_bytes(SaveFile.new(plan.commands(cal), encoding="vcsk", key=0x21).to_bytes())
    return path


def r01(result):
    return [(f.rule, f.unit, f.to, f.message) for f in result.findings if f.rule == "R01"]


# ---------------------------------------------------------------------- R01 set-up conformance
SCENARIOS = [f"scenario-5-{k}" for k in range(1, 11)]


@pytest.mark.parametrize("sid", SCENARIOS)
def test_r01_each_scenarios_own_setup_save_is_clean(pls, plans, sid, tmp_path):
    r = audit_file(pls.ctx, scenario_save(plans, sid, tmp_path / "s.vsav"))
    assert r.findings == []
    assert not [w for w in r.warnings if w.startswith("R01")]
    assert "R01" in [x.id for x in RuleSet.for_game(pls.ctx).rules]


def test_r01_a_save_without_a_name_is_recognised_by_its_hexes(pls, plans, tmp_path):
    plan, cal = plans("scenario-5-4")
    for p in plan.placements:
        if p.d.key == "ger-i-284-inf-bn":
            p.map, p.x, p.y = pls.layout.hex_point("C15.10")
    r = audit_file(pls.ctx, scenario_save(plans, (plan, cal), tmp_path / "s.vsav", named=False))
    assert ("R01", "ger-i-284-inf-bn", "C15.10", "set up in C15.10, the scenario prints C15.09") in r01(r)


def test_r01_wrong_hex_missing_step_loss_status_and_fatigue(pls, plans, tmp_path):
    plan, cal = plans("scenario-5-4")
    keys = [p.d.key for p in plan.placements]
    # I/283 Inf Bn [5] has lost one step on its Losses layer (6 steps at full strength): undo it
    i = keys.index("ger-i-283-inf-bn")
    assert plan.placements[i].losses == 1
    plan.placements[i].losses = 0
    # 711 PJ Hetz Bn (Support): no status; 711 Inf HQ (Fat-0): no fatigue marker
    for p in plan.placements:
        if p.d.key == "ger-711-pj-hetz-bn":
            p.entry = {k: v for k, v in p.entry.items() if k != "status"}
    i = [p.d.key for p in plan.placements].index("ger-711inf-hq")
    assert plan.placements[i + 1].d.key == "fatigue-0"
    del plan.placements[i + 1]
    r = audit_file(pls.ctx, scenario_save(plans, (plan, cal), tmp_path / "s.vsav"))
    assert r01(r) == [
        ("R01", "ger-711inf-hq", "C18.08", "carries markers none, the set-up wants ['fatigue-0']"),
        ("R01", "ger-711-pj-hetz-bn", "C18.08", "status none, the set-up prints ['Support']"),
        ("R01", "ger-i-283-inf-bn", "C22.07",
         "has lost 0 step(s), the set-up prints [5] (6 steps at full strength)"),
    ]
    assert r.findings[0].reference == "PLS 5.x, BCS 1.0f"


def test_r01_nothing_extra_on_the_map(pls, plans, tmp_path):
    plan, cal = plans("scenario-5-2")
    # 41 Gds Div HQ arrives 3 Jan 45 at A63.34 (pls_bcs.md 6.2 #5a): put it there at the start
    for p in plan.placements:
        if p.d.key == "sov-41gd-hq":
            p.map, p.x, p.y = pls.layout.hex_point("A63.34")
    r = audit_file(pls.ctx, scenario_save(plans, (plan, cal), tmp_path / "s.vsav"))
    # A63.34 is a seam hex: VASSAL names it after the board holding its centre (B1.34), the same hex
    reported = pls.layout.hex_place("A63.34")[3]
    assert pls.ctx.grid.parse(reported) == pls.ctx.grid.parse("A63.34")
    assert r01(r) == [("R01", "sov-41gd-hq", reported, "a reinforcement (3 Jan 45), on the map at the start")]
