"""Check ``prototypes``: every ``prototype;Name`` trait names a defined PrototypeDefinition
(VASSAL silently expands a missing one to nothing: error); definitions never used: warning."""

from __future__ import annotations

from collections.abc import Iterator

from builder.lint.model import ERROR, WARNING, Finding, Module
from builder.vassal.traits import UsePrototype


def check(mod: Module) -> Iterator[Finding]:
    if mod.buildfile is None:
        return
    entry = mod.buildfile_entry
    defined: dict[str, int | None] = {}
    for p in mod.buildfile.prototypes():
        name = p.get("name", "") or ""
        if name in defined:
            yield Finding("prototypes.duplicate", WARNING, f"prototype {name!r} is defined twice (line "
                          f"{defined[name]}); VASSAL uses only one of them", entry=entry, line=mod.line(p))
        else:
            defined[name] = mod.line(p)
    used: set[str] = set()
    for d in mod.definitions:
        if d.piece is None:
            continue
        for t in d.piece.layers:
            if not isinstance(t, UsePrototype):
                continue
            name = t.get("prototype_name") or ""
            used.add(name)
            if name not in defined:
                yield Finding("prototypes.missing", ERROR, f"{d.label} uses prototype {name!r}, which is "
                              "not defined (VASSAL silently drops its traits)", entry=entry, line=d.line)
    for name, line in defined.items():
        if name not in used:
            yield Finding("prototypes.unused", WARNING, f"prototype {name!r} is defined but no piece uses it",
                          entry=entry, line=line)
