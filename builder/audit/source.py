"""What is audited against what: the game (a shipped name, a data path, or a module built here that
carries its data) and whether a save or log belongs to it.

* :func:`load_game` — a validated game's Report from ``GAME`` or ``MODULE.vmod``; the module's packed
  data (builder.module.gamedata_entry) gives the same Report the YAML gives, so the audit context
  and every finding are the same from either source.
* :func:`check_metadata` — before replaying: the save's ``moduledata`` (or ``savedata``) names another
  module, or a version of ours with another major number.
* :func:`check_pieces` — after replaying: no piece carries a ``UnitId`` (not a module built here), or
  most UnitIds are not in the game's data (a save of another game).

Each refusal is an :class:`AuditInputError` with one line; the command exits 2 ("could not audit").
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from builder.audit.errors import AuditInputError


class GameUnusable(AuditInputError):
    """The game itself (its data, or the module's packed data) cannot be audited against."""


def is_module(arg: str) -> bool:
    """A path to a VASSAL module (a zip with a buildFile), as opposed to a game name or data path."""
    p = Path(arg)
    if not p.is_file() or p.suffix.lower() in (".yaml", ".yml"):
        return False
    try:
        with zipfile.ZipFile(p) as z:
            names = set(z.namelist())
    except (zipfile.BadZipFile, OSError, ValueError):
        return p.suffix.lower() == ".vmod"      # a damaged module: load_game says why
    return "buildFile.xml" in names or "buildFile" in names


def load_game(arg: str):
    """The validated game's Report for ``GAME`` or ``MODULE.vmod``. Raises GameNotFound (usage) for
    an unknown name, GameUnusable for data or a module that cannot be used."""
    from builder.gamedata.validate import validate_game
    from builder.module.gamedata_entry import GameDataError, read_module

    if is_module(arg):
        try:
            return read_module(arg)
        except GameDataError as exc:
            raise GameUnusable(str(exc)) from None
    report = validate_game(arg)
    if not report.ok:
        n = len(report.errors)
        raise GameUnusable(f"{report.game}: the game's data has {n} error{'s' * (n != 1)}; "
                           f"run 'vassal-builder validate {arg}'")
    return report


def _major(version: str) -> str:
    return (version or "").strip().split(".")[0]


def check_metadata(stream, ctx, name: str) -> None:
    """Refuse a save whose metadata names another module, or our module with another major version."""
    from builder.vassal.errors import VassalFormatError
    from builder.vassal.savefile import read_metadata

    info = ctx.game.doc.get("game") or {}
    title = str(info.get("title") or ctx.game.id)
    version = str(info.get("version") or "1.0")
    meta = {}
    for data in (stream.moduledata, stream.savedata):
        if data:
            try:
                for k, v in read_metadata(data).items():
                    meta.setdefault(k, v)
            except VassalFormatError:
                pass
    theirs = meta.get("name")
    if theirs and theirs != title:
        raise AuditInputError(f"{name}: a save of the module {theirs!r}, not of {title!r} "
                              f"({ctx.game_id}): cannot audit it against this game")
    their_version = meta.get("version")
    if their_version and _major(their_version) != _major(version):
        raise AuditInputError(f"{name}: saved with version {their_version} of {title!r}; this data is "
                              f"version {version}, whose units and rules may differ: cannot audit")


def check_pieces(stats, ctx, name: str) -> None:
    """Refuse a replay whose pieces are not this game's units."""
    if not stats.unit_ids:
        if stats.foreign:
            raise AuditInputError(f"{name}: none of its {stats.foreign} piece(s) carries a UnitId: not a save "
                                  f"of a module built by vassal-builder, cannot audit")
        return
    unknown = stats.unknown_unit_ids
    if len(unknown) * 2 > len(stats.unit_ids):
        few = ", ".join(sorted(unknown)[:3])
        raise AuditInputError(f"{name}: {len(unknown)} of its {len(stats.unit_ids)} UnitIds (e.g. {few}) are not "
                              f"units of {ctx.game_id}: a save of another game, cannot audit")


def log_files(args: list[str]) -> list[Path]:
    """The saves and logs named, folders expanded to their .vsav/.vlog files (sorted, recursive)."""
    out: list[Path] = []
    for a in args:
        p = Path(a)
        if p.is_dir():
            found = sorted(q for q in p.rglob("*") if q.is_file() and q.suffix.lower() in (".vsav", ".vlog"))
            out.extend(found)
        else:
            out.append(p)
    return out
