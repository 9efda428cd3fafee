"""Prototypes: the traits every piece of a kind shares, so a change (a report text, a key) is made once.

One prototype per side and unit type ("Axis Panzer"), one for markers. They hold behaviour only —
Delete, Clone (markers: the printed quantity is a limit of cardboard, not of the game), and a Report
Action announcing flips in the chat so logs carry them. Identity and factors are Markers in each piece
(pieces.py), because a save must tell the auditor who a piece is without the module.
"""

from __future__ import annotations

from builder.vassal.piece import Piece
from builder.vassal.traits import BasicPiece, Clone, Delete, KeyStroke, ReportState

from .names import FLIP_KEY, LOSS_KEY, RECOVER_KEY, RESTORE_KEY, name_of, side_name

MARKER_PROTOTYPE = "Marker"
REPORT = "$location$: $oldPieceName$ -> $newPieceName$ *"


def unit_prototype_name(game, unit) -> str:
    return f"{side_name(game, game.side_of(unit))} {name_of(game, 'unit_types', unit.get('type'), 'Unit')}"


def _report() -> ReportState:
    return ReportState(keys=[KeyStroke(*k) for k in (FLIP_KEY, RESTORE_KEY, LOSS_KEY, RECOVER_KEY)],
                       report_format=REPORT,
                       description="Report flips and step changes")


def build(defs, extra=None) -> list[tuple[str, str, Piece]]:
    """(name, description, piece) for every prototype the pieces use, in first-use order; ``extra(d)``
    gives more traits for the prototype of piece def *d* (behaviour.send_traits)."""
    out, seen = [], set()
    for d in defs:
        if d.prototype in seen:
            continue
        seen.add(d.prototype)
        layers = [_report(), Delete(command_name="Delete")]
        if d.kind == "marker":
            layers.insert(1, Clone(command_name="Clone"))
            desc = "Shared traits of markers"
        else:
            desc = f"Shared traits of {d.prototype} units"
        layers[1:1] = list(extra(d)) if extra else []
        layers.append(BasicPiece(image="", name=""))
        out.append((d.prototype, desc, Piece(layers)))
    return out
