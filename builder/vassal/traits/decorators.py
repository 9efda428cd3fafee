"""The VASSAL decorator traits this codec models, one small class each (vassal-format.md §3.5).

Each class lists its type fields in file order with the reader's defaults, and owns the
codec of its state. Anything not listed here is a :class:`~.base.PassthroughTrait`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from builder.vassal.sequence import decode, encode_str, parse_java_int
from builder.vassal.traits.base import F, Field, KeyStroke, Trait

__all__ = [
    "Embellishment", "UsePrototype", "Marker", "Labeler", "Delete", "Clone", "ReportState",
    "Obscurable", "Hideable", "RestrictCommands", "Restricted", "DynamicProperty",
    "CalculatedProperty", "SendToLocation", "TriggerAction", "CounterGlobalKeyCommand",
    "FreeRotator", "MovementMarkable", "PlaceMarker", "Replace", "ReturnToDeck", "Immobilized",
]

CTRL = 130


@lru_cache(maxsize=4096)
def _comma_tokens(s: str) -> tuple[str, ...]:
    # Marker keys and values: a save repeats the same few (every counter of a kind)
    return tuple(decode(s, ","))


@lru_cache(maxsize=4096)
def _marker_properties(keys: str, values: str) -> tuple[tuple[str, str], ...]:
    """A Marker's (key, value) pairs from its keys field and its state (cached: a save repeats the
    same few on every counter of a kind); a key without a value reads as empty."""
    vals = _comma_tokens(values) if values else ()
    names = _comma_tokens(keys) if keys else ()    # the "keys" field, as get() reads it
    return tuple((k, vals[i] if i < len(vals) else "") for i, k in enumerate(names))


def _format(fmt: str, values: dict[str, str]) -> str:
    """VASSAL's FormattedString for ``$name$`` variables (FormattedStringExpression): the
    text is split on ``$`` (SequenceEncoder rules), odd tokens are property names; a name
    with no value is written as the bare name, a trailing unclosed name literally."""
    toks = decode(fmt, "$")
    out = []
    is_prop = True
    for i, tok in enumerate(toks):
        is_prop = not is_prop
        if not tok:
            continue
        if not is_prop or i == len(toks) - 1:
            out.append(tok)
        else:
            v = values.get(tok)
            out.append(tok if v is None else v)
    return "".join(out)


class Embellishment(Trait):
    """Layer — ``emb2;`` (33 fields). State: ``+k`` active at level k, ``-k`` inactive."""

    ID = "emb2;"
    NAME = "Layer"
    FIELDS = (
        F("activate_command"), F("activate_modifiers", "int", 128), F("activate_key", "str", "A"),
        F("up_command"), F("up_modifiers", "int", 128), F("up_key"),
        F("down_command"), F("down_modifiers", "int", 128), F("down_key"),
        F("reset_command"), F("reset_key", "key", None), F("reset_level", "str", "1"),
        F("draw_underneath_when_selected", "bool", False), F("x_offset", "int", 0),
        F("y_offset", "int", 0), F("images", "list", [""]), F("level_names", "list", [""]),
        F("loop_levels", "bool", True), F("name"), F("random_key", "key", None), F("random_text"),
        F("follow_property", "bool", False), F("property_name"), F("first_level_value", "int", 1),
        F("version", "int", 1), F("always_active", "bool", True),
        F("activate_keystroke", "key", None), F("increase_keystroke", "key", None),
        F("decrease_keystroke", "key", None), F("description"), F("scale", "double", 1.0),
        F("only_property_name"), F("only_property_state", "str", "true"),
    )
    DEFAULT_STATE = "1"
    __slots__ = ()

    @property
    def value(self) -> int:
        v = parse_java_int(self._state.strip())
        return 0 if v is None else v

    @value.setter
    def value(self, v: int) -> None:
        self.state = str(int(v))

    @property
    def active(self) -> bool:
        return self.value > 0

    @property
    def level(self) -> int:
        return abs(self.value)

    def state_dict(self) -> dict[str, Any]:
        v = self.value
        return {"level": abs(v), "active": v > 0}

    def piece_name(self, inner: str, props: dict[str, str]) -> str:
        names = self.get("level_names")
        v = self.value
        cname = names[v - 1] if 0 < v <= len(names) else ""
        if not cname:
            return inner
        toks = decode(cname, "+")
        if len(toks) > 1:
            return inner + toks[1] if toks[0] == "" else toks[0] + inner
        return toks[0]

    def properties(self) -> dict[str, str]:
        n = self.get("name")
        if not n:
            return {}
        names, images, v = self.get("level_names"), self.get("images"), self.value
        i = abs(v) - 1
        return {f"{n}_Level": str(abs(v)), f"{n}_Active": "true" if v > 0 else "false",
                f"{n}_Name": names[i] if 0 <= i < len(names) else "",
                f"{n}_Image": images[i] if 0 <= i < len(images) else ""}


class UsePrototype(Trait):
    """``prototype;<name>[;params]`` — type kept verbatim; state empty."""

    ID = "prototype;"
    NAME = "Prototype"
    FIELDS = (F("prototype_name"), F("parameters"))
    __slots__ = ()

    def _split_type(self, type_str: str) -> tuple[str, ...]:
        rest = type_str[len(self.ID):] if type_str.startswith(self.ID) else ""
        name, sep, params = rest.partition(";")
        return (name, params) if sep else (name,)

    def _join_type(self) -> str:
        name = self._tokens[0] if self._tokens else ""
        params = self._tokens[1] if len(self._tokens) > 1 else ""
        return self.ID + name + (";" + params if params else "")


class Marker(Trait):
    """``mark;k1,k2`` — state ``v1,v2`` (comma-encoded, same order)."""

    ID = "mark;"
    NAME = "Marker"
    FIELDS = (F("keys", "list", []),)
    __slots__ = ()

    def _split_type(self, type_str: str) -> tuple[str, ...]:
        # the whole remainder is one comma list (not ;-split)
        return (type_str[len(self.ID):] if type_str.startswith(self.ID) else "",)

    def _join_type(self) -> str:
        return self.ID + (self._tokens[0] if self._tokens else "")

    @property
    def values(self) -> list[str]:
        return list(_comma_tokens(self._state)) if self._state else []

    def set_values(self, values: list[str]) -> None:
        self.state = encode_str(values, ",")

    def properties(self) -> dict[str, str]:
        toks = self._tokens
        return dict(_marker_properties(toks[0] if toks else "", self._state))

    def state_dict(self) -> dict[str, Any]:
        return {"properties": self.properties()}


class Labeler(Trait):
    """Text label — ``label;`` (18 fields). State: the label text."""

    ID = "label;"
    NAME = "Text Label"
    FIELDS = (
        F("label_key", "key", None), F("menu_command", "str", "Change label"),
        F("font_size", "int", 10), F("text_bg", "color", None), F("text_fg", "color", (0, 0, 0)),
        F("vertical_pos", "char", "t"), F("vertical_offset", "int", 0),
        F("horizontal_pos", "char", "c"), F("horizontal_offset", "int", 0),
        F("vertical_just", "char", "b"), F("horizontal_just", "char", "c"),
        F("name_format", "str", "$pieceName$ ($label$)"), F("font_family", "str", "Dialog"),
        F("font_style", "int", 0), F("rotate_degrees", "int", 0),
        F("property_name", "str", "TextLabel"), F("description"),
        F("always_use_format", "bool", False),
    )
    __slots__ = ()

    @property
    def label(self) -> str:
        return self._state.strip()

    def state_dict(self) -> dict[str, Any]:
        return {"label": self.label}

    def piece_name(self, inner: str, props: dict[str, str]) -> str:
        label = self.label
        if not label and not self.get("always_use_format"):
            return inner
        values = dict(props)
        # the label text is itself a formatted string ($property$ references are expanded)
        values.update({"pieceName": inner, "label": _format(label, props) if "$" in label else label})
        return _format(self.get("name_format"), values)

    def properties(self) -> dict[str, str]:
        return {self.get("property_name") or "TextLabel": self.label}


class Delete(Trait):
    """``delete;name;key;description``."""

    ID = "delete;"
    NAME = "Delete"
    FIELDS = (F("command_name", "str", "Delete"), F("key", "key", KeyStroke(68, CTRL)), F("description"))
    __slots__ = ()


class Clone(Trait):
    """``clone;name;key;description``."""

    ID = "clone;"
    NAME = "Clone"
    FIELDS = (F("command_name", "str", "Clone"), F("key", "key", KeyStroke(67, CTRL)), F("description"))
    __slots__ = ()


class ReportState(Trait):
    """Report action — ``report;`` — state: cycle index (``-1`` = not cycling)."""

    ID = "report;"
    NAME = "Report Action"
    FIELDS = (
        F("keys", "keys", []), F("report_format", "str", "$location$: $newPieceName$ *"),
        F("cycle_down_keys", "keys", []), F("cycle_report_format", "list", []),
        F("description"), F("no_suppress", "bool", False),
    )
    DEFAULT_STATE = "-1"
    __slots__ = ()

    def state_dict(self) -> dict[str, Any]:
        v = parse_java_int(self._state)
        return {"cycle_index": -1 if v is None else v}


def _access_field(name: str = "access") -> Field:
    return F(name)


class Obscurable(Trait):
    """Mask — ``obs;`` — state ``obscuredBy;options`` (obscuredBy is a player id = password)."""

    ID = "obs;"
    NAME = "Mask"
    FIELDS = (
        F("key", "key", None), F("image"), F("hide_command", "str", "Mask"),
        F("display_style", "str", "I"), F("mask_name", "str", "?"), _access_field(),
        F("peek_command"), F("description"), F("auto_peek_rollover", "bool", False),
        F("deal_key", "key", None), F("deal_expression"),
    )
    DEFAULT_STATE = "null;"
    SECRET_STATE = True
    __slots__ = ()

    @property
    def obscured_by(self) -> str | None:
        t = decode(self._state, ";") if self._state else []
        return None if not t or t[0] in ("null", "") else t[0]

    def secret_values(self) -> list[str]:
        return [self.obscured_by] if self.obscured_by else []

    def state_dict(self) -> dict[str, Any]:
        t = decode(self._state, ";") if self._state else []
        return {"masked": self.obscured_by is not None, "obscured_by": self.obscured_by,
                "options": t[1] if len(t) > 1 else ""}


class Hideable(Trait):
    """Invisible — ``hide;`` — state: player id of the hider (password) or ``null``."""

    ID = "hide;"
    NAME = "Invisible"
    FIELDS = (
        F("key", "key", KeyStroke(73, CTRL)), F("command", "str", "Invisible"),
        F("bg_color", "color", None), _access_field(), F("transparency", "double", 0.3),
        F("description"), F("disable_auto_report_move", "bool", False),
    )
    DEFAULT_STATE = "null"
    SECRET_STATE = True
    __slots__ = ()

    @property
    def hidden_by(self) -> str | None:
        s = self._state
        return None if s in ("", "null") else s

    def secret_values(self) -> list[str]:
        return [self.hidden_by] if self.hidden_by else []

    def state_dict(self) -> dict[str, Any]:
        return {"hidden": self.hidden_by is not None, "hidden_by": self.hidden_by}


class RestrictCommands(Trait):
    """``hideCmd;name;Hide|Disable;expression;keys``."""

    ID = "hideCmd;"
    NAME = "Restrict Commands"
    FIELDS = (F("name"), F("action", "str", "Hide"), F("property_expression"), F("watch_keys", "keys", []))
    __slots__ = ()


class Restricted(Trait):
    """Restricted access — ``restrict;`` — state: owning player's id (password)."""

    ID = "restrict;"
    NAME = "Restricted Access"
    FIELDS = (F("sides", "list", []), F("restrict_by_player", "bool", False),
              F("restrict_movement", "bool", True), F("description"))
    SECRET_STATE = True
    __slots__ = ()

    def secret_values(self) -> list[str]:
        return [self._state] if self._state else []

    def state_dict(self) -> dict[str, Any]:
        return {"owner": self._state or None}


class DynamicProperty(Trait):
    """``PROP;name;numeric,min,max,wrap;commands;description`` — state: the value."""

    ID = "PROP;"
    NAME = "Dynamic Property"
    FIELDS = (F("property_name", "str", "name"), F("constraints", "list", ["false", "0", "100", "false"]),
              F("key_commands", "list", []), F("description"))
    __slots__ = ()

    @property
    def value(self) -> str:
        return self._state

    @value.setter
    def value(self, v: str) -> None:
        self.state = str(v)

    def properties(self) -> dict[str, str]:
        return {self.get("property_name"): self._state}

    def commands(self) -> list[list[str]]:
        """Each key command as ``[menuText, key, changer]`` (``:``-decoded)."""
        return [decode(item, ":") for item in self.get("key_commands")]

    def state_dict(self) -> dict[str, Any]:
        return {"value": self._state}


class CalculatedProperty(Trait):
    """``calcProp;name;expression;description``."""

    ID = "calcProp;"
    NAME = "Calculated Property"
    FIELDS = (F("property_name"), F("expression"), F("description"))
    __slots__ = ()


class SendToLocation(Trait):
    """``sendto;`` (18 fields) — state ``backMap;backX;backY``."""

    ID = "sendto;"
    NAME = "Send to Location"
    FIELDS = (
        F("command_name"), F("key", "key", None), F("map_id"), F("board_name"), F("x", "str", "0"),
        F("y", "str", "0"), F("back_command_name"), F("back_key", "key", None), F("x_index", "str", "0"),
        F("y_index", "str", "0"), F("x_offset", "str", "1"), F("y_offset", "str", "1"),
        F("description"), F("destination", "str", "L"), F("zone"), F("region"),
        F("property_filter"), F("grid_location"),
    )
    __slots__ = ()

    def state_dict(self) -> dict[str, Any]:
        t = decode(self._state, ";") if self._state else []
        return {"back_map": (t[0] or None) if t else None,
                "back_x": t[1] if len(t) > 1 else "", "back_y": t[2] if len(t) > 2 else ""}


class TriggerAction(Trait):
    """``macro;`` (17 fields)."""

    ID = "macro;"
    NAME = "Trigger Action"
    FIELDS = (
        F("name"), F("command"), F("key", "key", KeyStroke(84, CTRL)), F("property_match"),
        F("watch_keys", "keys", []), F("action_keys", "keys", []), F("loop", "bool", False),
        F("pre_loop_key", "key", None), F("post_loop_key", "key", None),
        F("loop_type", "str", "counted"), F("while_expression"), F("until_expression"),
        F("loop_count", "str", "1"), F("index", "bool", False), F("index_property"),
        F("index_start", "str", "1"), F("index_step", "str", "1"),
    )
    __slots__ = ()


class CounterGlobalKeyCommand(Trait):
    """Trait Global Key Command — ``globalkey;`` (14 fields; target ``|``-encoded)."""

    ID = "globalkey;"
    NAME = "Global Key Command"
    FIELDS = (
        F("command_name", "str", "Global Command"), F("key", "key", KeyStroke(71, CTRL)),
        F("global_key", "key", KeyStroke(75, CTRL)), F("properties_filter"),
        F("restrict_range", "bool", False), F("range", "int", 1), F("report_single", "bool", True),
        F("fixed_range", "bool", True), F("range_property"), F("description"),
        F("select_from_deck", "str", "-1"), F("target"), F("suppress_sounds", "bool", False),
        F("parameters"),
    )
    TARGET_FIELDS = ("gkc_type", "fast_match_location", "target_type", "target_map", "target_board",
                     "target_zone", "target_location", "target_x", "target_y", "target_deck",
                     "fast_match_property", "target_property", "target_value", "target_compare",
                     "target_attachment", "target_attachment_id")
    __slots__ = ()

    def target_dict(self) -> dict[str, str]:
        toks = decode(self.get("target"), "|") if self.get("target") else []
        return {n: toks[i] for i, n in enumerate(self.TARGET_FIELDS) if i < len(toks)}


_ROT_TAIL = (
    F("rotate_random_key", "key", None), F("rotate_random_text"), F("name"), F("description"),
    F("rotate_direct_key", "key", None), F("rotate_direct_text"), F("direct_expression"),
    F("direct_type_facing", "bool", True),
)
_ROT_FREE = (F("facings", "int", 1), F("set_angle_key", "key", None), F("set_angle_text")) + _ROT_TAIL
_ROT_FIXED = (F("facings", "int", 6), F("rotate_cw_key", "key", None), F("rotate_ccw_key", "key", None),
              F("rotate_cw_text"), F("rotate_ccw_text")) + _ROT_TAIL


class FreeRotator(Trait):
    """Can rotate — ``rotate;N;…`` — state: angle (N == 1) or facing index."""

    ID = "rotate;"
    NAME = "Can Rotate"
    FIELDS = _ROT_FIXED
    DEFAULT_STATE = "0"
    __slots__ = ()

    def __init__(self, facings: int = 6, **values: Any) -> None:
        # the field layout depends on the number of facings: fix it before the defaults
        self._tokens = [str(int(facings))]
        super().__init__(**values)

    def _initial_tokens(self) -> list[str]:
        return [self._tokens[0]] + [f.format(f.default) for f in self.fields()[1:]]

    def fields(self) -> tuple[Field, ...]:
        n = parse_java_int(self._tokens[0]) if getattr(self, "_tokens", None) else None
        return _ROT_FREE if n == 1 else _ROT_FIXED

    @property
    def angle(self) -> float:
        n = self.get("facings") or 1
        try:
            v = float(self._state) if self._state else 0.0
        except ValueError:
            v = 0.0
        return v if n == 1 else (-v * 360.0 / n) + 0.0

    def state_dict(self) -> dict[str, Any]:
        n = self.get("facings")
        if n == 1:
            return {"angle": self.angle}
        v = parse_java_int(self._state)
        return {"facing": 0 if v is None else v, "angle": self.angle}


class MovementMarkable(Trait):
    """Mark when moved — ``markmoved;`` — state ``true``/``false``."""

    ID = "markmoved;"
    NAME = "Mark When Moved"
    FIELDS = (
        F("moved_icon"), F("x_offset", "int", 0), F("y_offset", "int", 0),
        F("command", "str", "Toggle whether piece marked as moved"), F("key", "key", KeyStroke(77, CTRL)),
        F("description"), F("ignore_same_location", "bool", False), F("command_true"),
        F("key_true", "key", None), F("command_false"), F("key_false", "key", None),
    )
    DEFAULT_STATE = "false"
    __slots__ = ()

    @property
    def moved(self) -> bool:
        return self._state == "true"

    def state_dict(self) -> dict[str, Any]:
        return {"moved": self.moved}


_PLACE_FIELDS = (
    F("command_name"), F("key", "key", None), F("marker_spec"), F("marker_text", "str", "null"),
    F("x_offset", "str", "0"), F("y_offset", "str", "0"), F("match_rotation", "bool", False),
    F("after_burner_key", "key", None), F("description"), F("gpid"), F("placement", "int", 0),
    F("above", "bool", False), F("copy_dps_by_name", "bool", False), F("parameters"),
    F("version", "int", 0),
)


class PlaceMarker(Trait):
    """``placemark;`` (15 fields)."""

    ID = "placemark;"
    NAME = "Place Marker"
    FIELDS = _PLACE_FIELDS
    __slots__ = ()


class Replace(PlaceMarker):
    """``replace;`` — same fields as PlaceMarker."""

    ID = "replace;"
    NAME = "Replace with Other"
    __slots__ = ()


class ReturnToDeck(Trait):
    """``return;`` (8 fields)."""

    ID = "return;"
    NAME = "Return to Deck"
    FIELDS = (F("return_command"), F("return_key", "key", None), F("deck_id"),
              F("select_deck_prompt"), F("description"), F("version", "int", 2),
              F("deck_select", "bool", False), F("deck_expression"))
    __slots__ = ()


class Immobilized(Trait):
    """Does not stack — ``immob;selection;movement;stacking;description`` (written directly)."""

    ID = "immob;"
    NAME = "Does Not Stack"
    FIELDS = (F("selection"), F("movement", "str", "N"), F("stacking", "str", "R"), F("description"))
    __slots__ = ()

    def _join_type(self) -> str:  # VASSAL concatenates without escaping
        return self.ID + ";".join(self._tokens)
