"""Lint an existing VASSAL module: problems a designer must fix, one :class:`Finding` each.

Checks are small functions ``check(module) -> Iterable[Finding]``, registered in :data:`CHECKS`
(run in that order; add one by appending to the list). Each finding has an id
``<check>.<problem>`` (e.g. ``images.missing``), a severity (``error``/``warning``), an archive
entry and, for buildFile problems, a line::

    from builder.lint import lint
    result = lint("dist/game.vmod")
    for f in result.findings:
        print(f.format(result.module))    # game.vmod:buildFile.xml:42: error: images.missing: ...

Checks: ``archive`` (zip, unsafe names, oversized entries, buildFile XML, moduledata), ``images``,
``prototypes``, ``pieces``, ``maps``, ``setups``, ``turns``. Everything is read with the codec
(:mod:`builder.vassal`); nothing is extracted to disk.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from builder.lint import archive, images, maps, pieces, prototypes, setups, turns
from builder.lint.model import ERROR, WARNING, Finding, Module, load
from builder.vassal.archive import DEFAULT_LIMITS, Limits

__all__ = ["Check", "CHECKS", "LintResult", "lint", "Finding", "ERROR", "WARNING"]


@dataclass(frozen=True)
class Check:
    name: str
    run: Callable[[Module], Iterable[Finding]]


CHECKS: list[Check] = [
    Check("archive", archive.check),
    Check("images", images.check),
    Check("prototypes", prototypes.check),
    Check("pieces", pieces.check),
    Check("maps", maps.check),
    Check("setups", setups.check),
    Check("turns", turns.check),
]


@dataclass
class LintResult:
    module: str
    findings: list[Finding]

    @property
    def errors(self) -> int:
        return sum(f.severity == ERROR for f in self.findings)

    @property
    def warnings(self) -> int:
        return sum(f.severity == WARNING for f in self.findings)

    def by_check(self, check: str) -> list[Finding]:
        return [f for f in self.findings if f.check == check or f.check.startswith(check + ".")]


def lint(path: str | Path, *, display: str | None = None, checks: list[Check] | None = None,
         limits: Limits = DEFAULT_LIMITS) -> LintResult:
    """Run every check on the module at *path*. Raises OSError only if the file cannot be read."""
    mod = load(path, display=display, limits=limits)
    found: list[Finding] = []
    for c in CHECKS if checks is None else checks:
        try:
            found.extend(c.run(mod))
        except RecursionError:
            found.append(Finding(f"{c.name}.failed", ERROR, "definitions are nested too deeply to check"))
        except Exception as exc:  # noqa: BLE001 - one check failing must not hide the others
            found.append(Finding(f"{c.name}.failed", ERROR, f"check could not run: {type(exc).__name__}: {exc}"))
    return LintResult(mod.path, found)
