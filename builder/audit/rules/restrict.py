"""Movement restrictions: ``check: movement`` entries of the data's ``rules`` list: where units may go, which may
move at all, how many may move in one phase, where they may not end a phase. One class, configured per
entry, covers national and geographic confinement (EotID 19.3 A, 19.1.4 A, 19.2, 20.1, 25.10 B, 26.6.8),
first-turn limits (6.1), the strategic and sea quotas (5.1.3 A, 13.1, 14.1) and the places arrivals from a
box may enter (25.4 B).

Entry keys (see builder.audit.rules.select for selectors and place sets): ``units``; when: ``turns``,
``phases``, ``phase_kinds``, ``weather``, ``phasing_sides``; ``from_boxes`` (only moves out of these boxes
are judged); ``start_in`` (only units that began the phase there may move); ``allowed`` / ``forbidden``
(where a move may end), ``within`` (the allowed/forbidden test holds only for moves ending there);
``prohibited`` (the units may not move at all); ``max_units`` (at most this many of them move in one
phase); ``at: phase-end`` (judged where the units stand when a phase ends, not per move); ``until`` (the rule
lapses for good once ``units`` of that selector stand ``in`` a place set, or ``adjacent`` to it). From the
engines (builder.audit.engines): ``enemy_zoc: never`` (a move may not end in an enemy ZOC) or
``enemy_zoc: with-friend`` (only where another friendly unit already is), ``friendly_control: true`` (a move
ends only in a hex its side controlled when it began).
"""

from __future__ import annotations

from builder.audit import fastpaths

from . import Rule
from .select import PlaceSet, UnitSelector, When, box_ids


class _Until:
    def __init__(self, ctx, spec) -> None:
        self.ctx = ctx
        self.units = UnitSelector(ctx, spec.get("units"))
        self.place = PlaceSet(ctx, spec.get("in"))
        self.adjacent = bool(spec.get("adjacent"))
        self.lapsed = False

    def update(self, pos) -> None:
        if self.lapsed:
            return
        for u in pos.units.values():
            h = u.location.hex
            if h is None or not self.units.matches(u):
                continue
            if self.place.contains(h) or (self.adjacent and any(self.place.contains(n)
                                                              for n in self.ctx.grid.neighbours(h))):
                self.lapsed = True
                return


class Restriction:
    """One configured entry."""

    def __init__(self, ctx, spec: dict) -> None:
        self.ctx, self.spec = ctx, spec
        self.id, self.reference = spec.get("id") or "movement", spec.get("reference") or ""
        self.message = spec.get("name") or ""
        self.units = UnitSelector(ctx, spec.get("units"))
        self.when = When(ctx, spec)
        self.boxes = set(spec.get("from_boxes") or [])
        self.start_in = PlaceSet(ctx, spec["start_in"]) if isinstance(spec.get("start_in"), dict) else None
        self.allowed = PlaceSet(ctx, spec["allowed"]) if isinstance(spec.get("allowed"), dict) else None
        self.forbidden = PlaceSet(ctx, spec["forbidden"]) if isinstance(spec.get("forbidden"), dict) else None
        self.within = PlaceSet(ctx, spec["within"]) if isinstance(spec.get("within"), dict) else None
        self.prohibited = bool(spec.get("prohibited"))
        self.max_units = spec.get("max_units") if isinstance(spec.get("max_units"), int) else None
        self.phase_end = spec.get("at") == "phase-end"
        self.until = _Until(ctx, spec["until"]) if isinstance(spec.get("until"), dict) else None
        self.enemy_zoc = spec.get("enemy_zoc")
        self.friendly_control = bool(spec.get("friendly_control"))
        self.moved: list = []           # piece ids counted toward max_units in this phase

    def describe(self) -> str:
        return self.message or self.id


class MovementRestrictions(Rule):
    id = "movement"
    description = "where units may move, which may move, how many per phase (data: rules, check: movement)"
    uses_engines = True
    end_entry_after = frozenset({"move", "add", "remove"})   # what moves the units an until reads

    def __init__(self, ctx, spec: dict, engines=None) -> None:
        super().__init__()
        self.ctx, self.engines = ctx, engines
        self.entries = [Restriction(ctx, spec)]
        self.id, self.reference = self.entries[0].id, self.entries[0].reference
        self._start: dict = {}          # piece id -> location where it stood at its first move this phase
        self._reported: set = set()     # (entry id, piece id) reported in this phase
        self._fast = fastpaths.ENABLED
        if all(e.until is None for e in self.entries):
            self.idle_events = frozenset({"begin", "end_entry"})    # nothing can lapse

    def checks(self) -> list[tuple[str, str, str]]:
        return [(e.id, e.reference, e.describe()) for e in self.entries]

    def phase(self, ev, pos) -> None:
        for e in self.entries:
            if e.phase_end and ev.old is not None and (e.until is None or not e.until.lapsed):
                self._phase_end(e, pos, ev)
            e.moved = []
        self._start.clear()
        self._reported.clear()

    def _phase_end(self, e: Restriction, pos, ev) -> None:
        saved = pos.phase
        pos.phase = ev.old                  # judged as the phase that ends
        try:
            if not e.when.applies(pos):
                return
            for u in list(pos.units.values()):
                h = u.location.hex
                if h is None or not e.units.matches(u):
                    continue
                bad = (e.forbidden is not None and e.forbidden.contains(h)) or \
                      (e.allowed is not None and not e.allowed.contains(h))
                if bad and (e.within is None or e.within.contains(h)):
                    if e.forbidden is not None and e.forbidden.contains(h):
                        where = _inside(e.forbidden, h)
                    else:
                        where = f"{e.allowed.terrain_note(h)}, outside {e.allowed.describe()}"
                    self.report(pos, u, "", u.location, f"{_lead(e)}{u.unit_id} ends the {ev.old.label()} in "
                                f"{u.location.name}{where}", ev.entry, reference=e.reference, rule_id=e.id)
        finally:
            pos.phase = saved

    def unit_matters(self, unit) -> bool:
        return any(e.units.matches(unit) for e in self.entries)

    def moves_matter(self, pos) -> bool:
        return any(not e.phase_end and (e.until is None or not e.until.lapsed) and e.when.applies(pos)
                   for e in self.entries)

    def begin(self, pos) -> None:
        self.end_entry(0, pos)

    def end_entry(self, entry, pos) -> None:
        for e in self.entries:
            if e.until is not None:
                e.until.update(pos)

    def move(self, ev, pos) -> None:
        u = ev.unit
        start = self._start.setdefault(u.piece_id, ev.frm)
        to = ev.to
        if to.hex is None or (start.hex is not None and start.hex == to.hex):
            return                          # into a box (losses, corrections) or back where it began
        # fastpaths: an object of one entry is shown only the moves of its units in its phases (moves_matter,
        # unit_matters), so that entry's own test of them would always hold
        sure = self._fast and len(self.entries) == 1
        for e in self.entries:
            if e.phase_end or (e.until is not None and e.until.lapsed):
                continue
            if not sure and (not e.when.applies(pos) or not e.units.matches(u)):
                continue
            if e.boxes and box_ids(self.ctx, start) not in e.boxes:
                continue
            key = (e.id, u.piece_id)
            if key in self._reported:
                continue
            msg = self._judge(e, u, start, to) or self._engines_judge(e, u, to, pos)
            if msg:
                self._reported.add(key)
                self.report(pos, u, start, to, _lead(e) + msg, ev.entry, reference=e.reference, rule_id=e.id)

    def _judge(self, e: Restriction, u, start, to) -> str | None:
        if e.prohibited:
            return f"{u.unit_id} may not move here"
        if e.start_in is not None and not e.start_in.contains(start.hex):
            return (f"{u.unit_id} began the phase in {start.name}{e.start_in.terrain_note(start.hex)}, outside "
                    f"{e.start_in.describe()}: it may not move")
        if e.within is not None and not e.within.contains(to.hex):
            return None
        if e.max_units is not None:
            if u.piece_id not in e.moved:
                e.moved.append(u.piece_id)
            if len(e.moved) > e.max_units:
                return (f"{u.unit_id} is unit {len(e.moved)} of these to move in this phase; "
                        f"at most {e.max_units} may")
        if e.allowed is not None and not e.allowed.contains(to.hex):
            return f"{u.unit_id} moved to {to.name}{e.allowed.terrain_note(to.hex)}, outside {e.allowed.describe()}"
        if e.forbidden is not None and e.forbidden.contains(to.hex):
            return f"{u.unit_id} moved to {to.name}{_inside(e.forbidden, to.hex)}"
        return None


    def _engines_judge(self, e: Restriction, u, to, pos) -> str | None:
        eng = self.engines
        if eng is None:
            return None
        if e.enemy_zoc and eng.zoc.enabled and eng.zoc.enemy_zoc(to.hex, u.side):
            friends = [x for x in pos.units_at(to.hex) if x.side == u.side and x is not u]
            if e.enemy_zoc == "never" or not friends:
                return f"{u.unit_id} entered {to.name}, in an enemy zone of control" + \
                    ("" if e.enemy_zoc == "never" else " with no friendly unit there")
        if e.friendly_control and eng.control.enabled and not eng.control.friendly(to.hex, u.side):
            owner = eng.control.owner(to.hex)
            return f"{u.unit_id} entered {to.name}, controlled by {owner or 'no one'}"
        return None


def _inside(places: PlaceSet, h) -> str:
    """Why hex *h* is in the forbidden *places*, after its name: ", which is mountain", ", which is a Baltic
    port", ", which is in Bulgaria" (", in X11 or X12" for a hex the set lists by name)."""
    facts = places.facts(h)
    return f", which is {facts}" if facts else f", in {places.describe()}"


def _lead(e: Restriction) -> str:
    return f"{e.message}: " if e.message else ""
