"""Decorator chains: a piece's TAB-layered type and state strings ⇄ :class:`Piece`.

vassal-format.md §3.2: ``type = encode([outermost, rest], TAB)`` recursively down to the
innermost BasicPiece; the state string has the same shape, one token per layer.

>>> p = Piece.decode("delete;Delete;68,130;\\tpiece;;;a.png;Tank", "\\tnull;0;0;1;0")
>>> [type(t).__name__ for t in p.layers]
['Delete', 'BasicPiece']
>>> p.name, p.type_string() == "delete;Delete;68,130;\\tpiece;;;a.png;Tank"
('Tank', True)

Build one from traits (outermost first) and get the PieceSlot text:

>>> from builder.vassal.traits import Delete, BasicPiece
>>> piece = Piece([Delete(command_name="Delete"), BasicPiece(image="a.png", name="Tank")])
>>> piece.add_piece_string()
'+/null/delete;Delete;68,130;\\tpiece;;;a.png;Tank/\\tnull;0;0;;0'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from builder.vassal.errors import PieceError
from builder.vassal.sequence import encode_str
from builder.vassal.traits import (
    BasicPiece,
    Deck,
    PassthroughTrait,
    Stack,
    Trait,
    UsePrototype,
    trait_from_type,
)

__all__ = ["Piece", "split_layers", "join_layers", "expand_prototypes", "MAX_LAYERS"]

TAB = "\t"
MAX_LAYERS = 10_000
T = TypeVar("T", bound=Trait)


def _unescaped_tab(s: str, start: int = 0) -> int:
    """Index of the first TAB at or after *start* not preceded by a backslash, or -1."""
    i = s.find(TAB, start)
    while i > 0 and s[i - 1] == "\\":
        i = s.find(TAB, i + 1)
    return i


def _token(s: str) -> str:
    """One TAB-level token: drop the escaping backslash before each TAB, then unquote."""
    if TAB in s:
        s = s.replace("\\\t", TAB)
    if len(s) > 1 and s[0] == "'" and s[-1] == "'":
        s = s[1:-1]
    return s


def split_layers(s: str, *, limit: int = MAX_LAYERS) -> list[str]:
    """Split a TAB-chained string into its layers, outermost first (§3.2).

    Like VASSAL's ``BasicCommandEncoder.createPiece``: each level is split with
    ``decode(rest, TAB)``; its first token is the layer, the second (if any) is split again
    (extra tokens are ignored by VASSAL and survive here only through the raw string).
    """
    out: list[str] = []
    rest = s
    while True:
        if len(out) >= limit:
            raise PieceError(f"piece has more than {limit} layers")
        i = _unescaped_tab(rest)
        if i < 0:
            out.append(_token(rest) if rest else rest)
            break
        out.append(_token(rest[:i]))
        j = _unescaped_tab(rest, i + 1)
        rest = _token(rest[i + 1:j] if j >= 0 else rest[i + 1:])
    return out


def join_layers(layers: list[str]) -> str:
    """Inverse of :func:`split_layers`: fold from the innermost layer outwards."""
    if not layers:
        return ""
    s = layers[-1]
    for t in reversed(layers[:-1]):
        s = encode_str([t, s], TAB)
    return s


class Piece:
    """A game piece: its trait layers, outermost first, the innermost (BasicPiece…) last."""

    __slots__ = ("layers", "_raw_type", "_raw_state", "_orig", "_state_layers_missing")

    def __init__(self, layers: list[Trait]) -> None:
        if not layers:
            raise PieceError("a piece needs at least one layer")
        self.layers = list(layers)
        self._raw_type: str | None = None
        self._raw_state: str | None = None
        self._orig: tuple[int, ...] = ()
        self._state_layers_missing = 0

    # ---------------------------------------------------------------- decoding
    @classmethod
    def decode(cls, type_str: str, state_str: str | None = None) -> "Piece":
        types = split_layers(type_str)
        states = split_layers(state_str) if state_str is not None else []
        layers = []
        for i, t in enumerate(types):
            layers.append(trait_from_type(t, states[i] if i < len(states) else None))
        p = cls(layers)
        p._raw_type = type_str
        p._raw_state = state_str
        p._orig = tuple(id(x) for x in p.layers)
        p._state_layers_missing = max(0, len(types) - len(states)) if state_str is not None else 0
        return p

    def _unchanged(self) -> bool:
        return len(self._orig) == len(self.layers) and all(
            id(x) == o for x, o in zip(self.layers, self._orig))

    @classmethod
    def new_stack(cls, map_id: str | None, x: int, y: int, members: list[str],
                  layer: int | str | None = 1) -> "Piece":
        """A Stack (type ``stack``) at a map point, members bottom first."""
        st = Stack()
        st.set_stack(map_id, x, y, members, layer)
        return cls([st])

    # ---------------------------------------------------------------- encoding
    def type_string(self) -> str:
        if self._raw_type is not None and self._unchanged() and not any(
                t.type_dirty for t in self.layers):
            return self._raw_type
        return join_layers([t.type_string() for t in self.layers])

    def state_string(self) -> str:
        if self._raw_state is not None and self._unchanged() and not any(
                t.state_dirty for t in self.layers):
            return self._raw_state
        return join_layers([t.state_string() for t in self.layers])

    def add_piece_string(self, piece_id: str | None = None) -> str:
        """The ``+/id/type/state`` text (PieceSlot/PrototypeDefinition text when id is None)."""
        return "+/" + encode_str(["null" if piece_id is None else piece_id,
                                  self.type_string(), self.state_string()], "/")

    # ---------------------------------------------------------------- access
    @property
    def inner(self) -> Trait:
        return self.layers[-1]

    @property
    def traits(self) -> list[Trait]:
        """Decorators only (without the innermost layer), outermost first."""
        return self.layers[:-1]

    @property
    def basic(self) -> BasicPiece | None:
        inner = self.layers[-1]
        return inner if isinstance(inner, BasicPiece) else None

    @property
    def is_stack(self) -> bool:
        return isinstance(self.layers[-1], Stack)

    @property
    def is_deck(self) -> bool:
        return isinstance(self.layers[-1], Deck)

    @property
    def name(self) -> str:
        b = self.basic
        return b.get("name") if b is not None else ""

    def properties(self) -> dict[str, str]:
        """Property values known from the traits (outer layers win), e.g. Marker values."""
        props: dict[str, str] = {}
        for t in reversed(self.layers):
            props.update(t.properties())
        return props

    @property
    def display_name(self) -> str:
        """The name VASSAL shows (``getName`` through the chain): Layer level names
        (``Name``, ``Name+`` prefix, ``+Name`` suffix) and Text Label formats applied."""
        props = self.properties()
        name = ""
        for t in reversed(self.layers):
            name = t.piece_name(name, props)
        return name

    @property
    def map_id(self) -> str | None:
        return getattr(self.inner, "map_id", None)

    @property
    def position(self) -> tuple[int, int]:
        return getattr(self.inner, "position", (0, 0))

    def find(self, cls: type[T]) -> T | None:
        for t in self.layers:
            if isinstance(t, cls):
                return t
        return None

    def find_all(self, cls: type[T]) -> list[T]:
        return [t for t in self.layers if isinstance(t, cls)]

    def trait_ids(self) -> list[str]:
        return [t.id for t in self.layers]

    def __iter__(self) -> Iterator[Trait]:
        return iter(self.layers)

    def secret_values(self) -> list[str]:
        out: list[str] = []
        for t in self.layers:
            out.extend(t.secret_values())
        return out

    def describe(self, *, mask: str | None = "********") -> dict[str, Any]:
        """JSON-friendly decoded view: each layer's id, class, fields and state.

        States of traits that hold player ids (Mask, Invisible, Restricted) are masked
        unless *mask* is None.
        """
        layers = []
        for t in self.layers:
            d: dict[str, Any] = {"id": t.id, "trait": type(t).__name__}
            if isinstance(t, PassthroughTrait):
                d["type"] = t.type_string()
                d["state"] = t.state_string()
            else:
                d["fields"] = t.as_dict()
                sd = t.state_dict()
                if t.SECRET_STATE and mask is not None:
                    sd = {k: (mask if isinstance(v, str) and v and v in t.secret_values() else v)
                          for k, v in sd.items()}
                d["state"] = sd
            layers.append(d)
        return {"name": self.name, "layers": layers}

    def __repr__(self) -> str:
        return f"<Piece {self.name!r} {len(self.layers)} layers>"


def expand_prototypes(piece: Piece, lookup: "Callable[[str], Piece | None]", *,
                      max_depth: int = 50) -> Piece:
    """The piece as VASSAL puts it into a game (``PieceCloner``, §3.5.3): every
    ``prototype;Name`` layer is replaced by the traits of that PrototypeDefinition (with
    their stored states; nested prototypes expanded too; the definition's BasicPiece is
    dropped), Comment traits (``cmt;``) are dropped, and a missing prototype expands to
    nothing. *lookup* maps a prototype name to its definition piece (or None).
    """
    def expand(layers: list[Trait], depth: int) -> list[Trait]:
        if depth > max_depth:
            raise PieceError(f"prototypes nested deeper than {max_depth} levels (a prototype uses itself?)")
        out: list[Trait] = []
        for t in layers:
            if isinstance(t, UsePrototype):
                proto = lookup(t.get("prototype_name"))
                if proto is not None:
                    out.extend(expand(proto.layers[:-1], depth + 1))
            elif t.id == "cmt;":
                continue
            else:
                out.append(trait_from_type(t.type_string(), t.state_string()))
        return out

    inner = piece.inner
    return Piece(expand(piece.traits, 0) + [trait_from_type(inner.type_string(), inner.state_string())])


def piece_images(piece: Piece) -> list[str]:
    """Image names a piece's traits use (built-in resources starting with '/' excluded)."""
    out: list[str] = []
    for t in piece.layers:
        tid = t.id
        try:
            if tid == "piece;":
                out.append(t.get("image") or "")
            elif tid == "emb2;":
                out.extend(t.get("images") or [])
            elif tid == "obs;":
                out.append(t.get("image") or "")
                style = t.get("display_style") or ""
                if style.startswith("G"):
                    out.append(style[1:])
            elif tid == "markmoved;":
                out.append(t.get("moved_icon") or "")
        except Exception:  # noqa: BLE001 - a malformed trait is the pieces check's business
            continue
    return [i for i in out if i and not i.startswith("/")]
