"""Trait base class, field kinds, key strokes and the pass-through trait.

A trait owns two strings, as in VASSAL (vassal-format.md §3.2, §3.5):

* its **type**: the id prefix (``emb2;``) followed by its fields, ``;``-encoded;
* its **state**: one string (often empty) that changes during play.

Type fields are kept as the decoded tokens read from the file, so a trait that was not
changed re-encodes to exactly the bytes it was read from (the raw string is kept and
reused until a field is set). Typed access goes through the field table of each class:
``trait.get("name")`` / ``trait.set("name", value)`` or plain attributes
(``layer.images``). Missing trailing fields read as the class's default, as VASSAL's
``Decoder.nextToken(default)`` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, ClassVar, NamedTuple

from builder.vassal.errors import PieceError
from builder.vassal.sequence import decode, encode_str, java_double, parse_java_int

__all__ = ["KeyStroke", "Field", "Trait", "PassthroughTrait", "F"]


# ----------------------------------------------------------------------------- keystrokes

class KeyStroke:
    """A VASSAL ``NamedKeyStroke``: key code + modifiers, or a named command (§3.3). Immutable,
    compared and hashed by value (written out rather than a frozen dataclass: see Field)."""

    __slots__ = ("code", "modifiers", "name")

    def __init__(self, code: int = 0, modifiers: int = 0, name: str | None = None) -> None:
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "modifiers", modifiers)
        object.__setattr__(self, "name", name)

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {key!r} (KeyStroke is immutable)")

    def __delattr__(self, key: str) -> None:
        raise AttributeError(f"cannot delete field {key!r} (KeyStroke is immutable)")

    def _key(self) -> tuple:
        return (self.code, self.modifiers, self.name)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._key() == other._key()   # type: ignore[attr-defined]
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"KeyStroke(code={self.code!r}, modifiers={self.modifiers!r}, name={self.name!r})"

    def __reduce__(self):
        return (KeyStroke, self._key())

    @classmethod
    def parse(cls, s: str | None) -> "KeyStroke | None":
        if not s:
            return None
        if "," not in s:  # legacy: one character = Ctrl + that character
            return cls(_key_code(s[0]), 130)
        parts = s.split(",")
        code = parse_java_int(parts[0]) or 0
        mods = parse_java_int(parts[1]) or 0 if len(parts) > 1 else 0
        name = parts[2] if len(parts) > 2 and parts[2] else None
        return cls(code, mods, name)

    def encode(self) -> str:
        base = f"{self.code},{self.modifiers}"
        return f"{base},{self.name}" if self.name else base

    @classmethod
    def named(cls, name: str) -> "KeyStroke":
        return cls(0, 0, name)

    def __str__(self) -> str:
        if self.name:
            return self.name
        mods = []
        for bit, label in ((130, "Ctrl"), (65, "Shift"), (520, "Alt"), (260, "Meta")):
            if self.modifiers & bit == bit:
                mods.append(label)
        ch = chr(self.code) if 48 <= self.code <= 90 else f"#{self.code}"
        return "+".join(mods + [ch])


def _key_code(c: str) -> int:
    """Java ``Character.toUpperCase(c)`` as a key code (one char even where Python's
    ``upper()`` gives two, e.g. ß)."""
    u = c.upper()
    return ord(u if len(u) == 1 else c)


def _enc_keys(keys: list[KeyStroke | None] | None) -> str:
    return encode_str([k.encode() if k else "" for k in (keys or [])], ",") if keys else ""


def _dec_keys(s: str | None) -> list[KeyStroke | None]:
    if not s:
        return []
    if "," not in s:  # legacy: each char is Ctrl+char
        return [KeyStroke(_key_code(c), 130) for c in s]
    return [KeyStroke.parse(t) for t in decode(s, ",")]


# ---------------------------------------------------------------------------------- fields

class Field(NamedTuple):
    """One type field: name, kind and the reader's default (as a Python value). A NamedTuple,
    not a frozen dataclass: importing dataclasses (with inspect) was a tenth of ``dump``'s start-up."""

    name: str
    kind: str = "str"      # str|int|double|bool|key|keys|list|char|color
    default: Any = ""

    def parse(self, token: str | None) -> Any:
        if token is None:
            return self.default
        k = self.kind
        if k == "str":
            return token
        if k == "int":
            v = parse_java_int(token.strip())
            return self.default if v is None else v
        if k == "double":
            try:
                return float(token) if token else self.default
            except ValueError:
                return self.default
        if k == "bool":
            return token == "true"
        if k == "key":
            return KeyStroke.parse(token)
        if k == "keys":
            return _dec_keys(token)
        if k == "list":
            return decode(token, ",") if token else []
        if k == "char":
            return token[0] if token else self.default
        if k == "color":
            if not token:
                return None
            parts = token.split(",")
            try:
                return tuple(int(p) for p in parts)
            except ValueError:
                return self.default
        raise AssertionError(k)

    def format(self, value: Any) -> str:
        k = self.kind
        if value is None:
            return ""
        if k == "bool":
            return "true" if value else "false"
        if k == "int":
            return str(int(value))
        if k == "double":
            return java_double(float(value))
        if k == "key":
            return value.encode() if isinstance(value, KeyStroke) else str(value)
        if k == "keys":
            return _enc_keys(list(value))
        if k == "list":
            return encode_str([str(v) for v in value], ",") if value else ""
        if k == "color":
            return ",".join(str(int(c)) for c in value) if not isinstance(value, str) else value
        return str(value)


@lru_cache(maxsize=8192)
def _type_fields(type_str: str) -> tuple[str, ...]:
    # cached: the same layer types recur across a save's pieces; each trait copies the tuple
    return tuple(decode(type_str, ";")[1:])


@lru_cache(maxsize=4096)
def _key_text(token: str) -> str | None:
    """A key field as a report shows it: the key stroke it reads as, encoded (None when empty)."""
    k = KeyStroke.parse(token)
    return None if k is None else k.encode()


@lru_cache(maxsize=4096)
def _keys_text(token: str) -> tuple[str | None, ...]:
    """A key list field as a report shows it (see :func:`_key_text`)."""
    return tuple(k.encode() if isinstance(k, KeyStroke) else k for k in _dec_keys(token))


def F(name: str, kind: str = "str", default: Any = "") -> Field:
    return Field(name, kind, default)


# ----------------------------------------------------------------------------------- trait

_AS_DICT: dict[tuple[type, str], dict[str, Any]] = {}   # (class, raw type) -> decoded fields

#: how many times any trait's type or state was changed (set(), the state setter): while it stays
#: the same, no decoded trait changed, and values a piece derives from its strings still hold
MUTATIONS = [0]

class Trait:
    """Base of every trait (and of the innermost BasicPiece/Stack/Deck)."""

    ID: ClassVar[str] = ""                 # type prefix up to and including the first ";"
    NAME: ClassVar[str] = "Trait"          # human name (VASSAL editor name)
    FIELDS: ClassVar[tuple[Field, ...]] = ()
    DEFAULT_STATE: ClassVar[str] = ""
    #: the state holds a player id (= the player's password in VASSAL); never print it
    SECRET_STATE: ClassVar[bool] = False
    INNERMOST: ClassVar[bool] = False
    #: does the class define properties() / piece_name() (set for each class: a piece's name and
    #: properties skip the layers that add nothing)
    HAS_PROPERTIES: ClassVar[bool] = False
    HAS_NAME: ClassVar[bool] = False

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        cls.HAS_PROPERTIES = cls.properties is not Trait.properties
        cls.HAS_NAME = cls.piece_name is not Trait.piece_name
        cls._FIELD_AT = None if cls._dynamic_fields() else {f.name: (i, f) for i, f in enumerate(cls.FIELDS)}

    __slots__ = ("_toks", "_raw_type", "_state", "type_dirty", "state_dirty")

    def __init__(self, **values: Any) -> None:
        self._tokens: list[str] = self._initial_tokens()   # every field's default...
        self._raw_type: str | None = None
        self._state: str = self.DEFAULT_STATE
        self.type_dirty = True
        self.state_dirty = True
        for k, v in values.items():                # ...then the given values
            if k == "state":
                self._state = v
            else:
                self.set(k, v)

    def _initial_tokens(self) -> list[str]:
        return [f.format(f.default) for f in self.fields()]

    @property
    def _tokens(self) -> Sequence[str]:
        """The type's field tokens, split from the raw type string on first use: a caller
        that reads one trait of a long chain pays for that trait only. A decoded trait shares
        the tuple cached for its type string (no copy, no container the garbage collector
        tracks); :meth:`set` replaces it with a list of its own."""
        toks = self._toks
        if toks is None:
            toks = self._toks = self._split_type(self._raw_type or "")
        return toks

    @_tokens.setter
    def _tokens(self, value: Sequence[str]) -> None:
        self._toks = value
        MUTATIONS[0] += 1

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_type(cls, type_str: str, state: str | None = None) -> "Trait":
        t = cls.__new__(cls)
        t._raw_type = type_str
        t._toks = None
        t._state = cls.DEFAULT_STATE if state is None else state
        t.type_dirty = False
        t.state_dirty = False
        return t

    def _split_type(self, type_str: str) -> Sequence[str]:
        """Type string → field tokens (the prefix token is dropped, as VASSAL does)."""
        return _type_fields(type_str)

    def _join_type(self) -> str:
        head = self.ID[:-1] if self.ID.endswith(";") else self.ID
        return encode_str([head, *self._tokens], ";")

    # ------------------------------------------------------------------ codecs
    def type_string(self) -> str:
        if not self.type_dirty and self._raw_type is not None:
            return self._raw_type
        return self._join_type()

    @property
    def state(self) -> str:
        return self._state

    @state.setter
    def state(self, value: str) -> None:
        self._state = "" if value is None else value
        self.state_dirty = True
        MUTATIONS[0] += 1

    def state_string(self) -> str:
        return self._state

    # ------------------------------------------------------------------ fields
    def fields(self) -> tuple[Field, ...]:
        return self.FIELDS

    _FIELD_AT: ClassVar[dict[str, tuple[int, Field]] | None] = None   # name -> (index, field), static FIELDS

    def _field(self, name: str) -> tuple[int, Field]:
        at = self._FIELD_AT
        if at is not None:
            try:
                return at[name]
            except KeyError:
                pass
        else:
            for i, f in enumerate(self.fields()):
                if f.name == name:
                    return i, f
        raise AttributeError(f"{type(self).__name__} has no field {name!r}")

    @property
    def tokens(self) -> list[str]:
        """The raw type field tokens (a copy)."""
        return list(self._tokens)

    def get(self, name: str) -> Any:
        i, f = self._field(name)
        toks = self._toks
        if toks is None:
            toks = self._tokens
        return f.parse(toks[i] if i < len(toks) else None)

    def set(self, name: str, value: Any) -> None:
        i, f = self._field(name)
        fields = self.fields()
        toks = list(self._tokens)      # its own copy (a decoded trait shares its type's tuple)
        while len(toks) <= i:  # pad missing trailing fields with their defaults
            pf = fields[len(toks)]
            toks.append(pf.format(pf.default))
        toks[i] = f.format(value)
        self._toks = toks
        self.type_dirty = True
        MUTATIONS[0] += 1

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        for f in type(self).FIELDS if not self._dynamic_fields() else self.fields():
            if f.name == name:
                return self.get(name)
        raise AttributeError(f"{type(self).__name__!s} has no attribute {name!r}")

    @classmethod
    def _dynamic_fields(cls) -> bool:
        return cls.fields is not Trait.fields

    def as_dict(self) -> dict[str, Any]:
        """Decoded type fields (JSON-friendly) for reports."""
        if self.type_dirty or self._raw_type is None:
            return self._as_dict()
        # a save shows the same layer types on many pieces: decode each type once
        key = (type(self), self._raw_type)
        d = _AS_DICT.get(key)
        if d is None:
            if len(_AS_DICT) >= 8192:
                _AS_DICT.clear()
            d = _AS_DICT[key] = self._as_dict()
        return dict(d)

    def _as_dict(self) -> dict[str, Any]:
        toks = self._tokens
        fields = self.fields()
        out: dict[str, Any] = {}
        for f, tok in zip(fields, toks):     # missing trailing fields are left out
            kind = f.kind
            if kind == "str":
                out[f.name] = tok
            elif kind == "key":
                out[f.name] = _key_text(tok)
            elif kind == "keys":
                out[f.name] = list(_keys_text(tok))
            else:
                v = f.parse(tok)
                out[f.name] = list(v) if isinstance(v, tuple) else v
        if len(toks) > len(fields):
            out["_extra"] = list(toks[len(fields):])
        return out

    def state_dict(self) -> dict[str, Any]:
        """Decoded state for reports; subclasses refine."""
        return {"state": self._state}

    def secret_values(self) -> list[str]:
        """Values in the state that are player ids (passwords)."""
        return []

    def piece_name(self, inner: str, props: dict[str, str]) -> str:
        """The piece name as seen through this trait (VASSAL ``getName``); *inner* is the
        name of the layers below, *props* the piece's known property values."""
        return inner

    def properties(self) -> dict[str, str]:
        """Property values this trait defines (Marker, Dynamic Property, Basic Piece...)."""
        return {}

    @property
    def id(self) -> str:
        return self.ID

    def __repr__(self) -> str:  # states holding player ids are masked
        state = "********" if self.SECRET_STATE and self.secret_values() else self._state[:30]
        return f"<{type(self).__name__} {self.type_string()[:60]!r} state={state!r}>"


class PassthroughTrait(Trait):
    """Any trait this codec does not model (module-specific ``locmsg;``, VASL ``moved;`` ...).

    Type and state are kept verbatim and re-encoded byte for byte.
    """

    NAME = "Unknown trait"
    __slots__ = ()

    @classmethod
    def from_type(cls, type_str: str, state: str | None = None) -> "PassthroughTrait":
        t = super().from_type(type_str, state)
        return t  # type: ignore[return-value]

    def _split_type(self, type_str: str) -> Sequence[str]:
        return (type_str,)

    def _join_type(self) -> str:
        return self._tokens[0] if self._tokens else ""

    @property
    def id(self) -> str:  # prefix up to and including the first ';' (whole string if none)
        t = self._raw_type or ""
        i = t.find(";")
        return t if i < 0 else t[: i + 1]

    def as_dict(self) -> dict[str, Any]:
        return {"type": self.type_string()}


def require(cond: bool, message: str) -> None:
    if not cond:
        raise PieceError(message)
