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

A hex's control depends only on its units' sides and on the sides whose ZOC reaches it, so of those
hexes only the ones whose units or projecting sides changed since they were last judged are judged
again (the position and the ZOC map say which; builder.audit.fastpaths: with it off, all of them).
"""

from __future__ import annotations

from array import array
from typing import NamedTuple

from builder.audit import fastpaths
from builder.audit.replay import Visitor

EMPTY: frozenset = frozenset()
HISTORY = 64          # changes kept per hex (the latest): a long adversarial log keeps the memory flat


class ControlChange(NamedTuple):
    entry: int
    turn: int | None
    side: str | None
    how: str              # occupation | zoc


class History:
    """A hex's latest control changes (at most HISTORY), compact: each change is its log entry (8 bytes) and
    the index (4 bytes) of its (turn, side, how) in a table the map shares, not an object of its own (a long
    log keeps ~45,000 of them: 12 instead of ~80 bytes each). Iterates as ControlChanges, oldest first."""

    __slots__ = ("entries", "kinds", "table")

    def __init__(self, table: list) -> None:
        self.entries, self.kinds, self.table = array("q"), array("I"), table

    def append(self, entry: int, kind: int) -> None:
        if len(self.entries) >= HISTORY:
            del self.entries[0]
            del self.kinds[0]
        self.entries.append(entry)
        self.kinds.append(kind)

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self):
        table = self.table
        for entry, k in zip(self.entries, self.kinds):
            turn, side, how = table[k]
            yield ControlChange(entry, turn, side, how)


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
        # hexes as small integers (ctx.hexes): the owner of every hex in a list by index, dirty hexes and the
        # areas an event can affect as sets of indices; current and changes stay keyed by Hex (the API)
        self.hexes, self._hex_index = ctx.hexes, ctx.hex_index
        self._nbr = ctx.neighbour_index() if self.enabled else ()
        self.current: dict = {}           # hex -> side, for hexes whose control changed in the log
        self.changes: dict = {}           # hex -> History: its latest ControlChanges (at most HISTORY)
        self._kinds: dict = {}            # (turn, side, how) -> its index in _kind_list (History's table)
        self._kind_list: list = []
        self._entry = 0
        self._turn = None
        self._is_combat: dict = {}
        self._self_hostile: dict = {}     # side -> whether the data makes it its own enemy
        self._by_occupation, self._by_zoc = "occupation" in self.by, "zoc" in self.by
        self._initial: dict = {}          # hex -> its initial owner (looked up once; hexes off the grid)
        self._owner: list = [self.initial(h) for h in self.hexes] if self.enabled else []   # hex index -> owner now
        self._fast = fastpaths.ENABLED
        self._dirty: set = set()          # hex indices whose units or ZOC sides changed since last judged
        self._occupancy: set | None = None   # the position's watch set (hex indices whose units changed)
        self._near: list = [None] * len(self.hexes)   # hex index -> the hex indices an event there can affect

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
        i = self._hex_index.get(h)
        if i is not None and self._owner:
            return self._owner[i]
        return self.current[h] if h in self.current else self.initial(h)

    def owner_index(self, i: int) -> str | None:
        """:meth:`owner` of the hex of index *i* (ctx.hexes)."""
        return self._owner[i] if self._owner else self.initial(self.hexes[i])

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

    def _judge(self, i: int, pos) -> None:
        """Judge the control of the hex of index *i* now."""
        new = None
        h = self.hexes[i]
        here = pos.by_hex.get(h)
        if here:                            # occupied: only the units there can take it
            if not self._by_occupation:
                return
            any_unit, is_combat = self.any_unit, self._is_combat
            for u in here.values():
                if not any_unit:
                    c = is_combat.get(u.unit_id)
                    if not (self._combat(u) if c is None else c):
                        continue
                if new is None:
                    new = u.side
                elif u.side != new:
                    return                  # contested occupation (should not happen): unchanged
            if new is None:
                return
            how = "occupation"
        else:                               # empty: the one side whose units project a ZOC into it
            if not self._by_zoc or not self.zoc.enabled:
                return
            for side, cnt in self.zoc.counts.items():
                if cnt[i]:
                    if new is not None:
                        return              # two sides: contested, unchanged
                    new = side
            if new is None:
                return
            hostile = self._self_hostile.get(new)
            if hostile is None:
                hostile = self._self_hostile[new] = new in self.ctx.enemies(new)
            if hostile:
                return
            how = "zoc"
        if new == self._owner[i]:
            return
        self._owner[i] = self.current[h] = new
        found = self.changes.get(h)
        if found is None:
            found = self.changes[h] = History(self._kind_list)
        kind = (self._turn, new, how)
        k = self._kinds.get(kind)
        if k is None:
            k = self._kinds[kind] = len(self._kind_list)
            self._kind_list.append(kind)
        found.append(self._entry, k)

    def _around(self, idx, pos) -> None:
        """Judge again the hexes an event at the hexes of indices *idx* (-1: not a hex) can affect: those
        hexes and, when ZOC takes control, their neighbours."""
        if self._fast and self._occupancy is not None:
            self._changed_around(*idx, pos=pos)
            return
        todo = set()
        nbr = self._nbr
        for i in idx:
            if i < 0:
                continue
            todo.add(i)
            if self._by_zoc:
                todo.update(nbr[i])
        judge = self._judge
        for i in todo:
            judge(i, pos)

    def _changed_around(self, frm: int, to: int = -1, *, pos) -> None:
        """:meth:`_around` of the hexes *frm* and *to* (indices, -1: none) for the hexes near them that
        changed since they were last judged (judging one that did not change changes nothing; the order
        they are judged in does not matter, each reads and writes its own hex only); the others stay marked
        until an event near them."""
        changed = self._occupancy           # the position's watch set, and the ZOC's: taken and emptied here
        touched, dirty = self.zoc.touched, self._dirty
        if touched:
            changed |= touched
            touched.clear()
        if dirty:                           # the changes earlier events left for later
            changed |= dirty
            dirty.clear()
        if not changed:
            return
        near = self._near
        a = b = EMPTY
        if frm >= 0:
            a = near[frm]
            if a is None:
                a = near[frm] = self._area(frm)
        if to >= 0:
            b = near[to]
            if b is None:
                b = near[to] = self._area(to)
        judge = self._judge
        for i in changed:
            if i in a or i in b:
                judge(i, pos)
            else:
                dirty.add(i)
        changed.clear()

    def _area(self, i: int) -> frozenset:
        """The hex indices whose control an event at hex *i* can change: *i*, and its neighbours when ZOC
        takes control."""
        return frozenset((i, *self._nbr[i])) if self._by_zoc else frozenset((i,))

    def _index(self, loc) -> int:
        i = loc.index
        if i < 0 and loc.hex is not None:               # a Location made by hand
            i = self._hex_index.get(loc.hex, -1)
        return i

    def begin(self, pos) -> None:
        if self.enabled:
            self._turn = pos.turn
            self._around_all({self._index(u.location) for u in pos.units.values()}, pos)
            self.changes.clear()            # the start position is the initial state, not a change
            if self._fast:                  # from now on, judge only what changed
                self._occupancy = pos.watch_index()
                self.zoc.touched = set()
                self._dirty.clear()

    def _around_all(self, idx, pos) -> None:
        todo = set()
        for i in idx:
            if i >= 0:
                todo.add(i)
                if self._by_zoc:
                    todo.update(self._nbr[i])
        for i in todo:
            self._judge(i, pos)

    def move(self, ev, pos) -> None:
        if self.enabled:
            self._entry = ev.entry
            ph = pos.phase
            self._turn = ph.turn if ph else None
            frm, to = ev.frm.index, ev.to.index
            if frm < 0 and ev.frm.hex is not None or to < 0 and ev.to.hex is not None:
                frm, to = self._index(ev.frm), self._index(ev.to)
            if self._occupancy is not None:       # (fastpaths: set only then)
                self._changed_around(frm, to, pos=pos)
            else:
                self._around((frm, to), pos)

    def add(self, ev, pos) -> None:
        if self.enabled:
            self._entry, self._turn = ev.entry, pos.turn
            self._around((self._index(ev.unit.location),), pos)

    def remove(self, ev, pos) -> None:
        if self.enabled:
            self._entry, self._turn = ev.entry, pos.turn
            self._around((self._index(ev.unit.location),), pos)

    def flip(self, ev, pos) -> None:
        if self.enabled:
            self._entry, self._turn = ev.entry, pos.turn
            self._around((self._index(ev.unit.location),), pos)

    status = flip
