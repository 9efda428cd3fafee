"""``vassal-builder dump SAVE [--json]``: print the decoded command stream of a save or log."""

from __future__ import annotations

import json
import sys

from builder.vassal.errors import VassalFormatError
from builder.vassal.report import format_lines, save_report
from builder.vassal.savefile import read_save


def register(sub, name, summary):
    p = sub.add_parser(name, help=summary, description=(
        "Decode a VASSAL saved game (.vsav) or log (.vlog) - !VCSK-obfuscated, XZ or plain - and "
        "print its commands, one line each, in file order (nested commands indented). With --json, "
        "print one object {\"encoding\" (vcsk, xz, plain or vobs), \"counts\", \"commands\"}; counts are per command type "
        "(AddPiece, MovePiece, Chat, Log, ...; a stack is an AddPiece of a stack; the command a Log "
        "entry wraps is counted too). Player passwords stored in saves are always masked. "
        "Exit status: 0 decoded, 1 the file is unreadable or corrupt, 2 usage error."))
    p.add_argument("save", metavar="SAVE", help="a .vsav or .vlog file")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    return p


def run(args) -> int:
    try:
        save = read_save(args.save)
        if args.json:
            out = json.dumps(save_report(save), ensure_ascii=False, indent=1)
        else:
            meta = f"{args.save}: {save.encoding} encoding"
            lines = [meta] + format_lines(save)
            out = "\n".join(lines)
    except VassalFormatError as exc:
        print(f"vassal-builder: dump: {args.save}: {exc}", file=sys.stderr)
        return 1
    except RecursionError:
        print(f"vassal-builder: dump: {args.save}: commands are nested too deeply", file=sys.stderr)
        return 1
    except MemoryError:
        print(f"vassal-builder: dump: {args.save}: file is too large to decode", file=sys.stderr)
        return 1
    sys.stdout.write(out + "\n")
    return 0
