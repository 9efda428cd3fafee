"""The module's images: counter faces from the 'counters' step, boards from the 'map' step.

``--only module`` must work from a clean dist/, so a missing image runs that step first (the
steps write atomically and are deterministic, so re-using their files is safe). Images are stored
flat under images/ (VASSAL resolves bare names there); counter and map names cannot clash
(``<piece>-front.png`` vs ``map*.png``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from builder import buildcache
from builder.errors import BuildError
from builder.render import counter_build, map_build


@dataclass
class Images:
    counters: dict            # (piece_id, face) -> image name in the module
    maps: list                # map_build.MapImage, in map_images order
    files: dict               # image name -> bytes


def names(report) -> Images:
    """The module's counter and map images by name, without their bytes (known before any is drawn)."""
    game, grid = report.model, report.grid
    if game.map_doc is None or grid is None:
        raise BuildError("the game has no map (game.map) with a grid; a module needs one")
    counters = {(pid, face): Path(rel).name for pid, face, rel in counter_build.counter_images(game)}
    return Images(counters, map_build.game_map_images(game, grid), {})


def collect(report, out_dir: Path, progress) -> Images:
    game = report.model
    imgs = names(report)
    out_dir = Path(out_dir)
    counter_list = counter_build.counter_images(game)
    ctx = buildcache.current()   # what this build made (perhaps still being written, or only held)

    def missing(path: Path) -> bool:
        return path not in ctx.files and path not in ctx.held and not path.is_file()
    if any(missing(out_dir / rel) for _, _, rel in counter_list):
        progress.note(f"{report.game}: counter images missing; running step 'counters'")
        counter_build.build(report, out_dir, progress)
    if any(missing(out_dir / m.file) for m in imgs.maps):
        progress.note(f"{report.game}: map images missing; running step 'map'")
        map_build.build(report, out_dir, progress)
    for _, _, rel in counter_list:
        imgs.files[Path(rel).name] = _read(out_dir / rel)
    for m in imgs.maps:
        imgs.files[Path(m.file).name] = _read(out_dir / m.file)
    return imgs


def _read(path: Path) -> bytes:
    try:
        return buildcache.current().read(path)   # in a build: the bytes the step just wrote
    except OSError as exc:
        raise BuildError(f"cannot read image {path}: {exc.strerror or exc}") from None


STAGING_IMAGE = "staging.png"


def staging_panel(grid, title: str, zone_names: list[str], holds=None, *, draw: bool = True,
                  groups=None) -> tuple[bytes, tuple[int, int], dict, dict]:
    """The Staging board: the map step's own box panel (builder.render.map_legend), drawn for the
    staging zones, so each zone is a labelled box sized for ``holds`` (places per zone, place px).
    ``groups`` ([(heading or None, [zone names])]) sets the boxes' headings, each group in a column of
    its own (default: all under "Off-map boxes").
    Returns (PNG bytes, size, zone name -> rect, zone name -> rect below its name). In a build it
    is cached under what it is drawn from (the grid's spec, the title, the zones and their loads).
    ``draw=False`` gives the same geometry with no image (b""): the audit needs where the zones are,
    and drawing a panel is most of an audit's peak memory."""
    if not draw:
        data, lay = _panel_layout(grid, title, zone_names, holds, groups)
        return b"", (lay.width, lay.height), dict(lay.boxes), dict(lay.inner)
    key = buildcache.digest("staging-panel", buildcache.source_version("module/images.py", "render"),
                            repr(grid.spec), title, zone_names, holds, groups)
    packed = buildcache.current().cached(None, key, lambda: _packed_panel(grid, title, zone_names, holds, groups))
    n = int.from_bytes(packed[:4], "big")
    facts = json.loads(packed[4:4 + n])
    rects = [{k: tuple(v) for k, v in facts[part]} for part in ("boxes", "inner")]   # in the drawn order
    return packed[4 + n:], tuple(facts["size"]), *rects


def _packed_panel(grid, title: str, zone_names: list[str], holds, groups=None) -> bytes:
    """staging_panel's result in one byte string: its facts as JSON (length first), then the PNG."""
    png, size, boxes, inner = _draw_panel(grid, title, zone_names, holds, groups)
    # the rectangles as (name, rect) lists: the zones keep the order they were drawn in
    facts = json.dumps({"size": size, "boxes": list(boxes.items()), "inner": list(inner.items())}).encode()
    return len(facts).to_bytes(4, "big") + facts + png


def _panel_layout(grid, title: str, zone_names: list[str], holds, groups=None):
    from builder.render import map_data, map_legend

    data = map_data.MapData(grid, {"map": {"title": title}})
    data.boxes = [{"id": name, "name": name} for name in zone_names]
    data.box_groups = [(heading, list(names)) for heading, names in groups] if groups else None
    if holds:
        data.box_places, data.place_px = holds
    return data, map_legend.layout(data)


def _draw_panel(grid, title: str, zone_names: list[str], holds, groups=None) -> tuple[bytes, tuple[int, int], dict, dict]:
    from PIL import Image

    from builder.render import map_legend

    data, lay = _panel_layout(grid, title, zone_names, holds, groups)
    img = Image.new("RGB", (lay.width, lay.height), (255, 255, 255))
    map_legend.draw_panel(img, data, lay)
    return map_build.png_bytes(img), (lay.width, lay.height), dict(lay.boxes), dict(lay.inner)
