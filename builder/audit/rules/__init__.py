"""Rule checks: one small class per rule, configured by the game's data, assembled into a RuleSet.

A rule sees the replay's events (builder.audit.replay) and the position, and reports
:class:`~builder.audit.report.Finding`s. Nothing here is game-specific: limits, weights, exempt
statuses, terrain and hexside costs, and which phases are movement phases all come from the data;
where the data cannot say something, the rule is listed under "not checked" instead.
"""

from __future__ import annotations

from builder.audit.replay import Visitor
from builder.audit.report import Finding

# Rules the research lists (eotid.md §4, pls_bcs.md §4) that this version does not judge.
NOT_CHECKED = [
    "zones of control: entering/leaving costs, ZOC-to-ZOC and retreat restrictions (EotID 9.x, BCS 6.x); "
    "movement costs are computed without ZOC, so they are a lower bound",
    "hexes passed through: VASSAL logs record only where a move starts and ends; the cheapest path is assumed",
    "stacking during a move or retreat (only the end of each logged action is judged)",
    "special stacking: Soviet 4th unit, co-stacking bans between nationalities or sides (EotID 8.2, 4.4 A, 19.1.4 A)",
    "movement allowance modifiers: out of supply, weather, doubled reinforcements (EotID 10.x, 15.3, 25.11)",
    "one-hex minimum move (EotID 10.4 A): the data has no field for it, so such moves are judged like others",
    "unit-specific terrain costs that the data gives as notes or flags, not as a movement class (EotID mountain "
    "units and GRPs, 21.1-21.3): such units are judged with their movement class's costs",
    "strategic, rail, sea and naval movement, air drops, retreats and advances after combat",
    "phase discipline: moving in a non-movement phase, moving twice, units that may not move",
    "combat, supply, reinforcement and replacement schedules, victory conditions",
]


class Rule:
    """Base class. ``id`` names the rule in findings; ``reference`` is the data's rulebook reference."""

    id = "rule"
    reference = ""
    description = ""

    def __init__(self) -> None:
        self.result = None

    def move(self, ev, pos) -> None: ...
    def flip(self, ev, pos) -> None: ...
    def add(self, ev, pos) -> None: ...
    def remove(self, ev, pos) -> None: ...
    def phase(self, ev, pos) -> None: ...
    def marker(self, ev, pos) -> None: ...
    def begin(self, pos) -> None: ...
    def end(self, pos) -> None: ...
    def end_entry(self, entry, pos) -> None: ...

    def report(self, pos, unit, frm, to, message: str, entry: int, reference: str | None = None) -> None:
        self.result.add(Finding(pos.turn, pos.phase_label(), unit.unit_id, unit.name,
                                getattr(frm, "name", frm or ""), getattr(to, "name", to or ""),
                                self.id, self.reference if reference is None else reference, message, entry))


def checks() -> dict:
    """``check`` name in the data's ``rules`` -> the rule class that judges it."""
    from .setup import SetupConformance
    return {"setup": SetupConformance}


def rules_from_data(ctx) -> tuple[list, list]:
    """The game data's ``rules`` list: each entry names its rule ID, reference and the check that judges
    it with its parameters; an entry with ``check: none`` is a rule left out, with why."""
    known = checks()
    rules, not_checked = [], []
    for spec in ctx.game.doc.get("rules") or []:
        if not isinstance(spec, dict):
            continue
        check = spec.get("check")
        cls = known.get(check)
        if cls is None:
            why = spec.get("why") or (f"no check named {check!r} in this version" if check != "none" else "")
            not_checked.append(f"{spec.get('id')} ({spec.get('reference') or ''}): {spec.get('name') or ''}"
                               + (f": {why}" if why else ""))
            continue
        rules.append(cls(ctx, spec))
    return rules, not_checked


class RuleSet(Visitor):
    """The rules of one game, as a replay visitor. Undone commands (UNDO) are not judged."""

    def __init__(self, rules: list[Rule], not_checked: list[str]) -> None:
        self.rules = rules
        self.not_checked = not_checked

    @classmethod
    def for_game(cls, ctx) -> "RuleSet":
        from .movement import MovementAllowance, ProhibitedTerrain, movement_phase_ids
        from .stacking import Stacking
        from .terrain import TerrainCosts

        rules: list[Rule] = []
        not_checked = list(NOT_CHECKED)
        stacking = Stacking.from_context(ctx)
        if stacking is None:
            not_checked.insert(0, "stacking: the data gives no game.stacking limit")
        else:
            rules.append(stacking)
        costs = TerrainCosts(ctx)
        if costs.prohibits_any():
            rules.append(ProhibitedTerrain(ctx, costs))
        else:
            not_checked.insert(0, "prohibited terrain: no terrain type is 'prohibited' or playable: false")
        if not costs.has_costs():
            not_checked.insert(0, "movement allowance: the map gives no terrain movement costs")
        else:
            ma = MovementAllowance.from_context(ctx, costs)
            if ma is None:
                not_checked.insert(0, "movement allowance: the data declares no movement value")
            else:
                rules.append(ma)
                if not movement_phase_ids(ctx):
                    not_checked.insert(0, "movement allowance: no phase of the sequence of play is an "
                                          "(operational) movement phase by its id or name")
        data_rules, data_not_checked = rules_from_data(ctx)
        return cls(rules + data_rules, data_not_checked + not_checked)

    def bind(self, result) -> None:
        for r in self.rules:
            r.result = result

    def describe(self) -> list[str]:
        return [f"{r.id}: {r.description}" for r in self.rules]

    # visitor
    def move(self, ev, pos) -> None:
        if not ev.undo:
            for r in self.rules:
                r.move(ev, pos)

    def flip(self, ev, pos) -> None:
        if not ev.undo:
            for r in self.rules:
                r.flip(ev, pos)

    def add(self, ev, pos) -> None:
        if not ev.undo:
            for r in self.rules:
                r.add(ev, pos)

    def remove(self, ev, pos) -> None:
        if not ev.undo:
            for r in self.rules:
                r.remove(ev, pos)

    def phase(self, ev, pos) -> None:
        for r in self.rules:
            r.phase(ev, pos)

    def marker(self, ev, pos) -> None:
        if not ev.undo:
            for r in self.rules:
                r.marker(ev, pos)

    def begin(self, pos) -> None:
        for r in self.rules:
            r.begin(pos)

    def end(self, pos) -> None:
        for r in self.rules:
            r.end(pos)

    def end_entry(self, entry, pos) -> None:
        for r in self.rules:
            r.end_entry(entry, pos)
