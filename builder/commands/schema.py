"""``vassal-builder schema [NAME] [--markdown | --path]``: the JSON Schemas a game's data follows."""

from __future__ import annotations

import sys


def register(sub, name, summary):
    p = sub.add_parser(name, help=summary, description=(
        "Print the JSON Schema NAME (game, map or grid; default game) that a game's data follows. With "
        "--markdown, print the reference of every data key of all schemas (what docs/data-reference.md "
        "holds). With --path, print where the installed schemas are, for an editor's '$schema' line: "
        "'# yaml-language-server: $schema=PATH/game.schema.json' works for a game kept anywhere."))
    p.add_argument("name", metavar="NAME", nargs="?", default="game", help="game, map or grid (default game)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--markdown", action="store_true", help="the reference of every key, as Markdown")
    group.add_argument("--path", action="store_true", help="the folder of the installed schemas")
    return p


def run(args) -> int:
    from builder.gamedata.schemadoc import load_schemas, markdown
    from builder.shipped import SCHEMA_DIR

    if args.path:
        print(SCHEMA_DIR)
        return 0
    if args.markdown:
        sys.stdout.write(markdown())
        return 0
    path = SCHEMA_DIR / f"{args.name}.schema.json"
    if args.name not in load_schemas() or not path.is_file():
        print(f"vassal-builder: schema: no schema {args.name!r} (known: {', '.join(load_schemas())})",
              file=sys.stderr)
        return 2
    sys.stdout.write(path.read_text(encoding="utf-8"))
    return 0
