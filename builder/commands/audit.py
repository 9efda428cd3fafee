"""``vassal-builder audit GAME SAVE_OR_LOG``: replay a save or log and report moves that break the rules.

Exit codes: 0 no findings, 1 findings (illegal moves) or input that cannot be read, 2 usage
(unknown game). Problems are one line each; a file that cannot be read is one line on stderr.
"""

from __future__ import annotations

import json
import sys


def register(sub, name, summary):
    p = sub.add_parser(name, help=summary, description=(
        "Replay a VASSAL save (.vsav) or log (.vlog) of a module built by vassal-builder and check every "
        "move against the game's rules as its data gives them (stacking, movement allowance over the "
        "map's terrain, prohibited terrain). Prints one line per finding (turn, phase, unit, from -> to, "
        "rule and rulebook reference), then the warnings and the rules not checked yet. Exits 1 if there "
        "is any finding or the file cannot be read, else 0."))
    p.add_argument("game", metavar="GAME", help="a shipped game name (iron-dream, panzers-last-stand) or a path "
                   "to a game's counters file or folder")
    p.add_argument("file", metavar="SAVE_OR_LOG", help="a .vsav or .vlog written by VASSAL")
    p.add_argument("--json", action="store_true", help="print one JSON object for tools instead of text")
    return p


def _fail(args, message: str, code: int) -> int:
    if args.json:
        print(json.dumps({"game": args.game, "file": args.file, "error": message}))
    print(f"vassal-builder: audit: {message}", file=sys.stderr)
    return code


def run(args) -> int:
    from builder.audit import audit_file
    from builder.audit.errors import AuditInputError
    from builder.gamedata.sources import GameNotFound
    from builder.gamedata.validate import validate_game

    try:
        report = validate_game(args.game)
    except GameNotFound as exc:
        return _fail(args, str(exc), 2)
    if not report.ok:
        n = len(report.errors)
        return _fail(args, f"{report.game}: the game's data has {n} error{'s' * (n != 1)}; "
                           f"run 'vassal-builder validate {args.game}'", 1)
    try:
        result = audit_file(report, args.file)
    except AuditInputError as exc:
        return _fail(args, str(exc), 1)
    if args.json:
        print(json.dumps(result.as_json(), indent=2, ensure_ascii=False))
    else:
        for line in result.lines():
            print(line)
    return 1 if result.findings else 0
