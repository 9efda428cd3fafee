"""Small shared lookups: display names, faces, the property keys pieces carry."""

from __future__ import annotations

import re

FLIP_KEY = (70, 130)          # Ctrl+F: flip / lose a step
RESTORE_KEY = (70, 195)       # Ctrl+Shift+F: back one level (multi-level units)
LOSS_KEY = (45, 130)          # Ctrl+-: lose a step (a Losses layer)
RECOVER_KEY = (61, 130)       # Ctrl+=: recover a step


def name_of(game, collection: str, item_id: str | None, default: str = "") -> str:
    item = game.by_id.get(collection, {}).get(item_id) if item_id else None
    return (item or {}).get("name") or item_id or default


def side_name(game, side_id: str | None) -> str:
    return name_of(game, "sides", side_id, "Other")


def face_label(game, face: str) -> str:
    faces = (game.doc.get("game") or {}).get("faces") or {}
    return faces.get(face) or face.capitalize()


def face_key(face: str, index: int) -> str:
    """``Front``/``Back`` for a unit's main counter, ``Front2``/``Back2`` for its second counter..."""
    return face.capitalize() + (str(index + 1) if index else "")


def value_text(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def safe(text: str) -> str:
    """A name for an archive entry or a component: no path separators or control characters."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "x"
