"""The game's data packed inside the module: ``vassal-builder/gamedata.json`` (VASSAL ignores entries it
does not know), so ``vassal-builder audit MODULE.vmod LOG`` needs nothing but the module.

The entry is one compact JSON object (deflated in the archive)::

    {"format": "vassal-builder-gamedata", "version": 1, "builder": "0.4.0",
     "game": "iron-dream", "game_version": "1.0", "doc": {...}, "map": {...}}

``doc`` and ``map`` are the validated game's merged documents (counters files and map file) as the
builder read them, key order kept. :func:`unpack` rebuilds the same :class:`~builder.gamedata.validate.Report`
(model and grid) the audit builds from the YAML, so the audit context is identical from either source.
A reader refuses another ``format`` or a newer ``version`` in one line instead of guessing.
"""

from __future__ import annotations

import json

from builder import __version__

ENTRY = "vassal-builder/gamedata.json"
FORMAT = "vassal-builder-gamedata"
VERSION = 1
MAX_ENTRY = 64 * 1024**2          # decoded bytes accepted (the shipped games are well under 1 MB)


class GameDataError(ValueError):
    """The module carries no game data, or data this version cannot read (one-line message)."""


def pack(report) -> bytes:
    """The entry's bytes for a validated game (deterministic: same data, same bytes)."""
    game = report.model
    info = game.doc.get("game") or {}
    obj = {"format": FORMAT, "version": VERSION, "builder": __version__, "game": report.game,
           "game_version": str(info.get("version") or ""), "doc": game.doc, "map": game.map_doc}
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def unpack(data: bytes, where: str = ENTRY):
    """A Report (game id, model, grid) from the entry's bytes; GameDataError if unusable."""
    from builder.gamedata.model import Game
    from builder.gamedata.validate import Report
    from builder.geometry import Grid, GridSpecError

    try:
        obj = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise GameDataError(f"{where}: the game data is not valid JSON ({exc})") from None
    if not isinstance(obj, dict) or obj.get("format") != FORMAT:
        raise GameDataError(f"{where}: not vassal-builder game data")
    version = obj.get("version")
    if not isinstance(version, int) or version > VERSION:
        raise GameDataError(f"{where}: game data format version {version!r} is newer than this "
                            f"vassal-builder reads ({VERSION}); upgrade vassal-builder")
    doc, map_doc = obj.get("doc"), obj.get("map")
    if not isinstance(doc, dict) or not isinstance(map_doc, dict) or not isinstance(map_doc.get("grid"), dict):
        raise GameDataError(f"{where}: the game data has no game or map document")
    try:
        grid = Grid.from_spec(map_doc["grid"])
    except GridSpecError as exc:
        raise GameDataError(f"{where}: the game data's grid is unusable ({exc})") from None
    game = Game.from_documents(doc, map_doc)
    report = Report(str(obj.get("game") or game.id))
    report.model, report.grid = game, grid
    report.summary = game.summary()
    return report


def read_module(path):
    """The Report packed in a .vmod at *path*; GameDataError (one line) when it has none."""
    from builder.vassal.archive import SafeZip
    from builder.vassal.errors import VassalFormatError

    try:
        z = SafeZip(path, what="module")
        if ENTRY not in z:
            raise GameDataError(f"{path}: the module carries no vassal-builder game data ({ENTRY}); "
                                f"audit with the game's name or data folder instead")
        data = z.read(ENTRY, max_size=MAX_ENTRY)
    except VassalFormatError as exc:
        raise GameDataError(f"{path}: {exc}") from None
    return unpack(data, f"{path}: {ENTRY}")
