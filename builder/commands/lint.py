"""``vassal-builder lint MODULE.vmod [--json] [--strict]``: report problems in an existing module."""

from __future__ import annotations

import json
import sys

from builder.lint import CHECKS, lint
from builder.vassal.files import regular_file_problem


def register(sub, name, summary):
    p = sub.add_parser(name, help=summary, description=(
        "Check an existing VASSAL module (ours or anyone's; a bare buildFile.xml also works, without "
        "the archive checks) and print each problem a designer must fix on one line: "
        "MODULE:ENTRY[:LINE]: SEVERITY: CHECK-ID: MESSAGE (severity error or warning; problems of the "
        "whole file have no entry). Checks: " + ", ".join(c.name for c in CHECKS) + ": the archive "
        "(not a zip, unsafe entry names, oversized entries, buildFile missing, unsafe or invalid XML, "
        "moduledata), images (every image named exists under images/, case-sensitive; unused images), "
        "prototypes (missing: error; unused: warning), pieces (every definition decodes; non-core "
        "traits), maps (duplicate names, boards without size, grid spacing, numbering, zone paths), "
        "predefined setups (file present and readable, pieces on known maps and from known PieceSlots) "
        "and turn counters (levels present and non-empty). With --json, print one object {\"module\", "
        "\"errors\", \"warnings\", \"findings\": [{entry, line, severity, check, message}]}. "
        "Errors (and with --strict warnings) exit 1; a file that is missing, not a regular file, or not a "
        "module at all (not a ZIP nor a buildFile, or a saved game) exits 2."))
    p.add_argument("module", metavar="MODULE", help="a .vmod file (or a buildFile.xml)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of lines")
    p.add_argument("--strict", action="store_true", help="exit 1 on warnings too")
    return p


#: Findings that mean the file is not a module at all: nothing to lint (exit 2, not 1).
NOT_A_MODULE = ("archive.not-zip", "archive.not-module")


def run(args) -> int:
    problem = regular_file_problem(args.module)
    if problem:
        print(f"vassal-builder: lint: {args.module}: {problem}", file=sys.stderr)
        return 2
    try:
        result = lint(args.module, display=args.module)
    except OSError as exc:
        print(f"vassal-builder: lint: {exc}", file=sys.stderr)
        return 2
    except MemoryError:
        print(f"vassal-builder: lint: {args.module}: file is too large to check", file=sys.stderr)
        return 1
    if args.json:
        sys.stdout.write(json.dumps({"module": result.module, "errors": result.errors,
                                     "warnings": result.warnings,
                                     "findings": [f.to_dict() for f in result.findings]},
                                    ensure_ascii=False, indent=1) + "\n")
    else:
        for f in result.findings:
            sys.stdout.write(f.format(result.module) + "\n")
        print(f"{args.module}: {result.errors} error(s), {result.warnings} warning(s)", file=sys.stderr)
    if any(f.check in NOT_A_MODULE and f.severity == "error" for f in result.findings):
        return 2
    if result.errors or (args.strict and result.warnings):
        return 1
    return 0
