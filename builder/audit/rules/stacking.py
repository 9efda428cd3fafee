"""Stacking: after each logged action (a drag, a stack dragged, a unit placed), no side may have more
stacking points in a hex than its limit, and units that may never share a hex do not.

All from the data (``game.stacking``): ``limit``, ``by_side`` (a side's own limit), ``counts`` (``units``:
each unit weighs its type's ``unit_types[].stacking``, default 1; ``steps``: that weight times the unit's
remaining steps), ``exempt_status`` (a unit whose Status property holds one of these does not count, e.g.
BCS Support), ``not_counted.types`` (unit types that never count, e.g. EotID's Alpenfestung, 8.5), a hex's
terrain ``stacking_factor`` (EotID X12 halves every limit, 8.4), ``full_stack_requires`` (a side's stack
reaches its full limit only when one of its units there matches ``requires``, else one unit less: the EotID
Soviet 4th unit only with a GRP or an SU, 8.2)
and ``never_together`` (two unit selectors that may not share a hex: EotID 4.4 A, 19.1.4 A). Each of these
may carry its own ``id`` and ``rule`` (the rule ID and reference named in findings); ``on_arrival`` names the
ID of a breach made by a unit arriving from off the map or a box (EotID 7.10). Markers never count: only
pieces carrying a UnitId are units.
"""

from __future__ import annotations

from builder.audit import fastpaths
from builder.audit.report import unit_label, unit_labels

from . import Rule
from .select import UnitSelector


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def _id_ref(spec, default_id: str, default_ref: str) -> tuple[str, str]:
    spec = spec if isinstance(spec, dict) else {}
    return spec.get("id") or default_id, spec.get("rule") or default_ref


class Stacking(Rule):
    id = "stacking"
    description = "stacking points per side in a hex at the end of each move"
    end_entry_after = frozenset({"move", "add"})     # what fills the pending hexes end_entry judges

    def __init__(self, ctx, limit: float, by_side: dict, counts: str, exempt: set, weights: dict,
                 reference: str, spec: dict | None = None) -> None:
        super().__init__()
        spec = spec or {}
        self.ctx = ctx
        self.limit, self.by_side, self.counts = limit, by_side, counts
        self.exempt, self.weights = exempt, weights
        self.id = spec.get("id") or Stacking.id
        self.reference = reference
        nc = spec.get("not_counted") if isinstance(spec.get("not_counted"), dict) else {}
        self.not_counted_types = set(nc.get("types") or [])
        self.terrain_id = _id_ref(spec.get("terrain_factor"), self.id, reference)
        self.arrival_id = _id_ref(spec.get("on_arrival"), self.id, reference)
        self.full = [(e.get("id") or self.id, e.get("rule") or reference, set(e.get("sides") or []),
                      UnitSelector(ctx, e.get("requires")), e)
                     for e in spec.get("full_stack_requires") or [] if isinstance(e, dict)]
        self.apart = [(e.get("id") or self.id, e.get("rule") or reference, UnitSelector(ctx, e.get("a")),
                       UnitSelector(ctx, e.get("b")), e.get("message") or "")
                      for e in spec.get("never_together") or [] if isinstance(e, dict)]
        self._pending: dict = {}            # (hex, side) -> (unit, from, to, arrived) last moved there in this entry
        self._fast = fastpaths.ENABLED
        self._weights: dict = {}            # id(unit) -> (unit, status, Type, level, losses, weight) (fastpaths)
        self._floor: dict = {}              # side -> the least its limit can be in any hex (fastpaths)
        self._pairs: dict = {}              # id(unit) -> (unit, its never_together matches, as bits) (fastpaths)

    @classmethod
    def from_context(cls, ctx) -> "Stacking | None":
        st = (ctx.game.doc.get("game") or {}).get("stacking")
        if not isinstance(st, dict) or not isinstance(st.get("limit"), (int, float)):
            return None
        weights = {tid: float(t["stacking"]) for tid, t in ctx.game.by_id["unit_types"].items()
                   if isinstance(t.get("stacking"), (int, float))}
        return cls(ctx, float(st["limit"]), {k: float(v) for k, v in (st.get("by_side") or {}).items()},
                   st.get("counts") or "units", set(st.get("exempt_status") or []), weights,
                   st.get("rule") or "", st)

    def checks(self) -> list[tuple[str, str, str]]:
        """(rule id, reference, what) of every stacking rule the data configures."""
        out = [(self.id, self.reference, "stacking limit per side in a hex")]
        st = (self.ctx.game.doc.get("game") or {}).get("stacking") or {}
        if isinstance(st.get("not_counted"), dict) and st["not_counted"].get("id"):
            out.append((st["not_counted"]["id"], st["not_counted"].get("rule") or self.reference,
                        "markers and the listed unit types never count"))
        if self.terrain_id[0] != self.id:
            out.append((*self.terrain_id, "terrain that multiplies the stacking limit"))
        out += [(i, r, f"a full stack only with {', '.join(sorted(e.get('requires', {}).get('types') or []))}")
                for i, r, _, _, e in self.full]
        out += [(i, r, "units that may never share a hex") for i, r, *_ in self.apart]
        if self.arrival_id[0] != self.id:
            out.append((*self.arrival_id, "stacking on arrival"))
        seen, unique = set(), []
        for c in out:
            if c[0] not in seen:
                seen.add(c[0])
                unique.append(c)
        return unique

    # ------------------------------------------------------------------ weights
    def weight(self, unit) -> float:
        if unit.statuses() & self.exempt or unit.props.get("Type", "") in self.not_counted_types:
            return 0.0
        w = self.weights.get(unit.props.get("Type", ""), 1.0)
        if self.counts == "steps":
            try:
                steps = int(unit.props.get("Steps") or 1)
            except ValueError:
                steps = 1
            w *= max(steps - (unit.level - 1) - unit.losses, 1)
        return w

    def _weight(self, unit) -> float:
        """:meth:`weight`, remembered until what it reads changes (fastpaths)."""
        found = self._weights.get(id(unit))
        props = unit.props
        if found is None or found[0] is not unit or found[1] != unit.status or found[2] != unit.level \
                or found[3] != unit.losses or found[4] is not props:
            if len(self._weights) > 20_000:
                self._weights.clear()
            found = self._weights[id(unit)] = (unit, unit.status, unit.level, unit.losses, props, self.weight(unit))
        return found[5]

    def floor(self, side: str) -> float:
        """The least :meth:`hex_limit` can give *side* anywhere: its limit less one per full-stack condition
        that can apply to it, times the smallest terrain stacking factor (or 1)."""
        found = self._floor.get(side)
        if found is None:
            base = self.by_side.get(side, self.limit)
            cut = sum(1 for _, _, sides, _, _ in self.full if side in sides)
            factors = [1.0] + [float(f) for f in (tt.get("stacking_factor") for tt in self.ctx.terrain_types.values())
                               if isinstance(f, (int, float)) and not isinstance(f, bool)]
            found = self._floor[side] = min((base - k) * f for k in (0, cut) for f in factors)
        return found

    def hex_limit(self, side: str, h, units=()) -> tuple[float, str, str, str]:
        """(limit, how it is stated, rule id, reference) for *side* in hex *h* holding *units*."""
        base = self.by_side.get(side, self.limit)
        rid, ref, how = self.id, self.reference, _fmt(base)
        for eid, eref, sides, requires, e in self.full:
            if side not in sides or any(requires.matches(u) for u in units):
                continue
            types = ", ".join(sorted((e.get("requires") or {}).get("types") or []))
            rid, ref = eid, eref
            how = f"{_fmt(base - 1)} ({_fmt(base)} only with one of: {types})"
            base -= 1
        tt = self.ctx.terrain_types.get(self.ctx.terrain(h)) or {}
        factor = tt.get("stacking_factor")
        if isinstance(factor, (int, float)) and not isinstance(factor, bool):
            if rid == self.id:
                rid, ref = self.terrain_id
            return base * factor, f"{how} x {_fmt(factor)} in {tt.get('name') or tt.get('id')}", rid, ref
        return base, how, rid, ref

    def _mixed(self, here) -> bool:
        """Whether some ``never_together`` pair can apply among *here*: a unit of one selector and another
        unit of the other (fastpaths; False: none of their findings can arise)."""
        a_any = b_any = 0               # first the entries some unit matches on each side (bit k: entry k)
        for u in here:
            m = self._masks_of(u)
            a_any |= m[0]
            b_any |= m[1]
        if not a_any & b_any:
            return False                # no entry has units of both selectors here
        flags = [(u, self._pairs_of(u)) for u in here]
        for k in range(len(self.apart)):
            for u, f in flags:
                if f[k][0] and any(v is not u and g[k][1] for v, g in flags):
                    return True
        return False

    def _masks_of(self, unit) -> tuple:
        """(bits of the never_together entries whose first selector the unit matches, bits of those whose
        second it matches): bit k for entry k."""
        return self._pairs_entry(unit)[2]

    def _pairs_of(self, unit) -> tuple:
        """((matches a, matches b) per never_together entry) of the unit (its identity never changes)."""
        return self._pairs_entry(unit)[1]

    def _pairs_entry(self, unit) -> tuple:
        found = self._pairs.get(id(unit))
        if found is None or found[0] is not unit:
            if len(self._pairs) > 20_000:
                self._pairs.clear()
            pairs = tuple((a.matches(unit), b.matches(unit)) for _, _, a, b, _ in self.apart)
            masks = (sum(1 << k for k, (a, _) in enumerate(pairs) if a),
                     sum(1 << k for k, (_, b) in enumerate(pairs) if b))
            found = self._pairs[id(unit)] = (unit, pairs, masks)
        return found

    # ------------------------------------------------------------------ events
    def move(self, ev, pos) -> None:
        if ev.to.hex is not None:
            self._pending[(ev.to.hex, ev.unit.side)] = (ev.unit, ev.frm, ev.to, ev.frm.hex is None)

    def add(self, ev, pos) -> None:
        if ev.unit.location.hex is not None:
            self._pending[(ev.unit.location.hex, ev.unit.side)] = (ev.unit, None, ev.unit.location, True)

    def end_entry(self, entry, pos) -> None:
        if not self._pending:
            return
        pending, self._pending = self._pending, {}
        apart_seen = set()
        weight = self._weight if self._fast else self.weight
        fast, by_hex = self._fast, pos.by_hex
        for (h, side), (unit, frm, to, arrived) in pending.items():
            found_here = by_hex.get(h)
            here = list(found_here.values()) if found_here else []
            if fast:                            # the units of the side and their total, in one pass
                units, total = [], 0            # (the sum below, term by term)
                for u in here:
                    if u.side == side:
                        units.append(u)
                        total += weight(u)
            else:
                units = [u for u in here if u.side == side]
                total = sum(weight(u) for u in units)
            if fast and total <= (self._floor.get(side) or self.floor(side)):
                pass                            # within any limit the side can have: no need to state it
            elif total > (found := self.hex_limit(side, h, units))[0]:
                limit, how, rid, ref = found
                counted = ", ".join(unit_label(u) + (f" ({_fmt(self.weight(u))})" if self.weight(u) != 1 else "")
                                    for u in units)
                side_name = (self.ctx.game.by_id["sides"].get(side) or {}).get("name") or side
                msg = f"{side_name} has {_fmt(total)} stacking points in {to.name}, limit {how}: {counted}"
                if arrived and self.arrival_id[0] != self.id:
                    rid, ref = self.arrival_id
                    msg += "; arriving units obey stacking in the hex they enter"
                self.report(pos, unit, frm, to, msg, entry, reference=ref, rule_id=rid)
            if fast and (len(here) < 2 or not self._mixed(here)):
                continue                        # no pair of units that may never share a hex
            for aid, aref, a, b, message in self.apart:
                if (h, aid) in apart_seen:
                    continue
                ones = [u for u in here if a.matches(u)]
                others = [u for u in here if b.matches(u) and u not in ones]
                if ones and others:
                    apart_seen.add((h, aid))
                    msg = (f"{unit_labels(ones)} and {unit_labels(others)} "
                           f"share {to.name}")
                    self.report(pos, unit, frm, to, f"{message}: {msg}" if message else msg, entry,
                                reference=aref, rule_id=aid)
