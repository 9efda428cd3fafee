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

from builder import buildcache
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
    p.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                   help="worker processes that draw counters and map images (default: the number of cores)")
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
    # jsonschema and Pillow load only when something has to be made: an unchanged game is
    # answered from its build manifest
    from builder.commands.common import out_problem
    from builder.gamedata.sources import GameNotFound, find_game, shipped_games

    games = args.games or shipped_games()
    if not games:
        print("vassal-builder: build: no games to build", file=sys.stderr)
        return 2
    if args.jobs is not None and args.jobs < 1:
        print("vassal-builder: build: --jobs must be at least 1", file=sys.stderr)
        return 2
    out_root = args.out or Path("dist")
    problem = out_problem(out_root, folder=True)
    if problem:
        print(f"vassal-builder: build: --out {problem}", file=sys.stderr)
        return 2
    progress = Progress(enabled=not args.quiet)
    steps = args.only or list(STEPS)
    cache = buildcache.Cache(out_root / buildcache.CACHE_DIR / "objects.sqlite")
    result, status = {}, 0
    for game in games:
        try:
            sources = find_game(game)
        except GameNotFound:
            sources = None    # valid_game says so
        manifest = buildcache.Manifest(out_root, sources, steps)
        same = manifest.unchanged()
        if same is not None:
            game_id, outputs = same
            result[game_id] = outputs
            if not args.json:
                progress.note(f"{game_id}: nothing changed; reused all {len(outputs)} file(s) under "
                              f"{out_root / game_id}")
            continue
        code, game_id, written, ctx = _build_game(game, sources, out_root, steps, args, cache, progress, manifest)
        if code == 2 and ctx is None:
            return 2
        status = max(status, code)
        if ctx is None:
            continue
        result[game_id] = [str(p) for p in written]
        if code == 0 and sources is not None:
            manifest.record(game_id, ctx.inputs, written, ctx.written)
        if not args.json:
            progress.note(f"{game_id}: {ctx.summary()}; {len(written)} file(s) under {out_root / game_id}")
    cache.close()
    if args.json:
        print(json.dumps(result, indent=2))
    return status


class _Discarded(Exception):
    """A step could not write its files: the staged folder is dropped."""


def _shown(filename, stage: Path, out_dir: Path):
    """A path in the staged folder as the output path it stands for."""
    if filename is None:
        return out_dir
    path = Path(filename)
    return out_dir / path.relative_to(stage) if path.is_relative_to(stage) else path


def _build_game(game, sources, out_root: Path, steps, args, cache, progress, manifest):
    """Validate one game and run its steps in a staged copy of its output folder, which takes the
    folder's place at the end (a crash leaves the previous folder as it was).
    Returns (exit status, game id, written paths, build context or None when nothing was built)."""
    from builder.commands.common import Refused, valid_game

    try:
        report = valid_game(game, "build", "nothing built")
    except Refused as exc:
        return exc.code, None, [], None
    out_dir = out_root / report.game
    from builder.atomic import clean_stale_temporaries
    try:
        clean_stale_temporaries(out_dir)  # left by a build that was killed
        clean_stale_temporaries(out_root, recursive=False)  # its counter-sheet PDF's
    except OSError:
        pass   # an unwritable folder is reported when the build writes
    ctx = buildcache.Context(cache, args.jobs or buildcache.default_jobs(), loose=True)
    ctx.inputs = buildcache.game_inputs(sources, report) if sources is not None else []
    status, written = 0, []

    def cannot_write(step, exc):
        print(f"vassal-builder: build: {report.game}: {step}cannot write {_shown(exc.filename, stage, out_dir)}: "
              f"{exc.strerror or exc}", file=sys.stderr)
    try:
        with buildcache.running(ctx), buildcache.staged_dir(out_dir) as stage:
            # what the last build wrote, by its hash: an unchanged file is not read again
            ctx.known = {stage / Path(rel).relative_to(report.game): v for rel, v in manifest.recorded_outputs().items()
                         if Path(rel).parts[:1] == (report.game,)}
            ctx.writer = buildcache.LooseWriter()
            write_failed = False
            try:
                for name in steps:
                    module = _step(name)
                    if module is None:
                        progress.note(f"{report.game}: step '{name}' is not available in this version; skipped")
                        if args.only:
                            status = max(status, 3)
                        continue
                    try:
                        written += module.build(report, stage, progress)
                    except BuildError as exc:
                        print(f"vassal-builder: build: {report.game}: {name}: {exc}", file=sys.stderr)
                        status = 1
                    except OSError as exc:  # disk full, a folder made read-only meanwhile
                        cannot_write(f"{name}: ", exc)
                        status, write_failed = 1, True
            except BaseException:   # a crash, Ctrl-C: the writer stops before the stage goes
                ctx.finish_writing(abandon=True)
                raise
            try:
                ctx.finish_writing()
            except OSError as exc:
                cannot_write("", exc)
                status, write_failed = 1, True
            if write_failed:   # a file may be half-written: the previous output stays as it was
                raise _Discarded
    except _Discarded:
        return status, report.game, [], None
    except OSError as exc:
        print(f"vassal-builder: build: --out {out_root}: cannot write {out_dir}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2, report.game, [], None
    finally:
        cache.flush()
    paths = [_shown(p, stage, out_dir) for p in written]
    # the bytes of each written file, under its final path (the manifest hashes them from memory)
    ctx.written = {_shown(p, stage, out_dir): data for p, data in ctx.files.items()}
    return status, report.game, paths, ctx
