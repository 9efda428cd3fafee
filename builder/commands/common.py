"""What several subcommands share: loading a game that must be valid before anything is made from it."""

from __future__ import annotations

import sys

from builder.gamedata.sources import GameNotFound
from builder.gamedata.validate import Report, validate_game


class Refused(Exception):
    """The command cannot go on; ``code`` is its exit status (already explained on stderr)."""

    def __init__(self, code: int):
        super().__init__(code)
        self.code = code


def valid_game(game: str, command: str, making: str = "nothing made") -> Report:
    """Validate ``game``; print its errors and raise Refused(1) if it has any, Refused(2) if it is not found."""
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
