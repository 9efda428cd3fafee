"""``vassal-builder validate GAME``: schema and cross-reference checks with actionable messages."""

from __future__ import annotations

import json
import sys

from builder.gamedata.sources import GameNotFound
from builder.gamedata.validate import validate_game
from builder.words import count


def register(sub, name, summary):
    p = sub.add_parser(name, help=summary, description=(
        "Check a game's data (counters, order of battle, scenarios, map) against the JSON Schemas and "
        "cross-references. Prints every problem as 'file:line:col: data.path: message' and exits 1 if "
        "there is any error; otherwise prints a one-line summary and exits 0."))
    p.add_argument("game", metavar="GAME", help="a shipped game name (iron-dream, panzers-last-stand) or a path "
                   "to a game's counters file or folder")
    p.add_argument("--authored", action="store_true",
                   help="also list every authored value (not from the rulebook) with its file:line and reason")
    p.add_argument("--json", action="store_true", help="print one JSON object for tools instead of text")
    p.add_argument("--no-warnings", action="store_true", help="do not print warnings")
    return p


def run(args) -> int:
    try:
        report = validate_game(args.game)
    except GameNotFound as exc:
        if args.json:
            print(json.dumps({"game": args.game, "errors": [{"file": args.game, "line": 0, "column": 0,
                                                               "path": "", "message": str(exc)}]}))
        else:
            print(f"vassal-builder: validate: {exc}", file=sys.stderr)
        return 2
    s = report.summary
    if args.json:
        out = {"game": report.game, "units": s.get("units", 0), "counters": s.get("counters", 0),
               "pieces": s.get("pieces", 0), "scenarios": s.get("scenarios", 0),
               "authored": s.get("authored", 0), "authored_entries": len(report.authored),
               "units_by_side": s.get("units_by_side", {}), "all_units": s.get("all_units", 0),
               "errors": [d.as_json() for d in report.errors],
               "warnings": [d.as_json() for d in report.warnings]}
        if args.authored:
            out["authored_values"] = [a.as_json() for a in report.authored]
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 1 if report.errors else 0
    for d in report.errors:
        print(d.format())
    if not args.no_warnings:
        for d in report.warnings:
            print(d.format())
    if args.authored:
        for a in report.authored:
            print(f"authored: {a.format()}")
    if report.errors:
        n = len(report.errors)
        print(f"{report.game}: {count(n, 'error')}, {count(len(report.warnings), 'warning')}", file=sys.stderr)
        return 1
    sides = ", ".join(f"{k} {v:,}" for k, v in s["units_by_side"].items())
    entries, values = len(report.authored), s["authored"]
    authored = count(entries, "authored entry") + (
        f" ({count(values, 'value')} once templates apply to their units)" if values != entries else "")
    print(f"{report.game}: valid: {count(s['units'], 'combat unit')} ({sides}; {s['all_units']:,} units in all), "
          f"{count(s['counters'], 'printed counter')} ({count(s['pieces'], 'different piece')}), "
          f"{count(s['scenarios'], 'scenario')}, {authored}, {count(len(report.warnings), 'warning')}")
    return 0
