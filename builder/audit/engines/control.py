"""Control of every hex, with its history, from the data's ``control``.

``initial``: the owner at the start (EotID 4.1 D-F): entries ``{side, regions, areas, hexes}`` tried
in order, then the entry with ``default: true``; a hex none names has no owner. ``by`` lists what
takes control, in priority: ``occupation`` (the only side with units in the hex; ``occupied_by``
``combat`` (default) counts combat units only, ``any`` every unit) and ``zoc`` (an empty hex in the
ZOC of one side and of none of its enemies). Otherwise a hex keeps its last controller, which is
how "last occupier or last uncontested ZOC, else the initial owner" works out. Every change is
recorded with the log entry, turn and why (``occupation``/``zoc``; the latest 64 per hex); control is recomputed at every
logged position change, for the hexes that change can affect (the unit's old and new hex and
their ZOC hexes).
"""

from __future__ import annotations

from collections import deque
from typing import NamedTuple

from builder.audit.replay import Visitor

HISTORY = 64          # changes kept per hex (the latest): a long adversarial log keeps the memory flat


class ControlChange(NamedTuple):
    entry: int
    turn: int | None
    side: str | None
    how: str              # occupation | zoc


class ControlMap(Visitor):
    def __init__(self, ctx, zoc) -> None:
        self.ctx, self.zoc = ctx, zoc
        spec = ctx.spec("control")
        self.enabled = bool(spec)
        self.rule = spec.get("rule") or ""
        self.by = list(spec.get("by") or (["occupation", "zoc"] if spec else []))
        self.any_unit = spec.get("occupied_by") == "any"
        self.initial_rules = []
        self.default = None
        for e in spec.get("initial") or []:
            if not isinstance(e, dict) or not e.get("side"):
                continue
            if e.get("default"):
                self.default = e["side"]
                continue
            hexes = self.ctx.hexes_of(list(e.get("regions") or []) + list(e.get("areas") or []))
            hexes |= {h for h in (ctx.grid.parse(x) for x in e.get("hexes") or []) if h is not None}
            self.initial_rules.append((e["side"], hexes))
        self.current: dict = {}           # hex -> side, for hexes whose control changed in the log
        self.changes: dict = {}           # hex -> deque of its latest ControlChanges (at most HISTORY)
        self._entry = 0
        self._turn = None
        self._is_combat: dict = {}
        self._by_occupation, self._by_zoc = "occupation" in self.by, "zoc" in self.by
        self._initial: dict = {}          # hex -> its initial owner (looked up once)

    # ------------------------------------------------------------------ queries
    def initial(self, h) -> str | None:
        found = self._initial.get(h, False)
        if found is False:
            found = self.default
            for side, hexes in self.initial_rules:
                if h in hexes:
                    found = side
                    break
            self._initial[h] = found
        return found

    def owner(self, h) -> str | None:
        """The side controlling hex *h* now (None: no one)."""
        return self.current[h] if h in self.current else self.initial(h)

    def history(self, h) -> list:
        """The changes of the hex's control in the log, oldest first (the latest HISTORY of them)."""
        return list(self.changes.get(h, ()))

    def friendly(self, h, side: str) -> bool:
        return self.owner(h) == side

    # ------------------------------------------------------------------ updating
    def _occupants(self, h, pos) -> set:
        return {u.side for u in pos.units_at(h) if self.any_unit or self._combat(u)}

    def _combat(self, u) -> bool:
        found = self._is_combat.get(u.unit_id)
        if found is None:
            data = self.ctx.unit_data(u.unit_id) or {"type": u.props.get("Type")}
            found = self._is_combat[u.unit_id] = self.ctx.game.is_combat(data)
        return found

    def _judge(self, h, pos) -> None:
        new, how = None, ""
        here = pos.by_hex.get(h)
        if self._by_occupation and here:
            if self.any_unit:
                sides = {u.side for u in here.values()}
            else:
                sides = {u.side for u in here.values() if self._combat(u)}
            if len(sides) == 1:
                new, how = next(iter(sides)), "occupation"
            elif sides:
                return                      # contested occupation (should not happen): unchanged
        if new is None and self._by_zoc and not here and self.zoc.enabled:
            zs = self.zoc.count.get(h)      # side -> units projecting into h (no side with none)
            if zs and len(zs) == 1:
                side = next(iter(zs))
                if side not in self.ctx.enemies(side):
                    new, how = side, "zoc"
        if new is None or new == (self.current[h] if h in self.current else self.initial(h)):
            return
        self.current[h] = new
        found = self.changes.get(h)
        if found is None:
            found = self.changes[h] = deque(maxlen=HISTORY)
        found.append(ControlChange(self._entry, self._turn, new, how))

    def _around(self, hexes, pos) -> None:
        todo = set()
        neighbours = self.ctx.grid.neighbours
        for h in hexes:
            if h is None:
                continue
            todo.add(h)
            if self._by_zoc:
                todo.update(neighbours(h))
        judge = self._judge
        for h in todo:
            judge(h, pos)

    def begin(self, pos) -> None:
        if self.enabled:
            self._turn = pos.turn
            self._around({u.location.hex for u in pos.units.values()}, pos)
            self.changes.clear()            # the start position is the initial state, not a change

    def move(self, ev, pos) -> None:
        if self.enabled:
            self._entry, self._turn = ev.entry, pos.turn
            self._around((ev.frm.hex, ev.to.hex), pos)

    def add(self, ev, pos) -> None:
        if self.enabled:
            self._entry, self._turn = ev.entry, pos.turn
            self._around((ev.unit.location.hex,), pos)

    def remove(self, ev, pos) -> None:
        if self.enabled:
            self._entry, self._turn = ev.entry, pos.turn
            self._around((ev.unit.location.hex,), pos)

    def flip(self, ev, pos) -> None:
        if self.enabled:
            self._entry, self._turn = ev.entry, pos.turn
            self._around((ev.unit.location.hex,), pos)

    status = flip
