"""Build step ``map``: dist/GAME/map.png, or one image per sheet (map-A.png ...) plus map-boxes.png.

``map_images`` tells the module packager, without rendering, each image's file name, pixel size and
where the Grid's frame sits in it, plus the off-map boxes' rectangles, so it can align a VASSAL HexGrid
(builder.geometry.vassal_derive.derive_vassal_grid(grid, sheet, board_origin, board_size)) and make zones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from builder import buildcache
from builder.errors import BuildError
from builder.progress import SILENT
from builder.render import budget, map_data, map_image, map_legend, png


@dataclass(frozen=True)
class MapImage:
    file: str                         # name inside dist/GAME/
    sheet: str | None                 # the sheet shown (None: the whole grid, or the boxes image)
    size: tuple[int, int]             # width, height in pixels
    board_origin: tuple[int, int]     # Grid-frame pixel shown at the image's (0, 0)
    boxes: dict = field(default_factory=dict)   # box id -> (x, y, w, h) in this image
    box_inner: dict = field(default_factory=dict)   # box id -> (x, y, w, h): the part below its name
    kind: str = "board"               # "board" (has hexes) or "boxes"

    @property
    def grid_offset(self) -> tuple[int, int]:
        """Pixel in this image of the Grid frame's origin (0, 0): add it to Grid.centre()."""
        return -self.board_origin[0], -self.board_origin[1]


def _plan(data) -> list[tuple[MapImage, object]]:
    grid = data.grid
    plans = []
    if not grid.spec.has_sheets:
        left, top, w, h = map_image.board_rect(grid, None)
        panel = map_legend.layout(data, min_height=h)
        size = (w + panel.width, max(h, panel.height))
        boxes = {k: (x + w, y, bw, bh) for k, (x, y, bw, bh) in panel.boxes.items()}
        inner = {k: (x + w, y, bw, bh) for k, (x, y, bw, bh) in panel.inner.items()}
        plans.append((MapImage("map.png", None, size, (left, top), boxes, box_inner=inner), panel))
        return plans
    for sheet in grid.spec.sheets:
        left, top, w, h = map_image.board_rect(grid, sheet.id)
        plans.append((MapImage(f"map-{sheet.id}.png", sheet.id, (w, h), (left, top)), None))
    panel = map_legend.layout(data)
    plans.append((MapImage("map-boxes.png", None, (panel.width, panel.height), (0, 0), dict(panel.boxes),
                           kind="boxes", box_inner=dict(panel.inner)), panel))
    return plans


def map_images(map_doc, grid, holds=None) -> list[MapImage]:
    """What ``build`` writes, computed without drawing. ``holds``: (box places, place px), see game_holds."""
    return [info for info, _ in _plan(_load(map_doc, grid, holds))]


def game_holds(game) -> tuple[dict, int]:
    """What the game's boxes must hold: counter places per box (every scenario's set-up) and the size of
    one place (the module's counter image plus a gap), so drawn boxes fit their counters side by side."""
    from builder.gamedata.box_loads import box_loads
    from builder.render.counter_build import counter_info
    px = counter_info(game)["image_px"]
    return box_loads(game), px + max(4, round(px * 0.12))


def game_map_images(game, grid) -> list[MapImage]:
    return map_images(game.map_doc, grid, game_holds(game))


def _load(map_doc, grid, holds):
    data = map_data.load(map_doc, grid)
    if holds:
        data.box_places, data.place_px = holds
    return data


def render(map_doc, grid, progress=SILENT, holds=None, game=None, only=None) -> list[tuple[MapImage, "object"]]:
    """(info, PIL image) for every image of the map (with *only*, the images of those file names)."""
    data = _load(map_doc, grid, holds)
    plans = [p for p in _plan(data) if only is None or p[0].file in only]
    for info, _ in plans:  # every image, before any is drawn
        budget.check(game, f"map image {info.file}", *info.size, "grid.hex_size, fewer rows or columns")
    return [(info, _draw(data, info, panel, progress)) for info, panel in plans]


def _draw(data, info: MapImage, panel, progress=SILENT):
    label = f"map {info.file}"
    if info.kind == "boxes":
        from PIL import Image
        img = Image.new("RGB", info.size, (255, 255, 255))
        map_legend.draw_panel(img, data, panel)
    else:
        img = map_image.render_board(data, info.sheet, size=info.size, progress=progress, label=label)
        if panel is not None:
            left, top, w, h = map_image.board_rect(data.grid, None)
            map_legend.draw_panel(img, data, panel, at=(w, 0))
    return img


def png_bytes(img) -> bytes:
    """PNG with fixed settings and no metadata, so equal pixels give equal bytes."""
    return png.png_bytes(img, level=6)


MAP_SOURCES = ("render", "geometry", "gamedata/mapterrain.py", "gamedata/box_loads.py")   # the map renderer's version
_WORKER_PLAN = None   # (data, plan) a forked worker draws from (set before the pool starts)


def _worker_draw(i: int) -> bytes:
    data, plan = _WORKER_PLAN
    info, panel = plan[i]
    return png_bytes(_draw(data, info, panel))


def build(report, out_dir: Path, progress=SILENT) -> list[Path]:
    """Each image is cached under a hash of the renderer's sources, the map data and the image's
    place; only changed images are drawn (several at once in worker processes)."""
    global _WORKER_PLAN
    game = report.model
    if game is None or game.map_doc is None or report.grid is None:
        raise BuildError("the game has no map (game.map) with a grid; nothing to draw")
    ctx = buildcache.current()
    holds = game_holds(game)
    data = _load(game.map_doc, report.grid, holds)
    plan = _plan(data)
    for info, _ in plan:  # every image, before any is drawn
        budget.check(game, f"map image {info.file}", *info.size, "grid.hex_size, fewer rows or columns")
    # the boxes are sized for what the scenarios put in them: their loads are part of the key
    version = buildcache.source_version(*MAP_SOURCES)
    doc_key = buildcache.digest(game.map_doc, [sorted(holds[0].items()), holds[1]])
    keys = [buildcache.digest("map-image", version, doc_key, info.__dict__) for info, _ in plan]
    pngs = [ctx.lookup(k) for k in keys]
    todo = [i for i, png in enumerate(pngs) if png is None]
    ctx.count("map image", reused=len(plan) - len(todo), rebuilt=len(todo))
    if len(todo) > 1 and ctx.jobs > 1:
        _WORKER_PLAN = (data, plan)
        try:
            drawn = list(ctx.map(_worker_draw, todo))
        finally:
            _WORKER_PLAN = None
    else:
        drawn = [png_bytes(_draw(data, *plan[i], progress)) for i in todo]
    for i, png in zip(todo, drawn):
        ctx.store(keys[i], png)
        pngs[i] = png
    written = []
    for (info, _), png in zip(plan, pngs):
        target = Path(out_dir) / info.file
        ctx.write(target, png)
        progress.note(f"{report.game}: {info.file} {info.size[0]}x{info.size[1]} px")
        written.append(target)
    return written
