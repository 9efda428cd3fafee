"""Check ``pieces``: every PieceSlot/CardSlot, prototype and marker definition decodes with the
codec; trait ids that are neither VASSAL core traits nor backed by Java classes in the module are
reported (warning: the engine logs "Unknown type" and turns the layer into a Marker)."""

from __future__ import annotations

from collections.abc import Iterator

from builder.lint.model import ERROR, WARNING, Finding, Module
from builder.vassal.errors import VassalFormatError
from builder.vassal.traits import PassthroughTrait

#: BasicCommandEncoder's decorator and piece factories, VASSAL 3.6/3.7 (vassal-format.md §3.5)
CORE_TRAIT_IDS = frozenset("""
piece; stack deck; immob; emb2; emb; hide; obs; label; table; propertysheet; rotate; pivot;
nonRect; nonRect2; mark; locmsg; restrict; placemark; replace; report; markmoved; footprint;
return; sendto; prototype; clone; delete; submenu; menuSeparator; translate; AreaOfEffect;
globalkey; macro; PROP; calcProp; setprop; setpieceprop; hideCmd; playSound; button;
globalhotkey; deselect; mat; matPiece; basicName; border; attach; locCommand; cmt;
""".split())


def check(mod: Module) -> Iterator[Finding]:
    if mod.buildfile is None:
        return
    entry = mod.buildfile_entry
    unknown: dict[str, list] = {}
    for d in mod.definitions:
        if d.piece is None:
            yield Finding("pieces.undecodable", ERROR, f"{d.label}: {d.error}", entry=entry, line=d.line)
            continue
        if d.kind in ("PieceSlot", "CardSlot") and d.piece.basic is None and not d.piece.is_deck:
            yield Finding("pieces.no-basic-piece", WARNING, f"{d.label}: the innermost layer is "
                          f"{d.piece.inner.id!r}, not a Basic Piece", entry=entry, line=d.line)
        for t in d.piece.layers:
            if isinstance(t, PassthroughTrait):
                if t.id not in CORE_TRAIT_IDS:
                    unknown.setdefault(t.id, []).append(d)
                continue
            try:                      # fields and state are decoded lazily: decode them now
                t.as_dict()
                t.state_dict()
            except (VassalFormatError, ValueError, IndexError, RecursionError) as exc:
                yield Finding("pieces.undecodable", ERROR, f"{d.label}: trait {t.id!r} does not decode: "
                              f"{exc}", entry=entry, line=d.line)
    if mod.has_classes:
        return  # custom traits are legal when the module ships their classes
    for tid, ds in sorted(unknown.items()):
        d = ds[0]
        more = f" and {len(ds) - 1} more" if len(ds) > 1 else ""
        yield Finding("pieces.unknown-trait", WARNING, f"trait {tid!r} ({d.label}{more}) is not a VASSAL "
                      "core trait and the module ships no Java classes: VASSAL logs 'Unknown type' and "
                      "treats it as a Marker", entry=entry, line=d.line)
