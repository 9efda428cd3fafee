"""Arrivals: the scenario's reinforcement schedule against what actually entered, when and where.

The scenario is the one the save names (its savedata description), else the one whose set-up and
reinforcements best match the units of the start position
(at least half of the units in either, by the Jaccard index; a scenario with its own turn tracker
when that tracker is the one running); without one nothing is scheduled. A scheduled entry
(``reinforcements``) gives the unit's ``turn`` (an ``event`` instead: its turn is not known), its
``side``, and where it may enter: ``hex``, ``hexes``, ``area``/``entry``/``entries`` (setup or entry
areas, regions: their hexes), ``box``/``boxes``, ``at_unit`` (the hex of that unit, or adjacent).
An entry naming an area without hexes in the data cannot be judged for place (``hexes`` None).

An arrival is a unit's first move in the log from off-map, a staging zone or a box onto a hex (or
into a box the schedule names), or its addition on a hex during play.
"""

from __future__ import annotations

from dataclasses import dataclass

from builder.audit.replay import Visitor


@dataclass
class Scheduled:
    unit: str
    turn: int | None
    side: str | None
    hexes: set | None           # where it may enter (None: anywhere / not known)
    boxes: set                  # zone names of the boxes it may arrive in
    at_unit: str | None
    where: str                  # the schedule's words for the place, for messages
    event: str | None
    rule: str
    entry: dict


@dataclass
class Arrival:
    unit: str
    piece_id: str
    turn: int | None
    phase: object
    frm: object
    to: object
    entry: int


def unit_ids(e: dict) -> list:
    return [e["unit"]] if isinstance(e.get("unit"), str) else [u for u in e.get("units") or [] if isinstance(u, str)]


def at_scenario_start(scenario: dict | None, pos) -> bool:
    """Whether the position is the scenario's start: its first turn, the first phase on the tracker."""
    ph = pos.phase
    if scenario is None or ph is None or not ph.index:
        return False
    first = scenario.get("first_turn")
    return (first is None or ph.turn == first) and tuple(ph.index[1:]) == (0, 0)


CHOICES = ("area", "hexes", "near", "boxes", "at_unit")


def setup_choice_allows(ctx, scenario: dict | None, unit, to, pos) -> bool:
    """Whether the unit's set-up entry in *scenario* is a choice that allows location *to*."""
    for e in (scenario or {}).get("setup") or []:
        if not isinstance(e, dict) or unit.unit_id not in unit_ids(e):
            continue
        if not any(k in e for k in CHOICES):
            return False
        if to.hex is None:
            return to.name in {ctx.box_zone.get(b, b) for b in e.get("boxes") or []}
        if isinstance(e.get("near"), dict):
            c = ctx.grid.parse(str(e["near"].get("hex")))
            return c is not None and ctx.grid.distance(c, to.hex) <= int(e["near"].get("within") or 0)
        if isinstance(e.get("at_unit"), str):
            other = next((u for u in pos.units.values() if u.unit_id == e["at_unit"]), None)
            return other is not None and other.location.hex == to.hex
        hexes = ctx.hexes_of([e["area"]]) if isinstance(e.get("area"), str) else set()
        hexes |= {h for h in (ctx.grid.parse(x) for x in e.get("hexes") or [] if isinstance(x, str)) if h}
        return not hexes or to.hex in hexes
    return False


def detect_scenario(ctx, pos) -> dict | None:
    want = (getattr(pos, "save_description", "") or "").strip().lower()
    if want:                                # our scenario saves (and scripted games) name it
        for sc in ctx.game.by_id["scenarios"].values():
            if want in {str(sc.get("name") or "").lower(), str(sc.get("id")).lower()}:
                return sc
    present = {u.unit_id for u in pos.units.values()}
    if not present:
        return None
    best, score = None, 0.0
    for sid, sc in ctx.game.by_id["scenarios"].items():
        ids = {u for key in ("setup", "reinforcements") for e in sc.get(key) or [] if isinstance(e, dict)
               for u in unit_ids(e)}
        if not ids:
            continue
        s = len(ids & present) / len(ids | present)
        if pos.tracker and ctx.scenario_tracker.get(sid) == pos.tracker and ctx.own_tracker(sid):
            s += 0.5
        if s > score:
            best, score = sc, s
    return best if score >= 0.5 else None


class Arrivals(Visitor):
    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.scenario: dict | None = None
        self.schedule: dict = {}            # unit id -> Scheduled
        self.arrived: dict = {}             # unit id -> Arrival
        self.setup_stage = False            # set by Engines: moves of the players' set-up are no arrival

    def _build(self, sc: dict) -> None:
        ctx = self.ctx
        for e in sc.get("reinforcements") or []:
            if not isinstance(e, dict):
                continue
            hexes, where = None, ""
            names = [e[k] for k in ("area", "entry") if isinstance(e.get(k), str)] + list(e.get("entries") or [])
            if isinstance(e.get("hex"), str):
                names, where = [], e["hex"]
                hexes = {h for h in [ctx.grid.parse(e["hex"])] if h is not None}
            elif isinstance(e.get("hexes"), list):
                hexes = {h for h in (ctx.grid.parse(x) for x in e["hexes"] if isinstance(x, str)) if h is not None}
                where = ", ".join(e["hexes"])
            if names:
                found = ctx.hexes_of(names)
                hexes = (hexes or set()) | found if found else hexes
                where = where or ", ".join(names)
            boxes = {ctx.box_zone.get(b, b) for b in ([e["box"]] if isinstance(e.get("box"), str) else [])
                     + list(e.get("boxes") or [])}
            if boxes:
                where = where or ", ".join(sorted(boxes))
            for uid in unit_ids(e):
                side = e.get("side") or ctx.game.side_of(ctx.unit_data(uid))
                self.schedule.setdefault(uid, Scheduled(
                    uid, e.get("turn") if isinstance(e.get("turn"), int) else None, side, hexes, boxes,
                    e.get("at_unit") if isinstance(e.get("at_unit"), str) else None,
                    where or (f"with {e['at_unit']}" if e.get("at_unit") else ""), e.get("event"),
                    e.get("source") or "", e))

    def begin(self, pos) -> None:
        self.scenario = detect_scenario(self.ctx, pos)
        if self.scenario is not None:
            self._build(self.scenario)
        # units already on the map at the start have arrived (earlier in the game)
        for u in pos.units.values():
            if u.location.hex is not None and u.unit_id in self.schedule:
                self.arrived[u.unit_id] = Arrival(u.unit_id, u.piece_id, None, None, None, u.location, 0)

    def arrival_of(self, ev, pos) -> Arrival | None:
        """The arrival this move or addition is, if it is one (not yet recorded)."""
        u = ev.unit
        if u.unit_id in self.arrived:
            return None
        to = getattr(ev, "to", None) or u.location
        frm = getattr(ev, "frm", None)
        if to.hex is None:
            sched = self.schedule.get(u.unit_id)
            if not (sched and to.name in sched.boxes):
                return None
        elif frm is not None and frm.hex is not None:
            return None
        return Arrival(u.unit_id, u.piece_id, pos.turn, pos.phase, frm, to, ev.entry)

    def move(self, ev, pos) -> None:
        if ev.frm.hex is not None and ev.to.hex is not None:
            return                          # from a hex to a hex: never an arrival (arrival_of's answer)
        a = self.arrival_of(ev, pos)
        if a is not None:
            self.arrived[a.unit] = a

    def add(self, ev, pos) -> None:
        a = self.arrival_of(ev, pos)
        if a is not None:
            self.arrived[a.unit] = a
