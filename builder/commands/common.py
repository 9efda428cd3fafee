"""What several subcommands share: loading a game that must be valid before anything is made from it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from typing import TYPE_CHECKING

from builder.gamedata.sources import GameNotFound

if TYPE_CHECKING:  # validation (jsonschema) loads when a game is validated, not with this module
    from builder.gamedata.validate import Report


class Refused(Exception):
    """The command cannot go on; ``code`` is its exit status (already explained on stderr)."""

    def __init__(self, code: int):
        super().__init__(code)
        self.code = code


def valid_game(game: str, command: str, making: str = "nothing made") -> Report:
    """Validate ``game``; print its errors and raise Refused(1) if it has any, Refused(2) if it is not found."""
    from builder.gamedata.validate import validate_game

    try:
        report = validate_game(game)
    except GameNotFound as exc:
        print(f"vassal-builder: {command}: {exc}", file=sys.stderr)
        raise Refused(2) from None
    if not report.ok:
        for d in report.errors:
            print(d.format(), file=sys.stderr)
        print(f"vassal-builder: {command}: {report.game} has {len(report.errors)} error(s); {making}",
              file=sys.stderr)
        raise Refused(1)
    return report


def out_problem(path: Path, *, folder: bool) -> str | None:
    """Why ``path`` cannot be written as an output (a folder, or a file when ``folder`` is False), checked
    before anything is made so a bad --out writes nothing; None when it can."""
    if path.exists():
        if folder and not path.is_dir():
            return f"{path}: exists and is not a folder"
        if not folder and path.is_dir():
            return f"{path}: is a folder; give the file to write"
    parent = path if folder else path.parent
    existing = parent
    while not existing.exists():
        if existing.parent == existing:
            break
        existing = existing.parent
    if not existing.is_dir():
        return f"{path}: cannot create it: {existing} is not a folder"
    if not os.access(existing, os.W_OK | os.X_OK):
        return f"{path}: cannot write there: permission denied on {existing}"
    return None
