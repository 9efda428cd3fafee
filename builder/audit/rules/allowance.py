"""A unit's movement allowance now: the printed MA of the face showing, times the phase's
multiplier (strategic 3 x MA ...), changed by the data's ``movement.modifiers``.

A modifier applies when every condition of its ``when`` holds: ``weather`` (the turn's weather id,
from the scenario's or the game's ``turns``), ``markers`` (a marker in the unit's hex: a marker id,
or ``id:front``/``id:back`` for the face it shows, e.g. EotID's OOS/EGS marker), ``statuses``,
``types``, ``sides``, ``nationalities``, ``movement_classes``, ``units`` (unit ids),
``arrival_turn: true`` (the unit came onto the map this turn), ``movements`` (the phase's kind of
movement: operational, strategic ...). It then ``multiply``s the allowance, ``add``s to it, and/or
caps it at ``max``; ``round`` (``down``/``up``) rounds the result. Modifiers apply in data order.
"""

from __future__ import annotations

import math

from builder.audit import fastpaths

_NO_TURN = object()         # a turn no position has (the weather memo's start)


class Allowance:
    def __init__(self, ctx, engines, value_id: str) -> None:
        self.ctx, self.engines, self.value_id = ctx, engines, value_id
        self.modifiers = [m for m in ctx.spec("movement").get("modifiers") or [] if isinstance(m, dict)]
        # each modifier's conditions as (key, wanted values), the marker look-up last (all must hold: the order
        # of the tests does not change the answer, only what it costs)
        self._conditions = [sorted(((k, (v,) if isinstance(v, str) else v) for k, v in (m.get("when") or {}).items()),
                                   key=lambda kv: kv[0] == "markers") for m in self.modifiers]
        self._weather: dict | None = None
        self._began = None
        keys = {k for m in self.modifiers for k in (m.get("when") or {})}
        self._by_markers = "markers" in keys    # an answer can depend on where the markers are
        self._by_arrival = "arrival_turn" in keys
        self._fast = fastpaths.ENABLED
        self._memo: dict = {}                   # (unit, what the answer reads of it and the game) -> answer
        self._weather_now = (_NO_TURN, None)    # (turn, its weather): the turn last asked for (fastpaths)

    def weather(self, turn) -> str | None:
        if self._weather is None:
            sc = self.engines.arrivals.scenario or {}
            turns = sc.get("turns") or self.ctx.game.doc.get("turns") or []
            self._weather = {t.get("turn"): t.get("weather") for t in turns if isinstance(t, dict)}
        return self._weather.get(turn)

    def printed(self, pos, unit) -> float | None:
        try:
            return float(pos.factor(unit, self.value_id))
        except (TypeError, ValueError):
            return None

    def _holds(self, when, unit, pos, perm, entering: bool = False) -> bool:
        """Whether every condition holds: *when* is [(key, wanted)]; *entering*: an ``arrival_turn: true``
        holds (the move brings the unit onto the map now)."""
        for key, want in when:
            if entering and key == "arrival_turn" and want is True:
                continue
            if key == "weather":
                ok = self.weather(pos.turn) in want
            elif key == "statuses":
                ok = bool(unit.statuses() & set(want))
            elif key == "types":
                ok = unit.props.get("Type") in want
            elif key == "sides":
                ok = unit.side in want
            elif key == "nationalities":
                ok = unit.props.get("Nationality") in want
            elif key == "movement_classes":
                ok = pos.movement_class(unit) in want
            elif key == "units":
                ok = unit.unit_id in want
            elif key == "movements":
                ok = perm is not None and perm.movement in want
            elif key == "arrival_turn":
                ok = bool(want) == self._arrived_now(unit, pos)
            elif key == "markers":
                ok = self._marked(unit, pos, want)
            else:
                return False                 # a condition this version cannot judge: not applied
            if not ok:
                return False
        return True

    def _arrived_now(self, unit, pos) -> bool:
        led = self.engines.ledger
        a = led.get(unit.piece_id)
        return led.arrived_turn.get(unit.piece_id) == pos.turn or bool(a and a.entered)

    def _marked(self, unit, pos, wanted) -> bool:
        """A marker on the unit: riding on it in its stack, or in the hex where it began the phase or
        is now (players leave an OOS marker behind when they drag the unit alone)."""
        if not pos.markers:
            return False                     # no marker anywhere
        hexes = {unit.location.hex, self._began.hex if self._began is not None else None} - {None}
        here = list(pos.markers_with(unit))
        for h in hexes:
            here += pos.markers_at(h)
        for w in wanted:
            mid, _, face = w.partition(":")
            for m in here:
                if m.marker_id == mid and (not face or (face == "front") == (m.level == 1)):
                    return True
        return False

    def of(self, unit, pos, perm=None, entering: bool = False, began=None) -> tuple[float | None, list[str]]:
        """(allowance, what changed it); None when the face shows no MA. *entering*: the move brings
        the unit onto the map now (it counts as arriving this turn); *began*: where it stood when the
        phase began (markers there count). Remembered (fastpaths) per unit and everything else the answer
        reads: its face and status, the turn's weather, the permission, whether it is arriving; not while
        a marker could change it (a modifier names markers and some are on the map). The answer is only read."""
        if not self._fast or (self._by_markers and pos.markers):
            return self._of(unit, pos, perm, entering, began)
        turn = pos.turn
        wt = self._weather_now
        if wt[0] != turn or wt[0] is _NO_TURN:
            wt = self._weather_now = (turn, self.weather(turn))
        if self._by_arrival:
            led = self.engines.ledger
            pid = unit.piece_id
            if led.arrived_turn.get(pid) == turn:
                arrived = True
            else:
                a = led.get(pid)
                arrived = bool(a and a.entered)
        else:
            arrived = None
        key = (id(unit), unit.level, unit.status, wt[1], id(perm), entering, arrived)
        memo = self._memo
        found = memo.get(key)
        if found is None or found[0] is not unit or found[1] is not perm:
            if len(memo) > 50_000:
                memo.clear()
            found = memo[key] = (unit, perm, self._of(unit, pos, perm, entering, began))
        return found[2]

    def _of(self, unit, pos, perm, entering, began) -> tuple[float | None, list[str]]:
        self._began = began
        ma = self.printed(pos, unit)
        if ma is None:
            return None, []
        why = []
        if perm is not None and perm.multiplier() != 1:
            ma *= perm.multiplier()
            why.append(f"x{perm.multiplier():g} ({perm.movement})")
        for m, when in zip(self.modifiers, self._conditions):
            if when and not self._holds(when, unit, pos, perm, entering):
                continue
            before = ma
            if isinstance(m.get("multiply"), (int, float)):
                ma *= m["multiply"]
            if isinstance(m.get("add"), (int, float)):
                ma += m["add"]
            if isinstance(m.get("max"), (int, float)):
                ma = min(ma, float(m["max"]))
            if m.get("round") == "down":
                ma = float(math.floor(ma + 1e-9))
            elif m.get("round") == "up":
                ma = float(math.ceil(ma - 1e-9))
            if ma != before:
                why.append(f"{m.get('name') or 'modifier'} {before:g} -> {ma:g}"
                           + (f" ({m['rule']})" if m.get("rule") else ""))
        return ma, why
