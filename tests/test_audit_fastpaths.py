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
    """The result, and the engines' state at the end (ZOC per hex, control per hex with its history)."""
    from builder.audit.rules import RuleSet
    saved = fastpaths.ENABLED
    try:
        fastpaths.ENABLED = fast
        ctx = AuditContext.from_report(report)      # a context of its own: no cache shared between the two
        rules = RuleSet.for_game(ctx)
        r = audit_file(ctx, path, rules=rules)
    finally:
        fastpaths.ENABLED = saved
    eng = rules.engines
    state = (eng.zoc.count, eng.zoc.zone, eng.control.current,
             {h: list(c) for h, c in eng.control.changes.items()}, eng.ledger.arrived_turn)
    return r, state


@pytest.mark.parametrize("name,seed", CASES)
def test_fast_paths_give_the_same_findings(tmp_path, name, seed):
    kit = game(name)
    path = random_game(kit, seed, actions=1500).write(tmp_path / "random.vlog")
    plain, plain_state = _audit(kit.report, path, fast=False)
    fast, fast_state = _audit(kit.report, path, fast=True)
    assert fast_state == plain_state
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
    # a run of entries of one check (the ten mobile assaults, the five REP-4 replacements) is one object
    kinds = [type(r).__name__ for r in fast.rules]
    assert kinds.count("MobileAssault") == kinds.count("Replacements") == 1
    assert [type(r).__name__ for r in slow.rules].count("MobileAssault") == 10
    assert fast.checked() == slow.checked()
    # an end_entry handler that names the events it judges after (end_entry_after) is kept from other entries
    from builder.audit.rules import STIR
    levels = [bits for h, bits in fast._end_after if type(h.__self__).__name__ == "MarkerLevels"]
    assert len(levels) == 3 and set(levels) == {STIR["marker"]}


def test_end_entry_is_shown_only_the_entries_with_the_events_it_names():
    """With fastpaths an end_entry handler sees only the entries with an event it names (end_entry_after),
    none after chat lines only; with it off, every entry."""
    from types import SimpleNamespace as NS

    from builder.audit.rules import Rule, RuleSet

    class Markers(Rule):
        end_entry_after = frozenset({"marker"})

        def __init__(self) -> None:
            super().__init__()
            self.seen = []

        def marker(self, ev, pos) -> None: ...

        def end_entry(self, entry, pos) -> None:
            self.seen.append(entry)

    class Every(Markers):
        end_entry_after = None

    for fast in (True, False):
        saved, fastpaths.ENABLED = fastpaths.ENABLED, fast
        try:
            marks, every = Markers(), Every()
            rs = RuleSet([marks, every], [])
        finally:
            fastpaths.ENABLED = saved
        pos = NS(phase=None)
        rs.end_entry(0, pos)                                    # the start position
        rs.move(NS(undo=False, unit=NS(piece_id="p")), pos)
        rs.end_entry(1, pos)
        rs.marker(NS(undo=False), pos)
        rs.end_entry(2, pos)
        rs.chat(NS(undo=False, text="hello", entry=3), pos)
        rs.end_entry(3, pos)
        rs.flip(NS(undo=True), pos)                             # undone: the position changed all the same
        rs.end_entry(4, pos)
        rs.marker(NS(undo=True), pos)
        rs.end_entry(5, pos)
        assert every.seen == ([0, 1, 2, 4, 5] if fast else [0, 1, 2, 3, 4, 5])
        assert marks.seen == ([0, 2, 5] if fast else [0, 1, 2, 3, 4, 5])


def test_finding_log_keeps_order_and_spills_past_its_head():
    import pickle

    from builder.audit.findings_log import FindingLog
    from builder.audit.report import Finding
    made = [Finding(1, "p", f"u{i}", "", "A1", "A2", f"R{i % 3}", "", f"m{i}", entry=i) for i in range(1234)]
    log = FindingLog(keep=10)
    for f in made:
        log.append(f)
    made[-1].message = "edited after it was added"          # the newest stays editable
    assert len(log) == 1234 and log and log._spilled > 0
    assert list(log) == made and log == made and log != made[:-1]
    assert log[0] is made[0] and log[-1] is made[-1] and log[700] == made[700] and log[2:4] == made[2:4]
    assert log.counts == {"R0": 412, "R1": 411, "R2": 411}
    log.set_command_base(7)
    assert [f.command for f in log][:3] == [7, 8, 9] and list(log)[1000].command == 1007
    copy = pickle.loads(pickle.dumps(log))
    assert list(copy) == list(log) and copy.counts == log.counts
    assert FindingLog() == [] and not FindingLog()
    with pytest.raises(IndexError):
        log[1234]


@pytest.mark.parametrize("name", ["iron-dream", "panzers-last-stand"])
def test_within_or_path_agrees_with_the_bounded_search(name):
    """The movement allowance's shortcut (builder.audit.rules.terrain.within_or_path: the short test, then the
    one unbounded search a finding reports) says 'within' exactly when the bounded search does: random hexes
    near and far, small and large allowances, with and without an enemy ZOC that costs, stops or forbids
    ZOC-to-ZOC steps (paths blocked by it included)."""
    import random

    from builder.audit.rules.terrain import TerrainCosts, ZocCosts
    kit = game(name)
    g, ctx = kit.grid, kit.ctx
    rnd = random.Random(5)
    hexes = sorted(g.all_hexes(), key=g.name)
    classes = sorted(ctx.game.by_id["movement_classes"]) + [""]
    assert len(classes) > 2
    with fastpaths.disabled():
        plain = TerrainCosts(ctx)
    fast = TerrainCosts(ctx)
    seen = {True: 0, False: 0}
    for i in range(400):
        a = rnd.choice(hexes)
        b = a
        for _ in range(rnd.choice((1, 1, 2, 3, 6))):
            b = rnd.choice(g.neighbours(b) or (b,))
        if rnd.random() < 0.1:
            b = rnd.choice(hexes)                            # far away, or cut off
        mc, ma = rnd.choice(classes), float(rnd.choice((1, 2, 3, 4, 6, 9)))
        zoc = None
        if rnd.random() < 0.6:
            zone = frozenset(n for h in rnd.sample(hexes, 40) for n in g.neighbours(h)) | ({b} if i % 3 else set())
            zoc = ZocCosts(zone, ("t", i), rnd.choice((0.0, 2.0)), rnd.choice((0.0, 2.0)), rnd.random() < 0.5,
                           rnd.random() < 0.5)
        want = plain.within(a, b, mc, ma, zoc=zoc)
        assert fast.within_or_path(a, b, mc, ma, zoc) == want, (g.name(a), g.name(b), mc, ma, zoc)
        seen[want] += 1
    assert min(seen.values()) > 40                          # both answers were asked for


def test_stacking_floor_is_never_above_a_hex_limit():
    """Stacking skips stating the limit when a side's total is within the least limit it can have
    (Stacking.floor): that floor is at most the limit of every hex, with and without the full-stack units."""
    from builder.audit.rules.stacking import Stacking
    kit = game("iron-dream")
    st = Stacking.from_context(kit.ctx)
    for side in kit.ctx.game.by_id["sides"]:
        floor = st.floor(side)
        for h in kit.grid.all_hexes():
            assert floor <= st.hex_limit(side, h, [])[0]
    assert st.floor("soviet") < st.floor("axis")             # the Soviet 4th unit needs a GRP or an SU (8.2)


@pytest.mark.parametrize("name", ["iron-dream", "panzers-last-stand"])
def test_step_costs_read_from_the_hex_tables_are_the_plain_ones(name):
    """TerrainCosts.step answers from the hex's table of steps (fastpaths) exactly what the plain step
    computation gives: every step out of random hexes, for every movement class and several allowances
    (prohibited steps None, costs that are a share of the allowance included)."""
    import random

    from builder.audit.rules.terrain import TerrainCosts
    kit = game(name)
    g, ctx = kit.grid, kit.ctx
    rnd = random.Random(9)
    classes = sorted(ctx.game.by_id["movement_classes"]) + [""]
    with fastpaths.disabled():
        plain = TerrainCosts(ctx)
    fast = TerrainCosts(ctx)
    hexes = sorted(g.all_hexes(), key=g.name)
    asked = 0
    for a in rnd.sample(hexes, 150):
        for mc in classes:
            for ma in (1.0, 4.0, 7.0):
                for b in g.neighbours(a):
                    assert fast.step(a, b, mc, ma) == plain.step(a, b, mc, ma), (g.name(a), g.name(b), mc, ma)
                    asked += 1
    assert asked > 1000 and not fast._step and plain._step      # the fast one kept no cache of its own


def test_cached_paths_do_not_keep_the_enemy_zones_alive():
    """A cached search is keyed by what a ZocCosts is compared by (its ZOC state's version and costs), so the
    cache of a long log does not hold thousands of enemy-zone sets; the same ZOC state still finds it."""
    from builder.audit.rules.terrain import TerrainCosts, ZocCosts
    kit = game("iron-dream")
    g, ctx = kit.grid, kit.ctx
    costs = TerrainCosts(ctx)
    a = sorted(g.all_hexes(), key=g.name)[400]
    b = g.neighbours(g.neighbours(a)[0])[0]
    zone = frozenset(g.neighbours(b))
    found = costs.path(a, b, "", 6.0, zoc=ZocCosts(zone, ("v", 1), 2.0, 2.0))
    assert all(not isinstance(part, (ZocCosts, frozenset)) for key in costs._paths for part in key)
    again = ZocCosts(frozenset(), ("v", 1), 2.0, 2.0)           # the same state, another object
    assert costs.path(a, b, "", 6.0, zoc=again) is found
    assert costs.path(a, b, "", 6.0, zoc=ZocCosts(zone, ("v", 2), 2.0, 2.0)) is not found


def test_control_history_is_compact_and_keeps_the_latest():
    """A hex's control history keeps its latest HISTORY changes, oldest first, as ControlChanges, in a compact
    form (a log entry and an index into the map's table of (turn, side, how) per change)."""
    from builder.audit.engines.control import HISTORY, ControlChange, History
    table = [(1, "axis", "zoc"), (2, "soviet", "occupation"), (None, None, "zoc")]
    h = History(table)
    made = []
    for i in range(HISTORY + 30):
        k = i % 3
        h.append(1000 + i, k)
        made.append(ControlChange(1000 + i, *table[k]))
    assert len(h) == HISTORY and list(h) == made[-HISTORY:]
    assert list(h)[0].entry == 1030 and list(h)[-1] == ControlChange(1000 + HISTORY + 29, *table[(HISTORY + 29) % 3])


def _our_name(o) -> str:
    """The name of an object of ours in the collector's garbage: an instance of a class of ours, or a function
    of ours (a recursive nested function holds itself through its closure cell: a cycle of plain builtins)."""
    import types
    if type(o).__module__.startswith("builder"):
        return type(o).__qualname__
    if isinstance(o, types.FunctionType) and (o.__module__ or "").startswith("builder"):
        return f"{o.__module__}.{o.__qualname__}"
    return ""


@pytest.mark.parametrize("name,seed", [("iron-dream", 13), ("panzers-last-stand", 23)])
def test_an_audit_leaves_no_reference_cycles(tmp_path, name, seed):
    """Everything an audit builds (the replayer, position, rule set, engines and their caches) is freed by
    reference counting when it ends: the collector finds nothing of ours in cycles afterwards. (In a cycle it
    would wait for a full collection, and the next audit's gc.freeze would freeze it as garbage: memory that
    grew with every log a context audits.)"""
    import gc

    kit = game(name)
    path = random_game(kit, seed, actions=400).write(tmp_path / "random.vlog")
    audit_file(kit.ctx, path)                    # warm: the context's own caches are made once
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        result = audit_file(kit.ctx, path)
        assert result.moves > 200
        del result
        gc.collect()
        ours = [_our_name(o) for o in gc.garbage if _our_name(o)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert ours == []


@pytest.mark.parametrize("name", ["iron-dream", "panzers-last-stand"])
def test_place_sets_remember_the_plain_answer(name):
    """A place set answers from its memo per hex (fastpaths) what the plain test gives: every place set the
    game's rules name, for random hexes (each asked twice, the second from the memo), None and an off-map hex."""
    import random

    from builder.audit.rules.select import PlaceSet
    from builder.geometry.hexes import Hex
    kit = game(name)
    specs = []

    def collect(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k in ("allowed", "forbidden", "within", "start_in", "not_into", "not_from", "in") and isinstance(v, dict):
                    specs.append(v)
                collect(v)
        elif isinstance(x, list):
            for v in x:
                collect(v)
    collect(kit.ctx.game.doc.get("rules") or [])
    if not specs:                                   # a game whose rules name no place: a few of its own
        specs = [{"terrain": [t]} for t in sorted(kit.ctx.terrain_types)[:4]]
    rnd = random.Random(3)
    hexes = sorted(kit.grid.all_hexes())
    asked = [*rnd.sample(hexes, min(300, len(hexes))), None, Hex(999, 999)]
    for spec in specs:
        with fastpaths.disabled():
            plain = PlaceSet(kit.ctx, spec)
        fast = PlaceSet(kit.ctx, spec)
        assert plain._memo is None and fast._memo is not None
        for h in asked + asked:
            assert fast.contains(h) == plain.contains(h), (spec, h)


def test_stacking_pair_masks_agree_with_the_pairs():
    """Stacking's quick test of never-together pairs (bit masks per unit, then the pairing) says 'mixed' exactly
    when some entry has a unit of one selector and another unit of the other: random groups of the game's units."""
    import random

    from builder.audit.position import Unit
    from builder.audit.rules.stacking import Stacking
    kit = game("iron-dream")
    st = Stacking.from_context(kit.ctx)
    assert st.apart
    units = [Unit(f"p{i}", uid, uid, dict(d.properties)) for i, (uid, d) in enumerate(sorted(kit.defs.items()))
             if d.kind == "unit"]
    rnd = random.Random(4)
    seen = {True: 0, False: 0}
    for _ in range(2000):
        here = rnd.sample(units, rnd.choice((1, 2, 2, 3, 4)))
        want = any(a.matches(u) and any(v is not u and b.matches(v) for v in here)
                   for _, _, a, b, _ in st.apart for u in here)
        assert st._mixed(here) == want
        seen[want] += 1
    assert min(seen.values()) > 20
