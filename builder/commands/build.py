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

from builder import background, buildcache
from builder.errors import BuildError
from builder.progress import Progress

STEPS = {
    "map": "builder.render.map_build",
    "counters": "builder.render.counter_build",
    "module": "builder.module.package",
    "sheets": "builder.publish.sheets_step",
}
# what each step reads of the others' outputs: a step the next one does not need runs beside it
NEEDS = {"map": (), "counters": (), "module": ("map", "counters"), "sheets": ("counters",)}


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
    p.add_argument("--faces", action="store_true",
                   help="also write every counter face as a PNG file: counters/*.png at the module's size and "
                        "counters/print/*.png at print size (they are always inside the module and the sheets)")
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
        manifest = buildcache.Manifest(out_root, sources, steps, ["faces"] * args.faces)
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


# a step whose part that needs no other step's output is made beforehand, beside the steps before it
PREPARED = {"module": "module (prepared)"}


def _prepare(steps, ctx, report, pending) -> None:
    """Start the prepare() of each step that has one, in a child, when steps before it run meanwhile."""
    for i, name in enumerate(steps):
        if name in PREPARED and ctx.jobs > 1 and i > 0 and background.AVAILABLE:
            module = _step(name)
            if module is not None:
                pending[PREPARED[name]] = background.StepInChild(ctx, lambda p, m=module: m.prepare(report, p))


def _prepared(child, progress):
    """What a step's prepare() made; None when it failed (the step then does it all itself and says why)."""
    try:
        return child.join(progress)
    except (BuildError, OSError):
        return None


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
    ctx = buildcache.Context(cache, args.jobs or buildcache.default_jobs(), loose=True, faces=args.faces)
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
            ctx.restore_from = (stage, out_dir)
            write_failed = False
            outputs: dict = {}          # step -> its paths, listed in step order whatever order they end in
            pending: dict = {}          # step -> background.StepInChild still running

            def ended(name, run):
                nonlocal status, write_failed
                try:
                    outputs[name] = run()
                except BuildError as exc:
                    print(f"vassal-builder: build: {report.game}: {name}: {exc}", file=sys.stderr)
                    status = 1
                except OSError as exc:  # disk full, a folder made read-only meanwhile
                    cannot_write(f"{name}: ", exc)
                    status, write_failed = 1, True
            try:
                _prepare(steps, ctx, report, pending)
                for i, name in enumerate(steps):
                    module = _step(name)
                    if module is None:
                        progress.note(f"{report.game}: step '{name}' is not available in this version; skipped")
                        if args.only:
                            status = max(status, 3)
                        continue
                    for dep in NEEDS[name]:
                        if dep in pending:
                            ended(dep, lambda: pending.pop(dep).join(progress))
                    if PREPARED.get(name) in pending:
                        ctx.prepared[name] = _prepared(pending.pop(PREPARED[name]), progress)
                    later = steps[i + 1] if i + 1 < len(steps) else None
                    if ctx.jobs > 1 and background.AVAILABLE and later is not None and name not in NEEDS[later]:
                        # the next step does not need this one: this one runs beside it, in a child
                        pending[name] = background.StepInChild(
                            ctx, lambda p, m=module: m.build(report, stage, p))
                        continue
                    ended(name, lambda: module.build(report, stage, progress))
                for name in list(pending):
                    ended(name, lambda: pending.pop(name).join(progress))
            except BaseException:   # a crash, Ctrl-C: the writer stops before the stage goes
                for child in pending.values():
                    child.abandon()
                ctx.finish_writing(abandon=True)
                raise
            written = [p for name in steps for p in outputs.get(name, [])]
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
    from builder.atomic import write_bytes
    for path, data in ctx.beside.items():   # the files beside the folder (the sheets PDF), now it is in place
        try:
            write_bytes(path, data)
        except OSError as exc:
            cannot_write("", exc)
            status = 1
    paths = [_shown(p, stage, out_dir) for p in written]
    # the bytes of each written file, under its final path (the manifest hashes them from memory)
    ctx.written = {_shown(p, stage, out_dir): data for p, data in {**ctx.files, **ctx.beside}.items()}
    return status, report.game, paths, ctx
