"""Each palette piece's trait chain: one piece per unit (all its counters as face levels) and per marker.

Outermost first::

    emb2 "Face"        flip layer: level 1 = front (the BasicPiece image shows through), 2 = back,
                       3, 4 = a multi-counter unit's next counter (front, back) — one piece per unit,
                       so a unit keeps one id and one location however many counters it uses
    PROP;Status        units, in games whose set-ups give a status (BCS: Support, Ghost ...): the
                       scenario's status, e.g. "Support", changeable from the piece menu
    prototype;<name>   shared behaviour (prototypes.py)
    mark;UnitId ...    one Marker per property: what the auditor reads from a save alone
    piece;;;<front image>;<name>

Markers live in the piece itself, not in a prototype: our setup saves keep the palette's type strings
(prototypes unexpanded), and VASSAL's own later saves expand prototypes, so both carry them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from builder.render.counter_pieces import pieces as counter_pieces, unit_face_values
from builder.vassal.piece import Piece, join_layers
from builder.vassal.traits import BasicPiece, DynamicProperty, Embellishment, KeyStroke, Marker, UsePrototype

from .names import FLIP_KEY, LOSS_KEY, RECOVER_KEY, RESTORE_KEY, face_key, face_label, name_of, value_text
from builder.render.counter_build import counter_info

from . import badges, behaviour, cups, layers, prototypes

LAYER_NAME = "Face"
LOSS_LAYER = "Losses"     # BCS-style step losses: level k+1 = k steps lost (read by the audit)
STATUS = "Status"
STATUS_KEY = "Set status:83,130:R,New status (e.g. Support)"   # Ctrl+S prompts; no comma in the prompt


@dataclass
class PieceDef:
    key: str                      # unit id or marker id (data ids)
    kind: str                     # "unit" | "marker"
    entry_name: str               # palette label
    side: str | None
    group: str                    # palette sub-list: nationality or formation name / marker kind
    levels: list                  # [(counter index, face)], level k+1 = levels[k]
    counter_ids: list             # image stem of each counter (counter_pieces: <unit>, <unit>-2, marker-<id>)
    properties: dict              # Marker properties, in trait order
    front_image: str
    prototype: str
    gpid: str = ""
    piece: Piece | None = field(default=None, repr=False)
    status: bool = False          # carries a Status dynamic property
    max_losses: int = 0           # levels of the Losses layer minus one (0: no such layer)
    masked: bool = False          # set up in a cup: a Mask trait, outermost (cups.py)
    _type: str | None = field(default=None, repr=False)
    _states: list = field(default_factory=list, repr=False)

    def level_of(self, face: str = "front", step_losses: int = 0) -> int:
        """Layer level (1-based) for a starting face and step losses: losses walk down the levels."""
        start = 2 if face == "back" and len(self.levels) > 1 else 1
        return min(start + max(step_losses, 0), len(self.levels))


def _unit_levels(game, unit, uid, images) -> list[tuple[int, str]]:
    levels = []
    for index in range(game.counter_count(unit)):
        pid = uid if index == 0 else f"{uid}-{index + 1}"
        for face in ("front", "back"):
            if (pid, face) not in images:
                continue
            # an extra counter's face without values (a blank back) is not a step of the unit
            if index and not unit_face_values(unit, index, face):
                continue
            levels.append((index, face))
    return levels


def _unit_properties(game, uid, unit, levels) -> dict:
    utype = game.by_id["unit_types"].get(unit.get("type")) or {}
    front = unit.get("front") or {}
    props = {
        "UnitId": uid,
        "Side": game.side_of(unit) or "",
        "Nationality": unit.get("nationality") or "",
        "Type": unit.get("type") or "",
        "MovementClass": unit.get("movement_class") or utype.get("movement_class")
        or value_text(front.get("movement_class", "")),
        "Size": unit.get("size") or "",
        "Steps": value_text(unit.get("steps", "")),
        "Formation": unit.get("formation") or "",
    }
    for index, face in levels:
        for vid, v in (unit_face_values(unit, index, face) or {}).items():
            props[f"{face_key(face, index)}_{vid}"] = value_text(v)
    return props


def _group(game, unit) -> str:
    if game.by_id["formations"]:
        f = unit.get("formation")
        if f:
            return name_of(game, "formations", f)
        return "Independent: " + name_of(game, "nationalities", unit.get("nationality"), "Other")
    return name_of(game, "nationalities", unit.get("nationality"), "Other")


def build_defs(game, images) -> list[PieceDef]:
    """Every palette piece, units in data order then markers; gpids are assigned here (1, 2, ...)."""
    defs: list[PieceDef] = []
    status = uses_status(game)
    losses = uses_loss_layer(game)
    tags = tag_markers(game)
    for uid, unit in game.units.items():
        levels = _unit_levels(game, unit, uid, images)
        side = game.side_of(unit)
        name = unit.get("name") or uid
        ids = [uid if i == 0 else f"{uid}-{i + 1}" for i in range(game.counter_count(unit))]
        defs.append(PieceDef(uid, "unit", name, side, _group(game, unit), levels, ids,
                             _unit_properties(game, uid, unit, levels), images[(uid, "front")],
                             prototypes.unit_prototype_name(game, unit), status=status,
                             max_losses=_max_losses(unit) if losses else 0))
    for cp in counter_pieces(game):
        if cp.kind != "marker":
            continue
        marker = game.by_id["markers"][cp.source_id]
        levels = [(0, f) for f in cp.faces]
        props = {"MarkerId": cp.source_id, "Kind": marker.get("kind") or "", "Side": cp.side or ""}
        for face in cp.faces:
            text = (marker.get(face) or {}).get("text")
            if text is not None:
                props[f"{face_key(face, 0)}_text"] = value_text(text)
        if cp.source_id in tags:      # drawn as a small tag (badges.py), not a full-size counter
            images = {**images, **{(cp.piece_id, f): badges.tag_image(cp.source_id, f) for f in cp.faces}}
        defs.append(PieceDef(cp.source_id, "marker", marker.get("name") or cp.source_id, cp.side,
                             marker.get("kind") or "marker", levels, [cp.piece_id], props,
                             images[(cp.piece_id, "front")],
                             prototypes.MARKER_PROTOTYPE))
    in_cups = cups.markers(game)
    for d in defs:       # the game piece layer (layers.py) the piece is drawn in
        d.masked = d.kind == "marker" and d.key in in_cups
        layer = layers.layer_of(game, d.kind, d.group if d.kind == "marker" else None)
        if layer is not None:
            d.properties[layers.PROPERTY] = layer
    for i, d in enumerate(defs, start=1):
        d.gpid = str(i)
        d.piece = _piece(game, d, images)
    return defs


def uses_loss_layer(game) -> bool:
    """Step losses are markers in this game (a marker of kind ``step-loss``): the module shows them as
    a layer of the unit instead, so the unit stays visible."""
    return any(m.get("kind") == "step-loss" for m in game.by_id["markers"].values())


def tag_markers(game) -> dict[str, int]:
    """Markers the set-ups put with units (``with``), except step losses: marker id -> tag slot (one
    half of the counter's top edge per marker kind, in kind order)."""
    ids = sorted({m for sc in game.by_id["scenarios"].values()
                  for e in (sc.get("setup") or []) + (sc.get("reinforcements") or []) if isinstance(e, dict)
                  for m in e.get("with") or [] if isinstance(m, str) and m in game.by_id["markers"]})
    ids = [m for m in ids if game.by_id["markers"][m].get("kind") != "step-loss"]
    kinds = sorted({game.by_id["markers"][m].get("kind") or "" for m in ids})
    return {m: kinds.index(game.by_id["markers"][m].get("kind") or "") for m in ids}


def _max_losses(unit) -> int:
    steps = unit.get("steps")
    return steps - 1 if isinstance(steps, int) and steps > 1 else 0


def uses_status(game) -> bool:
    return any(e.get("status") for sc in game.by_id["scenarios"].values()
               for e in (sc.get("setup") or []) + (sc.get("reinforcements") or []) if isinstance(e, dict))


def _piece(game, d: PieceDef, images) -> Piece:
    chain = [cups.mask_trait(d.entry_name)] if d.masked else []
    if d.max_losses:       # outermost: drawn over the face, whichever face shows
        chain.append(_loss_layer(d))
    if len(d.levels) > 1:
        chain.append(_face_layer(game, d, images))
    if d.status:
        chain.append(DynamicProperty(property_name=STATUS, constraints=["false", "0", "100", "false"],
                                     key_commands=[STATUS_KEY], description="Unit status (set-up)", state=""))
    if d.kind == "unit":
        chain.append(behaviour.moved_trait(counter_info(game)["image_px"]))
    chain.append(UsePrototype(prototype_name=d.prototype))
    for key, value in d.properties.items():
        m = Marker(keys=[key])
        m.set_values([value])
        chain.append(m)
    basic = BasicPiece(image=d.front_image, name=d.entry_name)
    basic.set_state(None, 0, 0, d.gpid, {})
    chain.append(basic)
    return Piece(chain)


def _face_layer(game, d: PieceDef, images) -> Embellishment:
    imgs, names = [], []
    for k, (index, face) in enumerate(d.levels):
        # level 1 is the BasicPiece's own front image; later levels cover it with an opaque face
        imgs.append("" if k == 0 else images[(d.counter_ids[index], face)])
        label = face_label(game, face) if d.kind == "unit" else face
        names.append("" if k == 0 else f"+ ({label}{'' if index == 0 else f', counter {index + 1}'})")
    two = len(d.levels) == 2
    layer = Embellishment(
        up_command="Flip" if two else "Lose step", increase_keystroke=KeyStroke(*FLIP_KEY),
        down_command="" if two else "Regain step",
        decrease_keystroke=None if two else KeyStroke(*RESTORE_KEY),
        images=imgs, level_names=names, loop_levels=two, name=LAYER_NAME, always_active=True,
        description="Face: front, back, next counter")
    layer.state = "1"
    return layer


def _loss_layer(d: PieceDef) -> Embellishment:
    layer = Embellishment(
        up_command="Lose step", increase_keystroke=KeyStroke(*LOSS_KEY),
        down_command="Recover step", decrease_keystroke=KeyStroke(*RECOVER_KEY),
        images=[""] + [badges.loss_image(k) for k in range(1, d.max_losses + 1)],
        level_names=[""] + [f"+ (-{k})" for k in range(1, d.max_losses + 1)], loop_levels=False,
        name=LOSS_LAYER, always_active=True, description="Step losses (BCS step-loss markers)")
    layer.state = "1"
    return layer


def placed_strings(d: PieceDef, map_id: str, x: int, y: int, level: int = 1,
                   status: str = "", losses: int = 0) -> tuple[str, str]:
    """(type, state) of the palette piece at a map point on a layer level: the slot's exact type
    string; in the state only the layer levels, the status and the BasicPiece's map/position change."""
    if d._type is None:
        d._type = d.piece.type_string()
        d._states = [t.state_string() for t in d.piece.layers]
    states = list(d._states)
    i = 1 if d.masked else 0          # the Mask's state stays the palette's (not masked)
    if d.max_losses:
        states[i] = str(1 + min(max(losses, 0), d.max_losses))
        i += 1
    if len(d.levels) > 1:
        states[i] = str(level)
        i += 1
    if d.status:
        states[i] = status
    basic = BasicPiece()
    basic.set_state(map_id, x, y, d.gpid, {})
    states[-1] = basic.state_string()
    return d._type, join_layers(states)
