"""The command stream of saves and logs: ESC-nested tree and typed commands (§4.3–§4.8).

Parsing follows ``GameModule.decode``: split a string on unescaped ESC; if the only token
is the whole string it is a single command (a *leaf*), otherwise every token is parsed
recursively (a :class:`Compound`; its first item is the root command, the rest are its
sub-commands). Leaves are decoded into typed commands by prefix; anything unrecognised is
kept verbatim as :class:`Unknown`.

Every node keeps the text it was read from and re-encodes to exactly that text until one
of its fields is changed, so an unmodified tree writes back byte for byte.

>>> root = parse_commands("begin_save\\x1b\\x1b\\\\\\x1b+/1/stack/Main;10;20;5\\x1bend_save")
>>> [type(c).__name__ for _, c in iter_leaves(root)]
['BeginSave', 'NullCommand', 'NullCommand', 'AddPiece', 'EndSave']
>>> root.encode() == "begin_save\\x1b\\x1b\\\\\\x1b+/1/stack/Main;10;20;5\\x1bend_save"
True
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from itertools import accumulate
from operator import is_, sub
from typing import Any, ClassVar

from builder.vassal.errors import CommandError, VassalFormatError
from builder.vassal.piece import Piece
from builder.vassal.sequence import decode, encode_str, parse_java_int

__all__ = [
    "ESC", "TAB", "Node", "Compound", "Command", "parse_commands", "decode_leaf", "iter_leaves",
    "NullCommand", "BeginSave", "EndSave", "AddPiece", "RemovePiece", "ChangePiece", "MovePiece",
    "Chat", "DiceRoll", "Log", "Undo", "BoardPicker", "Player", "PlayerRemove", "GlobalProperty",
    "MutableProperty", "TurnTracker", "SetupStack", "Unmask", "Notes", "PublicNotes",
    "PrivateNote", "SecretNote", "Extension", "StartupGlobalKeyCommand", "LosThread", "Flare",
    "SpecialDice", "ChessClock", "Unknown", "Malformed", "MAX_DEPTH", "MAX_COMMANDS", "COMMAND_TYPES",
    "iter_top_level", "last_leaf", "Completeness", "UNREAD_CHAT",
]

ESC = "\x1b"
TAB = "\t"
MAX_DEPTH = 200
#: most commands one text may hold (a long real log has tens of thousands); more is refused before parsing,
#: so a small file of tiny commands cannot build a tree of millions of objects (see MAX_SAVED_GAME)
MAX_COMMANDS = 500_000


# ==================================================================================== nodes

class Node:
    """A node of the command tree: a leaf :class:`Command` or a :class:`Compound`."""

    __slots__ = ()

    def encode(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def unchanged(self) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError


class Compound(Node):
    """A command with sub-commands: ``encode([item.encode() ...], ESC)``."""

    __slots__ = ("items", "_raw", "_orig", "_span")

    def __init__(self, items: list[Node] | None = None) -> None:
        self.items: list[Node] = list(items or [])
        self._raw: str | None = None
        self._orig: tuple[Node, ...] = ()
        self._span: tuple[str, int, int, int] | None = None

    def _text(self) -> str | None:
        """The text the node was read from. The one-pass parser (:func:`_parse_flat`) keeps only
        where it lies in the text it split, (text, start, end, level): the token is that slice with
        *level* levels of escaping undone, i.e. *level* backslashes fewer before each ESC (every ESC
        inside it has at least that many), made when it is first asked for."""
        raw = self._raw
        if raw is None and self._span is not None:
            text, a, z, level = self._span
            raw = text[a:z] if a or z != len(text) else text
            if level:
                raw = raw.replace("\\" * level + ESC, ESC)
            self._raw, self._span = raw, None
        return raw

    def unchanged(self) -> bool:
        if (self._raw is None and self._span is None) or len(self._orig) != len(self.items):
            return False
        return all(map(is_, self.items, self._orig)) and all(i.unchanged() for i in self.items)

    def encode(self) -> str:
        if self.unchanged():
            return self._text()  # type: ignore[return-value]
        return encode_str([i.encode() for i in self.items], ESC)

    def append(self, node: Node) -> "Compound":
        self.items.append(node)
        return self

    def __repr__(self) -> str:
        return f"<Compound {len(self.items)} items>"


class Command(Node):
    """A leaf command. ``TYPE`` is the name used by ``dump`` and in counts."""

    TYPE: ClassVar[str] = "Command"
    PREFIX: ClassVar[str] = ""
    #: names of attributes that hold player ids (passwords)
    SECRET_FIELDS: ClassVar[tuple[str, ...]] = ()
    #: fields decoded from ``raw`` on first access (see :class:`LazyCommand`); the first is the probe
    LAZY: ClassVar[tuple[str, ...]] = ()

    __slots__ = ("raw", "_dirty")

    def __init__(self, raw: str | None = None) -> None:
        object.__setattr__(self, "raw", raw)
        object.__setattr__(self, "_dirty", raw is None)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self.LAZY:
            self._decoded()   # the other fields come from raw before one is replaced
        object.__setattr__(self, name, value)
        if not name.startswith("_") and name != "raw":
            object.__setattr__(self, "_dirty", True)

    @classmethod
    def parse(cls, raw: str) -> "Command":
        c = _new(cls)
        _set_raw(c, raw)
        _set_dirty(c, False)
        c._decode(raw)
        return c

    def _decode(self, raw: str) -> None:
        """Read *raw* at parse time: a command that cannot be decoded raises here (it becomes
        :class:`Malformed`); one whose shape was checked may leave its LAZY fields unset."""

    def _decode_fields(self, raw: str) -> None:
        """Set every LAZY field from *raw*."""

    def _decoded(self) -> None:
        lazy = self.LAZY
        if lazy:
            try:
                object.__getattribute__(self, lazy[0])
            except AttributeError:
                raw = object.__getattribute__(self, "raw")
                if raw is not None:
                    self._decode_fields(raw)

    def _encode(self) -> str:
        return self.raw or ""

    def unchanged(self) -> bool:
        return not self._dirty and self.raw is not None

    def encode(self) -> str:
        if self.unchanged():
            return self.raw  # type: ignore[return-value]
        return self._encode()

    def fields(self) -> dict[str, Any]:
        """Decoded fields (JSON-friendly), secrets included; see :meth:`to_dict`."""
        return {}

    def secret_values(self) -> list[str]:
        return [v for v in (getattr(self, f, None) for f in self.SECRET_FIELDS) if v]

    def to_dict(self, *, mask: str | None = "********") -> dict[str, Any]:
        d = {"type": self.TYPE}
        f = self.fields()
        if mask is not None:
            for name in self.SECRET_FIELDS:
                if f.get(name):
                    f[name] = mask
        d.update(f)
        return d

    def summary(self, *, mask: str | None = "********") -> str:
        return self.TYPE

    def _s(self, v: str | None, mask: str | None) -> str:
        return (mask if mask is not None and v else v) or ""

    def __repr__(self) -> str:  # never shows player ids (passwords)
        try:
            text = self.summary()
        except VassalFormatError:
            text = self.TYPE
        return f"<{type(self).__name__} {text[:80]!r}>"


class LazyCommand(Command):
    """A command whose LAZY fields are decoded from ``raw`` when one is first read. Only these classes have
    a ``__getattr__``: with one, every attribute of an instance is read the slow way (no specialised look-up),
    and the replay reads the others' (a log entry's inner command, a chat's text) on every entry."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        # only called for an attribute not found: a LAZY field (an unset slot) is decoded now,
        # so a reader that never asks for a command's fields never pays for splitting them
        if name in type(self).LAZY:
            raw = object.__getattribute__(self, "raw")
            if raw is not None:
                self._decode_fields(raw)
                return object.__getattribute__(self, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


_new = object.__new__
_set_raw = Command.raw.__set__          # slot setters: parsing skips Command.__setattr__
_set_dirty = Command._dirty.__set__


def _has_tokens(raw: str, n: int, d: str = "/") -> bool:
    """Does ``raw[2:]`` (after a two-character prefix such as ``D/``) hold at least *n* (1 or 2)
    delimiters *d* not escaped by a backslash, i.e. more than *n* tokens (sequence.decode)? The
    first is looked for from the left, the second from the right: a piece's id and state seldom
    hold an escaped delimiter, its long type often does."""
    i = raw.find(d, 2)
    while i > 2 and raw[i - 1] == "\\":
        i = raw.find(d, i + 1)
    if i < 0 or n == 1:
        return i >= 0
    j = raw.rfind(d)
    while j > i and raw[j - 1] == "\\":
        j = raw.rfind(d, 0, j)
    return j > i


def _three_tokens(raw: str) -> tuple[str, str, str] | None:
    """``decode(raw[2:], "/")`` of a text that holds exactly three tokens (an AddPiece's id, type and
    state), else None. Found from both ends: the first delimiter not escaped by a backslash from the
    left, the last from the right; the long type between them is read by :func:`_middle_token`,
    once per distinct text (a save repeats a few hundred types on thousands of pieces; every piece
    of a type then shares one type string, whose hash the layer plan's look-up reuses)."""
    if "\\" not in raw and "'" not in raw:      # nothing escaped or quoted (a stack): a plain split
        parts = raw.split("/")
        return (parts[1], parts[2], parts[3]) if len(parts) == 4 else None
    find = raw.find
    i = find("/", 2)
    while i > 2 and raw[i - 1] == "\\":
        i = find("/", i + 1)
    if i < 0:
        return None
    j = raw.rfind("/")
    while j > i and raw[j - 1] == "\\":
        j = raw.rfind("/", 0, j)
    if j <= i:
        return None
    mid = _middle_token(raw[i + 1:j])
    if mid is None:
        return None
    pid, state = raw[2:i], raw[j + 1:]
    if "/" in pid:
        pid = pid.replace("\\/", "/")
    if "/" in state:
        state = state.replace("\\/", "/")
    if len(pid) > 1 and pid[0] == "'" and pid[-1] == "'":
        pid = pid[1:-1]
    if len(state) > 1 and state[0] == "'" and state[-1] == "'":
        state = state[1:-1]
    return pid, mid, state


@lru_cache(maxsize=4096)
def _middle_token(t: str) -> str | None:
    """The text between an AddPiece's first and last unescaped '/' as the one token it is, escapes
    and quotes taken off; None when it holds an unescaped '/' too (more than three tokens)."""
    if "/" in t:
        toks = decode(t, "/")
        if len(toks) != 1:
            return None
        return toks[0]
    return t[1:-1] if len(t) > 1 and t[0] == "'" and t[-1] == "'" else t


# ==================================================================================== leaves

class NullCommand(Command):
    TYPE = "Null"
    __slots__ = ()

    def _encode(self) -> str:
        return ""


class BeginSave(Command):
    TYPE = "BeginSave"
    PREFIX = "begin_save"
    __slots__ = ()

    def _encode(self) -> str:
        return "begin_save"


class EndSave(Command):
    TYPE = "EndSave"
    PREFIX = "end_save"
    __slots__ = ()

    def _encode(self) -> str:
        return "end_save"


def _null(s: str | None) -> str | None:
    return None if s is None or s == "null" else s


def _wrap(s: str | None) -> str:
    return "null" if s is None else s


class AddPiece(LazyCommand):
    """``+/id/type/state``. The piece (trait chain) is decoded on first access of :attr:`piece`."""

    TYPE = "AddPiece"
    PREFIX = "+/"
    LAZY = ("piece_id", "type_string", "state_string")
    __slots__ = ("piece_id", "type_string", "state_string", "_piece")

    def __init__(self, piece_id: str | None = None, piece: Piece | None = None,
                 *, type_string: str = "", state_string: str = "") -> None:
        super().__init__()
        self.piece_id = piece_id
        object.__setattr__(self, "_piece", None)
        self.type_string = piece.type_string() if piece else type_string
        self.state_string = piece.state_string() if piece else state_string
        object.__setattr__(self, "_piece", piece)

    def _decode(self, raw: str) -> None:
        _set_piece(self, None)
        if "\\" not in raw and "'" not in raw:   # nothing escaped or quoted (a stack): decoded now, as
            parts = raw.split("/")               # cheaply as the check below, no lazy decode later
            if len(parts) == 4:
                pid = parts[1]
                _set_add_fields(self, None if pid == "null" else pid, parts[2], parts[3])
                return
        if not _has_tokens(raw, 2):
            self._decode_fields(raw)

    def _decode_fields(self, raw: str) -> None:
        toks = _three_tokens(raw)
        if toks is None:
            toks = decode(raw[2:], "/")
            if len(toks) < 3:
                raise CommandError("AddPiece needs id, type and state")
        pid = toks[0]
        _set_add_fields(self, None if pid == "null" else pid, toks[1], toks[2])

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        if name in ("type_string", "state_string") and getattr(self, "_piece", None) is not None:
            object.__setattr__(self, "_piece", None)   # strings set directly win over a decoded piece

    @property
    def piece(self) -> Piece:
        """The decoded piece (decoded once; edit it and the command re-encodes from it)."""
        if self._piece is None:
            object.__setattr__(self, "_piece", Piece.decode(self.type_string, self.state_string))
        return self._piece

    @property
    def is_stack(self) -> bool:
        return self.type_string == "stack"

    @property
    def is_deck(self) -> bool:
        return self.type_string.startswith("deck;")

    def unchanged(self) -> bool:
        if not super().unchanged():
            return False
        p = self._piece
        return p is None or (p.type_string() is self.type_string and p.state_string() is self.state_string) \
            or (p.type_string() == self.type_string and p.state_string() == self.state_string)

    def _encode(self) -> str:
        p = self._piece
        t = p.type_string() if p is not None else self.type_string
        s = p.state_string() if p is not None else self.state_string
        return "+/" + encode_str([_wrap(self.piece_id), t, s], "/")

    def fields(self) -> dict[str, Any]:
        p = self.piece
        inner = p.inner.state_dict()
        ts = self.type_string
        kind = "stack" if ts == "stack" else "deck" if ts.startswith("deck;") else "piece"   # is_stack, is_deck
        d: dict[str, Any] = {"id": self.piece_id, "kind": kind}
        if kind != "piece":
            d.update(inner)
        else:
            derived = p._derived()   # (name, basic name, trait ids) of the strings, worked out once
            if derived is not None:
                _, name, basic_name, ids = derived
            else:
                name, basic_name, ids = p.display_name, p.name, p.trait_ids()
            d["name"] = name
            if basic_name != name:
                d["basic_name"] = basic_name
            d["map"], d["x"], d["y"], d["gpid"] = (inner.get("map"), inner.get("x"), inner.get("y"),
                                                   inner.get("gpid"))
            d["traits"] = list(ids)
        return d

    def to_dict(self, *, mask: str | None = "********", layers: bool = True) -> dict[str, Any]:
        """Fields, and (unless *layers* is false, or a stack) every layer described (Piece.describe)."""
        d = super().to_dict(mask=mask)
        if layers and not self.is_stack:
            d["layers"] = self.piece.describe(mask=mask)["layers"]
        return d

    def secret_values(self) -> list[str]:
        try:
            return self.piece.secret_values()
        except VassalFormatError:
            return []

    def summary(self, *, mask: str | None = "********") -> str:
        f = self.fields()
        where = f"{f.get('map')} ({f.get('x')},{f.get('y')})" if f.get("map") else "off-map"
        if self.is_stack:
            return f"AddPiece stack {self.piece_id} at {where}: {len(f['members'])} pieces {f['members']}"
        if self.is_deck:
            return f"AddPiece deck {self.piece_id} at {where}: {len(f['members'])} cards"
        return f"AddPiece {self.piece_id} {f['name']!r} at {where} ({len(self.piece.layers)} layers)"


class RemovePiece(Command):
    TYPE = "RemovePiece"
    PREFIX = "-/"
    __slots__ = ("piece_id",)

    def __init__(self, piece_id: str = "") -> None:
        super().__init__()
        self.piece_id = piece_id

    def _decode(self, raw: str) -> None:
        object.__setattr__(self, "piece_id", raw[2:])

    def _encode(self) -> str:
        return "-/" + self.piece_id

    def fields(self) -> dict[str, Any]:
        return {"id": self.piece_id}

    def summary(self, *, mask: str | None = "********") -> str:
        return f"RemovePiece {self.piece_id}"


class ChangePiece(LazyCommand):
    """``D/id/newState[/oldState]`` — full new (and old) state of every layer."""

    TYPE = "ChangePiece"
    PREFIX = "D/"
    LAZY = ("piece_id", "new_state", "old_state")
    __slots__ = ("piece_id", "new_state", "old_state")

    def __init__(self, piece_id: str = "", new_state: str = "", old_state: str | None = None) -> None:
        super().__init__()
        self.piece_id = piece_id
        self.new_state = new_state
        self.old_state = old_state

    def _decode(self, raw: str) -> None:
        if not _has_tokens(raw, 1):
            self._decode_fields(raw)

    def _decode_fields(self, raw: str) -> None:
        toks = decode(raw[2:], "/")
        if len(toks) < 2:
            raise CommandError("ChangePiece needs id and new state")
        object.__setattr__(self, "piece_id", toks[0])
        object.__setattr__(self, "new_state", toks[1])
        object.__setattr__(self, "old_state", toks[2] if len(toks) > 2 else None)

    def _encode(self) -> str:
        toks = [self.piece_id, self.new_state]
        if self.old_state is not None:
            toks.append(self.old_state)
        return "D/" + encode_str(toks, "/")

    def fields(self) -> dict[str, Any]:
        return {"id": self.piece_id, "new_state": self.new_state, "old_state": self.old_state}

    def summary(self, *, mask: str | None = "********") -> str:
        return f"ChangePiece {self.piece_id}"


#: a move whose first nine fields hold no escape or quote and whose four coordinates are plain Java ints
#: (at most nine digits): it decodes without error, so its fields can wait until they are read
_MOVE_SHAPE = re.compile(r"M/(?:[^/\\']*/){2}[+-]?\d{1,9}/[+-]?\d{1,9}/(?:[^/\\']*/){2}"
                         r"[+-]?\d{1,9}/[+-]?\d{1,9}/[^/\\']*(?:/|\Z)", re.ASCII)
#: the same for a text holding no backslash or quote at all (the usual move): a plain class is matched
#: several times faster than one of three characters
_PLAIN_MOVE = re.compile(r"M/[^/]*/[^/]*/[+-]?\d{1,9}/[+-]?\d{1,9}/[^/]*/[^/]*/[+-]?\d{1,9}/[+-]?\d{1,9}/[^/]*(?:/|\Z)",
                         re.ASCII)


class MovePiece(LazyCommand):
    """``M/id/newMap/newX/newY/newUnder/oldMap/oldX/oldY/oldUnder[/playerId]``."""

    TYPE = "MovePiece"
    PREFIX = "M/"
    SECRET_FIELDS = ("player_id",)
    LAZY = ("piece_id", "new_map", "new_x", "new_y", "new_under", "old_map", "old_x", "old_y",
            "old_under", "player_id")
    __slots__ = LAZY

    def __init__(self, piece_id: str = "", new_map: str | None = None, new_x: int = 0, new_y: int = 0,
                 new_under: str | None = None, old_map: str | None = None, old_x: int = 0,
                 old_y: int = 0, old_under: str | None = None, player_id: str | None = None) -> None:
        super().__init__()
        self.piece_id, self.new_map, self.new_x, self.new_y = piece_id, new_map, new_x, new_y
        self.new_under, self.old_map, self.old_x, self.old_y = new_under, old_map, old_x, old_y
        self.old_under, self.player_id = old_under, player_id

    def _decode(self, raw: str) -> None:
        if _MOVE_SHAPE.match(raw) is None:   # not plainly well formed: decode now (or be Malformed)
            self._decode_fields(raw)

    def _decode_fields(self, raw: str) -> None:
        # read on every move a replay applies: the ints parsed one by one, the fields set through their slots
        t = decode(raw[2:], "/")
        if len(t) < 9:
            raise CommandError(f"MovePiece needs at least 9 fields, got {len(t)}")
        pj = parse_java_int
        a, b, c, d = t[2], t[3], t[6], t[7]        # parse_java_int's usual case (short, unsigned) spelt out
        nx = int(a) if len(a) < 10 and a.isdigit() and a.isascii() else pj(a)
        ny = int(b) if len(b) < 10 and b.isdigit() and b.isascii() else pj(b)
        ox = int(c) if len(c) < 10 and c.isdigit() and c.isascii() else pj(c)
        oy = int(d) if len(d) < 10 and d.isdigit() and d.isascii() else pj(d)
        if nx is None or ny is None or ox is None or oy is None:
            raise CommandError("MovePiece coordinates are not integers")
        pid, nmap, nunder, omap, ounder = t[0], t[1], t[4], t[5], t[8]
        s_id, s_nmap, s_nx, s_ny, s_nunder, s_omap, s_ox, s_oy, s_ounder, s_player = _MOVE_SLOTS
        s_id(self, None if pid == "null" else pid)
        s_nmap(self, None if nmap == "null" else nmap)
        s_nx(self, nx)
        s_ny(self, ny)
        s_nunder(self, None if nunder == "null" else nunder)
        s_omap(self, None if omap == "null" else omap)
        s_ox(self, ox)
        s_oy(self, oy)
        s_ounder(self, None if ounder == "null" else ounder)
        s_player(self, t[9] if len(t) > 9 else None)

    def destination(self) -> tuple[str | None, str | None, int, int, str | None]:
        """``(piece_id, new_map, new_x, new_y, new_under)``: what a replay applies. A text read and left
        unchanged, holding nothing escaped or quoted, is split for them at once (the other fields are
        never decoded: a log's moves are only applied); else the fields are read."""
        raw = self.raw
        if raw is not None and not self._dirty and "\\" not in raw and "'" not in raw:
            t = raw.split("/", 6)      # decode's plain split; the text was checked when it was read
            pid, nmap, a, b, under = t[1], t[2], t[3], t[4], t[5]
            x = int(a) if len(a) < 10 and a.isdigit() and a.isascii() else parse_java_int(a)
            y = int(b) if len(b) < 10 and b.isdigit() and b.isascii() else parse_java_int(b)
            if x is None or y is None:
                raise CommandError("MovePiece coordinates are not integers")
            return (None if pid == "null" else pid, None if nmap == "null" else nmap, x, y,
                    None if under == "null" else under)
        return self.piece_id, self.new_map, self.new_x, self.new_y, self.new_under

    def _encode(self) -> str:
        toks = [_wrap(self.piece_id), _wrap(self.new_map), str(self.new_x), str(self.new_y),
                _wrap(self.new_under), _wrap(self.old_map), str(self.old_x), str(self.old_y),
                _wrap(self.old_under)]
        if self.player_id is not None:
            toks.append(self.player_id)
        return "M/" + encode_str(toks, "/")

    def fields(self) -> dict[str, Any]:
        return {"id": self.piece_id, "new_map": self.new_map, "new_x": self.new_x, "new_y": self.new_y,
                "new_under": self.new_under, "old_map": self.old_map, "old_x": self.old_x,
                "old_y": self.old_y, "old_under": self.old_under, "player_id": self.player_id}

    def summary(self, *, mask: str | None = "********") -> str:
        under = f" onto {self.new_under}" if self.new_under else ""
        by = f" by {self._s(self.player_id, mask)}" if self.player_id else ""
        return (f"MovePiece {self.piece_id}: {self.old_map} ({self.old_x},{self.old_y}) -> "
                f"{self.new_map} ({self.new_x},{self.new_y}){under}{by}")


_MOVE_SLOTS = tuple(getattr(MovePiece, name).__set__ for name in MovePiece.LAZY)   # in LAZY's order


_ENT = {"&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"', "&#39;": "'"}
_PLAYER_CHAT = re.compile(r"^(?:&lt;|<)(.*?)(?:&gt;|>) - (.*)$", re.S)
_DICE = re.compile(r"^\*{2,3}\s*(.*?)\s*\*{3}\s*(.*)$", re.S)


def _unescape(s: str) -> str:
    for k, v in _ENT.items():
        s = s.replace(k, v)
    return s


class Chat(Command):
    """``CHAT<message>``: player chat ``<who> - text`` or an automatic report (``*…``)."""

    TYPE = "Chat"
    PREFIX = "CHAT"
    __slots__ = ("text",)

    def __init__(self, text: str = "") -> None:
        super().__init__()
        self.text = text

    def _decode(self, raw: str) -> None:
        object.__setattr__(self, "text", raw[4:])

    def _encode(self) -> str:
        return "CHAT" + self.text

    @property
    def sender(self) -> str | None:
        m = _PLAYER_CHAT.match(self.text)
        return _unescape(m.group(1)) if m else None

    @property
    def is_report(self) -> bool:
        return self.text.startswith("*")

    def fields(self) -> dict[str, Any]:
        d: dict[str, Any] = {"text": self.text}
        m = _PLAYER_CHAT.match(self.text)
        if m:
            d["sender"] = _unescape(m.group(1))
            d["message"] = _unescape(m.group(2))
        elif self.is_report:
            d["report"] = True
        return d

    def summary(self, *, mask: str | None = "********") -> str:
        return f"{self.TYPE}: {_unescape(self.text)}"


class DiceRoll(Chat):
    """A chat report of a dice roll: ``*** <label> = <result> *** <who>`` (DiceButton) or
    ``*** (<label>) <result> *** <who> …`` (VASL)."""

    TYPE = "DiceRoll"
    __slots__ = ()

    @staticmethod
    def matches(raw: str) -> bool:
        return raw.startswith("CHAT**") and _DICE.match(raw[4:]) is not None

    def fields(self) -> dict[str, Any]:
        d: dict[str, Any] = {"text": self.text}
        m = _DICE.match(self.text)
        if m:
            body, tail = m.group(1), m.group(2)
            if " = " in body:
                label, result = body.rsplit(" = ", 1)
            else:
                pm = re.match(r"^\((.*?)\)\s*(.*)$", body)
                label, result = (pm.group(1), pm.group(2)) if pm else ("", body)
            d["label"] = _unescape(label)
            d["result"] = _unescape(result)
            dice = [parse_java_int(x.strip()) for x in re.split(r"[,\s]+", result.strip()) if x.strip()]
            if dice and all(v is not None for v in dice):
                d["dice"] = dice
            who = re.match(r"^(?:&lt;|<)(.*?)(?:&gt;|>)", tail.strip())
            if who:
                d["player"] = _unescape(who.group(1))
        return d


class Log(Command):
    """``LOG\\t<command>``: one logged command of a ``.vlog`` (the inner text is parsed)."""

    TYPE = "Log"
    PREFIX = "LOG\t"
    __slots__ = ("inner",)

    def __init__(self, inner: Node | None = None) -> None:
        super().__init__()
        self.inner = inner if inner is not None else NullCommand.parse("")

    def _decode(self, raw: str) -> None:
        self._decode_at(raw, 0)

    def _decode_at(self, raw: str, depth: int) -> None:
        object.__setattr__(self, "inner", _parse(raw[4:], depth + 1))

    @classmethod
    def parse_at(cls, raw: str, depth: int) -> "Log":
        c = _new(cls)
        _set_raw(c, raw)
        _set_dirty(c, False)
        _set_inner(c, _parse(raw[4:], depth + 1))
        return c

    def unchanged(self) -> bool:
        return super().unchanged() and self.inner.unchanged()

    def _encode(self) -> str:
        return "LOG\t" + self.inner.encode()

    def fields(self) -> dict[str, Any]:
        return {}

    def to_dict(self, *, mask: str | None = "********") -> dict[str, Any]:
        d = {"type": self.TYPE}
        inner = self.inner
        if isinstance(inner, Command):
            d["command"] = inner.to_dict(mask=mask)
        else:
            d["commands"] = [c.to_dict(mask=mask) for _, c in iter_leaves(inner)]
        return d

    def secret_values(self) -> list[str]:
        out: list[str] = []
        for _, c in iter_leaves(self.inner):
            out.extend(c.secret_values())
        return out

    def summary(self, *, mask: str | None = "********") -> str:
        inner = self.inner
        if isinstance(inner, Command):
            return "Log: " + inner.summary(mask=mask)
        return "Log: " + "; ".join(c.summary(mask=mask) for _, c in iter_leaves(inner))


class _TabCommand(Command):
    """Commands encoded as ``PREFIX`` + TAB-separated fields (``PLAYER\\tid\\tname\\tside``)."""

    FIELD_NAMES: ClassVar[tuple[str, ...]] = ()
    __slots__ = ("values", "_values0")

    def __init__(self, *values: str) -> None:
        super().__init__()
        self.values = list(values)
        object.__setattr__(self, "_values0", None)

    def _decode(self, raw: str) -> None:
        toks = decode(raw, TAB)
        object.__setattr__(self, "values", toks[1:])
        object.__setattr__(self, "_values0", tuple(toks[1:]))

    def unchanged(self) -> bool:  # values may be edited in place
        return super().unchanged() and tuple(self.values) == self._values0

    def _encode(self) -> str:
        # PREFIX already ends with TAB: "SETUP_STACK\t" when there are no values
        return self.PREFIX + encode_str(self.values, TAB)

    def __getattr__(self, name: str) -> Any:
        names = type(self).FIELD_NAMES
        if name in names:
            i = names.index(name)
            vals = object.__getattribute__(self, "values")
            return vals[i] if i < len(vals) else None
        raise AttributeError(name)

    def fields(self) -> dict[str, Any]:
        d: dict[str, Any] = {}
        for i, v in enumerate(self.values):
            d[self.FIELD_NAMES[i] if i < len(self.FIELD_NAMES) else f"field{i + 1}"] = v
        return d

    def summary(self, *, mask: str | None = "********") -> str:
        f = self.to_dict(mask=mask)
        f.pop("type")
        return f"{self.TYPE} " + " ".join(f"{k}={v!r}" for k, v in f.items())


class Undo(_TabCommand):
    TYPE = "Undo"
    PREFIX = "UNDO\t"
    FIELD_NAMES = ("in_progress",)
    __slots__ = ()

    def fields(self) -> dict[str, Any]:
        return {"in_progress": (self.values[0] if self.values else "") == "true"}

    def summary(self, *, mask: str | None = "********") -> str:
        return "Undo begins" if self.fields()["in_progress"] else "Undo ends"


class Player(_TabCommand):
    """``PLAYER\\tplayerId\\tname\\tside`` — playerId is the player's password."""

    TYPE = "Player"
    PREFIX = "PLAYER\t"
    FIELD_NAMES = ("player_id", "name", "side")
    SECRET_FIELDS = ("player_id",)
    __slots__ = ()

    def summary(self, *, mask: str | None = "********") -> str:
        return f"Player {self.name!r} sits as {self.side!r} (id {self._s(self.player_id, mask)})"


class PlayerRemove(_TabCommand):
    TYPE = "PlayerRemove"
    PREFIX = "PYREMOVE\t"
    FIELD_NAMES = ("player_id",)
    SECRET_FIELDS = ("player_id",)
    __slots__ = ()


class GlobalProperty(_TabCommand):
    """``GlobalProperty\\t;name;value;container``."""

    TYPE = "GlobalProperty"
    PREFIX = "GlobalProperty\t"
    __slots__ = ()

    def fields(self) -> dict[str, Any]:
        t = decode(self.values[0], ";") if self.values else []
        return {"name": t[1] if len(t) > 1 else "", "value": t[2] if len(t) > 2 else "",
                "container": t[3] if len(t) > 3 else ""}


class MutableProperty(_TabCommand):
    TYPE = "MutableProperty"
    PREFIX = "MutableProperty\t"
    FIELD_NAMES = ("name", "old_value", "new_value", "container")
    __slots__ = ()


class TurnTracker(Command):
    """``TURN<id>\\t<state>``; state = ``encode([currentLevel, level states...], '|')`` (§4.7)."""

    TYPE = "TurnTracker"
    PREFIX = "TURN"
    __slots__ = ("tracker_id", "state")

    def __init__(self, tracker_id: str = "TurnTracker0", state: str = "") -> None:
        super().__init__()
        self.tracker_id = tracker_id
        self.state = state

    def _decode(self, raw: str) -> None:
        toks = decode(raw, TAB)
        object.__setattr__(self, "tracker_id", toks[0][4:])
        object.__setattr__(self, "state", toks[1] if len(toks) > 1 else "")

    def _encode(self) -> str:
        return encode_str(["TURN" + self.tracker_id, self.state], TAB)

    @staticmethod
    def _levels(state: str) -> list[Any]:
        out = []
        for tok in decode(state, ";"):
            out.append(TurnTracker._levels(tok) if ";" in tok else tok)
        return out

    def fields(self) -> dict[str, Any]:
        toks = decode(self.state, "|") if self.state else []
        cur = parse_java_int(toks[0]) if toks else None
        return {"tracker": self.tracker_id, "current_level": cur,
                "levels": [self._levels(t) for t in toks[1:]]}

    def summary(self, *, mask: str | None = "********") -> str:
        f = self.fields()
        return f"TurnTracker {self.tracker_id}: level {f['current_level']} {f['levels']}"


class BoardPicker(Command):
    """``<mapId>BoardPicker\\tboard[/rev]\\tcol\\trow…`` (one triple per board)."""

    TYPE = "BoardPicker"
    MARK = "BoardPicker\t"
    __slots__ = ("map_id", "values", "_values0")

    def __init__(self, map_id: str = "", boards: list[tuple[str, int, int]] | None = None) -> None:
        """*boards*: (board name, column, row) triples; append ``/rev`` to a name for reversed."""
        super().__init__()
        self.map_id = map_id
        self.values = [str(v) for b in (boards or []) for v in b]
        object.__setattr__(self, "_values0", None)

    def _decode(self, raw: str) -> None:
        toks = decode(raw, TAB)
        object.__setattr__(self, "map_id", toks[0][: -len("BoardPicker")])
        object.__setattr__(self, "values", toks[1:])
        object.__setattr__(self, "_values0", tuple(toks[1:]))

    def unchanged(self) -> bool:
        return super().unchanged() and tuple(self.values) == self._values0

    def _encode(self) -> str:
        return encode_str([self.map_id + "BoardPicker", *self.values], TAB)

    def boards(self) -> list[dict[str, Any]]:
        out = []
        v = self.values
        for i in range(0, len(v) - 2, 3):
            name = v[i]
            rev = name.endswith("/rev")
            out.append({"board": name[:-4] if rev else name, "reversed": rev,
                        "column": parse_java_int(v[i + 1]), "row": parse_java_int(v[i + 2])})
        return out

    def fields(self) -> dict[str, Any]:
        return {"map": self.map_id, "boards": self.boards()}

    def summary(self, *, mask: str | None = "********") -> str:
        return f"BoardPicker {self.map_id!r}: " + ", ".join(
            f"{b['board']}{' (reversed)' if b['reversed'] else ''} at {b['column']},{b['row']}"
            for b in self.boards())


class SetupStack(_TabCommand):
    TYPE = "SetupStack"
    PREFIX = "SETUP_STACK\t"
    __slots__ = ()


class Unmask(_TabCommand):
    TYPE = "Unmask"
    PREFIX = "UNMASK\t"
    __slots__ = ()


class Notes(_TabCommand):
    TYPE = "Notes"
    PREFIX = "NOTES\t"
    FIELD_NAMES = ("text",)
    __slots__ = ()


class PublicNotes(_TabCommand):
    TYPE = "PublicNotes"
    PREFIX = "PNOTES\t"
    FIELD_NAMES = ("text",)
    __slots__ = ()


class PrivateNote(_TabCommand):
    TYPE = "PrivateNote"
    PREFIX = "PNOTE\t"
    FIELD_NAMES = ("owner", "text")
    SECRET_FIELDS = ("owner",)
    __slots__ = ()


class SecretNote(_TabCommand):
    TYPE = "SecretNote"
    PREFIX = "SNOTE\t"
    FIELD_NAMES = ("name", "owner", "hidden", "text", "date", "handle")
    SECRET_FIELDS = ("owner",)
    __slots__ = ()


class Extension(_TabCommand):
    TYPE = "Extension"
    PREFIX = "EXT\t"
    FIELD_NAMES = ("name", "version")
    __slots__ = ()


class StartupGlobalKeyCommand(_TabCommand):
    TYPE = "StartupGlobalKeyCommand"
    PREFIX = "SGKC\t"
    FIELD_NAMES = ("id", "applied")
    __slots__ = ()


class LosThread(_TabCommand):
    TYPE = "LosThread"
    PREFIX = "LOS\t"
    __slots__ = ()


class Flare(_TabCommand):
    TYPE = "Flare"
    PREFIX = "FLARE\t"
    __slots__ = ()


class SpecialDice(_TabCommand):
    TYPE = "SpecialDice"
    PREFIX = "SHOW_RESULTS\t"
    __slots__ = ()


class ChessClock(_TabCommand):
    TYPE = "ChessClock"
    PREFIX = "CLOCK\t"
    __slots__ = ()


class Unknown(Command):
    """A command no encoder here recognises (module-specific, obsolete…): kept verbatim."""

    TYPE = "Unknown"
    __slots__ = ()

    def fields(self) -> dict[str, Any]:
        return {"text": self.raw}

    def summary(self, *, mask: str | None = "********") -> str:
        t = self.raw or ""
        return f"Unknown {t[:120]!r}{'…' if len(t) > 120 else ''}"


class Malformed(Unknown):
    """A command with a known prefix whose fields cannot be decoded; kept verbatim."""

    TYPE = "Malformed"
    __slots__ = ("error",)

    def fields(self) -> dict[str, Any]:
        return {"text": self.raw, "error": self.error}

    def summary(self, *, mask: str | None = "********") -> str:
        return f"Malformed ({self.error}): {(self.raw or '')[:80]!r}"


_set_inner = Log.inner.__set__
_set_piece_id, _set_type, _set_state, _set_piece = (AddPiece.piece_id.__set__, AddPiece.type_string.__set__,
                                                    AddPiece.state_string.__set__, AddPiece._piece.__set__)


def _set_add_fields(c: AddPiece, piece_id: str | None, type_string: str, state_string: str) -> None:
    """An AddPiece's decoded fields set through their slots (not __setattr__: they are not changes)."""
    _set_piece_id(c, piece_id)
    _set_type(c, type_string)
    _set_state(c, state_string)
    _set_piece(c, None)
_set_text = Chat.text.__set__
#: what iter_top_level gives for every logged chat line to a reader that reads none (not one Chat each)
UNREAD_CHAT = Chat("")

# ================================================================================ dispatch

_BY_PREFIX: list[tuple[str, type[Command]]] = [
    ("+/", AddPiece), ("-/", RemovePiece), ("D/", ChangePiece), ("M/", MovePiece),
    ("LOG\t", Log), ("CHAT", Chat), ("UNDO\t", Undo), ("PLAYER\t", Player),
    ("PYREMOVE\t", PlayerRemove), ("GlobalProperty\t", GlobalProperty),
    ("MutableProperty\t", MutableProperty), ("SETUP_STACK\t", SetupStack), ("UNMASK\t", Unmask),
    ("NOTES\t", Notes), ("PNOTES\t", PublicNotes), ("PNOTE\t", PrivateNote), ("SNOTE\t", SecretNote),
    ("EXT\t", Extension), ("SGKC\t", StartupGlobalKeyCommand), ("LOS\t", LosThread),
    ("FLARE\t", Flare), ("SHOW_RESULTS\t", SpecialDice), ("CLOCK\t", ChessClock),
]

COMMAND_TYPES: dict[str, type[Command]] = {c.TYPE: c for c in (
    NullCommand, BeginSave, EndSave, AddPiece, RemovePiece, ChangePiece, MovePiece, Chat, DiceRoll,
    Log, Undo, BoardPicker, Player, PlayerRemove, GlobalProperty, MutableProperty, TurnTracker,
    SetupStack, Unmask, Notes, PublicNotes, PrivateNote, SecretNote, Extension,
    StartupGlobalKeyCommand, LosThread, Flare, SpecialDice, ChessClock, Unknown, Malformed)}

_FIRST: dict[str, list[tuple[str, type[Command]]]] = {}
for _prefix, _cls in _BY_PREFIX:
    _FIRST.setdefault(_prefix[0], []).append((_prefix, _cls))
_CUT_PREFIXES = [p for p, _ in _BY_PREFIX] + ["begin_save", "end_save", "TURN"]
_PIECE_CMDS = {"+": AddPiece, "-": RemovePiece, "D": ChangePiece, "M": MovePiece}


def decode_leaf(raw: str, depth: int = 0) -> Command:
    """Decode one single (non-compound) command string into its typed command."""
    if raw == "":
        return NullCommand.parse(raw)
    cls: type[Command] | None = None
    c0 = raw[0]
    if len(raw) > 1 and raw[1] == "/" and c0 in _PIECE_CMDS:
        cls = _PIECE_CMDS[c0]
    elif raw == "begin_save":
        cls = BeginSave
    elif raw == "end_save":
        cls = EndSave
    else:
        for prefix, k in _FIRST.get(c0, ()):
            if raw.startswith(prefix):
                cls = k
                break
        if cls is Log:
            return Log.parse_at(raw, depth)
        if cls is Chat and DiceRoll.matches(raw):
            cls = DiceRoll
        if cls is None:
            if raw.startswith("TURN") and TAB in raw:
                cls = TurnTracker
            elif BoardPicker.MARK in raw and raw.split(TAB, 1)[0].endswith("BoardPicker"):
                cls = BoardPicker
            else:
                cls = Unknown
    try:
        return cls.parse(raw)
    except VassalFormatError as exc:
        return _malformed(raw, str(exc))


def _malformed(raw: str, error: str) -> Malformed:
    m = Malformed.parse(raw)
    object.__setattr__(m, "error", error)
    return m


def _parse(s: str, depth: int) -> Node:
    """The node of a command string (GameModule.decode: split on unescaped ESC, each token parsed
    again, a string that is its own only token a leaf), *depth* its nesting depth."""
    if depth > MAX_DEPTH:
        raise CommandError(f"commands nested deeper than {MAX_DEPTH} levels")
    if ESC not in s and not (len(s) > 1 and s[0] == "'" and s[-1] == "'"):
        return decode_leaf(s, depth)
    return _parse_split(s, s.split(ESC), depth)


def _parse_split(s: str, parts: list[str], depth: int) -> Node:
    """:func:`_parse` of a text holding an ESC, given its parts split on ESC."""
    if s[:1] != "'" and not any(p[:1] == "'" for p in parts):   # no token of any level is quoted
        return _parse_flat(s, parts, depth)
    return _parse_nested(s, depth)


def _parse_nested(s: str, depth: int) -> Node:
    """:func:`_parse` by the definition: each level split, unescaped and unquoted, then parsed."""
    toks = decode(s, ESC)
    if len(toks) == 1 and toks[0] == s:
        return decode_leaf(s, depth)
    node = Compound([_parse(t, depth + 1) for t in toks])
    node._raw = s
    node._orig = tuple(node.items)
    return node


def _parse_flat(s: str, parts: list[str], depth: int) -> Node:
    """:func:`_parse` of a text holding an ESC where no token starts with a quote, in one split.

    Each level of nesting adds one backslash before every ESC inside it, and nothing else (no
    token is quoted), so an ESC with *k* backslashes right before it separates the tokens of a
    node *k* levels down, and a token's text is its slice with the escaping backslashes of its
    levels taken off: a leaf's is its part without the backslashes that end it (all of them
    escapes); a compound's is made only when asked for (:meth:`Compound._text`). The tree, the
    texts and the depth limit are those of :func:`_parse_nested`, without splitting and joining
    the text again at every level."""
    last = len(parts) - 1
    stripped = [p.rstrip("\\") for p in parts]
    stripped[last] = parts[last]            # nothing follows the last part: its backslashes are text
    runs = list(map(sub, map(len, parts[:last]), map(len, stripped[:last])))
    if depth + max(runs) + 1 > MAX_DEPTH:   # the deepest ESC separates tokens that many levels down
        raise CommandError(f"commands nested deeper than {MAX_DEPTH} levels")
    starts = [0, *accumulate(len(p) + 1 for p in parts[:last])]

    find = runs.index

    def node(lo: int, hi: int, level: int) -> Compound:
        """The token of parts lo..hi (hi > lo: it holds an ESC), *level* levels below s."""
        items: list[Node] = []
        a = lo
        while True:
            try:
                i = find(level, a, hi)        # the next separator of this level
            except ValueError:
                i = -1
            b = hi if i < 0 else i            # this token: parts a..b
            items.append(decode_leaf(stripped[a], depth + level + 1) if a == b else node(a, b, level + 1))
            if i < 0:
                break
            a = i + 1
        c = _new(Compound)
        c.items = items
        c._raw = None
        c._orig = tuple(items)
        c._span = (s, starts[lo], starts[hi] + len(stripped[hi]), level)
        return c

    try:
        return node(0, last, 0)
    finally:
        # node holds itself through its closure cell: a cycle that, left alone, keeps the whole text and its
        # parts alive until a full collection (or for good, under an audit's gc.freeze)
        node = None  # noqa: F841


def parse_commands(text: str) -> Node:
    """Parse a whole ``savedGame`` text (or any command string) into a command tree."""
    if ESC not in text:
        return _parse(text, 0)
    parts = text.split(ESC, MAX_COMMANDS)   # at most MAX_COMMANDS + 1 parts: the list stays bounded
    if len(parts) > MAX_COMMANDS:  # every command but the last ends at an ESC, nested ones too
        raise CommandError(f"the text holds more than {MAX_COMMANDS:,} commands; refusing to decode it")
    return _parse_split(text, parts, 0)


def iter_leaves(node: Node, depth: int = 0) -> Iterator[tuple[int, Command]]:
    """Leaves in document order with their nesting depth (Log inners are not entered)."""
    if isinstance(node, Command):
        yield depth, node
        return
    stack: list[tuple[Iterator[Node], int]] = [(iter(node.items), depth + 1)]  # type: ignore[attr-defined]
    while stack:
        it, d = stack[-1]
        for child in it:
            if isinstance(child, Compound):
                stack.append((iter(child.items), d + 1))
                break
            yield d, child  # type: ignore[misc]
        else:
            stack.pop()


# ================================================================================ streaming

def iter_top_level(chunks, check: "Completeness | None" = None, *,
                   unwrap: bool = False, chat: bool = True) -> Iterator[tuple[int, int, Node]]:
    """Parse a command text given as an iterable of string chunks, one top-level command at a time:
    (number from 1, character offset in the text, node) — the items :func:`parse_commands` would
    give the root, without ever holding the whole tree (or text). A split is an ESC not escaped by
    the backslash right before it, as :func:`~builder.vassal.sequence.decode` splits.

    With *check* (a :class:`Completeness`), what it needs is recorded as the commands go by and,
    at the end, a text that was cut short raises its TruncatedError.

    With *unwrap*, for a reader that only applies the commands: after the first top-level ``end_save``
    a log entry of one command (``LOG\t`` and a leaf, the usual entry) but the last is given as that
    command, its Log never built; *check* counts them (``unwrapped``). Without *chat* (a reader that reads
    no chat line), such a chat line is given as :data:`UNREAD_CHAT`, one Chat for them all (without its text)."""
    number = base = unwrapped = 0   # base: text offset of the current part
    begin = end = False
    held: list[str] = []        # parts of a command whose ESCs so far were escaped
    rest = ""                   # the unfinished last part of the chunks so far
    node: Node | None = None
    offset = 0
    for chunk in chunks:
        if not chunk:
            continue
        parts = (rest + chunk).split(ESC) if rest else chunk.split(ESC)
        rest = parts.pop()
        for part in parts:
            if part and part[-1] == "\\":     # an escaped ESC: the command goes on
                held.append(part)
                continue
            if held:
                held.append(part)
                part = ESC.join(held)
                held.clear()
            number += 1
            if number > MAX_COMMANDS:
                raise CommandError(f"the text holds more than {MAX_COMMANDS:,} commands; refusing to decode it")
            offset = base
            base += len(part) + 1
            if end and unwrap and part[:4] == "LOG\t" and ESC not in part:   # (_top_node's test)
                if not chat and part[4:8] == "CHAT" and part[8:10] != "**":   # (_log_inner's test)
                    unwrapped += 1
                    yield number, offset, UNREAD_CHAT
                    continue
                node = _log_inner(part[4:])
                if isinstance(node, Command):
                    unwrapped += 1
                    yield number, offset, node
                    continue
                node = _logged(part, node)
            else:
                node = _top_node(part)
            if number == 1:
                begin = type(node) is BeginSave
            elif type(node) is EndSave:
                end = True
            yield number, offset, node
    if held:
        held.append(rest)
        rest = ESC.join(held)
    number += 1
    offset = base
    node = _top_node(rest)
    if number == 1:
        begin = type(node) is BeginSave
    elif type(node) is EndSave:
        end = True
    yield number, offset, node
    if check is not None:
        check.count, check.begin, check.end, check.last, check.last_offset = number, begin, end, node, offset
        check.unwrapped = unwrapped
        problem = check.problem()
        if problem is not None:
            raise problem


def _top_node(raw: str) -> Node:
    """A top-level token (held with its level's escapes) as its node; a log entry of one command,
    the usual case, is built here directly."""
    if ESC in raw:
        raw = raw.replace("\\" + ESC, ESC)
    if len(raw) > 1 and raw[0] == "'" and raw[-1] == "'":
        raw = raw[1:-1]
    elif raw[:4] == "LOG\t" and ESC not in raw:
        return _logged(raw, _log_inner(raw[4:]))
    return _parse(raw, 1)


def _logged(raw: str, inner: Node) -> "Log":
    """The Log read from *raw* whose command is *inner*."""
    log = _new(Log)
    _set_raw(log, raw)
    _set_dirty(log, False)
    _set_inner(log, inner)
    return log


def _log_inner(inner: str) -> Node:
    """The command of a log entry of one command (its text after ``LOG\t``, holding no ESC); a move or
    a chat line, the usual ones, built here directly (decode_leaf's result)."""
    if inner[:2] == "M/" and (_PLAIN_MOVE if "\\" not in inner and "'" not in inner
                              else _MOVE_SHAPE).match(inner) is not None:
        cmd = _new(MovePiece)
        _set_raw(cmd, inner)
        _set_dirty(cmd, False)
        return cmd
    if inner[:4] == "CHAT" and inner[4:6] != "**":                   # (not a dice roll)
        cmd = _new(Chat)
        _set_raw(cmd, inner)
        _set_dirty(cmd, False)
        _set_text(cmd, inner[4:])
        return cmd
    return decode_leaf(inner, 2) if inner[:1] != "'" else _parse(inner, 2)


def last_top_offset(text: str) -> int:
    """Where the last top-level command of a text starts: after its last ESC not escaped by a
    backslash right before it (the split iter_top_level makes)."""
    i = text.rfind(ESC)
    while i > 0 and text[i - 1] == "\\":
        i = text.rfind(ESC, 0, i)
    return i + 1


def last_leaf(node: Node) -> Command | None:
    """The last command of a node, entering compounds and LOG wrappers."""
    while True:
        if isinstance(node, Log):
            node = node.inner
        elif isinstance(node, Compound):
            if not node.items:
                return None
            node = node.items[-1]
        else:
            return node  # type: ignore[return-value]


class Completeness:
    """Tells a command text that was cut short, from its top-level commands seen in order (shared by
    every reader: dump, lint, audit). A save starts ``begin_save`` and has a top-level ``end_save``;
    a log's entries follow it. Cut inside a command, the last one does not decode (a Malformed
    command, a piece that does not decode, a state change with fewer old layers than new ones, the
    start of a command prefix). A cut inside the last field of a command cannot be told from a
    complete one."""

    def __init__(self) -> None:
        self.count = 0
        self.unwrapped = 0          # log entries given as their command (iter_top_level's unwrap)
        self.begin = self.end = False
        self.last: Node | None = None
        self.last_offset = 0

    def see(self, number: int, offset: int, node: Node) -> None:
        if number == 1:
            self.begin = isinstance(node, BeginSave)
        elif isinstance(node, EndSave):
            self.end = True
        self.count, self.last, self.last_offset = number, node, offset

    def problem(self):
        """A TruncatedError describing where the text breaks, or None when it looks complete."""
        from builder.vassal.errors import TruncatedError
        leaf = last_leaf(self.last) if self.last is not None else None
        why = None
        if isinstance(leaf, Malformed):
            why = f"the last command is incomplete ({leaf.error})"
        elif isinstance(leaf, AddPiece) and not leaf.is_stack:
            try:
                leaf.piece
            except VassalFormatError as exc:
                why = f"the last piece does not decode ({exc})"
        elif isinstance(leaf, ChangePiece) and leaf.old_state is not None:
            from builder.vassal.piece import split_layers
            if len(split_layers(leaf.old_state)) != len(split_layers(leaf.new_state)):
                why = "the last state change is incomplete (its old state has fewer layers)"
        elif isinstance(leaf, Unknown) and leaf.raw and any(
                p.startswith(leaf.raw) and p != leaf.raw for p in _CUT_PREFIXES):
            why = f"the last command {leaf.raw!r} is the start of a command"
        elif isinstance(self.last, Log) and isinstance(self.last.inner, NullCommand):
            why = "the last log entry is empty"
        elif isinstance(self.last, NullCommand) and self.count > 1:
            why = "the text ends with a command separator"
        if why is None and self.begin and not self.end:
            why = "the saved position has no end_save"
        if why is None:
            return None
        return TruncatedError(f"savedGame is truncated at command {self.count} (offset {self.last_offset} "
                              f"of the command text): {why}", offset=self.last_offset, command=self.count)
