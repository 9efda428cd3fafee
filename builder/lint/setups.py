"""Check ``setups``: every predefined setup's file exists, decodes (``read_save``) and is not cut short
(``SaveFile.truncation``: error, VASSAL would load part of a position); the pieces
it places are on maps the module defines (error: the engine silently drops them) and come from a
PieceSlot of the module (gpid match; warning: otherwise the engine cannot refresh them)."""

from __future__ import annotations

from collections.abc import Iterator

from builder.lint.model import ERROR, WARNING, Finding, Module
from builder.vassal.commands import AddPiece
from builder.vassal.errors import VassalFormatError


def _names(items: list[str], n: int = 3) -> str:
    shown = ", ".join(repr(x) for x in items[:n])
    return shown + (f" and {len(items) - n} more" if len(items) > n else "")


def check(mod: Module) -> Iterator[Finding]:
    if mod.buildfile is None or mod.zip is None:
        return
    entry = mod.buildfile_entry
    gpids = {d.gpid for d in mod.definitions if d.kind in ("PieceSlot", "CardSlot", "marker") and d.gpid}
    map_ids = mod.map_ids
    for s in mod.setups:
        label = f"predefined setup {s.view.get('name', '')!r}"
        if not s.file:
            yield Finding("setups.missing-file", WARNING, f"{label} is set to use a file but names none: "
                          "VASSAL starts a new game instead", entry=entry, line=mod.line(s.view))
            continue
        if s.file not in mod.zip:
            yield Finding("setups.missing-file", ERROR, f"{label} names file {s.file!r}, which is not in "
                          "the module", entry=entry, line=mod.line(s.view))
            continue
        if s.save is None:
            yield Finding("setups.unreadable", ERROR, f"{label}: not a readable saved game: {s.error}",
                          entry=s.file)
            continue
        cut = s.save.truncation()
        if cut is not None:
            yield Finding("setups.truncated", ERROR, f"{label}: {cut}", entry=s.file)
        unknown_maps: dict[str, list[str]] = {}
        no_slot: list[str] = []
        for _, c in s.save.leaves():
            if not isinstance(c, AddPiece):
                continue
            try:
                p = c.piece
            except (VassalFormatError, RecursionError) as exc:
                yield Finding("setups.unreadable", ERROR, f"{label}: piece {c.piece_id!r} does not decode: "
                              f"{exc}", entry=s.file)
                continue
            name = "stack" if p.is_stack else "deck" if p.is_deck else (p.display_name or p.name)
            m = p.map_id
            if m is not None and m not in map_ids:
                unknown_maps.setdefault(m, []).append(f"{name} ({c.piece_id})")
            if not p.is_stack and not p.is_deck:
                b = p.basic
                if b is not None and b.gpid not in gpids:
                    no_slot.append(f"{name} (gpid {b.gpid or 'none'})")
        for m, pieces in unknown_maps.items():
            yield Finding("setups.unknown-map", ERROR, f"{label} places {len(pieces)} piece(s) on map {m!r}, "
                          f"which the module does not define (the engine drops them silently): "
                          f"{_names(pieces)}", entry=s.file)
        if no_slot:
            yield Finding("setups.unknown-gpid", WARNING, f"{label}: {len(no_slot)} piece(s) match no "
                          f"PieceSlot gpid (the engine cannot refresh or recognise them): {_names(no_slot)}",
                          entry=s.file)
