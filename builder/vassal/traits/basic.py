"""Innermost pieces: BasicPiece (``piece;``), Stack (``stack``) and Deck (``deck;``).

vassal-format.md §3.4 (BasicPiece) and §4.6 (Stack, Deck).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from builder.vassal.sequence import decode, encode_str, parse_java_int
from builder.vassal.traits.base import F, Trait

__all__ = ["BasicPiece", "Stack", "Deck", "unwrap_null"]


def unwrap_null(s: str | None) -> str | None:
    return None if s is None or s == "null" else s


class BasicPiece(Trait):
    """``piece;cloneKey;deleteKey;image;name`` — state ``map;x;y;gpid;n;k1;v1;…``."""

    ID = "piece;"
    NAME = "Basic Piece"
    INNERMOST = True
    FIELDS = (F("clone_key"), F("delete_key"), F("image"), F("name"))
    DEFAULT_STATE = "null;0;0;;0"
    __slots__ = ()

    # ---- state
    @property
    def map_id(self) -> str | None:
        return _basic_state(self._state)[0]

    @property
    def position(self) -> tuple[int, int]:
        return _basic_state(self._state)[1]

    @property
    def gpid(self) -> str:
        return _basic_state(self._state)[2]

    def piece_name(self, inner: str, props: dict[str, str]) -> str:
        return self.get("name")

    def properties(self) -> dict[str, str]:
        """Persistent properties stored in the state (``UniqueID``, Dynamic Property values...)."""
        return dict(_basic_state(self._state)[3])

    def set_location(self, map_id: str | None, x: int, y: int) -> None:
        self.set_state(map_id, x, y, self.gpid if self._state else "", self.properties() if self._state else {})

    def set_state(self, map_id: str | None, x: int, y: int, gpid: str = "",
                  properties: dict[str, str] | None = None) -> None:
        props = properties or {}
        toks = ["null" if map_id is None else map_id, str(int(x)), str(int(y)), gpid, str(len(props))]
        for k, v in props.items():
            toks += [k, v]
        self.state = encode_str(toks, ";")

    def state_dict(self) -> dict[str, Any]:
        map_id, (x, y), gpid, props = _basic_state(self._state)
        d: dict[str, Any] = {"map": map_id, "x": x, "y": y, "gpid": gpid}
        if props:
            d["properties"] = dict(props)
        return d


@lru_cache(maxsize=4096)
def _basic_state(state: str) -> tuple[str | None, tuple[int, int], str, tuple[tuple[str, str], ...]]:
    """A BasicPiece state as (map, (x, y), gpid, properties), decoded once (cached: map, position,
    gpid and properties are asked for apart)."""
    t = decode(state, ";") if state else ()
    n = len(t)
    x = parse_java_int(t[1]) if n > 1 else 0
    y = parse_java_int(t[2]) if n > 2 else 0
    count = parse_java_int(t[4]) if n > 4 else 0
    # the count comes from the file: never trust it beyond the tokens present
    props = {t[j]: t[j + 1] if j + 1 < n else "" for j in range(5, min(5 + 2 * max(count or 0, 0), n), 2)}
    return (unwrap_null(t[0]) if t else None, (x or 0, y or 0), t[3] if n > 3 else "", tuple(props.items()))


class _Located:
    """Map and position of a Stack or Deck state, whose ``_parse()`` starts (map, x, y, ...)."""

    __slots__ = ()

    @property
    def map_id(self) -> str | None:
        return self._parse()[0]

    @property
    def position(self) -> tuple[int, int]:
        p = self._parse()
        return (p[1], p[2])


class Stack(_Located, Trait):
    """``stack`` — state ``map;x;y;id1;…;idN;@@layer`` (members bottom first)."""

    ID = "stack"
    NAME = "Stack"
    INNERMOST = True
    DEFAULT_STATE = "null;0;0"
    __slots__ = ()

    def _split_type(self, type_str: str) -> tuple[str, ...]:
        return ()

    def _join_type(self) -> str:
        return "stack"

    def _parse(self) -> tuple[str | None, int, int, list[str], str | None]:
        m, x, y, members, layer = _stack_state(self._state)
        return m, x, y, list(members), layer

    @property
    def map_id(self) -> str | None:
        return _stack_state(self._state)[0]

    @property
    def position(self) -> tuple[int, int]:
        p = _stack_state(self._state)
        return (p[1], p[2])

    @property
    def members(self) -> list[str]:
        return list(_stack_state(self._state)[3])

    @property
    def layer(self) -> str | None:
        return _stack_state(self._state)[4]

    def set_stack(self, map_id: str | None, x: int, y: int, members: list[str],
                  layer: int | str | None = 1) -> None:
        toks = ["null" if map_id is None else map_id, str(int(x)), str(int(y)), *members]
        if layer is not None:
            toks.append(f"@@{layer}")
        self.state = encode_str(toks, ";")

    def state_dict(self) -> dict[str, Any]:
        m, x, y, members, layer = _stack_state(self._state)
        d: dict[str, Any] = {"map": m, "x": x, "y": y, "members": list(members)}
        if layer is not None:
            d["layer"] = layer
        return d


@lru_cache(maxsize=4096)
def _stack_state(state: str) -> tuple[str | None, int, int, tuple[str, ...], str | None]:
    """A Stack state decoded (cached: a reader asks for map, position and members apart)."""
    t = decode(state, ";") if state else []
    map_id = unwrap_null(t[0]) if t else None
    rest = t[1:]
    x = y = 0
    if map_id is not None and len(rest) >= 2:  # VASSAL skips x/y only when map is null
        x = parse_java_int(rest[0]) or 0
        y = parse_java_int(rest[1]) or 0
        rest = rest[2:]
    elif map_id is None and len(rest) >= 2 and parse_java_int(rest[0]) is not None \
            and parse_java_int(rest[1]) is not None:
        # VASSAL writes x;y even without a map, but reads them back as (non-existent)
        # member ids and leaves the stack at (0,0): drop them, keep (0,0)
        rest = rest[2:]
    layer = None
    members = []
    for tok in rest:
        if tok.startswith("@@"):
            layer = tok[2:]
        else:
            members.append(tok)
    return map_id, x, y, tuple(members), layer


_DECK_FIELDS = (
    F("draw_outline", "bool", False), F("outline_color", "color", None), F("width", "int", 0),
    F("height", "int", 0), F("face_down_option"), F("shuffle_option"),
    F("allow_multiple_draw", "bool", False), F("allow_select_draw", "bool", False),
    F("reversible", "bool", False), F("reshuffle_command"), F("reshuffle_target"),
    F("reshuffle_msg_format"), F("deck_name"), F("shuffle_msg_format"), F("reverse_msg_format"),
    F("face_down_msg_format"), F("draw_face_up", "bool", False), F("persistable", "bool", False),
    F("shuffle_key", "key", None), F("reshuffle_key", "key", None), F("max_stack", "int", 10),
    F("count_expressions"), F("expression_counting", "bool", False), F("global_commands"),
    F("hotkey_on_empty", "bool", False), F("empty_key", "key", None), F("select_display_property"),
    F("select_sort_property"), F("restrict_option", "bool", False), F("restrict_expression"),
    F("shuffle_command"), F("reverse_command"), F("reverse_key", "key", None),
    F("draw_multiple_message"), F("draw_specific_message"), F("face_up_message"),
    F("face_down_message"), F("face_up_key", "key", None), F("face_up_msg_format"),
    F("face_flip_key", "key", None), F("face_down_key", "key", None), F("save_message"),
    F("save_key", "key", None), F("save_report"), F("load_message"), F("load_key", "key", None),
    F("load_report"), F("restrict_access", "bool", False), F("owners"),
)


class Deck(_Located, Trait):
    """``deck;…`` (49 fields) — state ``map;x;y;faceDown;<comma-encoded member ids>``."""

    ID = "deck;"
    NAME = "Deck"
    INNERMOST = True
    FIELDS = _DECK_FIELDS
    DEFAULT_STATE = "null;0;0;false;"
    __slots__ = ()

    def _parse(self) -> tuple[str | None, int, int, bool, list[str]]:
        t = decode(self._state, ";") if self._state else []
        map_id = unwrap_null(t[0]) if t else None
        x = parse_java_int(t[1]) if len(t) > 1 else 0
        y = parse_java_int(t[2]) if len(t) > 2 else 0
        face_down = len(t) > 3 and t[3] == "true"
        members = decode(t[4], ",") if len(t) > 4 and t[4] else []
        return map_id, x or 0, y or 0, face_down, members

    @property
    def members(self) -> list[str]:
        return self._parse()[4]

    def state_dict(self) -> dict[str, Any]:
        m, x, y, fd, members = self._parse()
        return {"map": m, "x": x, "y": y, "face_down": fd, "members": members}
