"""Rule checks: one small class per rule, configured by the game's data, assembled into a RuleSet.

A rule sees the replay's events (builder.audit.replay) and the position, and reports
:class:`~builder.audit.report.Finding`s. Nothing here is game-specific: limits, weights, exempt
statuses, terrain and hexside costs, and which phases are movement phases all come from the data;
where the data cannot say something, the rule is listed under "not checked" instead.
"""

from __future__ import annotations

from builder.audit import fastpaths
from builder.audit.replay import Visitor
from builder.audit.report import Finding

HANDLERS = ("begin", "move", "flip", "status", "add", "remove", "phase", "marker", "chat", "losses",
            "activation_start", "activation_end", "end_entry", "end")

# Rules the research lists (eotid.md §4, pls_bcs.md §4) that this version does not judge, whatever the data.
NOT_CHECKED = [
    "hexes passed through: VASSAL logs record only where a move starts and ends; the cheapest path is assumed",
    "stacking during a move or retreat (only the end of each logged action is judged)",
    "zones of control for supply lines and the hexes a retreat passes through (only where it ends), and ZOC "
    "exceptions the data cannot state (lone SUs, "
    "paratroops on their drop turn, invading units before they land: EotID 9.x, 15.23 B, 17.5 E)",
    "terrain costs that depend on more than the unit's movement class and its face (a flag, the turn, a marker "
    "in the hex): judged with the movement class's costs",
    "sea and naval movement, air drops: only the phase that allows them is judged, not their routes; retreats "
    "and advances after combat: only their distance (movement.phases max_hexes), not their route, ZOC or direction",
    "activations (BCS) without an Activation Display in the data: every side may move in an activation phase",
    "arrivals on events (economic collapse, defection ...) are judged for place only",
    "combat, supply, replacements, victory conditions",
]
# Checked only when the data gives what they need: (rule id, data key, what is not checked without it).
NEEDS_DATA = [
    ("zoc", "zones of control: entering/leaving costs, stops and ZOC-to-ZOC moves: the data has no "
            "zones_of_control, so movement costs are a lower bound"),
    ("phases", "phase discipline: the data has no movement.phases, so moves in the wrong phase, by the wrong "
               "side or twice in a phase are not judged"),
    ("modifiers", "movement allowance modifiers (weather, out of supply, doubled on arrival): the data has no "
                  "movement.modifiers"),
    ("minimum", "one-hex minimum move: the data has no movement.minimum_move, so such moves are judged like others"),
    ("control", "control of hexes: the data has no control"),
]


class Rule:
    """Base class. ``id`` names the rule in findings; ``reference`` is the data's rulebook reference."""

    id = "rule"
    reference = ""
    description = ""

    def __init__(self) -> None:
        self.result = None
        self.engine = None            # the ActivationEngine, when the game has an Activation Display

    def begin(self, pos) -> None: ...
    def move(self, ev, pos) -> None: ...
    def flip(self, ev, pos) -> None: ...
    def status(self, ev, pos) -> None: ...
    def add(self, ev, pos) -> None: ...
    def remove(self, ev, pos) -> None: ...
    def phase(self, ev, pos) -> None: ...
    def marker(self, ev, pos) -> None: ...
    def chat(self, ev, pos) -> None: ...
    def losses(self, ev, pos) -> None: ...
    def activation_start(self, act, pos) -> None: ...
    def activation_end(self, act, pos) -> None: ...
    def end_entry(self, entry, pos) -> None:
        """After each log entry. Judges what the entry's events changed: with fastpaths an entry of nothing
        but chat lines (which change nothing a rule reads) is not shown to it."""

    def end(self, pos) -> None: ...

    def moves_matter(self, pos) -> bool:
        """Whether :meth:`move` can do anything in the current phase (asked when a phase begins; a rule
        whose answer is False is not called for moves until the next phase). Override only where the
        answer depends on nothing but the phase."""
        return True

    def unit_matters(self, unit) -> bool:
        """Whether :meth:`move` can do anything for moves of *unit* (asked once per unit and phase; False:
        its moves are not shown to the rule in that phase). Override only where the answer depends on
        nothing but the unit's identity (its Marker properties and data)."""
        return True

    # events a configured instance has nothing to do for (its class handles them for other configurations)
    idle_events: frozenset = frozenset()
    # the events whose changes end_entry judges (fastpaths: an entry with none of them is not shown to it);
    # None: any event but chat lines
    end_entry_after: frozenset | None = None

    def checks(self) -> list[tuple[str, str, str]]:
        """(rule id, reference, what it judges) of each rule this object checks."""
        return [(self.id, self.reference, self.description)]

    def report(self, pos, unit, frm, to, message: str, entry: int, reference: str | None = None,
               rule_id: str | None = None) -> Finding:
        """Add a finding to the result; returns it (the newest finding may still be completed)."""
        f = Finding(pos.turn, pos.phase_label(), unit.unit_id, unit.name,
                    getattr(frm, "name", frm or ""), getattr(to, "name", to or ""),
                    rule_id or self.id, self.reference if reference is None else reference, message, entry)
        self.result.add(f)
        return f


def checks() -> dict:
    """``check`` name in the data's ``rules`` -> the rule class that judges it."""
    from . import activation as a, entry as e, schedule as s
    from .assault import MobileAssault
    from .levels import MarkerLevels
    from .replacements import Replacements as ReplacementLimits
    from .restrict import MovementRestrictions
    from .setup import SetupConformance
    from .strategic import PhaseChecks
    found = {"setup": SetupConformance, "flip-once": a.FlipOnce, "command-radius": a.CommandRadius,
             "second-activation": a.SecondActivation, "allotments": a.Allotments,
             "designated-activation": a.DesignatedActivation, "activation-eligibility": a.ActivationEligibility,
             "first-player": a.FirstPlayer, "clean-up": a.CleanUp, "turn-end": a.TurnEnd,
             "enemy-hex": e.EnemyHex, "traffic": e.Traffic, "forbidden-hexes": e.ForbiddenHexes,
             "immobile": e.Immobile, "objective-entry": e.ObjectiveEntry, "hq-zoc": e.HqZoc,
             "zoc-to-zoc": e.ZocToZoc, "placement-phase": s.PlacementPhase, "removals": s.Removals,
             "off-map": s.OffMap, "replacements": s.Replacements,
             "movement": MovementRestrictions, "mobile-assault": MobileAssault,
             "replacement-limits": ReplacementLimits, "marker-levels": MarkerLevels}
    found.update({kind: PhaseChecks for kind in PhaseChecks.KINDS})
    return found


def rules_from_data(ctx, builtin: list | None = None, engines=None) -> tuple[list, list]:
    """The game data's ``rules`` list: each entry names its rule ID, reference and the check that judges
    it with its parameters; an entry with ``check: none`` is a rule left out, with why. An entry whose
    check is one of the built-in rules (``stacking``, ``movement-allowance``, ``arrival`` ...) gives that
    rule its ID and reference."""
    known = checks()
    by_id = {r.id: r for r in builtin or []}
    rules, not_checked = [], []
    for spec in ctx.game.doc.get("rules") or []:
        if not isinstance(spec, dict):
            continue
        check = spec.get("check")
        if check in by_id:
            r = by_id[check]
            r.id = spec.get("id") or r.id
            if spec.get("reference"):
                r.reference = spec["reference"]
            continue
        cls = known.get(check)
        if cls is None:
            why = spec.get("why") or (f"no check named {check!r} in this version" if check != "none" else "")
            not_checked.append(f"{spec.get('id')} ({spec.get('reference') or ''}): {spec.get('name') or ''}"
                               + (f": {why}" if why else ""))
            continue
        rule = cls(ctx, spec, engines) if getattr(cls, "uses_engines", False) else cls(ctx, spec)
        if fastpaths.ENABLED and getattr(cls, "merges", False) and rules and type(rules[-1]) is cls:
            rules[-1].merge(rule)           # one object judges a run of entries of one check (fastpaths)
        else:
            rules.append(rule)
    return rules, not_checked


class RuleSet(Visitor):
    """The rules of one game, as a replay visitor, with the engines they stand on
    (builder.audit.engines). For each event the rules run first (not for undone commands), then the
    engines update: a rule sees the position after the event and the engines as they stood before."""

    def __init__(self, rules: list[Rule], not_checked: list[str], engines=None, activations=None) -> None:
        self.rules = rules
        self.not_checked = not_checked
        self.engines = engines
        # the Activation Display read from the log (builder.audit.activation), when the data has one
        self.activations = activations if activations is not None and activations.configured else None
        for r in rules:
            r.engine = self.activations
        # per event, the rules that handle it (not the base class's no-op), in rule order; for moves,
        # those whose moves matter in the current phase (fastpaths: with it off, every rule, always)
        self._fast = fastpaths.ENABLED
        self._on = {name: [getattr(r, name) for r in rules if not self._fast or _handles(r, name)]
                    for name in HANDLERS}
        self._moving = list(self._on["move"])
        self._movers = [r for r in rules if _handles(r, "move")]     # the rules with a move handler
        self._moving_rules: list = []
        self._for_unit: dict = {}       # id(unit) -> (unit, the move handlers for it), for this set of live rules
        self._unit_tables: dict = {}    # the live rules (by position) -> its _for_unit table
        # the events (bits of STIR) that came since the last end_entry, chat lines aside (fastpaths: after an
        # entry of chat lines only, no end_entry handler has anything to do: they judge what the events changed;
        # a rule that names the events it judges after, end_entry_after, is shown only entries with one of them)
        self._stirred = ANY
        self._end_after = [(h, _bits(getattr(r, "end_entry_after", None)))
                           for r, h in zip([r for r in rules if not self._fast or _handles(r, "end_entry")],
                                           self._on["end_entry"])]
        self._end_for: dict = {}        # events seen (bits) -> the end_entry handlers to call (fastpaths)

    def _phase_began(self, pos) -> None:
        if self._fast:
            self._moving_rules = [r for r in self._movers if r.moves_matter(pos)]
            self._moving = [r.move for r in self._moving_rules]
            if len(self._unit_tables) > 64 or sum(map(len, self._unit_tables.values())) > 50_000:
                self._unit_tables.clear()
            live = tuple(id(r) for r in self._moving_rules)
            self._for_unit = self._unit_tables.setdefault(live, {})

    def _moves_of(self, unit) -> list:
        """The move handlers of the rules that can act on this unit's moves in this phase."""
        found = self._for_unit.get(id(unit))
        if found is None or found[0] is not unit:
            found = self._for_unit[id(unit)] = (unit, [r.move for r in self._moving_rules if r.unit_matters(unit)])
        return found[1]

    @classmethod
    def for_game(cls, ctx) -> "RuleSet":
        from builder.audit.engines import Engines

        from .arrivals import ArrivalRule
        from .movement import MovementAllowance, ProhibitedTerrain, movement_phase_ids
        from .phases import PhaseDiscipline
        from .stacking import Stacking
        from .terrain import shared_costs

        engines = Engines(ctx)
        rules: list[Rule] = []
        not_checked = list(NOT_CHECKED)
        stacking = Stacking.from_context(ctx)
        if stacking is None:
            not_checked.insert(0, "stacking: the data gives no game.stacking limit")
        else:
            rules.append(stacking)
        costs = shared_costs(ctx).for_audit()     # the context's step tables, this audit's searches
        ma = None
        if costs.prohibits_any():
            rules.append(ProhibitedTerrain(ctx, costs))
        else:
            not_checked.insert(0, "prohibited terrain: no terrain type is 'prohibited' or playable: false")
        if not costs.has_costs():
            not_checked.insert(0, "movement allowance: the map gives no terrain movement costs")
        else:
            ma = MovementAllowance.from_context(ctx, costs, engines)
            if ma is None:
                not_checked.insert(0, "movement allowance: the data declares no movement value")
            else:
                rules.append(ma)
                if not engines.permissions.known and not movement_phase_ids(ctx):
                    not_checked.insert(0, "movement allowance: no phase of the sequence of play is an "
                                          "(operational) movement phase by its id or name")
        if engines.permissions.known:
            rules.append(PhaseDiscipline(ctx, engines))
        rules.append(ArrivalRule(ctx, engines, ma))
        mv = ctx.spec("movement")
        have = {"zoc": engines.zoc.enabled, "phases": engines.permissions.known,
                "modifiers": bool(mv.get("modifiers")), "minimum": bool(mv.get("minimum_move")),
                "control": engines.control.enabled}
        not_checked += [text for key, text in NEEDS_DATA if not have[key]]
        from builder.audit.activation import ActivationEngine
        data_rules, data_not_checked = rules_from_data(ctx, rules, engines)
        return cls(rules + data_rules, data_not_checked + not_checked, engines, ActivationEngine(ctx))

    def bind(self, result) -> None:
        for r in self.rules:
            r.result = result

    def checked(self) -> list[dict]:
        """Every rule ID judged, once, with its reference and what it judges."""
        out, seen = [], set()
        for r in self.rules:
            for rid, ref, what in r.checks():
                if rid not in seen:
                    seen.add(rid)
                    out.append({"rule": rid, "reference": ref, "name": what})
        return out

    def describe(self) -> list[str]:
        return [f"{c['rule']}: {c['name']}" for c in self.checked()]

    # visitor: rules (not for undone commands), then the engines
    def _both(self, name, ev, pos, handlers=None) -> None:
        self._stirred |= STIR[name]
        if not ev.undo:
            for h in self._on[name] if handlers is None else handlers:
                h(ev, pos)
            act = self.activations.current if self.activations else None
            if act is not None:
                act.record(name, ev)                # what each unit did in this activation
        if self.engines is not None:
            getattr(self.engines, name)(ev, pos)

    def _activations(self, changes, pos) -> None:
        for kind, act in changes:
            pos.activation = self.activations.current
            for h in self._on["activation_" + kind]:
                h(act, pos)
        pos.activation = self.activations.current

    def losses(self, ev, pos) -> None:
        self._stirred |= STIR["losses"]
        if not ev.undo:
            for h in self._on["losses"]:
                h(ev, pos)

    def wants(self, event: str) -> bool:
        """Chat lines only for an Activation Display or a rule that reads them (fastpaths: an auto-reported
        log has one per move)."""
        if event == "chat" and self._fast:
            return bool(self.activations) or bool(self._on["chat"])
        return True

    def chat(self, ev, pos) -> None:
        if ev.undo:
            return
        if self.activations:
            self.activations.chat(ev.text, ev.entry)
        for h in self._on["chat"]:
            h(ev, pos)

    def begin(self, pos) -> None:
        self._stirred = ANY
        if self.engines is not None:
            self.engines.arrivals.begin(pos)        # the scenario first: the rules' begin reads it
            self.engines.start_setup_stage(pos)
        for h in self._on["begin"]:
            h(pos)
        if self.engines is not None:
            for e in self.engines.all:
                if e is not self.engines.arrivals:
                    e.begin(pos)
        self._phase_began(pos)

    def move(self, ev, pos) -> None:
        if not self._fast:
            self._both("move", ev, pos, self._moving)
            return
        self._stirred |= 2                          # _both, for the commonest event, spelt out (STIR["move"])
        if not ev.undo:
            unit = ev.unit
            found = self._for_unit.get(id(unit))
            if found is None or found[0] is not unit:
                found = self._for_unit[id(unit)] = (unit, [r.move for r in self._moving_rules if r.unit_matters(unit)])
            for h in found[1]:
                h(ev, pos)
            act = self.activations.current if self.activations else None
            if act is not None:
                act.record("move", ev)
        if self.engines is not None:
            self.engines.move(ev, pos)

    def flip(self, ev, pos) -> None:
        self._both("flip", ev, pos)

    def status(self, ev, pos) -> None:
        self._both("status", ev, pos)

    def add(self, ev, pos) -> None:
        self._both("add", ev, pos)

    def remove(self, ev, pos) -> None:
        self._both("remove", ev, pos)

    def phase(self, ev, pos) -> None:
        self._stirred |= STIR["phase"]
        if self.activations:
            self._activations(self.activations.turn_changed(), pos)
        for h in self._on["phase"]:
            h(ev, pos)
        if self.engines is not None:
            self.engines.phase(ev, pos)
        self._phase_began(pos)

    def marker(self, ev, pos) -> None:
        if self.activations and not ev.undo:
            self._activations(self.activations.marker(ev, pos), pos)
        self._both("marker", ev, pos)

    def end_entry(self, entry, pos) -> None:
        if self._fast:
            seen = self._stirred
            if not seen:
                return                              # only chat lines since the last entry: nothing to judge
            self._stirred = 0
            handlers = self._end_for.get(seen)
            if handlers is None:
                handlers = self._end_for[seen] = [h for h, bits in self._end_after if bits & seen]
        else:
            handlers = self._on["end_entry"]
        for h in handlers:
            h(entry, pos)
        if self.engines is not None:
            self.engines.end_entry(entry, pos)

    def end(self, pos) -> None:
        if self.activations:
            self._activations(self.activations.finish(), pos)
        for h in self._on["end"]:
            h(pos)
        if self.engines is not None:
            self.engines.end(pos)


# the events that stir the rules' end_entry handlers, as bits (activations come with a phase or a marker)
STIR = {name: 1 << k for k, name in enumerate(("begin", "move", "flip", "status", "add", "remove", "phase", "marker",
                                                "losses"))}
ANY = sum(STIR.values())


def _bits(events) -> int:
    """The bits of STIR of these event names; None: every one."""
    return ANY if events is None else sum(STIR[e] for e in events)


def _handles(rule, name: str) -> bool:
    """Whether *rule* does something on event *name* (its class overrides Rule's no-op)."""
    if not isinstance(rule, Rule):
        return True
    return getattr(type(rule), name, None) is not getattr(Rule, name) and name not in rule.idle_events
