"""``vassal-builder build [GAME ...]``: validate, then render maps and counters and package the module.

Each build step lives in its own module and is found by name, so a step that is not in this version
is reported rather than silently skipped. A step is ``build(report, out_dir, progress) -> list[Path]``
where ``report`` is the validation report (with the resolved game model and grid).
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

from builder.atomic import clean_stale_temporaries
from builder.commands.common import Refused, out_problem, valid_game
from builder.gamedata.sources import shipped_games
from builder.errors import BuildError
from builder.progress import Progress

STEPS = {
    "map": "builder.render.map_build",
    "counters": "builder.render.counter_build",
    "module": "builder.module.package",
    "sheets": "builder.publish.sheets_step",
}


def register(sub, name, summary):
    p = sub.add_parser(name, help=summary, description=(
        "Validate each GAME, then render its map(s) and counters, package its VASSAL module into "
        "dist/GAME/ and write its printable counter sheets (dist/GAME-counters.pdf, default options; "
        "'vassal-builder sheets' offers them all). With no GAME, builds every shipped game. Exits 1 if a game does not validate; "
        "nothing already in dist/ is overwritten by a failed step."))
    p.add_argument("games", metavar="GAME", nargs="*", help="shipped game names or paths (default: all shipped games)")
    p.add_argument("--only", choices=sorted(STEPS), action="append",
                   help="build only this step (repeatable): map, counters, module or sheets")
    p.add_argument("--out", type=Path, default=None, help="output folder (default: ./dist in the current folder)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress output")
    p.add_argument("--json", action="store_true", help="print what was written as JSON")
    return p


def _step(name):
    try:
        return importlib.import_module(STEPS[name])
    except ModuleNotFoundError as exc:
        if exc.name and STEPS[name].startswith(exc.name):
            return None
        raise


def run(args) -> int:
    games = args.games or shipped_games()
    if not games:
        print("vassal-builder: build: no games to build", file=sys.stderr)
        return 2
    out_root = args.out or Path("dist")
    problem = out_problem(out_root, folder=True)
    if problem:
        print(f"vassal-builder: build: --out {problem}", file=sys.stderr)
        return 2
    progress = Progress(enabled=not args.quiet)
    steps = args.only or list(STEPS)
    result, status = {}, 0
    for game in games:
        try:
            report = valid_game(game, "build", "nothing built")
        except Refused as exc:
            if exc.code == 2:
                return 2
            status = 1
            continue
        out_dir = out_root / report.game
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
            clean_stale_temporaries(out_dir)  # left by a build that was killed
            clean_stale_temporaries(out_root, recursive=False)  # its counter-sheet PDF's
        except OSError as exc:
            print(f"vassal-builder: build: --out {out_root}: cannot create {out_dir}: {exc.strerror or exc}",
                  file=sys.stderr)
            return 2
        written = []
        for name in steps:
            module = _step(name)
            if module is None:
                progress.note(f"{report.game}: step '{name}' is not available in this version; skipped")
                if args.only:
                    status = max(status, 3)
                continue
            try:
                written += module.build(report, out_dir, progress)
            except BuildError as exc:
                print(f"vassal-builder: build: {report.game}: {name}: {exc}", file=sys.stderr)
                status = 1
            except OSError as exc:  # disk full, a folder made read-only meanwhile: files are written atomically
                print(f"vassal-builder: build: {report.game}: {name}: cannot write "
                      f"{exc.filename or out_dir}: {exc.strerror or exc}", file=sys.stderr)
                status = 1
        result[report.game] = [str(p) for p in written]
        if not args.json:
            progress.note(f"{report.game}: wrote {len(written)} file(s) under {out_dir}")
    if args.json:
        print(json.dumps(result, indent=2))
    return status

