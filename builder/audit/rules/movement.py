"""Movement rules: moving into prohibited terrain; a move longer than the movement allowance.

Movement phases come from the data's sequence of play: a phase with ``kind: movement``; for data
without kinds, a phase whose id or name has the word move/movement and none of the words that mark
another kind of movement (strategic, rail, sea, naval, air, retreat, advance, reaction). Only units of the phasing side (the player-turn's
``side``; both when it has none) are judged there, so retreats and the like are not.

The allowance is the ``<Face>_movement`` Marker property of the face showing (Front_movement,
Back_movement, Front2_movement ...). Within one phase a unit may be dragged in several pieces: the
cost is the cheapest path from where it stood at its first move in the phase to where it is now,
over the map's terrain (builder.audit.rules.terrain). Logs record only the ends of a move, so the
cheapest path is assumed; ZOC costs are not added (the cost is a lower bound).
"""

from __future__ import annotations

import re

from . import Rule
from .terrain import TerrainCosts

MOVE_WORD = re.compile(r"\bmov(e|es|ement|ements|ing)\b", re.I)
OTHER_MOVEMENT = re.compile(r"\b(strategic|rail|sea|naval|air|retreats?|advances?|reaction|amphibious)\b", re.I)


def is_movement_phase(phase: dict) -> bool:
    if "kind" in phase:   # the data says what the phase is
        return phase["kind"] == "movement"
    text = " ".join(str(phase.get(k) or "").replace("-", " ").replace("_", " ") for k in ("id", "name"))
    return bool(MOVE_WORD.search(text)) and not OTHER_MOVEMENT.search(text)


def movement_phase_ids(ctx) -> set:
    """(player-turn id, phase id) of every judged movement phase, over all the game's trackers."""
    out = set()
    for cal in ctx.calendars.values():
        for pt in cal.sequence:
            for ph in pt.get("phases") or []:
                if isinstance(ph, dict) and is_movement_phase(ph):
                    out.add((pt.get("id"), ph.get("id")))
    return out


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


class ProhibitedTerrain(Rule):
    id = "prohibited-terrain"
    description = "no move ends in terrain prohibited to the unit's movement class"

    def __init__(self, ctx, costs: TerrainCosts) -> None:
        super().__init__()
        self.ctx, self.costs = ctx, costs

    def move(self, ev, pos) -> None:
        h = ev.to.hex
        if h is None or (ev.frm.hex == h):
            return
        tt = self.costs.prohibited_terrain(h, ev.unit.movement_class)
        if tt is None:
            return
        why = "not playable" if tt.get("playable") is False else \
            f"prohibited to {ev.unit.movement_class or 'its movement class'}"
        self.report(pos, ev.unit, ev.frm, ev.to,
                    f"{ev.to.name} is {tt.get('name') or tt.get('id')}, {why}", ev.entry,
                    reference=tt.get("source") or "")


class MovementAllowance(Rule):
    id = "movement-allowance"
    description = "cheapest path cost of a move in a movement phase is within the unit's MA"

    def __init__(self, ctx, costs: TerrainCosts, value_id: str, reference: str) -> None:
        super().__init__()
        self.ctx, self.costs, self.value_id = ctx, costs, value_id
        self.reference = reference
        self.phases = movement_phase_ids(ctx)
        self._start: dict = {}          # piece id -> hex where it began moving in this phase
        self._reported: set = set()     # piece ids already reported in this phase
        self.not_judged = 0

    @classmethod
    def from_context(cls, ctx, costs) -> "MovementAllowance | None":
        values = ctx.game.by_id["values"]
        vid = "movement" if "movement" in values else next(
            (k for k, v in values.items() if re.search(r"movement", str(v.get("name") or ""), re.I)), None)
        if vid is None:
            return None
        return cls(ctx, costs, vid, (values.get(vid) or {}).get("source") or "")

    def phase(self, ev, pos) -> None:
        self._start.clear()
        self._reported.clear()

    def _judged(self, pos, unit) -> bool:
        ph = pos.phase
        if ph is None or (ph.player_turn, ph.phase_id) not in self.phases:
            return False
        return ph.side is None or ph.side == unit.side

    def move(self, ev, pos) -> None:
        u = ev.unit
        if ev.frm.hex is None or ev.to.hex is None:
            self._start.pop(u.piece_id, None)
            return
        if not self._judged(pos, u):
            return
        start = self._start.setdefault(u.piece_id, ev.frm.hex)
        if u.piece_id in self._reported or start == ev.to.hex:
            return
        raw = pos.factor(u, self.value_id)
        try:
            ma = float(raw)
        except (TypeError, ValueError):
            self.not_judged += 1
            return
        if self.costs.prohibited_terrain(ev.to.hex, u.movement_class) is not None:
            return                       # the prohibited-terrain rule reports it
        if self.costs.within(start, ev.to.hex, u.movement_class, ma):
            return
        cost = self.costs.cheapest(start, ev.to.hex, u.movement_class, ma)
        self._reported.add(u.piece_id)
        grid = self.ctx.grid
        frm_name = grid.name(start)
        face = self.ctx.face_key(u.unit_id, u.level)
        if cost is None:
            msg = f"no path from {frm_name} to {ev.to.name} for {u.movement_class or 'the unit'}"
        else:
            msg = (f"cheapest path {frm_name} -> {ev.to.name} costs {_fmt(cost)} MP over the terrain, "
                   f"more than the MA {_fmt(ma)} ({face} face, {u.movement_class or 'no movement class'})")
            if start != ev.frm.hex:
                msg += f"; {frm_name} is where it began moving this phase"
            if grid.distance(start, ev.to.hex) == 1:
                msg += "; a one-hex move (legal where the rules allow a minimum move)"
        self.report(pos, u, frm_name, ev.to, msg, ev.entry)
