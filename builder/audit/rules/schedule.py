"""The scenario's schedule beyond the arrival rule's date and place (HQs placed in the Reinforcement
Phase, ``removals``), leaving the map, and step bookkeeping (losses below full strength, replacements)."""

from __future__ import annotations

from .activation import DataRule, type_of, unit_data
from .setup import loss_markers, steps_lost


def _ids(e):
    return [e["unit"]] if isinstance(e.get("unit"), str) else list(e.get("units") or [])


class PlacementPhase(DataRule):
    """R64 (with the arrival rule, which judges the date and the place): units of ``placed_types`` (HQ)
    arrive on the map only in a phase of ``placement_phases`` (BCS 2.1b: HQs are placed in the entry hex
    in the Reinforcement Phase and may not wait off-map)."""

    def __init__(self, ctx, spec) -> None:
        super().__init__(ctx, spec)
        self.arriving = set()

    def begin(self, pos) -> None:
        super().begin(pos)
        sc = self.ctx.game.by_id["scenarios"].get(self.scenario or "")
        self.arriving = {uid: e.get("turn") for e in (sc or {}).get("reinforcements") or [] if isinstance(e, dict)
                         for uid in _ids(e)}

    def move(self, ev, pos) -> None:
        u = ev.unit
        if u.unit_id not in self.arriving or ev.frm.hex is not None or ev.to.hex is None:
            return
        due = self.arriving.pop(u.unit_id)
        if isinstance(due, int) and pos.turn is not None and pos.turn < due:
            return                          # early: the arrival rule's finding
        phases = set(self.spec.get("placement_phases") or [])
        if type_of(self.ctx, u) in set(self.spec.get("placed_types") or []) and phases and pos.phase and \
                pos.phase.phase_id not in phases:
            self.say(pos, u, f"placed in the {pos.phase_label() or 'current phase'}; it must be placed in its entry "
                             f"hex in the {', '.join(sorted(phases))} phase", ev.entry, ev.frm, ev.to)


class Removals(DataRule):
    """R66: units the scenario removes (``removals``) are off the map once their turn has begun."""

    def phase(self, ev, pos) -> None:
        sc = self.ctx.game.by_id["scenarios"].get(self.scenario or "")
        if sc is None or ev.new.turn is None or (ev.old and ev.old.turn == ev.new.turn):
            return
        # the turn before the new one has ended: anything due by then must be gone
        for e in sc.get("removals") or []:
            if not isinstance(e, dict) or not isinstance(e.get("turn"), int) or e["turn"] >= ev.new.turn:
                continue
            for uid in _ids(e):
                for u in pos.units.values():
                    if u.unit_id == uid and u.hex is not None:
                        self.say(pos, u, f"still on the map in {u.location.name} after its removal "
                                         f"({e.get('date') or 'turn ' + str(e['turn'])})", ev.entry, "", u.location)


class OffMap(DataRule):
    """R69: a unit never leaves the map for anywhere but a box of ``allowed_boxes`` (Dead Pile ...)."""

    def move(self, ev, pos) -> None:
        if ev.frm.hex is None or ev.to.hex is not None:
            return
        allowed = set(self.spec.get("allowed_boxes") or [])
        names = {self.ctx.layout.box_zone.get(b, b) for b in allowed}
        if ev.to.name in names:
            return
        sc = self.ctx.game.by_id["scenarios"].get(self.scenario or "") or {}
        for e in sc.get("removals") or []:      # a scheduled removal leaves the map on its turn
            if isinstance(e, dict) and ev.unit.unit_id in _ids(e) and (pos.turn or 0) >= (e.get("turn") or 0):
                return
        self.say(pos, ev.unit, f"leaves the map for {ev.to.name}", ev.entry, ev.frm, ev.to)


class StepLedger(DataRule):
    """Each unit's steps lost, followed through its Losses layer (the "losses" event) and, in a module
    that uses them, its step-loss markers (``loss_marker_kind``); :meth:`changed` sees every change."""

    def __init__(self, ctx, spec) -> None:
        super().__init__(ctx, spec)
        self.loss_ids = loss_markers(ctx, spec.get("loss_marker_kind") or "step-loss")
        self.lost = {}
        self._touched: set = set()      # units whose step-loss markers changed in this entry
        self._markers: set = set()      # step-loss marker pieces touched in this entry

    def begin(self, pos) -> None:
        super().begin(pos)
        for u in pos.units.values():
            self.lost[u.piece_id] = steps_lost(self.ctx, pos, u, self.loss_ids)

    def losses(self, ev, pos) -> None:
        self._touched.add(ev.unit.piece_id)

    def marker(self, ev, pos) -> None:
        # with markers, losses change only when a step-loss marker is added, moved, flipped or removed
        # (a unit moving without its markers does not regain steps)
        if ev.marker.marker_id not in self.loss_ids:
            return
        owner = pos.carrier(ev.marker.piece_id)
        if owner is not None:
            self._touched.add(owner.piece_id)
        self._markers.add(ev.marker.piece_id)

    def end_entry(self, entry, pos) -> None:
        if not self._markers and not self._touched:
            return
        for mp in self._markers:
            owner = pos.carrier(mp)
            if owner is not None:
                self._touched.add(owner.piece_id)
        touched, self._touched, self._markers = self._touched, set(), set()
        for pid in sorted(touched):
            u = pos.units.get(pid)
            if u is None or u.hex is None:
                continue
            lost = steps_lost(self.ctx, pos, u, self.loss_ids)
            before = self.lost.get(u.piece_id, 0)
            if lost != before:
                self.lost[u.piece_id] = lost
                self.changed(u, before, lost, entry, pos)

    def changed(self, u, before, lost, entry, pos) -> None: ...


class Replacements(StepLedger):
    """R53: a step regained (losses go down) is a replacement: only in ``phases``, never on the scenario's
    first turn, at most ``per_unit`` per unit per turn, never for units with a flag of ``barred_flags``."""

    def __init__(self, ctx, spec) -> None:
        super().__init__(ctx, spec)
        self.taken = {}

    def changed(self, u, before, lost, entry, pos) -> None:
        if lost >= before:
            return
        sp, n = self.spec, before - lost
        sc = self.ctx.game.by_id["scenarios"].get(self.scenario or "") or {}
        flags = set(unit_data(self.ctx, u).get("flags") or []) & set(sp.get("barred_flags") or [])
        key = (u.piece_id, pos.turn)
        self.taken[key] = self.taken.get(key, 0) + n
        if flags:
            self.say(pos, u, f"regains {n} step(s); units flagged {', '.join(sorted(flags))} never take "
                             f"replacements", entry, "", u.location)
        elif sc.get("first_turn") is not None and pos.turn == sc.get("first_turn"):
            self.say(pos, u, f"regains {n} step(s) on the scenario's first turn (no replacements then)",
                     entry, "", u.location)
        elif sp.get("phases") and (pos.phase is None or pos.phase.phase_id not in sp["phases"]):
            self.say(pos, u, f"regains {n} step(s) in the {pos.phase_label() or 'current phase'}; replacements "
                             f"only in the {', '.join(sp['phases'])} phase", entry, "", u.location)
        elif self.taken[key] > int(sp.get("per_unit") or 1):
            self.say(pos, u, f"regains {self.taken[key]} steps this turn, more than {sp.get('per_unit') or 1} "
                             f"replacement per unit", entry, "", u.location)
