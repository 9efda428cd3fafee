"""Checked in the real VASSAL Player window (the oracle's --screenshot): what a player sees when a scenario
starts. For every scenario of both games (the engine's --setups report): every unit lies on a hex centre
or inside its box, and no stack's drawn extent leaves its box. For one scenario per game (screenshots
take 7-15 s each): in the engine's own picture of the whole map, each stack's top unit shows its
printed values (the bottom row of the counter: factors, movement), so no marker covers them.

Skipped cleanly where the oracle cannot run.
"""

from __future__ import annotations

import atexit
import io
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from builder.render.counter_build import counter_info

from oracle_support import run_oracle
from test_module_support import built, buildfile, layout, plans, report, vmod

pytestmark = pytest.mark.oracle

ZOOM = 0.5
SCREEN = {"iron-dream": "End of the Iron Dream", "panzers-last-stand": "Operation Konrad III (Big)"}


@lru_cache(maxsize=None)
def setups_report(game: str) -> dict:
    return run_oracle(vmod(game), "--setups")


@lru_cache(maxsize=None)
def screenshots(game: str) -> tuple[dict, Path]:
    out = Path(tempfile.mkdtemp(prefix=f"vb-screens-{game}-"))
    atexit.register(shutil.rmtree, out, ignore_errors=True)     # the PNGs are large: never left behind
    o = run_oracle(vmod(game), "--screenshot", str(out), "--setup", SCREEN[game], "--zoom", str(ZOOM))
    return o, out


def _zones(game):
    """zone name -> (map, x0, y0, x1, y1) in map pixels, from the buildFile the engine read."""
    out = {}
    lay = layout(game)
    for plan in lay.maps:
        for b in plan.boards:
            for name, (x, y, w, h) in b.zones.items():
                out[name] = (plan.name, b.offset[0] + x, b.offset[1] + y, b.offset[0] + x + w, b.offset[1] + y + h)
    return out


@pytest.mark.parametrize("game", ("iron-dream", "panzers-last-stand"))
def test_every_scenario_every_unit_on_a_hex_centre_or_inside_its_box(game):
    o = setups_report(game)
    lay, grid = layout(game), report(game).grid
    zones = _zones(game)
    half = counter_info(report(game).model)["image_px"] / 2
    setups = [s for s in o["predefined_setups"] if not s["is_menu"]]
    assert len(setups) == len(report(game).model.by_id["scenarios"])
    units = 0
    for s in setups:
        save = s["save"]
        index = {}
        for st in save["stacks"]:
            for i, m in enumerate(st["members"]):
                index[m] = (i, len(st["members"]))
        for p in save["pieces"]:
            loc = p["location"]
            if grid.parse(loc or "") is not None:
                assert (p["map"], p["x"], p["y"]) == lay.hex_point(loc), (s["name"], p["name"], loc)
            else:
                assert loc in zones, (s["name"], p["name"], loc)
                m, x0, y0, x1, y1 = zones[loc]
                i, n = index.get(p["id"], (0, 1))
                # VASSAL draws a stack's k-th piece 2 px right and 4 px up of the one below (unexpanded)
                top = n - 1
                assert p["map"] == m
                assert x0 <= p["x"] - half and p["x"] + half + 2 * top <= x1, (s["name"], p["name"], loc)
                assert y0 <= p["y"] - half - 4 * top and p["y"] + half <= y1, (s["name"], p["name"], loc)
            units += 1
    assert units


def _face_image(game, d, level):
    index, face = d.levels[level - 1] if d.levels else (0, "front")
    name = f"{d.counter_ids[index]}-{face}.png"
    return Image.open(built(game) / "counters" / name).convert("RGB")


@pytest.mark.parametrize("game", ("iron-dream", "panzers-last-stand"))
def test_screenshot_shows_every_top_units_values(game):
    o, out = screenshots(game)
    assert o["_exit"] in (0, 3) and o["errors"] == [], o["errors"]
    assert o["screenshot"]["game"]["started"] is True
    shots = {s["map"]: s for s in o["screenshots"] if s["kind"] == "whole_map"}
    main = shots["Main Map"]
    zoom = main["zoom"]
    img = Image.open(main["file"]).convert("RGB")
    sid = next(k for k, sc in report(game).model.by_id["scenarios"].items() if (sc.get("name") or k) == SCREEN[game])
    plan = plans(game)[sid]
    px = counter_info(report(game).model)["image_px"]
    stacks = {}
    for p in plan.placements:
        if p.map == "Main Map":   # one stack per point and game piece layer
            stacks.setdefault((p.x, p.y, p.d.properties.get("Layer")), []).append(p)
    checked = 0
    for (x, y, _), ps in stacks.items():
        units = [i for i, p in enumerate(ps) if p.d.kind == "unit"]
        if not units:
            continue
        i = units[-1]
        top = ps[i]
        # where VASSAL draws it: up-right of the pieces below it in the stack
        cx, cy = (x + 2 * i) * zoom, (y - 4 * i) * zoom
        s = px * zoom
        box = (round(cx - s / 2), round(cy - s / 2), round(cx + s / 2), round(cy + s / 2))
        size = (box[2] - box[0], box[3] - box[1])
        want = _face_image(game, top.d, top.level).resize(size, Image.LANCZOS)
        # the printed values row: the bottom third of the counter, compared where it lines up best within a
        # pixel (VASSAL rounds a piece's centre at this zoom its own way; a covering marker differs anyway)
        strip = (0, size[1] * 2 // 3, size[0], size[1])
        diff = min((ImageStat.Stat(ImageChops.difference(
            img.crop((box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)).crop(strip), want.crop(strip))).mean
            for dx in (-1, 0, 1) for dy in (-1, 0, 1)), key=sum)
        assert sum(diff) / 3 < 30, (top.d.key, (x, y), [p.d.key for p in ps], diff)
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("game", ("iron-dream", "panzers-last-stand"))
def test_screenshot_main_map_is_the_boards_size_no_band(game):
    """In the engine's whole-map picture the Main Map is exactly its boards: no band of empty map below
    or beside the hexes (the EotID board image was once taller than its hex board)."""
    from builder.render import map_image
    o, out = screenshots(game)
    main = next(s for s in o["screenshots"] if s["kind"] == "whole_map" and s["map"] == "Main Map")
    zoom, img = main["zoom"], Image.open(main["file"]).convert("RGB")
    plan = layout(game).main
    width = max(b.offset[0] + b.size[0] for b in plan.boards)
    height = max(b.offset[1] + b.size[1] for b in plan.boards)
    assert abs(img.width - width * zoom) <= 2 and abs(img.height - height * zoom) <= 2, (img.size, width, height)
    grid = report(game).grid
    for b in plan.boards:   # each board image as tall as its hex board
        assert b.size[1] == map_image.board_rect(grid, b.vgrid.sheet)[3], b.name
