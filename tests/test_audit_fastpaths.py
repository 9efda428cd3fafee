"""The audit's optimised paths (builder.audit.fastpaths: direct-step tests before path searches, memoised
selectors and phase conditions, per-phase rule dispatch, the engines' incremental updates) give exactly the
findings of the plain computation: random games of both shipped games (tests/audit_random_logs.py: a few
thousand moves over every kind of phase, into enemy ZOC and onto enemy units, with stacks, flips, markers
and eliminations) audited both ways, compared finding by finding."""

from __future__ import annotations

import pytest

from audit_random_logs import random_game
from builder.audit import audit_file, fastpaths
from builder.audit.context import AuditContext
from test_audit_support import game

CASES = [("iron-dream", 11), ("iron-dream", 12), ("panzers-last-stand", 21)]


def _audit(report, path, fast: bool):
    ctx_fast = fastpaths.ENABLED
    try:
        fastpaths.ENABLED = fast
        ctx = AuditContext.from_report(report)      # a context of its own: no cache shared between the two
        r = audit_file(ctx, path)
    finally:
        fastpaths.ENABLED = ctx_fast
    return r


@pytest.mark.parametrize("name,seed", CASES)
def test_fast_paths_give_the_same_findings(tmp_path, name, seed):
    kit = game(name)
    path = random_game(kit, seed, actions=1500).write(tmp_path / "random.vlog")
    plain = _audit(kit.report, path, fast=False)
    fast = _audit(kit.report, path, fast=True)
    assert plain.moves > 1000
    assert len(plain.findings) > 50                  # the log gives the rules something to find
    assert [f.as_json() for f in fast.findings] == [f.as_json() for f in plain.findings]
    assert fast.warnings == plain.warnings
    # and the movement rules did judge paths (not only phase findings)
    rules = plain.by_rule()
    assert sum(rules.values()) - rules.get("phase-discipline", 0) > 50


def test_the_switch_turns_the_shortcuts_off():
    from builder.audit.rules import RuleSet
    kit = game("iron-dream")
    with fastpaths.disabled():
        slow = RuleSet.for_game(AuditContext.from_report(kit.report))
    fast = RuleSet.for_game(kit.ctx)
    assert len(slow._on["chat"]) == len(slow.rules)              # every rule sees every event
    assert len(fast._on["chat"]) < len(fast.rules)
