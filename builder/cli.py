"""The ``vassal-builder`` command line.

Each subcommand lives in ``builder/commands/<name>.py`` with ``register(subparsers)``
(adds its parser) and ``run(args) -> int`` (the exit code). Every command uses the one table
of exit codes in :data:`EXIT_CODES` (shown in each --help and in the README).
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
    "new": "write a small complete game to start from (validates and builds as written)",
    "schema": "print the JSON Schemas, the reference of every data key (--markdown) or their folder (--path)",
}

EXIT_OK, EXIT_USAGE = 0, 2

#: The exit codes of every command (README "Exit codes" says the same).
EXIT_CODES = """exit status (the same for every command):
  0    success
  1    the input has problems or findings: validation errors, lint errors, illegal moves,
       a save dump decodes only up to where it is cut short, a build step that failed
  2    usage error, or an input that cannot be used: file not found, a folder, device or
       pipe where a file is expected, not a save or module, a foreign module, a save
       audit cannot judge (cut short, of another game), a bad --out
  3    a step this version cannot run
  130  interrupted"""


class _HelpFormatter(argparse.HelpFormatter):
    """Wraps descriptions as usual but prints the exit-code table as it is laid out."""

    def _fill_text(self, text, width, indent):
        head, sep, table = text.partition("exit status")
        if not sep:
            return super()._fill_text(text, width, indent)
        table = "\n".join(indent + line for line in (sep + table).splitlines())
        return f"{super()._fill_text(head, width, indent)}\n\n{table}" if head.strip() else table


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser. Only the subcommand named in *argv* (all of them when None) is imported and
    gets its full options: a ``dump`` does not pay for loading jsonschema, YAML and Pillow."""
    parser = argparse.ArgumentParser(
        prog="vassal-builder",
        description="Build VASSAL modules, counters, maps and counter sheets from YAML game data, "
        "and audit VASSAL saves and logs.",
        epilog="GAME is a shipped game name (iron-dream, panzers-last-stand) or the path to a "
        "game's data folder or counters file. Run 'vassal-builder COMMAND --help' for details.\n\n"
        + EXIT_CODES,
        formatter_class=_HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = None if argv is None else next((a for a in argv if not a.startswith("-")), "")
    for name, summary in COMMANDS.items():
        if chosen is not None and name != chosen:
            sub.add_parser(name, help=summary)   # listed in --help; never run from this parser
            continue
        module = importlib.import_module(f"builder.commands.{name}")
        p = module.register(sub, name, summary)
        p.formatter_class = _HelpFormatter
        p.epilog = f"{p.epilog}\n\n{EXIT_CODES}" if p.epilog else EXIT_CODES
        p.set_defaults(func=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser(sys.argv[1:] if argv is None else argv)
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
