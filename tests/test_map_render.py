"""Map rendering: terrain resolution, images drawn from the data (sampled at hex centres), the image
plan the packager reads, VASSAL grid alignment, determinism, and the build step's files."""

import io
import math

import pytest
from PIL import Image

from builder.cli import main
from builder.gamedata import mapterrain
from builder.gamedata.validate import validate_game
from builder.geometry.vassal_derive import board_showing, derive_vassal_grid
from builder.render import map_build
from builder.render.colors import parse_color

from test_map_validation import TERRAIN_MAP


def _rgb(hex_colour):
    return parse_color(hex_colour)[:3]


def dominant_terrain(img, centre, size, colours):
    """Which terrain colour is most frequent in the disc of radius 0.2 hex around ``centre``.

    Markers, roads and names may cover part of the disc; the patterns keep clear of it, and no
    other terrain colour can be there (the hex's inner radius is 0.5 hex)."""
    cx, cy = centre
    r = size * 0.2
    counts = {tid: 0 for tid in colours}
    n = 0
    steps = 9
    for i in range(steps):
        for j in range(steps):
            dx, dy = (i / (steps - 1) * 2 - 1) * r, (j / (steps - 1) * 2 - 1) * r
            if dx * dx + dy * dy > r * r:
                continue
            n += 1
            px = img.getpixel((round(cx + dx), round(cy + dy)))[:3]
            for tid, rgb in colours.items():
                if px == rgb:
                    counts[tid] += 1
    best = max(counts, key=counts.get)
    return best, counts[best] / n


@pytest.fixture
def tiny(tiny_game):
    (tiny_game / "map.yaml").write_text(TERRAIN_MAP)
    report = validate_game(str(tiny_game / "game.yaml"))
    assert report.ok, [e.format() for e in report.errors]
    return report


def test_terrain_layer_resolves_rows_columns_offsets_and_hexes(tiny):
    layer, diags = mapterrain.resolve(tiny.model.map_doc, tiny.grid)
    t = lambda hid: layer.terrain(tiny.grid.parse(hid))  # noqa: E731
    assert diags == []
    assert [t(f"B{r}") for r in range(1, 6)] == ["clear", "clear", "forest", "forest", "clear"]
    assert [t(f"C{r}") for r in range(2, 8)] == ["clear", "forest", "lake", "lake", "forest", "clear"]
    assert t("E6") == "forest" and t("J10") == "clear"
    assert len(layer.by_hex) == 2 + 4 + 1   # '.' defines nothing


def test_tiny_map_render_samples_plan_and_determinism(tiny):
    doc, grid = tiny.model.map_doc, tiny.grid
    (info, img), = map_build.render(doc, grid)
    plan, = map_build.map_images(doc, grid)
    assert plan == info and img.size == info.size and info.file == "map.png"
    colours = {t["id"]: _rgb(t["color"]) for t in doc["terrain_types"]}
    layer, _ = mapterrain.resolve(doc, grid)
    ox, oy = info.grid_offset
    for h in grid.all_hexes():
        x, y = grid.centre(h)
        best, share = dominant_terrain(img, (x + ox, y + oy), grid.spec.hex_size, colours)
        assert best == layer.terrain(h) and share > 0.3, (grid.name(h), best, share)
    # the panel sits to the right of the board and holds every box (none in the tiny game)
    assert img.size[0] > math.ceil(grid.image_size[0])
    again = map_build.png_bytes(map_build.render(doc, grid)[0][1])
    assert again == map_build.png_bytes(img)


def test_hexside_and_line_are_drawn(tiny):
    doc, grid = tiny.model.map_doc, tiny.grid
    (info, img), = map_build.render(doc, grid)
    river = _rgb("#3366CC")
    road = _rgb("#AA3300")
    a, b = (grid.centre(grid.parse(h)) for h in ("C7", "C8"))
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    assert img.getpixel((round(mid[0]), round(mid[1]))) == river
    a, b = (grid.centre(grid.parse(h)) for h in ("A1", "A2"))
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    assert img.getpixel((round(mid[0]), round(mid[1]))) == road


def test_unset_hex_terrain_is_not_a_terrain_colour(tiny):
    doc = dict(tiny.model.map_doc)
    doc["terrain"] = {"codes": {}}
    (info, img), = map_build.render(doc, tiny.grid)
    colours = {t["id"]: _rgb(t["color"]) for t in doc["terrain_types"]}
    x, y = tiny.grid.centre(tiny.grid.parse("E6"))
    _, share = dominant_terrain(img, (x, y), tiny.grid.spec.hex_size, colours)
    assert share == 0


@pytest.fixture(scope="module", params=["iron-dream", "panzers-last-stand"])
def shipped(request):
    report = validate_game(request.param)
    assert report.ok, [e.format() for e in report.errors[:5]]
    return report, map_build.render(report.model.map_doc, report.grid, holds=map_build.game_holds(report.model))


def test_shipped_map_named_hexes_show_their_terrain(shipped):
    report, images = shipped
    doc, grid = report.model.map_doc, report.grid
    colours = {t["id"]: _rgb(t["color"]) for t in doc["terrain_types"]}
    layer, diags = mapterrain.resolve(doc, grid)
    assert diags == []
    named = [loc for loc in doc["locations"] if loc.get("name")]
    assert len(named) >= 20
    checked = 0
    for loc in named:
        h = grid.parse(loc["hex"])
        want = layer.terrain(h)
        for info, img in images:
            if info.kind != "board" or info.sheet != board_showing(grid, h):   # the board holding its centre
                continue
            x, y = grid.centre(h)
            ox, oy = info.grid_offset
            best, share = dominant_terrain(img, (x + ox, y + oy), grid.spec.hex_size, colours)
            assert best == want and share > 0.15, (loc["hex"], loc["name"], want, best, share)
            checked += 1
    assert checked >= len(named)


def test_shipped_map_images_match_the_plan_and_align_with_vassal(shipped):
    report, images = shipped
    plan = map_build.game_map_images(report.model, report.grid)
    assert [i for i, _ in images] == plan
    boards = [i for i in plan if i.kind == "board"]
    if report.grid.spec.has_sheets:
        assert [i.file for i in plan] == ["map-A.png", "map-B.png", "map-C.png", "map-D.png", "map-boxes.png"]
        assert set(plan[-1].boxes) == {b["id"] for b in report.model.map_doc["boxes"]}
    else:
        assert [i.file for i in plan] == ["map.png"]
        assert set(boards[0].boxes) == {b["id"] for b in report.model.map_doc["boxes"]}
        w, h = boards[0].size
        for x, y, bw, bh in boards[0].boxes.values():   # boxes lie in the panel, right of the hexes
            assert x >= math.ceil(report.grid.image_size[0]) and x + bw <= w and y + bh <= h
    for info, img in images:
        assert img.size == info.size
    for info in boards:
        # every hex of the board gets our ID from VASSAL's own numbering maths (raises otherwise)
        derive_vassal_grid(report.grid, info.sheet, board_origin=info.board_origin, board_size=info.size, check=True)


def test_build_step_writes_the_images(tmp_path, capsys):
    code = main(["build", "iron-dream", "--only", "map", "--out", str(tmp_path), "--quiet"])
    assert code == 0, capsys.readouterr().err
    png = tmp_path / "iron-dream" / "map.png"
    with Image.open(io.BytesIO(png.read_bytes())) as im:
        assert im.format == "PNG" and im.size == map_build.game_map_images(
            validate_game("iron-dream").model, validate_game("iron-dream").grid)[0].size


def test_crossing_side_points_at_the_playable_hex(tiny):
    # An invasion-style arrow across a lake/land side: the head is on the land end only.
    doc = dict(tiny.model.map_doc)
    doc["hexside_types"] = list(doc["hexside_types"]) + [
        {"id": "arrow", "name": "Arrow", "color": "#FF00FF", "width": 0.04, "style": "crossing"}]
    doc["hexsides"] = [{"type": "arrow", "sides": [["C4", "C3"]]}]
    grid = tiny.grid
    (info, img), = map_build.render(doc, grid)
    lake, land = (grid.centre(grid.parse(h)) for h in ("C4", "C3"))
    magenta = (255, 0, 255)

    def across(toward, t, off):
        mx, my = (lake[0] + land[0]) / 2, (lake[1] + land[1]) / 2
        tx, ty = toward
        dx, dy = tx - mx, ty - my
        d = math.hypot(dx, dy)
        return round(mx + dx * t - dy / d * off), round(my + dy * t + dx / d * off)

    off = grid.spec.hex_size * 0.04
    assert img.getpixel(across(land, 0.2, off)) == magenta       # the head is wider than the shaft
    assert img.getpixel(across(lake, 0.2, off)) != magenta
    assert img.getpixel(across(land, 0.5, 0)) != magenta        # the tip stops short of the marks round the centre
    assert img.getpixel(across(lake, 0.1, 0)) == magenta        # the shaft runs both ways (IDs are drawn over it further on)


def _edge_difference(a, b) -> float:
    """Mean per-pixel RGB difference between two equally long pixel strips."""
    return sum(sum(abs(x - y) for x, y in zip(p, q)) for p, q in zip(a, b)) / (3 * len(a))


def test_pls_sheets_join_into_one_continuous_picture(shipped):
    """Laid side by side as VASSAL lays the boards, the last pixel column of a sheet and the first of the next are
    neighbouring lines of one drawing (a jump or a feature drawn twice would differ much more)."""
    report, images = shipped
    if not report.grid.spec.has_sheets:
        pytest.skip("a sheet-less map has no seams")
    img = {info.sheet: im for info, im in images if info.kind == "board"}
    origin = {info.sheet: info.board_origin for info, _ in images if info.kind == "board"}
    checked = 0
    for a, b in (("A", "B"), ("C", "D"), ("C", "A"), ("D", "B")):
        A, B = img[a], img[b]
        horizontal = origin[a][1] == origin[b][1]
        if horizontal:   # b right of a
            assert origin[b][0] == origin[a][0] + A.width
            n = min(A.height, B.height)
            last = [A.getpixel((A.width - 1, y)) for y in range(n)]
            first = [B.getpixel((0, y)) for y in range(n)]
            away = [B.getpixel((1, y)) for y in range(n)]
            before = [A.getpixel((A.width - 2, y)) for y in range(n)]
        else:            # b below a
            assert origin[b][1] == origin[a][1] + A.height
            n = min(A.width, B.width)
            last = [A.getpixel((x, A.height - 1)) for x in range(n)]
            first = [B.getpixel((x, 0)) for x in range(n)]
            away = [B.getpixel((x, 1)) for x in range(n)]
            before = [A.getpixel((x, A.height - 2)) for x in range(n)]
        # The step across the seam is of the size of the steps between the lines either side of it.
        seam = _edge_difference(last, first)
        natural = max(_edge_difference(first, away), _edge_difference(before, last))
        assert seam <= 2 * natural + 1, (a, b, seam, natural)
        checked += 1
    assert checked == 4


def test_progress_lines_name_the_map_being_drawn(tiny):
    # every step line of a board starts with the map's own label (a named hex's label once took its place)
    class Recording:
        def __init__(self):
            self.labels = []

        def step(self, label, done, total):
            self.labels.append(label)

        def note(self, text):
            pass

    rec = Recording()
    map_build.render(tiny.model.map_doc, tiny.grid, progress=rec)
    assert rec.labels and {lb.rsplit(": ", 1)[0] for lb in rec.labels} == {"map map.png"}, rec.labels
    assert {lb.rsplit(": ", 1)[1] for lb in rec.labels} == {"terrain", "labels"}


def test_opaque_shapes_drawn_without_blending_give_the_blended_pixels():
    # builder.render.drawing.BlendingDraw sets opaque shapes directly: the same pixels as blending them
    from PIL import ImageDraw
    from builder.render.drawing import BlendingDraw
    base = Image.new("RGB", (120, 90), (232, 232, 226))
    shapes = [("polygon", [(5, 5), (60, 10), (30, 70)], {"fill": (30, 120, 40, 255), "outline": (0, 0, 0), "width": 3}),
              ("polygon", [(50, 5), (110, 40), (70, 80)], {"fill": (60, 60, 60, 110)}),          # translucent: blended
              ("rectangle", (10, 40, 90, 60), {"fill": (200, 10, 10), "outline": (1, 2, 3, 255), "width": 2}),
              ("ellipse", (20, 20, 70, 50), {"outline": (10, 10, 200, 255), "width": 4}),
              ("pieslice", (60, 30, 110, 85), 10, 250, {"fill": (250, 250, 0, 255)}),
              ("line", [(0, 89), (60, 45), (119, 80)], {"fill": (0, 90, 0, 255), "width": 5, "joint": "curve"}),
              ("line", [(0, 0), (119, 89)], {"fill": (0, 0, 0, 90), "width": 3}),
              ("rectangle", (2, 2, 30, 30), {"fill": "#336699"})]                                 # a string: blended
    blended, fast = base.copy(), base.copy()
    plain, ours = ImageDraw.Draw(blended, "RGBA"), BlendingDraw(fast)
    for name, *args, kw in shapes:
        getattr(plain, name)(*args, **kw)
        getattr(ours, name)(*args, **kw)
        assert fast.tobytes() == blended.tobytes(), name
