"""Where a unit may go: enemy-occupied hexes, Traffic, forbidden hexes, units that never move, objective
(VP) hexes, zones of control. Every list and id comes from the rule's entry in the data's ``rules``."""

from __future__ import annotations

from builder.audit.report import unit_labels
from builder.module.names import name_of

from .activation import DataRule, _region_hexes, pseudo, type_of
from .select import in_region, region_name


def combat(ctx, u, spec) -> bool:
    """A unit that counts: not of the spec's ``noncombat_types``, not in an exempt status (Support)."""
    return type_of(ctx, u) not in set(spec.get("noncombat_types") or []) and \
        not (u.statuses() & set(spec.get("exempt_status") or []))


def prepared(pos, u, spec) -> bool:
    """Whether the face showing has one of ``prepared_values`` true or above 0 (BCS: an Assault Arrow or an
    AV; a unit with neither is Unprepared and has no ZOC)."""
    for vid in spec.get("prepared_values") or []:
        v = pos.factor(u, vid)
        if v in ("true", "True") or (v or "").isdigit() and int(v) > 0:
            return True
    return False


def enemy_zoc(ctx, pos, h, side, spec) -> list:
    """Enemy units whose zone of control covers hex *h* (adjacent, combat, prepared; not across a
    hexside of ``zoc_blocking_hexsides``; not from ``zoc_exempt_types``)."""
    out = []
    blocking = set(spec.get("zoc_blocking_hexsides") or [])
    exempt = set(spec.get("zoc_exempt_types") or [])
    for n in ctx.grid.neighbours(h):
        for u in pos.units_at(n):
            if u.side == side or type_of(ctx, u) in exempt or not combat(ctx, u, spec) or not prepared(pos, u, spec):
                continue
            if blocking & set(ctx.hexsides.get(frozenset((h, n)), ())):
                continue
            out.append(u)
    return out


class EnemyHex(DataRule):
    """R12: no unit enters a hex holding an enemy unit, except a jump of enemy units all of ``jump_types``
    (HQ, Combat Trains) and a ``screen_class`` unit on a face with ``screen_face`` into a hex whose enemy
    units all carry a ``screen_marker``. Units in ``exempt_status`` (Support) occupy no hex."""

    def move(self, ev, pos) -> None:
        h = ev.to.hex
        if h is None or ev.frm.hex == h:
            return
        u, sp = ev.unit, self.spec
        enemies = [e for e in pos.units_at(h) if e.side != u.side and
                   not (e.statuses() & set(sp.get("exempt_status") or []))]
        if not enemies:
            return
        jump = set(sp.get("jump_types") or [])
        if jump and all(type_of(self.ctx, e) in jump for e in enemies) and combat(self.ctx, u, sp):
            return
        screen = sp.get("screen_marker")
        if screen and u.movement_class == sp.get("screen_class") and \
                all(any(m.marker_id == screen for m in pos.markers_with(e)) for e in enemies):
            return
        names = unit_labels(enemies)
        self.say(pos, u, f"enters {ev.to.name}, which holds enemy units ({names})", ev.entry, ev.frm, ev.to)


class Traffic(DataRule):
    """R07: no unit enters a hex with a ``marker`` (Traffic) that already holds ``limit`` combat units."""

    def move(self, ev, pos) -> None:
        h = ev.to.hex
        if h is None or ev.frm.hex == h:
            return
        if not any(m.marker_id == self.spec.get("marker") for m in pos.markers_at(h)):
            return
        u = ev.unit
        others = [o for o in pos.units_at(h) if o is not u and o.side == u.side and combat(self.ctx, o, self.spec)]
        limit = int(self.spec.get("limit") or 2)
        if len(others) >= limit:
            self.say(pos, u, f"enters {ev.to.name}, which has a {self.spec.get('marker')} marker and already "
                             f"{len(others)} combat units ({unit_labels(others)})",
                     ev.entry, ev.frm, ev.to)


class ForbiddenHexes(DataRule):
    """R04: units of ``sides`` never enter the hexes of ``region`` in the listed ``scenarios``."""

    def __init__(self, ctx, spec) -> None:
        super().__init__(ctx, spec)
        self.hexes = set(_region_hexes(ctx, spec.get("region")))
        self.where = in_region(region_name(ctx, str(spec.get("region") or "")))   # "one of the Budapest Urban hexes"

    def move(self, ev, pos) -> None:
        if ev.to.hex in self.hexes and ev.frm.hex != ev.to.hex and self.applies(pos) and \
                ev.unit.side in set(self.spec.get("sides") or [ev.unit.side]):
            side = name_of(self.ctx.game, "sides", ev.unit.side)
            self.say(pos, ev.unit, f"enters {ev.to.name}, {self.where}, not playable for the {side} side in this "
                                   f"scenario", ev.entry, ev.frm, ev.to)


class Immobile(DataRule):
    """R40: the listed ``units`` never move."""

    def move(self, ev, pos) -> None:
        if ev.unit.unit_id in set(self.spec.get("units") or []) and ev.frm.hex is not None and \
                ev.frm.name != ev.to.name:
            self.say(pos, ev.unit, f"{ev.unit.name} never moves", ev.entry, ev.frm, ev.to)


class ObjectiveEntry(DataRule):
    """R21: a unit enters a VP hex its side does not control only with an objective marker (``marker_kinds``)
    in that hex; an Unprepared unit (no ``prepared_values`` on its face) never enters one. The VP hexes are
    the scenario's (``hexes_by_scenario``); ``initial_control`` holds them all at the start except where
    ``control_by_scenario`` says otherwise; a hex changes hands when an enemy combat unit enters it."""

    def __init__(self, ctx, spec) -> None:
        super().__init__(ctx, spec)
        self.vp, self.control = {}, {}

    def begin(self, pos) -> None:
        super().begin(pos)
        grid, sc = self.ctx.grid, self.scenario or ""
        self.vp = {h: x for x in (self.spec.get("hexes_by_scenario") or {}).get(sc) or []
                   for h in [grid.parse(x)] if h is not None}
        for x, side in ((self.spec.get("control_by_scenario") or {}).get(sc) or {}).items():
            h = grid.parse(x)
            if h is not None:
                self.control[h] = side

    def move(self, ev, pos) -> None:
        h, u = ev.to.hex, ev.unit
        if h not in self.vp or ev.frm.hex == h or not combat(self.ctx, u, self.spec):
            return
        owner = self.control.get(h, self.spec.get("initial_control"))
        if owner == u.side:
            return
        self.control[h] = u.side
        if not prepared(pos, u, self.spec):
            self.say(pos, u, f"an Unprepared unit enters the enemy-controlled VP hex {ev.to.name}",
                     ev.entry, ev.frm, ev.to)
        elif not any(m.kind in set(self.spec.get("marker_kinds") or []) for m in pos.markers_at(h)):
            self.say(pos, u, f"enters the enemy-controlled VP hex {ev.to.name} with no OBJ marker there",
                     ev.entry, ev.frm, ev.to)


class HqZoc(DataRule):
    """R27: a unit of ``types`` (HQ) never enters an enemy ZOC not negated by a friendly combat unit there."""

    def move(self, ev, pos) -> None:
        u, h = ev.unit, ev.to.hex
        if h is None or ev.frm.hex == h or type_of(self.ctx, u) not in set(self.spec.get("types") or []):
            return
        if any(o is not u and o.side == u.side and combat(self.ctx, o, self.spec) for o in pos.units_at(h)):
            return
        z = enemy_zoc(self.ctx, pos, h, u.side, self.spec)
        if z:
            self.say(pos, u, f"enters {ev.to.name}, in the zone of control of {unit_labels(z)}, "
                             f"not negated by a friendly unit", ev.entry, ev.frm, ev.to)


class ZocToZoc(DataRule):
    """R26: no unit moves directly (one hex) from an enemy ZOC hex to another enemy ZOC hex."""

    def move(self, ev, pos) -> None:
        u, a, b = ev.unit, ev.frm.hex, ev.to.hex
        if a is None or b is None or self.ctx.grid.distance(a, b) != 1 or not combat(self.ctx, u, self.spec):
            return
        if type_of(self.ctx, u) in set(self.spec.get("zoc_exempt_types") or []):
            return
        za, zb = enemy_zoc(self.ctx, pos, a, u.side, self.spec), enemy_zoc(self.ctx, pos, b, u.side, self.spec)
        if za and zb:
            self.say(pos, u, f"moves from the zone of control of {unit_labels(za)} directly into "
                             f"that of {unit_labels(zb)}", ev.entry, ev.frm, ev.to)
