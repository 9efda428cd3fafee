"""Validate a game: load, check against the schemas, cross-check, count. Never raises on bad data."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from builder.gamedata import authored as authored_mod
from builder.gamedata import schemacheck
from builder.gamedata.crossref import Checker
from builder.gamedata.diagnostics import Diagnostic, format_path
from builder.gamedata.model import Game
from builder.gamedata.sources import GameSources, find_game, load_merged, resolve_map
from builder.gamedata.yamlsource import locate


@dataclass
class Report:
    game: str
    errors: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    authored: list = field(default_factory=list)
    summary: dict = field(default_factory=dict)
    model: Game | None = None
    grid: object = None

    @property
    def ok(self) -> bool:
        return not self.errors


def validate_game(game_arg: str) -> Report:
    sources = find_game(game_arg)  # GameNotFound propagates: the command reports it
    return validate_sources(sources)


def validate_sources(sources: GameSources) -> Report:
    report = Report(sources.name)
    loaded = load_merged(sources.counter_files, sources.display)
    map_paths = resolve_map(loaded.data, sources) if loaded.data else None
    inside = {p.resolve() for p in map_paths or ()} & {p.resolve() for p in sources.counter_files}
    if inside:  # a game folder holding its map file too: the map is not game data
        sources.counter_files = [p for p in sources.counter_files if p.resolve() not in inside]
        loaded = load_merged(sources.counter_files, sources.display)
    load_diags = list(loaded.diagnostics)  # problems reading the files themselves
    doc = loaded.data
    diags = []
    if doc:
        diags += schemacheck.check(doc, schemacheck.GAME_SCHEMA_ID)
    map_doc, grid = None, None
    if map_paths:
        if len(map_paths) == 1 and not map_paths[0].is_file():
            file, line, col = locate(doc, ("game", "map"))
            diags.append(Diagnostic(file, line, col, "game.map",
                                    f"map file {sources.display(map_paths[0])}: file not found"))
        else:
            loaded_map = load_merged(map_paths, sources.display)
            load_diags += loaded_map.diagnostics
            map_doc = loaded_map.data
            if map_doc:
                diags += schemacheck.check(map_doc, schemacheck.MAP_SCHEMA_ID)
                grid = _grid(map_doc, diags)
    game = Game.from_documents(doc, map_doc)
    try:
        diags += Checker(game, grid).run()
    except Exception as exc:  # noqa: BLE001 - malformed data the schema already reported can trip a check
        if not any(d.severity == "error" for d in load_diags + diags):
            diags.append(Diagnostic(sources.display(sources.counter_files[0]), 0, 0, "",
                                    f"cross-reference checks failed ({type(exc).__name__}: {exc}); please report this"))
    # A value the loader could not read (a 5,000-digit integer, a bad !!timestamp) is one problem, not
    # also a schema or cross-reference error about the text left in its place.
    unreadable = {(d.file, d.line, d.column) for d in load_diags}
    diags = load_diags + [d for d in diags if (d.file, d.line, d.column) not in unreadable]
    report.errors = sorted({d for d in diags if d.severity == "error"})
    report.warnings = sorted({d for d in diags if d.severity == "warning"})
    users = Counter(u.get("template") for u in (doc.get("units") or [])
                    if isinstance(u, dict) and isinstance(u.get("template"), str))
    report.authored = authored_mod.collect(doc, users)
    if map_doc is not None:
        report.authored += authored_mod.collect(map_doc)
    report.game = game.id or report.game
    try:
        report.summary = game.summary()
    except Exception:  # noqa: BLE001 - only data with errors gets here; the counts are not shown then
        if not report.errors:
            raise
    report.summary["authored"] = authored_mod.total(report.authored)
    report.model, report.grid = game, grid
    return report


def _grid(map_doc, diags):
    spec = map_doc.get("grid")
    if not isinstance(spec, dict):
        return None
    from builder.geometry import Grid, GridSpecError
    try:
        return Grid.from_spec(spec)
    except GridSpecError as exc:
        path = tuple(int(p) if p.isdigit() else p for p in re.findall(r"[^.\[\]]+", exc.field))
        file, line, col = locate(map_doc, path)
        message = str(exc).removeprefix(f"{exc.field}: ")
        diags.append(Diagnostic(file, line, col, format_path(path), message))
        return None
