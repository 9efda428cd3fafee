"""Shared by the tests/test_module_*.py files: each shipped game built once per session (maps,
counters, module) into a temporary folder. No tests here."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path

from builder.gamedata.validate import validate_game
from builder.module import package
from builder.vassal.archive import SafeZip
from builder.vassal.buildfile import read_module

GAMES = ("iron-dream", "panzers-last-stand")


@lru_cache(maxsize=None)
def _root() -> Path:
    root = Path(tempfile.mkdtemp(prefix="vb-module-tests-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    return root


@lru_cache(maxsize=None)
def report(game: str):
    r = validate_game(game)
    assert r.ok, game
    return r


@lru_cache(maxsize=None)
def built(game: str) -> Path:
    """dist/GAME/ of a fresh build (package.build renders the missing images itself)."""
    out = _root() / game
    package.build(report(game), out)
    return out


def vmod(game: str) -> Path:
    return package.module_path(built(game), game)


@lru_cache(maxsize=None)
def buildfile(game: str):
    return read_module(vmod(game))


@lru_cache(maxsize=None)
def entries(game: str) -> dict:
    z = SafeZip(vmod(game), what="module")
    return {n: z.read(n) for n in z.names()}


@lru_cache(maxsize=None)
def _images(game: str):
    from builder.module import images
    from builder.progress import SILENT
    return images.collect(report(game), built(game), SILENT)


def defs(game: str):
    from builder.module import pieces
    return pieces.build_defs(report(game).model, _images(game).counters)


def layout(game: str):
    from builder.module import maps
    return maps.Layout(report(game).model, report(game).grid, _images(game))


def plans(game: str) -> dict:
    """scenario id -> ScenarioPlan (what each setup save places, with the expected location names)."""
    from builder.module import setups
    g, lay, ds = report(game).model, layout(game), defs(game)
    return {sid: setups.ScenarioPlan(g, lay, ds, sc) for sid, sc in g.by_id["scenarios"].items()}
