"""Traits: one class per VASSAL trait, a registry keyed by type prefix, and pass-through.

>>> t = trait_from_type("delete;Delete;68,130;")
>>> type(t).__name__, t.command_name
('Delete', 'Delete')

Unknown prefixes (module-specific traits such as ``locmsg;``, ``nonRect;`` or VASL's
``moved;``) become :class:`PassthroughTrait` and round-trip byte for byte.
"""

from __future__ import annotations

from functools import lru_cache

from builder.vassal.traits.base import Field, KeyStroke, PassthroughTrait, Trait
from builder.vassal.traits.basic import BasicPiece, Deck, Stack
from builder.vassal.traits.decorators import (
    CalculatedProperty,
    Clone,
    CounterGlobalKeyCommand,
    Delete,
    DynamicProperty,
    Embellishment,
    FreeRotator,
    Hideable,
    Immobilized,
    Labeler,
    Marker,
    MovementMarkable,
    Obscurable,
    PlaceMarker,
    Replace,
    ReportState,
    RestrictCommands,
    Restricted,
    ReturnToDeck,
    SendToLocation,
    TriggerAction,
    UsePrototype,
)

__all__ = [
    "Field", "KeyStroke", "Trait", "PassthroughTrait", "BasicPiece", "Stack", "Deck",
    "Embellishment", "UsePrototype", "Marker", "Labeler", "Delete", "Clone", "ReportState",
    "Obscurable", "Hideable", "RestrictCommands", "Restricted", "DynamicProperty",
    "CalculatedProperty", "SendToLocation", "TriggerAction", "CounterGlobalKeyCommand",
    "FreeRotator", "MovementMarkable", "PlaceMarker", "Replace", "ReturnToDeck", "Immobilized",
    "REGISTRY", "type_prefix", "trait_class", "trait_from_type",
]

REGISTRY: dict[str, type[Trait]] = {
    cls.ID: cls
    for cls in (
        BasicPiece, Stack, Deck, Embellishment, UsePrototype, Marker, Labeler, Delete, Clone,
        ReportState, Obscurable, Hideable, RestrictCommands, Restricted, DynamicProperty,
        CalculatedProperty, SendToLocation, TriggerAction, CounterGlobalKeyCommand, FreeRotator,
        MovementMarkable, PlaceMarker, Replace, ReturnToDeck, Immobilized,
    )
}


def type_prefix(type_str: str) -> str:
    """The factory key: prefix up to and including the first ';' (whole string if none)."""
    i = type_str.find(";")
    return type_str if i < 0 else type_str[: i + 1]


@lru_cache(maxsize=8192)
def trait_class(type_str: str) -> type[Trait]:
    # cached: a save repeats the same layer types (every counter of a kind) many times
    return REGISTRY.get(type_prefix(type_str), PassthroughTrait)


def trait_from_type(type_str: str, state: str | None = None) -> Trait:
    """Decode one layer's type string (and optional state) into its trait object."""
    return trait_class(type_str).from_type(type_str, state)
