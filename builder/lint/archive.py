"""Check ``archive``: the container and its XML (found while loading, see :func:`.model.load`),
and ``moduledata`` (missing or unparseable: a warning; VASSAL still opens the module)."""

from __future__ import annotations

from collections.abc import Iterator

from builder.lint.model import WARNING, Finding, Module


def check(mod: Module) -> Iterator[Finding]:
    yield from mod.load_findings
    if mod.zip is None or any(f.severity == "error" and f.entry is None for f in mod.load_findings):
        return
    if mod.moduledata_error == "missing":
        yield Finding("archive.moduledata", WARNING, "no moduledata entry: VASSAL's Module Manager shows "
                      "no name or version for this module (vassal-format.md §1.5)")
    elif mod.moduledata_error and not any(f.entry == "moduledata" for f in mod.load_findings):
        yield Finding("archive.moduledata", WARNING, f"moduledata is unusable: {mod.moduledata_error}",
                      entry="moduledata")
