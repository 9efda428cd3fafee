"""``vassal-builder audit GAME|MODULE.vmod LOG...``: replay saves and logs and report moves that break
the rules.

Exit codes: 0 every file audited clean, 1 findings (illegal moves) in some file, 2 a file could not
be audited (unreadable, truncated, a save of another module or game) or usage (unknown game,
no usable game data). With several files the worst code wins. Problems are one line each.
"""

from __future__ import annotations

import json
import sys

EXIT_CLEAN, EXIT_FINDINGS, EXIT_CANNOT = 0, 1, 2


def register(sub, name, summary):
    p = sub.add_parser(name, help=summary, description=(
        "Replay VASSAL saves (.vsav) and logs (.vlog) of a module built by vassal-builder and check every "
        "move against the game's rules as its data gives them. GAME is a shipped game name, a game's data "
        "path, or the module itself (MODULE.vmod built by vassal-builder carries its game's data, so nothing "
        "else is needed). Prints one line per finding (log entry and command number, turn, phase, side, "
        "unit, from -> to, rule and rulebook reference, message), then warnings, the rules not checked in "
        "one line, and a summary. Several files or folders: one summary table (file, turns, moves, "
        "findings by rule). Exit status: 0 clean, 1 findings, 2 a file could not be audited (unreadable, "
        "truncated, another module's or game's save) or usage error."))
    p.add_argument("game", metavar="GAME|MODULE", help="a shipped game name (iron-dream, panzers-last-stand), "
                   "a path to a game's counters file or folder, or a .vmod built by vassal-builder")
    p.add_argument("files", metavar="SAVE_OR_LOG", nargs="+",
                   help="a .vsav or .vlog written by VASSAL, or a folder of them (searched recursively)")
    p.add_argument("--json", action="store_true", help="print JSON for tools: one object per file, one per line")
    p.add_argument("--quiet", "-q", action="store_true", help="print the findings only")
    p.add_argument("--explain", action="store_true",
                   help="under each movement finding, the cheapest path hex by hex with each step's cost")
    p.add_argument("--html", metavar="OUT.html", help="write one self-contained page: the map with every finding "
                   "drawn (the move as an arrow along the cheapest path, the hex judged outlined and numbered) and "
                   "the table of findings")
    p.add_argument("--png", metavar="OUT.png", help="write the map with every finding drawn and the numbered table "
                   "beside it (several files: OUT-<file>.png each)")
    p.add_argument("--jobs", "-j", type=int, default=1, metavar="N",
                   help="audit the files in N worker processes (output order is the same for any N)")
    return p


def _error_line(message: str) -> str:
    return f"vassal-builder: audit: {message}"


def audit_one(ctx, path: str) -> dict:
    """Audit one file: {"file", "code", "result" (AuditResult) or "error" (one line)}."""
    from builder.audit import audit_file
    from builder.audit.errors import AuditInputError
    try:
        result = audit_file(ctx, path)
    except AuditInputError as exc:
        return {"file": path, "code": EXIT_CANNOT, "error": str(exc)}
    return {"file": path, "code": EXIT_FINDINGS if result.findings else EXIT_CLEAN, "result": result}


# worker processes: the audit context is built once per worker from the game argument
_WORKER_CTX = None


def _worker_init(game_arg: str) -> None:
    global _WORKER_CTX
    from builder.audit.context import AuditContext
    from builder.audit.source import load_game
    _WORKER_CTX = AuditContext.from_report(load_game(game_arg))


def _worker_audit(path: str) -> dict:
    return audit_one(_WORKER_CTX, path)


def _audit_all(args, ctx, files: list[str]):
    """The per-file outcomes in the order of *files*, whatever the number of jobs."""
    jobs = max(1, min(args.jobs, len(files)))
    if jobs == 1:
        for f in files:
            yield audit_one(ctx, f)
        return
    import multiprocessing
    global _WORKER_CTX
    if "fork" in multiprocessing.get_all_start_methods():     # workers inherit the context built here
        _WORKER_CTX = ctx
        pool = multiprocessing.get_context("fork").Pool(jobs)
    else:
        pool = multiprocessing.get_context("spawn").Pool(jobs, initializer=_worker_init, initargs=(args.game,))
    with pool:
        yield from pool.imap(_worker_audit, files)


def _text(outcome: dict, args, many: bool) -> list[str]:
    if "error" in outcome:
        return []
    r = outcome["result"]
    if not many:
        return r.lines(quiet=args.quiet, explain=args.explain)
    # Many files: each finding and warning names its file, as grep -H does, so a line read alone (or grepped
    # from a season's output) says which game it is about; the rules checked and not checked, the same for
    # every file, and each file's summary are said once, after them (summary_table, _shared_lines).
    prefix = f"{outcome['file']}: "
    out = []
    for f in r.findings:
        out.append(prefix + f.line())
        if args.explain:
            out += f.explain_lines()
    if not args.quiet:
        out += [f"{prefix}warning: {w}" for w in r.warnings]
    return out


def _shared_lines(outcomes: list[dict]) -> list[str]:
    """The rules checked and not checked, said once after many files' findings (one game, one rule set)."""
    first = next((o["result"] for o in outcomes if "result" in o), None)
    return first.rules_lines() if first is not None else []


def summary_table(outcomes: list[dict]) -> list[str]:
    """One row per file: turns, moves, findings by rule (or why it could not be audited)."""
    rows = [("file", "turns", "moves", "findings", "by rule")]
    for o in outcomes:
        if "error" in o:
            rows.append((o["file"], "-", "-", "-", "not audited: " + o["error"].removeprefix(o["file"] + ": ")))
            continue
        r = o["result"]
        rule = ", ".join(f"{k} {v}" for k, v in r.by_rule().items()) or "-"
        rows.append((o["file"], str(r.turns_replayed), str(r.moves), str(len(r.findings)), rule))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    out = []
    for row in rows:
        out.append("  ".join([row[0].ljust(widths[0])] + [row[i].rjust(widths[i]) for i in (1, 2, 3)] + [row[4]]))
    return out


def _pictures(args, ctx, results) -> None:
    """--png and --html: the findings drawn on the module's board images (or the data's map)."""
    from pathlib import Path

    from builder.atomic import write_bytes
    from builder.audit import html_report, mapview
    from builder.audit.source import is_module

    module = args.game if is_module(args.game) else None
    if args.png:
        out = Path(args.png)
        for r in results:
            target = out if len(results) == 1 else out.with_name(f"{out.stem}-{Path(r.file).stem}{out.suffix}")
            write_bytes(target, mapview.png_bytes(mapview.render(ctx, r.findings, module)))
    if args.html:
        pictures = [mapview.png_bytes(mapview.render(ctx, r.findings, module, table=False)) for r in results]
        write_bytes(Path(args.html), html_report.page(results, pictures).encode("utf-8"))


def run(args) -> int:
    from builder.audit.context import AuditContext
    from builder.audit.errors import AuditInputError
    from builder.audit.source import load_game, log_files
    from builder.gamedata.sources import GameNotFound

    if args.jobs < 1:
        print(_error_line("--jobs must be at least 1"), file=sys.stderr)
        return EXIT_CANNOT
    try:
        ctx = AuditContext.from_report(load_game(args.game))
    except (GameNotFound, AuditInputError) as exc:
        if args.json:
            print(json.dumps({"game": args.game, "error": str(exc)}, ensure_ascii=False))
        print(_error_line(str(exc)), file=sys.stderr)
        return EXIT_CANNOT
    files = [str(p) for p in log_files(args.files)]
    if not files:
        print(_error_line(f"no .vsav or .vlog files in {', '.join(args.files)}"), file=sys.stderr)
        return EXIT_CANNOT
    many = len(files) > 1
    outcomes, code = [], EXIT_CLEAN
    for o in _audit_all(args, ctx, files):
        outcomes.append(o)
        code = max(code, o["code"])
        if "error" in o:
            if args.json:
                print(json.dumps({"game": ctx.game_id, "file": o["file"], "status": "not audited",
                                  "error": o["error"]}, ensure_ascii=False))
            print(_error_line(o["error"]), file=sys.stderr)
            continue
        if args.json:
            print(json.dumps(o["result"].as_json(), ensure_ascii=False))
        else:
            for line in _text(o, args, many):
                print(line)
        sys.stdout.flush()
    done = [o["result"] for o in outcomes if "result" in o]
    if (args.html or args.png) and done:
        try:
            _pictures(args, ctx, done)
        except OSError as exc:
            print(_error_line(f"cannot write the report: {exc.strerror or exc}"), file=sys.stderr)
            return EXIT_CANNOT
    if many and not args.json and not args.quiet:
        print()
        for line in summary_table(outcomes) + _shared_lines(outcomes):
            print(line)
    return code
