"""Game piece layers (data: ``piece_layers``, bottom first) as VASSAL's Game Piece Layers component.

Every map gets a LayeredPieceCollection on the property ``Layer``, which each piece carries as a Marker:
units in the layer that says ``units: true``, a marker in the layer listing its kind, any other marker in
the top layer. VASSAL draws the layers in order and never stacks pieces of different layers together, so
a set-up save writes one Stack per point and layer, with the layer's index in the stack's state.
"""

from __future__ import annotations

from builder.vassal.buildfile import P

PROPERTY = "Layer"
COMPONENT = P + "map.LayeredPieceCollection"


def names(game) -> list[str]:
    return [la["name"] for la in game.doc.get("piece_layers") or [] if isinstance(la, dict) and la.get("name")]


def layer_of(game, kind: str, marker_kind: str | None = None) -> str | None:
    """The layer name of a unit (kind 'unit') or of a marker of *marker_kind*; None without layers."""
    layers = [la for la in game.doc.get("piece_layers") or [] if isinstance(la, dict) and la.get("name")]
    if not layers:
        return None
    for la in layers:
        if kind == "unit" and la.get("units") or kind != "unit" and marker_kind in (la.get("kinds") or []):
            return la["name"]
    return layers[-1]["name"]


def index(game, name: str | None) -> int:
    """The layer's index, as VASSAL writes it in a stack's state (1, the default collection's stacking
    layer, when the game has no layers)."""
    order = names(game)
    return order.index(name) if name in order else 1


def add_to_map(map_el, game) -> None:
    order = names(game)
    if order:
        map_el.add(COMPONENT, property=PROPERTY, layerOrder=",".join(order))
