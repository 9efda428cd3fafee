"""``vassal-builder new NAME``: write a small complete game into the folder NAME, ready to validate and build."""

from __future__ import annotations

import sys
from pathlib import Path


def register(sub, name, summary):
    p = sub.add_parser(name, help=summary, description=(
        "Write a small complete game into a new folder NAME: game.yaml (two sides, four units, one scenario) "
        "and map.yaml (an 8x6 hex map with clear, forest and lake terrain, a river along hexsides, a road, a "
        "town, a setup area and an off-map box). It validates and builds as written: 'vassal-builder "
        "validate NAME', 'vassal-builder build NAME'. The files name the installed schemas on their first "
        "line, so an editor with the YAML extension completes and explains every key. NAME must not exist."))
    p.add_argument("folder", metavar="NAME", help="the folder to create (its last part becomes the game id)")
    return p


def run(args) -> int:
    from builder.atomic import write_bytes
    from builder.gamedata.newgame import files
    from builder.shipped import SCHEMA_DIR

    folder = Path(args.folder)
    if folder.exists():
        print(f"vassal-builder: new: {folder}: already exists; give a new folder name", file=sys.stderr)
        return 2
    texts = files(folder.resolve().name, SCHEMA_DIR.as_posix())
    try:
        folder.mkdir(parents=True)
        for name, text in texts.items():
            write_bytes(folder / name, text.encode("utf-8"))
    except OSError as exc:
        print(f"vassal-builder: new: {folder}: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"wrote {folder}/game.yaml and {folder}/map.yaml; next: vassal-builder validate {folder}")
    return 0
