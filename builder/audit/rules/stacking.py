"""Stacking: after each logged action, no side may have more stacking points in a hex than its limit.

All from the data (``game.stacking``): ``limit``, ``by_side`` (a side's own limit), ``counts``
(``units``: each unit weighs its type's ``unit_types[].stacking``, default 1; ``steps``: that weight
times the unit's remaining steps), ``exempt_status`` (a unit whose Status property holds one of these
does not count, e.g. BCS Support), and a hex's terrain ``stacking_factor`` (EotID X12 halves
every limit, 8.4). Markers never count: only pieces carrying a UnitId are units.
"""

from __future__ import annotations

from . import Rule


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


class Stacking(Rule):
    id = "stacking"
    description = "stacking points per side in a hex at the end of each move"

    def __init__(self, ctx, limit: float, by_side: dict, counts: str, exempt: set, weights: dict,
                 reference: str) -> None:
        super().__init__()
        self.ctx = ctx
        self.limit, self.by_side, self.counts = limit, by_side, counts
        self.exempt, self.weights = exempt, weights
        self.reference = reference
        self._pending: dict = {}            # (hex, side) -> last unit moved there in this entry

    @classmethod
    def from_context(cls, ctx) -> "Stacking | None":
        st = (ctx.game.doc.get("game") or {}).get("stacking")
        if not isinstance(st, dict) or not isinstance(st.get("limit"), (int, float)):
            return None
        weights = {tid: float(t["stacking"]) for tid, t in ctx.game.by_id["unit_types"].items()
                   if isinstance(t.get("stacking"), (int, float))}
        return cls(ctx, float(st["limit"]), {k: float(v) for k, v in (st.get("by_side") or {}).items()},
                   st.get("counts") or "units", set(st.get("exempt_status") or []), weights,
                   st.get("rule") or "")

    # ------------------------------------------------------------------ weights
    def weight(self, unit) -> float:
        if unit.statuses() & self.exempt:
            return 0.0
        w = self.weights.get(unit.props.get("Type", ""), 1.0)
        if self.counts == "steps":
            try:
                steps = int(unit.props.get("Steps") or 1)
            except ValueError:
                steps = 1
            w *= max(steps - (unit.level - 1) - unit.losses, 1)
        return w

    def hex_limit(self, side: str, h) -> tuple[float, str]:
        base = self.by_side.get(side, self.limit)
        tt = self.ctx.terrain_types.get(self.ctx.terrain(h)) or {}
        factor = tt.get("stacking_factor")
        if isinstance(factor, (int, float)) and not isinstance(factor, bool):
            return base * factor, f"{_fmt(base)} x {_fmt(factor)} in {tt.get('name') or tt.get('id')}"
        return base, _fmt(base)

    # ------------------------------------------------------------------ events
    def move(self, ev, pos) -> None:
        if ev.to.hex is not None:
            self._pending[(ev.to.hex, ev.unit.side)] = (ev.unit, ev.frm, ev.to)

    def add(self, ev, pos) -> None:
        if ev.unit.location.hex is not None:
            self._pending[(ev.unit.location.hex, ev.unit.side)] = (ev.unit, None, ev.unit.location)

    def end_entry(self, entry, pos) -> None:
        if not self._pending:
            return
        pending, self._pending = self._pending, {}
        for (h, side), (unit, frm, to) in pending.items():
            units = [u for u in pos.units_at(h) if u.side == side]
            total = sum(self.weight(u) for u in units)
            limit, how = self.hex_limit(side, h)
            if total <= limit:
                continue
            counted = ", ".join(f"{u.unit_id}" + (f" ({_fmt(self.weight(u))})" if self.weight(u) != 1 else "")
                                for u in units)
            side_name = (self.ctx.game.by_id["sides"].get(side) or {}).get("name") or side
            self.report(pos, unit, frm, to,
                        f"{side_name} has {_fmt(total)} stacking points in {to.name}, "
                        f"limit {how}: {counted}", entry)
