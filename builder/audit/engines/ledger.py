"""The activity ledger: what each unit did in the current phase and player-turn.

Per unit (piece id) and phase: the moves (drags onto a new location), by which kind of movement
(the phase's permission: operational, strategic, sea ...; ``none`` where the phase allows the unit
none), where it stood when it first moved, the log entries, flips, whether it came onto the map
(from off-map, a staging zone or a box) or was removed. Per player-turn: the kinds of movement each
unit used (a strategic mover may not also move operationally, EotID 5.1.5 A). Per game: the turn a
unit first came onto the map (a reinforcement's arrival turn, for allowances doubled on arrival).

``finished``: units that moved in the phase and then saw another unit move (another log entry with
moves); a unit's next move after that is a second move ("several drags in a row are one move").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from builder.audit import fastpaths
from builder.audit.replay import Visitor


@dataclass(slots=True)
class Activity:
    moves: int = 0
    kinds: dict = field(default_factory=dict)      # movement kind -> number of drags
    start: object = None                           # Location where it stood at its first move
    entries: list = field(default_factory=list)
    flips: int = 0
    entered: bool = False                          # came onto the map this phase
    entered_at: object = None                      # the hex it came onto the map at
    removed: bool = False
    added: bool = False


_NO_PHASE = object()        # a phase no position has (the memos' start: not the object itself, no cycle)


def on_map(loc) -> bool:
    return loc.hex is not None


class Ledger(Visitor):
    def __init__(self, ctx, permissions) -> None:
        self.ctx, self.permissions = ctx, permissions
        self.phase_activity: dict = {}      # piece id -> Activity, this phase
        self.turn_kinds: dict = {}          # piece id -> {movement kinds} this player-turn
        self.arrived_turn: dict = {}        # piece id -> turn it first came onto the map in the log
        self.finished: set = set()          # moved, then another unit moved (this phase)
        self._current: set = set()          # moved in the latest entry with moves
        self._moved_now: set = set()        # moved in this entry
        self._player_turn = None
        self._kind_phase, self._kinds = _NO_PHASE, {}   # kind_of's answers in the phase they were given for
        self._fast = fastpaths.ENABLED

    def get(self, piece_id: str) -> Activity | None:
        return self.phase_activity.get(piece_id)

    def _act(self, piece_id: str) -> Activity:
        a = self.phase_activity.get(piece_id)
        if a is None:
            a = self.phase_activity[piece_id] = Activity()
        return a

    def kind_of(self, unit, pos) -> str:
        """The kind of movement the phase gives the unit ("none": none); one answer per side and unit type
        in a phase (fastpaths)."""
        if not self._fast:
            perms = self.permissions.allowing(pos.phase, unit.side, unit.props.get("Type"))
            return perms[0].movement if perms else "none"
        if pos.phase is not self._kind_phase:
            self._kind_phase, self._kinds = pos.phase, {}
        key = (unit.side, unit.props.get("Type"))
        found = self._kinds.get(key)
        if found is None:
            perms = self.permissions.allowing(pos.phase, unit.side, unit.props.get("Type"))
            found = self._kinds[key] = perms[0].movement if perms else "none"
        return found

    # ------------------------------------------------------------------ events
    def begin(self, pos) -> None:
        self._player_turn = (pos.turn, pos.phase.player_turn) if pos.phase else None

    def move(self, ev, pos) -> None:
        pid = ev.unit.piece_id
        a = self.phase_activity.get(pid)
        if a is None:
            a = self.phase_activity[pid] = Activity()
            a.start = ev.frm
        elif a.start is None:
            a.start = ev.frm
        a.moves += 1
        u = ev.unit
        kind = self._kinds.get((u.side, u.props.get("Type"))) if self._fast and pos.phase is self._kind_phase else None
        if kind is None:
            kind = self.kind_of(u, pos)
        kinds = a.kinds
        kinds[kind] = kinds.get(kind, 0) + 1
        entries = a.entries
        if not entries or entries[-1] != ev.entry:
            entries.append(ev.entry)
        if ev.to.hex is not None and ev.frm.hex is None:
            a.entered = True
            if a.entered_at is None:
                a.entered_at = ev.to.hex
            self.arrived_turn.setdefault(pid, pos.turn)
        used = self.turn_kinds.get(pid)
        if used is None:
            used = self.turn_kinds[pid] = set()
        used.add(kind)
        self._moved_now.add(pid)

    def flip(self, ev, pos) -> None:
        self._act(ev.unit.piece_id).flips += 1

    def add(self, ev, pos) -> None:
        a = self._act(ev.unit.piece_id)
        a.added = True
        if on_map(ev.unit.location):
            a.entered = True
            self.arrived_turn.setdefault(ev.unit.piece_id, pos.turn)

    def remove(self, ev, pos) -> None:
        self._act(ev.unit.piece_id).removed = True

    def end_entry(self, entry, pos) -> None:
        if self._moved_now:
            self.finished |= self._current - self._moved_now
            self._current = self._moved_now
            self._moved_now = set()

    def phase(self, ev, pos) -> None:
        self.phase_activity = {}
        self.finished, self._current, self._moved_now = set(), set(), set()
        pt = (ev.new.turn, ev.new.player_turn)
        if pt != self._player_turn:
            self.turn_kinds = {}
            self._player_turn = pt
