"""What a player expects of the module's pieces, palettes and windows (issue 9), from the buildFile and in
the real VASSAL Player window (the oracle's --screenshot --window all: the palettes and every window the
engine opens). The oracle parts skip cleanly where it cannot run."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest
from PIL import Image

from builder.module import palettes
from builder.render.counter_build import counter_info

from oracle_support import run_oracle
from test_module_support import GAMES, buildfile, report, vmod

SCREEN = {"iron-dream": "End of the Iron Dream", "panzers-last-stand": "Operation Konrad III (Big)"}


@lru_cache(maxsize=None)
def windows(game: str) -> tuple[dict, Path]:
    out = Path(tempfile.mkdtemp(prefix=f"vb-play-{game}-"))
    atexit.register(shutil.rmtree, out, ignore_errors=True)
    o = run_oracle(vmod(game), "--screenshot", str(out), "--setup", SCREEN[game], "--zoom", "0.25",
                   "--window", "all")
    return o, out


def _px(game) -> int:
    return counter_info(report(game).model)["image_px"]


# ---------------------------------------------------------------------- palettes
@pytest.mark.parametrize("game", GAMES)
def test_palettes_markers_docked_units_in_their_own_window_every_part_whole(game):
    bf = buildfile(game)
    windows_ = [w for w in bf.root.children() if w.short == "PieceWindow"]
    assert [w.get("name") for w in windows_] == [palettes.MARKERS, palettes.UNITS]
    g = report(game).model
    seen = set()
    for w, rows in zip(windows_, (palettes.DOCKED_ROWS, palettes.ROWS)):
        for panel in w.iter("PanelWidget"):
            slots = list(panel.iter("PieceSlot"))
            assert 0 < len(slots) <= rows * palettes.COLUMNS, panel.get("entryName")
            seen |= {s.get("gpid") for s in slots}
    assert len(seen) == len(g.units) + len(g.by_id["markers"])
    # a group too large for one panel is listed in numbered parts, in order
    assert palettes.parts({"G": list(range(25))}, 10) == [
        ("G 1/3", list(range(10))), ("G 2/3", list(range(10, 20))), ("G 3/3", list(range(20, 25)))]
    assert palettes.parts({"G": [1, 2]}, 10) == [("G", [1, 2])]


@pytest.mark.oracle
@pytest.mark.parametrize("game", GAMES)
def test_real_window_units_palette_shows_its_rows_and_markers_are_docked(game):
    o, out = windows(game)
    assert o["exit_code"] == 0 and not o["errors"] and not o["warnings"], (o["errors"], o["warnings"])
    shots = {s["file"].rsplit("/", 1)[-1]: s for s in o["screenshots"]}
    docked = shots["palette-markers.png"]
    assert docked["kind"] == "palette" and docked["height"] >= _px(game)        # one whole row, docked
    units = [s for s in o["screenshots"] if s["window"] == palettes.UNITS and s["kind"] == "window"]
    assert units, sorted(shots)
    with Image.open(out / units[0]["file"].rsplit("/", 1)[-1]) as im:
        # ROWS rows of counters below the tab row, and a row of counters plus the list beside it
        assert im.height >= palettes.ROWS * (_px(game) + palettes.GAP)
        assert im.width >= palettes.COLUMNS * (_px(game) + palettes.GAP)
