"""Arrivals against the scenario's reinforcement schedule (builder.audit.engines.arrivals).

A scheduled unit coming onto the map before its turn, or at a hex outside its entry hexes/area
(or not in or next to the unit it arrives with), or into another box than its own, is a finding.
Whether it moved too far from its entry hex is the movement-allowance rule's (it counts from the
entry hexes), and so, for a unit that enters in a phase in which it may move (BCS 2.1d v), is where
beyond its entry hexes it ends: that arrival is a matter of distance, not of place. A unit neither in
the scenario's set-up nor in its reinforcements coming onto the map is one too. Arrivals whose turn
is an event (economic collapse ...) are judged for place only.
"""

from __future__ import annotations

from . import Rule


class ArrivalRule(Rule):
    id = "arrival"
    description = "reinforcements enter on or after their turn, where the scenario says"

    def __init__(self, ctx, engines, movement=None) -> None:
        super().__init__()
        self.ctx, self.engines = ctx, engines
        self.movement = movement        # the movement-allowance rule (None: the game has none)
        self.arrivals = engines.arrivals
        self._setup_units: set | None = None

    def begin(self, pos) -> None:
        sc = self.arrivals.scenario
        from builder.audit.engines.arrivals import unit_ids
        self._setup_units = {u for e in (sc or {}).get("setup") or [] if isinstance(e, dict) for u in unit_ids(e)}

    def move(self, ev, pos) -> None:
        if self.arrivals.scenario is None:
            return
        a = self.arrivals.arrival_of(ev, pos)        # (only read: asked first, as most moves are no arrival)
        if a is None:
            return
        if self.engines.is_setup_move(ev, pos):
            return                              # the players' set-up, judged by the set-up rule
        frm = getattr(ev, "frm", None)
        if frm is not None and self.ctx.is_staging(frm, "To place"):
            return                                    # a set-up placement (the set-up rule's)
        u = ev.unit
        sched = self.arrivals.schedule.get(u.unit_id)
        if sched is None:
            if u.unit_id not in self._setup_units and (frm is None or frm.hex is None) \
                    and (frm is None or frm.kind != "zone" or self.ctx.is_staging(frm, "Reinforcements")):
                self.report(pos, u, frm, a.to, "this unit is neither in the scenario's set-up nor among its "
                            "reinforcements", ev.entry, reference=self.arrivals.scenario.get("source") or None)
            return
        ref = sched.rule or None                    # else the rule's own reference (the data's rules entry)
        if sched.turn is not None and pos.turn is not None and pos.turn < sched.turn:
            self.report(pos, u, frm, a.to, f"arrives on turn {pos.turn}, before its turn {sched.turn}",
                        ev.entry, reference=ref)
        to = a.to
        if to.hex is None:
            if sched.boxes and to.name not in sched.boxes:
                self.report(pos, u, frm, to, f"arrives in {to.name}, not in {sched.where}", ev.entry, reference=ref)
            return
        if sched.at_unit:
            other = next((x for x in pos.units.values() if x.unit_id == sched.at_unit), None)
            if other is not None and other.location.hex is not None and \
                    self.ctx.grid.distance(other.location.hex, to.hex) > 1:
                self.report(pos, u, frm, to, f"arrives at {to.name}, not with {sched.at_unit} "
                            f"({other.location.name})", ev.entry, reference=ref)
            return
        if sched.hexes and to.hex not in sched.hexes:
            if self.movement is not None and self.movement.counts_from_entry(ev, pos):
                return                  # entered and moved on in one drag: the movement rule counts its MPs
            self.report(pos, u, frm, to, f"enters at {to.name}, outside its entry hexes ({sched.where})",
                        ev.entry, reference=ref)
        elif sched.boxes and not sched.hexes:
            self.report(pos, u, frm, to, f"enters the map at {to.name}; it arrives in {sched.where}",
                        ev.entry, reference=ref)

    add = move
