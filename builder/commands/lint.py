"""``vassal-builder lint MODULE.vmod [--json] [--strict]``: report problems in an existing module."""

from __future__ import annotations

import json
import sys

from builder.lint import CHECKS, lint


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
        "Exit status: 0 no errors (warnings allowed unless --strict), 1 errors found or the module is "
        "unreadable, 2 usage error."))
    p.add_argument("module", metavar="MODULE", help="a .vmod file (or a buildFile.xml)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of lines")
    p.add_argument("--strict", action="store_true", help="exit 1 on warnings too")
    return p


def run(args) -> int:
    try:
        result = lint(args.module, display=args.module)
    except OSError as exc:
        print(f"vassal-builder: lint: {exc}", file=sys.stderr)
        return 1
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
    if result.errors or (args.strict and result.warnings):
        return 1
    return 0
