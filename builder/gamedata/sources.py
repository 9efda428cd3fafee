"""Find a game's data files from the GAME argument and load them into one merged document.

GAME is either a shipped game name (``counters/<name>.yaml`` or ``counters/<name>/`` in the repository) or a
path: a counters YAML file, or a folder of YAML files. A folder's files are read in name order (recursively)
and merged: mappings must not repeat a key, lists are joined. The map file is named by ``game.map``: a path
ending in .yaml is relative to the file that says it; a bare name is ``maps/<name>.yaml`` beside ``counters/``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from builder.gamedata.diagnostics import Diagnostic
from builder.gamedata.yamlsource import SourceList, SourceMap, YamlError, load_file
from builder.shipped import DATA_ROOT
from builder.vassal.files import regular_file_problem

# The shipped games: counters/ and maps/ in the checkout, or their copies in an installed wheel.
GAMES_ROOT = DATA_ROOT
MAX_FILES = 500


def shipped_games(root: Path = GAMES_ROOT) -> list[str]:
    counters = root / "counters"
    if not counters.is_dir():
        return []
    names = {p.stem for p in counters.glob("*.yaml")} | {p.name for p in counters.iterdir() if p.is_dir()}
    return sorted(names)


class GameNotFound(Exception):
    pass


@dataclass
class GameSources:
    name: str
    counter_files: list[Path]
    root: Path  # the folder that holds counters/ and maps/ (or the game folder itself)
    display_base: Path  # paths in messages are shown relative to this

    def display(self, path: Path) -> str:
        try:
            return os.path.relpath(path, self.display_base)
        except ValueError:
            return str(path)


def find_game(game: str, root: Path = GAMES_ROOT, cwd: Path | None = None) -> GameSources:
    cwd = cwd or Path.cwd()
    as_path = Path(game)
    looks_like_path = os.sep in game or game.endswith((".yaml", ".yml")) or game in (".", "..") or (cwd / game).exists()
    if looks_like_path:
        path = (cwd / as_path).resolve()
        if not path.exists():
            raise GameNotFound(f"{game}: no such file or folder")
        if path.is_dir():
            files = _yaml_files(path)
            if not files and (path / "counters").is_dir():
                raise GameNotFound(f"{game}: a project folder; name the game folder or file under {game}/counters")
            if not files:
                raise GameNotFound(f"{game}: the folder holds no .yaml files")
            base = path.parent.parent if path.parent.name == "counters" else path
            return GameSources(path.name, files, base, cwd)
        problem = regular_file_problem(path)  # a FIFO or device would block or never end
        if problem:
            raise GameNotFound(f"{game}: {problem}")
        name = path.stem
        base = path.parent.parent if path.parent.name == "counters" else path.parent
        return GameSources(name, [path], base, cwd)
    single, folder = root / "counters" / f"{game}.yaml", root / "counters" / game
    if single.is_file():
        return GameSources(game, [single], root, root)
    if folder.is_dir():
        files = _yaml_files(folder)
        if files:
            return GameSources(game, files, root, root)
    known = ", ".join(shipped_games(root)) or "none"
    raise GameNotFound(f"{game}: not a shipped game (shipped: {known}) nor an existing path")


def _yaml_files(folder: Path) -> list[Path]:
    # Natural order, so scenarios/5-2.yaml comes before scenarios/5-10.yaml.
    files = sorted((p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file()),
                   key=lambda p: [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", str(p.relative_to(folder)))])
    return files[: MAX_FILES + 1]


@dataclass
class LoadedDocument:
    data: SourceMap
    files: list[str]
    diagnostics: list[Diagnostic] = field(default_factory=list)


def load_merged(paths: list[Path], display) -> LoadedDocument:
    """Load files and merge their top-level keys; problems become diagnostics, never exceptions."""
    merged = SourceMap()
    merged.file, merged.line, merged.column = (display(paths[0]) if paths else ""), 1, 1
    merged.key_pos, merged.value_pos = {}, {}
    diagnostics: list[Diagnostic] = []
    shown = [display(p) for p in paths]
    if len(paths) > MAX_FILES:
        diagnostics.append(Diagnostic(display(paths[0].parent), 0, 0, "", f"more than {MAX_FILES} files; refusing"))
        return LoadedDocument(merged, shown, diagnostics)
    for path, name in zip(paths, shown):
        try:
            data, problems = load_file(path, name)
        except YamlError as exc:
            diagnostics.extend(exc.diagnostics)
            continue
        diagnostics.extend(problems)
        for key, value in data.items():
            if key not in merged:
                merged[key] = value
                merged.key_pos[key] = data.key_pos[key]
                merged.value_pos[key] = data.value_pos[key]
            elif isinstance(merged[key], list) and isinstance(value, list):
                if not isinstance(merged[key], SourceList) or getattr(merged[key], "_joined", False) is False:
                    merged[key] = _joinable(merged[key])
                merged[key].extend(value)
                merged[key].item_pos.extend(value.item_pos)
            else:
                line, col = data.key_pos[key]
                first = merged[key].file if hasattr(merged[key], "file") else merged.file
                diagnostics.append(Diagnostic(name, line, col, str(key),
                                              f"'{key}' is already defined in {first}; only lists can be split "
                                              "across files"))
    return LoadedDocument(merged, shown, diagnostics)


def _joinable(first: SourceList) -> SourceList:
    joined = SourceList(first)
    joined.file, joined.line, joined.column = first.file, first.line, first.column
    joined.item_pos = list(first.item_pos)
    joined._joined = True
    return joined


def resolve_map(doc: SourceMap, sources: GameSources) -> list[Path] | None:
    """The map's files: a path ending in .yaml (relative to the declaring file), or for a bare name
    ``maps/<name>.yaml`` and/or every YAML file under ``maps/<name>/`` (merged like counters)."""
    game = doc.get("game")
    ref = game.get("map") if isinstance(game, dict) else None
    if not isinstance(ref, str) or not ref:
        return None
    if ref.endswith((".yaml", ".yml")):
        declaring = Path(getattr(game, "file", ""))
        base = (sources.display_base / declaring).parent if declaring else sources.root
        return [(base / ref).resolve()]
    single, folder = sources.root / "maps" / f"{ref}.yaml", sources.root / "maps" / ref
    files = ([single] if single.is_file() else []) + (_yaml_files(folder) if folder.is_dir() else [])
    return files or [single]
