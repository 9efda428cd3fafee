"""Replay a .vsav/.vlog: the start position from the save part, then every logged command in order.

vassal-format.md §4.8/§4.10: a log is a complete save (``begin_save`` ... ``end_save``) followed by
one top-level entry per player action (``LOG``-wrapped commands, ESC-nested; very old logs have
bare commands). Each entry is applied command by command; after the whole entry visitors get
``end_entry`` (a stack dragged into a hex arrives as one move, and stacking is judged on arrival).

Applied: ``+/`` (pieces, stacks), ``M/`` (a stack's members move with it), ``D/`` (the Face and Losses
layers' levels and the Status property are re-read), ``-/``, ``TURN`` (turn, player-turn, phase). Commands
between ``UNDO true`` and ``UNDO false`` are applied and flagged ``undo`` (rules ignore them).
Anything that cannot be interpreted becomes a warning; nothing here raises except for a file that
cannot be read at all (:class:`AuditInputError`, one line).

VASSAL logs record where a move starts and ends, never the hexes in between.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from operator import itemgetter

from builder.audit.context import AuditContext, Location, PhaseInfo
from builder.audit.errors import AuditInputError
from builder.audit.position import MarkerPiece, Position, Unit
from builder.vassal.commands import (AddPiece, ChangePiece, Chat, Command, Compound, EndSave, Log, Malformed,
                                     MovePiece, RemovePiece, TurnTracker, Undo, iter_leaves)
from builder.vassal.errors import TruncatedError, VassalFormatError
from builder.vassal.savefile import SaveStream
from builder.vassal.piece import split_layers
from builder.vassal.sequence import decode, parse_java_int
from builder.vassal.traits import DynamicProperty, Embellishment, trait_from_type

FACE_LAYER, STATUS, LOSS_LAYER = "Face", "Status", "Losses"


# ---------------------------------------------------------------------- events
@dataclass(slots=True)
class MoveEvent:
    unit: Unit
    frm: Location
    to: Location
    entry: int
    undo: bool = False
    with_stack: bool = False


@dataclass(slots=True)
class FlipEvent:
    unit: Unit
    old_level: int
    new_level: int
    entry: int
    undo: bool = False


@dataclass(slots=True)
class StatusEvent:
    unit: Unit
    old: str
    new: str
    entry: int
    undo: bool = False


@dataclass(slots=True)
class LossEvent:
    """A unit's Losses layer changed (steps lost, or regained by a replacement)."""

    unit: Unit
    old: int
    new: int
    entry: int
    undo: bool = False


@dataclass(slots=True)
class RemoveEvent:
    unit: Unit
    entry: int
    undo: bool = False


@dataclass(slots=True)
class AddEvent:
    unit: Unit
    entry: int
    undo: bool = False


@dataclass(slots=True)
class MarkerEvent:
    """A marker added, moved, flipped (face level) or removed: ``kind`` add | move | flip | remove."""

    marker: object            # position.MarkerPiece
    kind: str
    frm: Location | None
    to: Location | None
    entry: int
    undo: bool = False
    old_level: int = 1


@dataclass(slots=True)
class ChatEvent:
    text: str
    entry: int
    undo: bool = False


@dataclass(slots=True)
class PhaseEvent:
    old: PhaseInfo | None
    new: PhaseInfo
    entry: int


class Visitor:
    """Receives the replay's events in order. Override what you need."""

    def begin(self, pos: Position) -> None: ...
    def move(self, ev: MoveEvent, pos: Position) -> None: ...
    def flip(self, ev: FlipEvent, pos: Position) -> None: ...
    def status(self, ev: StatusEvent, pos: Position) -> None: ...
    def remove(self, ev: RemoveEvent, pos: Position) -> None: ...
    def add(self, ev: AddEvent, pos: Position) -> None: ...
    def phase(self, ev: PhaseEvent, pos: Position) -> None: ...
    def marker(self, ev: MarkerEvent, pos: Position) -> None: ...
    def losses(self, ev: LossEvent, pos: Position) -> None: ...
    def chat(self, ev: ChatEvent, pos: Position) -> None: ...
    def end_entry(self, entry: int, pos: Position) -> None: ...
    def end(self, pos: Position) -> None: ...

    def wants(self, event: str) -> bool:
        """Whether the visitor has anything to do on *event* (asked once, when the replay starts; False: the
        event is not even built for it). A visitor overriding a handler it may not need can say so here."""
        return True


@dataclass
class ReplayStats:
    entries: int = 0
    moves: int = 0                  # unit moves applied (a stack of 3 dragged = 3)
    turns: set = field(default_factory=set)
    units: int = 0                  # units in the start position
    foreign: int = 0                # pieces with neither UnitId nor MarkerId
    warnings: list = field(default_factory=list)
    is_log: bool = False
    setup_commands: int = 0         # top-level commands up to end_save (entry k is command setup + k)
    unit_ids: set = field(default_factory=set)        # UnitIds seen
    unknown_unit_ids: set = field(default_factory=set)  # ... of them not in the game's data


# ---------------------------------------------------------------------- reading
def _name(path) -> str:
    return os.fspath(path) if not isinstance(path, (bytes, bytearray)) else "input"


def open_stream(path, max_saved_game: int | None = None) -> SaveStream:
    """A save or log opened for streaming (builder.vassal.savefile.SaveStream; *max_saved_game*: the
    largest command text accepted, default the codec's); AuditInputError (one line) if it cannot be opened."""
    name = _name(path)
    if not isinstance(path, (bytes, bytearray)) and not os.path.exists(path):
        raise AuditInputError(f"{name}: no such file")
    try:
        return SaveStream(path) if max_saved_game is None else SaveStream(path, max_saved_game=max_saved_game)
    except VassalFormatError as exc:
        raise AuditInputError(f"{name}: not a readable VASSAL save or log: {exc}") from None


def read_commands(path):
    """The command tree of a save or log; AuditInputError (one line) if it cannot be read."""
    return read_save_file(path).commands


def save_description(save) -> str:
    """The description VASSAL stores in a save's ``savedata`` (our scenario saves: the scenario's name)."""
    raw = save.savedata
    if not raw:
        return ""
    try:
        from lxml import etree
        el = etree.fromstring(raw).find("description")
    except Exception:                       # noqa: BLE001 - metadata is optional; never fail on it
        return ""
    return (el.text or "").strip() if el is not None else ""


def _unreadable(name: str, exc: Exception) -> AuditInputError:
    """One line for a save the codec cannot read: malformed, or nested too deeply."""
    if isinstance(exc, RecursionError):
        return AuditInputError(f"{name}: commands nested too deeply to read")
    return AuditInputError(f"{name}: not a readable VASSAL save or log: {exc}")


def read_save_file(path):
    """The save or log as a SaveFile; AuditInputError (one line) if it cannot be read."""
    from builder.vassal.savefile import read_save
    name = _name(path)
    try:
        save = read_save(path)
        save.commands                       # decode now, so a bad command text fails here
        return save
    except FileNotFoundError:
        raise AuditInputError(f"{name}: no such file") from None
    except OSError as exc:
        raise AuditInputError(f"{name}: cannot read: {exc.strerror or exc}") from None
    except (VassalFormatError, RecursionError) as exc:
        raise _unreadable(name, exc) from None


def replay_stream(stream: SaveStream, ctx: AuditContext, visitors: list[Visitor], name: str = "input") -> ReplayStats:
    """Replay a stream, one top-level command at a time (the command tree is never held whole);
    AuditInputError (one line, with where it broke) if the file is truncated or undecodable."""
    replayer = Replayer(ctx, visitors)
    replayer.pos.save_description = save_description(stream)
    try:
        stats = replayer.run_items(map(_NODE, stream.entries(chat=bool(replayer._on_chat))))   # (see run_items)
    except TruncatedError as exc:
        raise AuditInputError(f"{name}: cannot audit: {exc}") from None
    except (VassalFormatError, RecursionError) as exc:
        raise _unreadable(name, exc) from None
    if stream.unwrapped:                    # entries the stream gave without their Log: a log all the same
        stats.is_log = True
    return stats


def replay_file(path, ctx: AuditContext, visitors: list[Visitor]) -> ReplayStats:
    return replay_stream(open_stream(path), ctx, visitors, _name(path))


# ---------------------------------------------------------------------- replayer
EVENTS = ("move", "flip", "status", "remove", "add", "phase", "marker", "losses", "chat")


def _handlers(visitors, name: str) -> list:
    """The bound *name* handlers of the visitors that have one of their own (not the Visitor's no-op),
    in order: an event nobody handles is not even built."""
    base = getattr(Visitor, name)
    return [getattr(v, name) for v in visitors
            if (getattr(type(v), name, base) is not base or name in getattr(v, "__dict__", ()))
            and (not hasattr(v, "wants") or v.wants(name))]


class Replayer:
    def __init__(self, ctx: AuditContext, visitors: list[Visitor]) -> None:
        self.ctx = ctx
        self.visitors = list(visitors)
        self._on = {name: _handlers(self.visitors, name) for name in EVENTS + ("end_entry",)}
        self._on_move, self._on_chat = self._on["move"], self._on["chat"]
        # the command classes the replay applies, by class (a subclass goes through _apply's tests); the
        # class's functions, not bound methods, so that the replayer is no reference cycle: all it holds
        # (the position, the rules and their caches) is freed as soon as the audit ends, not at some later
        # full collection (a second audit with the same context would otherwise freeze it as garbage)
        cls = type(self)
        self._by_class = {MovePiece: cls._move, ChangePiece: cls._change, AddPiece: cls._add,
                          RemovePiece: cls._remove, TurnTracker: cls._turn, Chat: cls._chat,
                          Undo: cls._undo_mark, Malformed: cls._count_malformed}
        self._apply_any = cls._apply
        self.pos = Position(ctx)
        self.stats = ReplayStats()
        self._undo = False
        self._entry = 0
        self._setup = True
        self._unknown_ids: dict[str, int] = {}
        self._bad_pieces = 0
        self._malformed = 0
        self._unknown_units: set = set()
        self._trackers_unknown: set = set()
        self._failed = 0
        self._first_failure = ""

    # -------------------------------------------------------------- driving
    def run(self, root) -> ReplayStats:
        """Replay a whole command tree (see :meth:`run_items` for a stream)."""
        return self.run_items(root.items if isinstance(root, Compound) else [root])

    def run_items(self, items) -> ReplayStats:
        """Replay top-level commands given one at a time: the start position up to ``end_save``
        (all of them when there is none), then each logged entry."""
        number = 0
        stats, pos, apply = self.stats, self.pos, self._apply_safely
        end_entry = self._on["end_entry"]
        leaf = _LEAF
        move = type(self)._move
        quiet_chat = not self._on_chat          # a chat line nobody reads does nothing
        for item in items:
            number += 1
            if self._setup:
                for _, c in iter_leaves(item):
                    apply(c)
                if isinstance(item, EndSave):
                    stats.setup_commands = number
                    self._begin()
                continue
            self._entry += 1
            stats.entries += 1
            cls = type(item)
            if cls is Log:
                inner = item.inner
                cls = type(inner)
                if cls in leaf:
                    stats.is_log = True
            else:
                inner = item                    # a bare command, or a log entry the stream unwrapped
            if cls in leaf:                     # the usual entry: one (logged) command
                if cls is MovePiece:            # _apply_safely for the commonest two, spelt out
                    try:
                        move(self, inner)
                    except _FAILURES as exc:
                        self._failure(inner, exc)
                elif cls is not Chat or not quiet_chat:
                    apply(inner)
            else:
                for c in _flatten(item):
                    if isinstance(c, Log):
                        stats.is_log = True
                        continue
                    apply(c)
            for h in end_entry:
                h(self._entry, pos)
        if self._setup:
            self.stats.setup_commands = number
            self._begin()
        for v in self.visitors:
            v.end(self.pos)
        self._summarise()
        return self.stats

    def _begin(self) -> None:
        self._setup = False
        self.stats.units = len(self.pos.units)
        if self.pos.turn is not None:
            self.stats.turns.add(self.pos.turn)
        for v in self.visitors:
            v.begin(self.pos)

    def _warn(self, message: str) -> None:
        self.stats.warnings.append(message)

    def _summarise(self) -> None:
        st = self.stats
        if st.foreign and not self.pos.units and not st.units:
            self._warn(f"{st.foreign} piece(s) carry no UnitId: not a module built by vassal-builder "
                       f"(or unknown pieces); nothing could be audited")
        elif st.foreign:
            self._warn(f"{st.foreign} piece(s) without a UnitId or MarkerId (unknown pieces) were ignored")
        if self._unknown_ids:
            n = sum(self._unknown_ids.values())
            first = ", ".join("(no id)" if p is None else str(p) for p in list(self._unknown_ids)[:3])
            self._warn(f"{n} command(s) name {len(self._unknown_ids)} piece id(s) the save never added "
                       f"(ignored), e.g. {first}")
        if self._bad_pieces:
            self._warn(f"{self._bad_pieces} piece(s) could not be decoded and were ignored")
        if self._failed:
            self._warn(f"{self._failed} command(s) could not be interpreted and were skipped "
                       f"(first: {self._first_failure})")
        if self._malformed:
            self._warn(f"{self._malformed} malformed command(s) were skipped")
        if self._unknown_units:
            few = ", ".join(sorted(self._unknown_units)[:5])
            self._warn(f"{len(self._unknown_units)} UnitId(s) not in the game's data ({few}): "
                       f"a save of another game or version?")

    # -------------------------------------------------------------- commands
    def _apply_safely(self, c: Command) -> None:
        try:
            self._by_class.get(type(c), self._apply_any)(self, c)
        except _FAILURES as exc:
            self._failure(c, exc)

    def _failure(self, c: Command, exc: Exception) -> None:
        self._failed += 1
        if self._failed == 1:
            self._first_failure = f"{c.TYPE}: {type(exc).__name__}: {exc}"[:160]

    def _apply(self, c: Command) -> None:
        if isinstance(c, MovePiece):
            self._move(c)
        elif isinstance(c, ChangePiece):
            self._change(c)
        elif isinstance(c, AddPiece):
            self._add(c)
        elif isinstance(c, RemovePiece):
            self._remove(c)
        elif isinstance(c, TurnTracker):
            self._turn(c)
        elif isinstance(c, Chat):
            self._chat(c)
        elif isinstance(c, Undo):
            self._undo_mark(c)
        elif isinstance(c, Malformed):
            self._count_malformed(c)

    def _chat(self, c: Chat) -> None:
        if not self._setup and self._on_chat:
            ev = ChatEvent(c.text, self._entry, self._undo)
            for h in self._on_chat:
                h(ev, self.pos)

    def _undo_mark(self, c: Undo) -> None:
        self._undo = bool(c.fields()["in_progress"])

    def _count_malformed(self, c: Malformed) -> None:
        self._malformed += 1

    def _add(self, c: AddPiece) -> None:
        pid = c.piece_id
        if pid is None:
            return
        try:
            piece = c.piece
        except VassalFormatError:
            self._bad_pieces += 1
            return
        x, y = piece.position
        loc = self.ctx.locate(piece.map_id, x, y)
        if piece.is_stack:
            self.pos.set_stack(pid, list(piece.inner.members), loc)
            return
        if piece.is_deck:
            self.pos.others[pid] = loc
            return
        props = piece.properties()
        uid = props.get("UnitId")
        if not uid:
            if "MarkerId" not in props:
                self.stats.foreign += 1
            else:
                self._add_marker(pid, props, piece, c, loc)
            self.pos.others[pid] = loc
            return
        self.stats.unit_ids.add(uid)
        if uid not in self.ctx.defs:
            self._unknown_units.add(uid)
            self.stats.unknown_unit_ids.add(uid)
        types = split_layers(c.type_string)
        face_i = status_i = loss_i = None
        level, status, losses = 1, "", 0
        for i, t in enumerate(piece.layers):
            if face_i is None and isinstance(t, Embellishment) and t.get("name") == FACE_LAYER:
                face_i, level = i, t.level or 1
            elif loss_i is None and isinstance(t, Embellishment) and t.get("name") == LOSS_LAYER:
                loss_i, losses = i, max((t.level or 1) - 1, 0)
            elif status_i is None and isinstance(t, DynamicProperty) and t.get("property_name") == STATUS:
                status_i, status = i, t.value
        unit = Unit(pid, uid, piece.name, props, level, status, loc, face_i, status_i, types,
                    losses=losses, loss_index=loss_i)
        self.pos.add_unit(unit)
        if not self._setup:
            self._emit("add", AddEvent(unit, self._entry, self._undo))

    def _add_marker(self, pid, props, piece, c, loc) -> None:
        face_i, level = None, 1
        for i, t in enumerate(piece.layers):
            if isinstance(t, Embellishment) and t.get("name") == FACE_LAYER:
                face_i, level = i, t.level or 1
                break
        mk = MarkerPiece(pid, props.get("MarkerId", ""), props.get("Kind", ""), level, loc, face_i,
                         split_layers(c.type_string))
        self.pos.add_marker(mk)
        if not self._setup:
            self._emit("marker", MarkerEvent(mk, "add", None, loc, self._entry, self._undo))

    def _move(self, c: MovePiece) -> None:
        pid, m, x, y, under = c.destination()
        pos = self.pos
        ctx = self.ctx
        new = ctx._loc_cache.get((m, x, y))         # ctx.locate's cache, read here (every move asks it)
        if new is None:
            new = ctx.locate(m, x, y)
        u = pos.units.get(pid)
        if u is not None:                   # the usual move: one unit
            old = u.location
            pos.set_location(u, new)
            self.stats.moves += 1
            if self._on_move:
                ev = MoveEvent(u, old, new, self._entry, self._undo, False)
                for h in self._on_move:
                    h(ev, pos)
            if under is not None or pid in pos.parent:
                pos.join(pid, under)        # (a lone piece dropped on no stack stays out of every stack)
            return
        if pid in pos.stacks:
            members = list(pos.stacks[pid])
            pos.others[pid] = new
            for m in members:
                self._move_one(m, new, with_stack=True)
            if under and under != pid:
                for m in members:
                    pos.join(m, under)
            return
        if pid in pos.units or pid in pos.others:
            self._move_one(pid, new, with_stack=False)
            pos.join(pid, under)
            return
        self._unknown_ids[pid] = self._unknown_ids.get(pid, 0) + 1

    def _move_one(self, pid: str, new: Location, with_stack: bool) -> None:
        u = self.pos.units.get(pid)
        if u is None:
            self.pos.others[pid] = new
            mk = self.pos.markers.get(pid)
            if mk is not None:
                old = mk.location
                self.pos.set_marker_location(mk, new)
                if not self._setup:
                    self._emit("marker", MarkerEvent(mk, "move", old, new, self._entry, self._undo))
            return
        old = u.location
        self.pos.set_location(u, new)
        self.stats.moves += 1
        if self._on_move:
            self._emit("move", MoveEvent(u, old, new, self._entry, self._undo, with_stack))

    def _change(self, c: ChangePiece) -> None:
        u = self.pos.units.get(c.piece_id)
        mk = self.pos.markers.get(c.piece_id)
        if u is None and mk is not None:
            self._change_marker(mk, c)
            return
        if u is None:
            if c.piece_id not in self.pos.others:
                self._unknown_ids[c.piece_id] = self._unknown_ids.get(c.piece_id, 0) + 1
            return
        try:
            states = split_layers(c.new_state)
            types = u.layer_types
            if u.face_index is not None and u.face_index < len(states):
                level = trait_from_type(types[u.face_index], states[u.face_index]).level or 1
            else:
                level = u.level
            old_status = u.status
            if u.status_index is not None and u.status_index < len(states):
                u.status = trait_from_type(types[u.status_index], states[u.status_index]).value
            old_losses = u.losses
            if u.loss_index is not None and u.loss_index < len(states):
                u.losses = max((trait_from_type(types[u.loss_index], states[u.loss_index]).level or 1) - 1, 0)
        except (VassalFormatError, IndexError, AttributeError):
            self._bad_pieces += 1
            return
        if level != u.level:
            old, u.level = u.level, level
            self._emit("flip", FlipEvent(u, old, level, self._entry, self._undo))
        if u.status != old_status and not self._setup:
            self._emit("status", StatusEvent(u, old_status, u.status, self._entry, self._undo))
        if u.losses != old_losses and not self._setup:
            self._emit("losses", LossEvent(u, old_losses, u.losses, self._entry, self._undo))

    def _change_marker(self, mk: MarkerPiece, c: ChangePiece) -> None:
        if mk.face_index is None:
            return
        try:
            states = split_layers(c.new_state)
            level = trait_from_type(mk.layer_types[mk.face_index], states[mk.face_index]).level or 1
        except (VassalFormatError, IndexError, AttributeError):
            self._bad_pieces += 1
            return
        if level != mk.level:
            old, mk.level = mk.level, level
            if not self._setup:
                self._emit("marker", MarkerEvent(mk, "flip", mk.location, mk.location, self._entry,
                                                 self._undo, old))

    def _remove(self, c: RemovePiece) -> None:
        mk = self.pos.markers.get(c.piece_id)
        if mk is not None and not self._setup:
            self._emit("marker", MarkerEvent(mk, "remove", mk.location, None, self._entry, self._undo))
        u = self.pos.remove(c.piece_id)
        if u is not None and not self._setup:
            self._emit("remove", RemoveEvent(u, self._entry, self._undo))

    def _turn(self, c: TurnTracker) -> None:
        cal = self.ctx.calendars.get(c.tracker_id)
        if cal is None:
            if c.tracker_id not in self._trackers_unknown:
                self._trackers_unknown.add(c.tracker_id)
                self._warn(f"turn tracker {c.tracker_id!r} is not one of this game's; its changes are ignored")
            return
        info = parse_tracker(cal, c.state)
        if info is None:
            self._warn(f"turn tracker state {c.state[:40]!r} could not be read")
            return
        old = self.pos.phase
        self.pos.phase, self.pos.tracker = info, c.tracker_id
        if info.turn is not None:
            self.stats.turns.add(info.turn)
        if not self._setup and old != info:
            self._emit("phase", PhaseEvent(old, info, self._entry))

    def _emit(self, kind: str, ev) -> None:
        for h in self._on[kind]:
            h(ev, self.pos)


def parse_tracker(cal, state: str) -> PhaseInfo | None:
    """§4.7: ``current|turnLevel``; the Turn ListTurnLevel is ``current;subLevel;first;flags;subs...``
    and each player-turn level ``current;...``."""
    try:
        top = decode(state, "|")
        turn = decode(top[1], ";")
        t_idx, sub = parse_java_int(turn[0]), parse_java_int(turn[1])
        subs = turn[4:]
        ph_idx = parse_java_int(decode(subs[sub], ";")[0]) if sub is not None and 0 <= sub < len(subs) else 0
    except (IndexError, VassalFormatError, TypeError):
        return None
    if t_idx is None:
        return None
    return cal.phase(t_idx, sub or 0, ph_idx or 0)


_NODE = itemgetter(2)        # of a stream's (number, offset, node)

# what a command that cannot be interpreted raises (it is counted and skipped)
_FAILURES = (VassalFormatError, ValueError, IndexError, KeyError, AttributeError, TypeError)

# entries of one logged leaf command go straight to it (the others through _flatten)
_LEAF = frozenset((MovePiece, Chat, ChangePiece, AddPiece, RemovePiece, TurnTracker))


def _flatten(node):
    """Leaf commands of a log entry in order, entering LOG wrappers (the Log itself is yielded
    first so the reader can tell a log from a save)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Log):
            yield n
            stack.append(n.inner)
        elif isinstance(n, Compound):
            stack.extend(reversed(n.items))
        else:
            yield n
