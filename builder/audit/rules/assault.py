"""Mobile assaults (``check: mobile-assault`` entries of the data's ``rules`` list).

A mobile assault is what the log shows: in a phase the entry names (``phase_kinds``, ``phases`` ...), a unit
of the phasing side moves into a hex holding combat units of a side it fights (``zones_of_control.enemies``;
every other side when the data gives none). Its launch hex is where the move began when that is adjacent to the
target; otherwise any neighbour of the target the unit could have reached, and the rule is broken only if
no such launch hex satisfies it. Each entry names one condition:

* ``assaulters`` — a unit selector every assaulting unit must match (EotID 11.1: mechanized, never Flak);
* ``not_into`` / ``not_from`` — place sets the target / the launch hex may not be in (11.2 A-B);
* ``not_into_markers`` — marker ids that bar the target hex (11.3: a Level 3 fort);
* ``not_across`` — hexside types the assault may not cross (10.9 B: the dike);
* ``cost`` — ``{enter, assault}`` MP: the approach path to the launch hex, plus entering and assaulting the
  target (plus hexside costs) must fit the unit's movement allowance (11.5-11.7);
* ``stacked_at_start: true`` — every unit assaulting one hex in the phase began the phase in the same hex (11.10);
* ``first_hex_only: true`` — the target is the first hex the unit enters in the phase, and a unit makes one
  mobile assault per turn (11.4, 25.11 D: with ``weather: [foul]``);
* ``never_together: [selector, selector]`` — units of both may not assault one hex in the same phase (4.2 C);
* ``prohibited: true`` — no mobile assault at all (6.2: with ``turns: [1]``).
"""

from __future__ import annotations

from builder.audit import fastpaths
from builder.audit.report import unit_label, unit_labels

from . import Rule
from .select import PlaceSet, UnitSelector, When
from .terrain import shared_costs


_NO_PHASE = object()        # a phase no position has (a memo's start: not the object itself, no cycle)


def enemies_of(ctx, side: str) -> set:
    """The sides *side* fights (the data's ``zones_of_control.enemies``, else every other side)."""
    return set(ctx.enemies(side))


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


class _Entry:
    def __init__(self, ctx, spec: dict) -> None:
        self.spec = spec
        self.id, self.reference = spec.get("id") or "mobile-assault", spec.get("reference") or ""
        self.message = spec.get("name") or ""
        self.when = When(ctx, spec)
        self.units = UnitSelector(ctx, spec.get("units"))
        self.assaulters = UnitSelector(ctx, spec["assaulters"]) if isinstance(spec.get("assaulters"), dict) else None
        self.not_into = PlaceSet(ctx, spec["not_into"]) if isinstance(spec.get("not_into"), dict) else None
        self.not_from = PlaceSet(ctx, spec["not_from"]) if isinstance(spec.get("not_from"), dict) else None
        self.markers = set(spec.get("not_into_markers") or [])
        self.across = set(spec.get("not_across") or [])
        self.cost = spec.get("cost") if isinstance(spec.get("cost"), dict) else None
        self.stacked = bool(spec.get("stacked_at_start"))
        self.first_hex = bool(spec.get("first_hex_only"))
        pair = spec.get("never_together") or []
        self.apart = [UnitSelector(ctx, s) for s in pair[:2]] if len(pair) >= 2 else None
        self.prohibited = bool(spec.get("prohibited"))
        # what the entry has seen (its own, as if it were a rule of its own: entries of one object share nothing)
        self.groups: dict = {}          # target hex -> ([(unit, start hex)] assaulting it this phase, defenders)
        self.per_turn: dict = {}        # (turn, piece id) -> mobile assaults made (kept for first_hex_only only)
        self.reported: set = set()      # piece ids reported in this phase
        # fastpaths: whether the entry reads the group assaulting a hex (stacked_at_start, never_together: other
        # entries keep none), and the entry's conditions in _judge's order, only those it states
        self.needs_group = (self.stacked or self.apart is not None) and not self.prohibited and self.cost is None
        self.steps: tuple = ()          # the MobileAssault functions of those steps (set by MobileAssault)


def _steps(e: _Entry) -> tuple:
    """The names of the MobileAssault methods that judge *e*'s conditions, in :meth:`MobileAssault._judge`'s
    order, only those the entry states (``prohibited`` and ``cost`` end the judging, as there)."""
    if e.prohibited:
        return ("_no_assault",)
    out = []
    if e.assaulters is not None:
        out.append("_by_assaulter")
    if e.not_into is not None:
        out.append("_by_target")
    if e.markers:
        out.append("_by_markers")
    if e.not_from is not None or e.across:
        out.append("_by_launch")
    if e.cost is not None:
        return (*out, "_by_cost")
    if e.stacked:
        out.append("_by_stack")
    if e.first_hex:
        out.append("_by_first_hex")
    if e.apart is not None:
        out.append("_by_apart")
    return tuple(out)


class MobileAssault(Rule):
    id = "mobile-assault"
    description = "mobile assaults: who, into and from where, at what MP cost, when (data: rules, check: mobile-assault)"
    merges = True                       # consecutive entries of the data are judged by one object (fastpaths)

    def __init__(self, ctx, spec: dict) -> None:
        super().__init__()
        self.ctx, self.costs = ctx, shared_costs(ctx)
        self.entries = [_Entry(ctx, spec)]
        self.id, self.reference = self.entries[0].id, self.entries[0].reference
        for e in self.entries:
            e.steps = tuple(getattr(MobileAssault, n) for n in _steps(e))
        self._start: dict = {}          # piece id -> hex at its first move in the phase
        self._combat: dict = {}         # unit id -> whether it is a combat unit
        self._fast = fastpaths.ENABLED
        # _entries_for's memo (fastpaths): the phase and its live entries' bits, each unit's entries' bits, and
        # the list of the entries of each combination of bits
        self._live_phase, self._live, self._unit_bits, self._live_for = _NO_PHASE, 0, {}, {}
        self._last_launches = None      # ((frm, target), launch hexes) of the move being judged (fastpaths)
        self._sides: dict = {}          # (hex, hex) -> the hexside's types as a set (fastpaths)

    def merge(self, other: "MobileAssault") -> None:
        """Judge *other*'s entries too, after this one's (each entry keeps its own groups and counts; where
        a unit's moves began in the phase is the same for all)."""
        self.entries += other.entries
        self._live_phase, self._unit_bits, self._live_for = _NO_PHASE, {}, {}     # their bits name these entries

    def checks(self) -> list[tuple[str, str, str]]:
        return [(e.id, e.reference, e.message or e.id) for e in self.entries]

    def unit_matters(self, unit) -> bool:
        return any(e.units.matches(unit) for e in self.entries)

    def moves_matter(self, pos) -> bool:
        return any(e.when.applies(pos) for e in self.entries)

    def phase(self, ev, pos) -> None:
        self._start.clear()
        for e in self.entries:
            e.groups.clear()
            e.reported.clear()

    # ------------------------------------------------------------------ detection
    def _defenders(self, pos, unit, h) -> list:
        here = pos.by_hex.get(h)
        if not here:
            return []
        foes = self.ctx.enemies(unit.side)
        return [u for u in here.values() if u.side in foes and self._is_combat(u)]

    def _is_combat(self, u) -> bool:
        found = self._combat.get(u.unit_id)
        if found is None:
            found = self._combat[u.unit_id] = self.ctx.game.is_combat(self.ctx.game.units.get(u.unit_id) or {})
        return found

    def move(self, ev, pos) -> None:
        u = ev.unit
        frm, target = ev.frm.hex, ev.to.hex
        if frm is None or target is None:
            self._start.pop(u.piece_id, None)
            return
        start = self._start.setdefault(u.piece_id, frm)
        ph = pos.phase
        if ph is not None and ph.side is not None and ph.side != u.side:
            return
        fast = self._fast
        if fast:                                # no enemy there (most moves): no assault, nothing to judge
            here = pos.by_hex.get(target)
            if not here or len(here) == 1 and u.piece_id in here:
                return
        defenders = self._defenders(pos, u, target)
        if not defenders:
            return
        turn_key = (pos.turn, u.piece_id)
        for e in self._entries_for(pos, u) if fast else self.entries:
            if not fast and not (e.when.applies(pos) and e.units.matches(u)):
                continue
            if fast and not e.needs_group:      # the group is read by the entry's own conditions only
                group = None
            else:
                group = e.groups.get(target)
                if group is not None and not any(d in group[1] for d in defenders):
                    group = None                # new defenders: a new assault
                if group is None:
                    group = e.groups[target] = ([], list(defenders))
                if all(x is not u for x, _ in group[0]):
                    group[0].append((u, start))
                group = group[0]
            if e.first_hex:                     # the only condition that reads the count
                e.per_turn[turn_key] = e.per_turn.get(turn_key, 0) + 1
            if fast and u.piece_id in e.reported:
                continue                        # reported once a phase: its judging would say nothing more
            msg = self._judge(e, pos, u, frm, start, target, group, defenders)
            if msg and u.piece_id not in e.reported:
                e.reported.add(u.piece_id)
                lead = f"{e.message}: " if e.message else ""
                self.report(pos, u, self.ctx.grid.name(start), ev.to,
                            f"{lead}{u.unit_id} mobile-assaults {ev.to.name} "
                            f"({unit_labels(defenders)}): {msg}", ev.entry,
                            reference=e.reference, rule_id=e.id)

    def _entries_for(self, pos, u) -> list:
        """The entries that apply now (their phases, turns, weather) and to *u* (their units), in order
        (fastpaths; only read): the entries live in the phase (bits, worked out once per phase) and those
        whose units the unit is (bits, once per unit), one list per combination of them."""
        if pos.phase is not self._live_phase:
            self._live_phase = pos.phase
            self._live = sum(1 << k for k, e in enumerate(self.entries) if e.when.applies(pos))
        found = self._unit_bits.get(id(u))
        if found is None or found[0] is not u:
            if len(self._unit_bits) > 20_000:
                self._unit_bits.clear()
            found = self._unit_bits[id(u)] = (u, sum(1 << k for k, e in enumerate(self.entries) if e.units.matches(u)))
        bits = found[1] & self._live
        entries = self._live_for.get(bits)
        if entries is None:
            entries = self._live_for[bits] = [e for k, e in enumerate(self.entries) if bits >> k & 1]
        return entries

    # ------------------------------------------------------------------ conditions
    def _launches(self, frm, start, target) -> list:
        """The hexes the assault may have been launched from (fastpaths: worked out once per move, for
        every entry; the list is only read)."""
        if self._fast:
            last = self._last_launches
            if last is not None and last[0] == (frm, target):
                return last[1]
        grid = self.ctx.grid
        found = [frm] if target in grid.neighbours(frm) else [n for n in grid.neighbours(target)]
        if self._fast:
            self._last_launches = ((frm, target), found)
        return found

    def _side_types(self, a, b) -> set:
        """The types of the a|b hexside's features, as a set (remembered per pair: fastpaths)."""
        if not self._fast:
            return set(self.ctx.hexsides.get(frozenset((a, b)), ()))
        key = (a, b)
        found = self._sides.get(key)
        if found is None:
            if len(self._sides) > 100_000:
                self._sides.clear()
            found = self._sides[key] = frozenset(self.ctx.hexsides.get(frozenset((a, b)), ()))
        return found

    def _hexside_extra(self, a, b, mclass, ma):
        """TerrainCosts.hexside_extra; 0 at once across a hexside with no features (fastpaths: nearly all)."""
        if self._fast and not self._side_types(a, b):
            return 0.0
        return self.costs.hexside_extra(a, b, mclass, ma)

    def _judge(self, e: _Entry, pos, u, frm, start, target, group, defenders) -> str | None:
        """What breaks the entry's condition, or None: its steps (:func:`_steps`) in order, the first that
        finds something."""
        steps = e.steps if self._fast else [getattr(MobileAssault, n) for n in _steps(e)]
        for step in steps:
            msg = step(self, e, pos, u, frm, start, target, group)
            if msg:
                return msg
        return None

    def _no_assault(self, e, pos, u, frm, start, target, group) -> str:
        return "no mobile assaults are allowed now"

    def _by_assaulter(self, e, pos, u, frm, start, target, group) -> str | None:
        if not e.assaulters.matches(u):
            return f"{u.unit_id} may not mobile-assault (a {u.props.get('Type') or 'unit'} of movement class " \
                   f"{u.movement_class or '?'})"
        return None

    def _by_target(self, e, pos, u, frm, start, target, group) -> str | None:
        if e.not_into.contains(target):
            return f"the target hex {e.not_into.hex_is(target)}; no mobile assault may target {e.not_into.describe()}"
        return None

    def _by_markers(self, e, pos, u, frm, start, target, group) -> str | None:
        if pos.markers:
            bad = {m.marker_id for m in pos.markers_at(target)} & e.markers
            if bad:
                return f"the target hex holds {', '.join(sorted(bad))}"
        return None

    def _by_launch(self, e, pos, u, frm, start, target, group) -> str | None:
        launches = self._launches(frm, start, target)
        not_from, across = e.not_from, e.across
        if not any(not (not_from is not None and not_from.contains(n)) and not (across and self._side_types(n, target)
                                                                                & across) for n in launches):
            grid = self.ctx.grid
            n = launches[0]
            if e.not_from is not None and e.not_from.contains(n):
                return (f"the launch hex {e.not_from.hex_is(n)}; no mobile assault may be launched from "
                        f"{e.not_from.describe()}")
            return f"across the {'/'.join(sorted(e.across))} hexside {grid.name(n)}/{grid.name(target)}"
        return None

    def _by_cost(self, e, pos, u, frm, start, target, group) -> str | None:
        return self._cost(e, pos, u, frm, start, target)

    def _by_stack(self, e, pos, u, frm, start, target, group) -> str | None:
        starts = {s for _, s in group}
        if len(starts) > 1:
            grid = self.ctx.grid
            return ("the assaulting units did not begin the phase stacked together ("
                    + ", ".join(f"{unit_label(x)} in {grid.name(s)}" for x, s in group) + ")")
        return None

    def _by_first_hex(self, e, pos, u, frm, start, target, group) -> str | None:
        grid = self.ctx.grid
        if target not in grid.neighbours(start):
            return f"it is not the first hex entered this phase (it began in {grid.name(start)})"
        if e.per_turn.get((pos.turn, u.piece_id), 0) > 1:
            return "its second mobile assault this turn"
        return None

    def _by_apart(self, e, pos, u, frm, start, target, group) -> str | None:
        a = [x for x, _ in group if e.apart[0].matches(x) and not e.apart[1].matches(x)]
        b = [x for x, _ in group if e.apart[1].matches(x) and not e.apart[0].matches(x)]
        if a and b:
            return ("units of both groups assault one hex: " + unit_labels(a) + " with " + unit_labels(b))
        return None

    def _cheap_launch(self, start, frm, target, mclass, ma, enter, assault) -> bool:
        """Whether some launch hex is the start or one step from it and the assault from there, over that
        step, fits the allowance: then the cheapest launch fits too (its approach costs at most that step),
        and no search is needed (fastpaths). False says nothing."""
        costs, grid = self.costs, self.ctx.grid
        around = grid.neighbours(start)
        for n in self._launches(frm, start, target):
            if n == start:
                approach = 0.0
            elif n in around:
                approach = costs.step(start, n, mclass, ma)
                if approach is None:
                    continue
            else:
                continue
            extra = self._hexside_extra(n, target, mclass, ma)
            if extra is not None and approach + enter + assault + extra <= ma + 1e-9:
                return True
        return False

    def _cost(self, e: _Entry, pos, u, frm, start, target) -> str | None:
        try:
            ma = float(pos.factor(u, "movement"))
        except (TypeError, ValueError):
            return None
        enter, assault = float(e.cost.get("enter", 1)), float(e.cost.get("assault", 2))
        if self._fast and self._cheap_launch(start, frm, target, u.movement_class, ma, enter, assault):
            return None
        best = None
        for n in self._launches(frm, start, target):
            approach = 0.0 if n == start else self.costs.cheapest(start, n, u.movement_class, ma, limit=ma)
            if approach is None:
                continue
            extra = self._hexside_extra(n, target, u.movement_class, ma)
            if extra is None:
                continue
            total = approach + enter + assault + extra
            best = total if best is None else min(best, total)
        if best is None:
            return f"no launch hex next to the target within its MA {_fmt(ma)}"
        if best > ma + 1e-9:
            return (f"the approach, {_fmt(enter)} MP to enter and {_fmt(assault)} MP to assault cost at least "
                    f"{_fmt(best)} MP, more than its MA {_fmt(ma)}")
        return None
