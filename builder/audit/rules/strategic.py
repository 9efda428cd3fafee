"""Strategic movement and other whole-phase checks from the data's ``rules`` list.

* ``check: allowance`` — in the phases the entry names, a unit's cheapest path from where it began the phase
  costs at most ``ma_multiplier`` x its printed MA (EotID 12.1: three times, for German strategic moves), over
  the map's terrain with the hexside types ``closed_hexsides`` impassable (10.9 B: no strategic move across the
  dike; ``closed_id`` names the rule a path blocked only by them breaks).
* ``check: not-adjacent-enemy`` — a move may not end next to a unit of a side it fights, except across the
  hexside types ``except_hexsides`` (5.1.3 D: German strategic movers, except across blocked hexsides).
* ``check: required-landing`` — by the end of the phase, units arriving from ``from_boxes`` onto one hex of
  ``into`` include at least ``min`` of each of ``groups`` (selectors); units landing outside ``into`` break
  it too (EotID 14.11 A, 6.3, 4.10 C: the Turn 1 invasion between T2 and Z13 with two corps of each army group).
"""

from __future__ import annotations

from builder.audit.report import unit_labels

from . import Rule
from .assault import enemies_of
from .select import PlaceSet, UnitSelector, When, box_ids
from .terrain import TerrainCosts, shared_costs


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


class _Entry:
    def __init__(self, ctx, spec: dict) -> None:
        self.spec = spec
        self.id, self.reference = spec.get("id") or spec.get("check"), spec.get("reference") or ""
        self.message = spec.get("name") or ""
        self.units, self.when = UnitSelector(ctx, spec.get("units")), When(ctx, spec)

    def lead(self) -> str:
        return f"{self.message}: " if self.message else ""


class PhaseChecks(Rule):
    id = "phase-checks"
    description = "strategic allowance, ending next to the enemy, required landings (data: rules)"

    KINDS = ("allowance", "not-adjacent-enemy", "required-landing")

    def __init__(self, ctx, spec: dict) -> None:
        super().__init__()
        self.ctx = ctx
        self.entries = [_Entry(ctx, spec)]
        self.id, self.reference = self.entries[0].id, self.entries[0].reference
        self._costs: dict = {}
        self._start: dict = {}
        self._reported: set = set()
        self._landed: list = []          # (unit, from box, to location) this phase

    def checks(self) -> list[tuple[str, str, str]]:
        out = []
        for e in self.entries:
            out.append((e.id, e.reference, e.message or e.id))
            if e.spec.get("closed_id"):
                out.append((e.spec["closed_id"], e.spec.get("closed_reference") or e.reference,
                            "no move across " + "/".join(e.spec.get("closed_hexsides") or [])))
        return out

    def _costs_for(self, closed: tuple) -> TerrainCosts:
        found = self._costs.get(closed)
        if found is None:
            found = self._costs[closed] = shared_costs(self.ctx, closed)
        return found

    def unit_matters(self, unit) -> bool:
        return any(e.units.matches(unit) for e in self.entries)

    def moves_matter(self, pos) -> bool:
        return any(e.when.applies(pos) for e in self.entries)

    def phase(self, ev, pos) -> None:
        if ev.old is not None:
            saved = pos.phase
            pos.phase = ev.old
            try:
                for e in self.entries:
                    if e.spec.get("check") == "required-landing" and e.when.applies(pos):
                        self._landing(e, pos, ev.entry)
            finally:
                pos.phase = saved
        self._start.clear()
        self._reported.clear()
        self._landed = []

    def move(self, ev, pos) -> None:
        u = ev.unit
        start = self._start.setdefault(u.piece_id, ev.frm)
        if ev.to.hex is None:
            return
        for e in self.entries:
            if not e.when.applies(pos) or not e.units.matches(u):
                continue
            kind = e.spec.get("check")
            if kind == "required-landing":
                if box_ids(self.ctx, start) in set(e.spec.get("from_boxes") or []):
                    self._landed.append((u, start, ev.to))
                continue
            if (e.id, u.piece_id) in self._reported:
                continue
            msg = self._allowance(e, pos, u, start, ev.to) if kind == "allowance" else \
                self._adjacent(e, pos, u, ev.to) if kind == "not-adjacent-enemy" else None
            if msg:
                rid, ref, text = msg
                self._reported.add((e.id, u.piece_id))
                self.report(pos, u, start, ev.to, e.lead() + text, ev.entry, reference=ref, rule_id=rid)

    # ------------------------------------------------------------------ checks
    def _allowance(self, e, pos, u, start, to):
        if start.hex is None or start.hex == to.hex:
            return None
        try:
            ma = float(pos.factor(u, "movement"))
        except (TypeError, ValueError):
            return None
        budget = ma * float(e.spec.get("ma_multiplier", 1))
        closed = tuple(sorted(e.spec.get("closed_hexsides") or []))
        costs = self._costs_for(closed)
        if costs.prohibited_terrain(to.hex, u.movement_class) is not None:
            return None                     # the prohibited-terrain rule reports it
        if costs.within(start.hex, to.hex, u.movement_class, budget):
            return None
        if closed and e.spec.get("closed_id") and self._costs_for(()).within(start.hex, to.hex, u.movement_class,
                                                                            budget):
            return (e.spec["closed_id"], e.spec.get("closed_reference") or e.reference,
                    f"the only paths within {_fmt(budget)} MP from {start.name} to {to.name} cross a "
                    f"{'/'.join(closed)} hexside")
        cost = costs.cheapest(start.hex, to.hex, u.movement_class, budget)
        times = f"{_fmt(float(e.spec.get('ma_multiplier', 1)))} x MA {_fmt(ma)} = {_fmt(budget)} MP"
        if cost is None:
            return e.id, e.reference, f"no path from {start.name} to {to.name} within {times}"
        return e.id, e.reference, f"cheapest path {start.name} -> {to.name} costs {_fmt(cost)} MP, more than {times}"

    def _adjacent(self, e, pos, u, to):
        foes = enemies_of(self.ctx, u.side)
        open_types = set(e.spec.get("except_hexsides") or [])
        for n in self.ctx.grid.neighbours(to.hex):
            enemy = [x for x in pos.units_at(n) if x.side in foes]
            if not enemy:
                continue
            if set(self.ctx.hexsides.get(frozenset((to.hex, n)), ())) & open_types:
                continue
            return (e.id, e.reference, f"{to.name} is next to {unit_labels(enemy)} in "
                    f"{self.ctx.grid.name(n)}")
        return None

    def _landing(self, e, pos, entry) -> None:
        into = PlaceSet(self.ctx, e.spec.get("into"))
        groups = [(UnitSelector(self.ctx, g), int(g.get("min", 1)), g.get("name") or "group")
                  for g in e.spec.get("groups") or [] if isinstance(g, dict)]
        by_hex: dict = {}
        for u, frm, to in self._landed:
            if not into.contains(to.hex):
                self.report(pos, u, frm, to, f"{e.lead()}{u.unit_id} lands at {to.name}"
                            f"{into.terrain_note(to.hex)}, outside {into.describe()}", entry, reference=e.reference,
                            rule_id=e.id)
                continue
            if u.location.hex == to.hex:
                by_hex.setdefault(to.hex, []).append(u)
        for h, units in by_hex.items():
            if all(sum(1 for u in units if sel.matches(u)) >= n for sel, n, _ in groups):
                return
        need = ", ".join(f"{n} {name}" for _, n, name in groups)
        landed = "; ".join(f"{self.ctx.grid.name(h)}: {unit_labels(us)}"
                           for h, us in by_hex.items()) or "none"
        first = self._landed[0] if self._landed else None
        self.result.add(_finding(pos, first, f"{e.lead()}no landing in {into.describe()} with at least {need} "
                                 f"(landed: {landed})", e, entry))


def _finding(pos, first, message, e, entry):
    from builder.audit.report import Finding
    unit, frm, to = first if first else (None, "", "")
    return Finding(pos.turn, pos.phase_label(), unit.unit_id if unit else "", unit.name if unit else "",
                   getattr(frm, "name", frm or ""), getattr(to, "name", to or ""), e.id, e.reference, message, entry)
