"""The ``vassal-builder`` command line.

Each subcommand lives in ``builder/commands/<name>.py`` with ``register(subparsers)``
(adds its parser) and ``run(args) -> int`` (the exit code). Exit codes follow common
conventions: 0 success, 1 the input has errors (validation, illegal moves), 2 usage
error, 3 a build step this version cannot run, 130 interrupted.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from builder import __version__

# Order is the order shown in --help.
COMMANDS = {
    "validate": "check a game's data against the schemas and cross-references",
    "build": "render maps and counters, package the VASSAL module and counter sheets into dist/",
    "sheets": "write printable counter sheets (PDF) with duplex-aligned backs",
    "dump": "decode a VASSAL save (.vsav) or log (.vlog) and print its commands",
    "lint": "check an existing VASSAL module (.vmod) for problems",
    "audit": "replay a save or log and report moves that break the game's rules",
}

EXIT_OK, EXIT_USAGE = 0, 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="vassal-builder",
        description="Build VASSAL modules, counters, maps and counter sheets from YAML game data, "
        "and audit VASSAL saves and logs.",
        epilog="GAME is a shipped game name (iron-dream, panzers-last-stand) or the path to a "
        "game's data folder or counters file. Run 'vassal-builder COMMAND --help' for details.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, summary in COMMANDS.items():
        module = importlib.import_module(f"builder.commands.{name}")
        p = module.register(sub, name, summary)
        p.set_defaults(func=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("vassal-builder: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    raise SystemExit(main())
