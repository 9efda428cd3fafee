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

import json
from collections import Counter
from functools import lru_cache
from collections.abc import Callable, Iterator
from itertools import accumulate
from operator import is_, methodcaller, sub
from typing import Any, TypeVar

from builder.vassal.errors import PieceError
from builder.vassal.sequence import encode_str
from builder.vassal.traits import (
    BasicPiece,
    trait_class,
    Deck,
    PassthroughTrait,
    Stack,
    Trait,
    UsePrototype,
    trait_from_type,
)
from builder.vassal.traits.base import MUTATIONS

__all__ = ["Piece", "split_layers", "join_layers", "expand_prototypes", "MAX_LAYERS"]

TAB = "\t"
MAX_LAYERS = 10_000
T = TypeVar("T", bound=Trait)


def _backslash_runs(parts: list[str]) -> list[int]:
    """For the TAB after each part but the last, how many backslashes stand right before it."""
    return list(map(sub, map(len, parts), map(len, map(methodcaller("rstrip", "\\"), parts[:-1]))))


def split_layers(s: str, *, limit: int = MAX_LAYERS) -> list[str]:
    """Split a TAB-chained string into its layers, outermost first (§3.2).

    Like VASSAL's ``BasicCommandEncoder.createPiece``: each level is split with
    ``decode(rest, TAB)``; its first token is the layer, the second (if any) is split again
    (extra tokens are ignored by VASSAL and survive here only through the raw string).

    One pass, linear in the length: each nesting level adds one backslash before every TAB
    inside it, so the TAB separating layer *k* from the rest is the first TAB of the current
    region with exactly *k* backslashes before it. The runs are counted once; each level is
    then a look-up and a slice of the original string, never a re-scan or rewrite of the rest.
    """
    if TAB not in s:
        if limit < 1:
            raise PieceError(f"piece has more than {limit} layers")
        return [s[1:-1] if len(s) > 1 and s[0] == "'" and s[-1] == "'" else s]
    parts = s.split(TAB)
    plain = _plain_chain(parts, limit)
    if plain is not None:
        return plain
    runs = _backslash_runs(parts)
    tab_at = list(accumulate(map(len, parts[:-1])))   # tab i sits at tab_at[i] + i
    # A run length seen once (the usual case: no layer holds a TAB of its own) makes that
    # level's separator a dict look-up, and that level cannot have extra tokens.
    where = dict(zip(runs, range(len(runs))))
    repeated = () if len(where) == len(runs) else {v for v, n in Counter(runs).items() if n > 1}
    out: list[str] = []
    a, z = 0, len(s)            # the current region, in s's own coordinates
    lo, hi = 0, len(runs)       # the TABs inside it: runs[lo:hi]
    depth = 0
    while True:
        if len(out) >= limit:
            raise PieceError(f"piece has more than {limit} layers")
        if depth in repeated:
            sep = _find(runs, depth, lo, hi)
            nxt = _find(runs, depth, sep + 1, hi) if sep >= 0 else -1   # an extra token
        else:
            sep = where.get(depth, -1)
            if not lo <= sep < hi:
                sep = -1
            nxt = -1
        end = tab_at[sep] + sep - depth if sep >= 0 else z   # the escaping backslashes are not text
        t = s[a:end]
        if TAB in t:
            t = t.replace("\\" * (depth + 1) + TAB, TAB)
        out.append(t[1:-1] if len(t) > 1 and t[0] == "'" and t[-1] == "'" else t)
        if sep < 0:
            return out
        a, lo = end + depth + 1, sep + 1
        if nxt >= 0:
            z, hi = tab_at[nxt] + nxt - depth, nxt
        if z - a > 1 and s[a] == "'" and s[z - 1] == "'":
            a, z = a + 1, z - 1
        depth += 1


#: longest chain :func:`_plain_chain` reads (its check grows with the square of the depth)
_PLAIN_MAX = 256


def _plain_chain(parts: list[str], limit: int) -> list[str] | None:
    """The layers of a chain split on TAB, when it is the plain shape nearly every piece has: no
    layer holds a TAB or starts with a quote, so the TAB after layer *k* (k = 0, 1, ...) has
    exactly *k* backslashes before it and every part is one layer plus those backslashes.
    None for any other shape (then :func:`split_layers` reads it level by level). Checked with
    ``endswith`` on each part: nothing is copied but the layers themselves."""
    n = len(parts)
    if n > limit or n > _PLAIN_MAX:
        return None
    out = [parts[0]]
    bs = ""
    for i in range(1, n - 1):
        p = parts[i]
        bs += "\\"
        k = len(p) - i
        if k < 0 or not p.endswith(bs) or (k and p[k - 1] == "\\") or p[:1] == "'":
            return None
        out.append(p[:k])
    last = parts[-1]
    if parts[0][:1] == "'" or last[:1] == "'" or parts[0][-1:] == "\\":
        return None
    out.append(last)
    return out


def _find(runs: list[int], value: int, lo: int, hi: int) -> int:
    """Index of the first *value* in runs[lo:hi], or -1 (list.index scans in C)."""
    try:
        return runs.index(value, lo, hi)
    except ValueError:
        return -1


@lru_cache(maxsize=4096)
def _split_cached(s: str) -> tuple[str, ...]:
    """split_layers for decoding: a save repeats the same type strings (every counter of a
    kind) and many states; a piece gets its own trait objects, only the split is shared."""
    return tuple(split_layers(s))


@lru_cache(maxsize=4096)
def _layer_plan(type_str: str) -> tuple[tuple[type[Trait], ...], tuple[str, ...], tuple[str, ...]]:
    """A piece type's layers as (trait classes, layer types, their default states): what decoding
    a piece of that type needs, found once per distinct type (a save has a few hundred). Three
    tuples, not one per layer: only the first holds objects the garbage collector must track."""
    types = _split_cached(type_str)
    classes = tuple(map(trait_class, types))
    return classes, types, tuple(cls.DEFAULT_STATE for cls in classes)


_new = object.__new__


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

    __slots__ = ("_layers", "_raw_type", "_raw_state", "_orig", "_state_layers_missing", "_seen")

    def __init__(self, layers: list[Trait]) -> None:
        if not layers:
            raise PieceError("a piece needs at least one layer")
        self._layers: list[Trait] | None = list(layers)
        self._raw_type: str | None = None
        self._raw_state: str | None = None
        self._orig: tuple[Trait, ...] = ()
        self._state_layers_missing = 0
        self._seen = -1

    # ---------------------------------------------------------------- decoding
    @classmethod
    def decode(cls, type_str: str, state_str: str | None = None) -> "Piece":
        """The piece of a type and a state string. The strings are split into trait layers
        when a layer is first asked for, and each trait's fields when that trait is read."""
        for s in (type_str, state_str):   # a chain too long is refused here, as an eager decode would
            if s is not None and len(s) >= MAX_LAYERS and s.count(TAB) >= MAX_LAYERS:   # (shorter: fewer TABs)
                split_layers(s)
        p = cls.__new__(cls)
        p._layers = None
        p._raw_type = type_str
        p._raw_state = state_str
        p._orig = ()
        p._state_layers_missing = 0
        p._seen = -1
        return p

    @property
    def layers(self) -> list[Trait]:
        if self._layers is None:
            self._decode_layers()
        return self._layers

    @layers.setter
    def layers(self, value: list[Trait]) -> None:
        self._layers = list(value)

    def _decode_layers(self) -> None:
        classes, types, defaults = _layer_plan(self._raw_type)
        state_str = self._raw_state
        states = _split_cached(state_str) if state_str is not None else ()
        n = len(states)
        if n < len(types):    # a state with fewer layers: the rest keep their defaults
            states = states + defaults[n:]
        layers = []
        append = layers.append
        for cls, t, st in zip(classes, types, states):   # Trait.from_type, inlined: a save has ~10 per piece
            o = _new(cls)
            o._raw_type = t
            o._toks = None
            o._state = st
            o.type_dirty = o.state_dirty = False
            append(o)
        self._layers = layers
        self._orig = tuple(layers)
        self._seen = MUTATIONS[0]
        self._state_layers_missing = max(0, len(types) - n) if state_str is not None else 0

    def _unchanged(self) -> bool:
        """Is the layer list the one decoded (the same trait objects in the same order)?"""
        layers = self._layers
        if layers is None:
            return True
        return len(self._orig) == len(layers) and all(map(is_, layers, self._orig))

    def _pristine(self) -> bool:
        """Do the layers still hold what the piece was decoded from (the same traits, none of them
        changed)? The dirty flags are looked at only when some trait changed since the last look."""
        if self._raw_type is None or not self._unchanged():
            return False
        layers = self._layers
        if layers is None or self._seen == MUTATIONS[0]:
            return True
        if any(t.type_dirty or t.state_dirty for t in layers):
            return False
        self._seen = MUTATIONS[0]
        return True

    @classmethod
    def new_stack(cls, map_id: str | None, x: int, y: int, members: list[str],
                  layer: int | str | None = 1) -> "Piece":
        """A Stack (type ``stack``) at a map point, members bottom first."""
        st = Stack()
        st.set_stack(map_id, x, y, members, layer)
        return cls([st])

    # ---------------------------------------------------------------- encoding
    def type_string(self) -> str:
        if self._raw_type is not None and (self._layers is None or self._unchanged() and not any(
                t.type_dirty for t in self._layers)):
            return self._raw_type
        return join_layers([t.type_string() for t in self.layers])

    def state_string(self) -> str:
        if self._raw_state is not None and (self._layers is None or self._unchanged() and not any(
                t.state_dirty for t in self._layers)):
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
        derived = self._derived()
        if derived is not None:
            return derived[2]
        b = self.basic
        return b.get("name") if b is not None else ""

    def properties(self) -> dict[str, str]:
        """Property values known from the traits (outer layers win), e.g. Marker values."""
        derived = self._derived()
        return dict(derived[0]) if derived is not None else self._properties()

    def _properties(self) -> dict[str, str]:
        props: dict[str, str] = {}
        for t in reversed(self.layers):
            if t.HAS_PROPERTIES:
                props.update(t.properties())
        return props

    @property
    def display_name(self) -> str:
        """The name VASSAL shows (``getName`` through the chain): Layer level names
        (``Name``, ``Name+`` prefix, ``+Name`` suffix) and Text Label formats applied."""
        derived = self._derived()
        return derived[1] if derived is not None else self._display_name(self._properties())

    def _display_name(self, props: dict[str, str]) -> str:
        name = ""
        for t in reversed(self.layers):
            if t.HAS_NAME:
                name = t.piece_name(name, props)
        return name

    def _derived(self) -> "tuple[dict[str, str], str, str, tuple[str, ...]] | None":
        """(properties, display name, name, trait ids) of a piece that still reads as the type and
        state strings it was decoded from: they are functions of those two strings, and a save
        repeats the same pieces (its 2,208 pieces have a few hundred distinct pairs), so each pair
        is worked out once. None once a layer was replaced or changed."""
        if not self._pristine():
            return None
        key = (self._raw_type, self._raw_state)
        hit = _DERIVED.get(key)
        if hit is None:
            props = self._properties()
            b = self.basic
            if len(_DERIVED) >= 4096:
                _DERIVED.clear()
            hit = _DERIVED[key] = (props, self._display_name(props), b.get("name") if b is not None else "",
                                   tuple(x.id for x in self.layers))
        return hit

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
        derived = self._derived()
        return list(derived[3]) if derived is not None else [t.id for t in self.layers]

    def __iter__(self) -> Iterator[Trait]:
        return iter(self.layers)

    def secret_values(self) -> list[str]:
        if self._layers is None and self._raw_type is not None and not any(
                cls.SECRET_STATE for cls in _layer_plan(self._raw_type)[0]):
            return []           # no layer can hold a player id: nothing to decode
        out: list[str] = []
        for t in self.layers:
            if t.SECRET_STATE:
                out.extend(t.secret_values())
        return out

    def describe(self, *, mask: str | None = "********") -> dict[str, Any]:
        """JSON-friendly decoded view: each layer's id, class, fields and state.

        States of traits that hold player ids (Mask, Invisible, Restricted) are masked
        unless *mask* is None.
        """
        return {"name": self.name, "layers": [_describe_layer(t, mask) for t in self.layers]}

    def layers_json(self, *, mask: str | None = "********") -> str:
        """``json.dumps(describe(mask=mask)["layers"], ensure_ascii=False)``, each distinct layer
        (class, type and state) encoded once: a save repeats the same layers on many pieces."""
        out = []
        cache = _LAYER_JSON
        for t in self.layers:
            rt = t._raw_type                      # Trait.type_string() and state_string(), inlined
            key = (t.__class__, rt if rt is not None and not t.type_dirty else t.type_string(), t._state, mask)
            text = cache.get(key)
            if text is None:
                if len(cache) >= 16384:
                    cache.clear()
                text = cache[key] = _JSON(_describe_layer(t, mask))
            out.append(text)
        return "[" + ", ".join(out) + "]"

    def __repr__(self) -> str:
        return f"<Piece {self.name!r} {len(self.layers)} layers>"


_JSON = json.JSONEncoder(ensure_ascii=False).encode   # json.dumps(o, ensure_ascii=False), made once
_LAYER_JSON: dict[tuple, str] = {}   # (class, type, state, mask) -> the layer's description as JSON
_DERIVED: dict[tuple, tuple] = {}     # (type, state) -> Piece._derived()


def _describe_layer(t: Trait, mask: str | None) -> dict[str, Any]:
    """One layer of :meth:`Piece.describe` (a function of its class, type and state)."""
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
    return d


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
