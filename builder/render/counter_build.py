"""Build step 'counters': every counter face as a PNG for the module and for print, plus a contact sheet.

Writes under dist/GAME/:
  counter-contact-sheet.png                                 every counter, front beside back
and, where the build is asked for loose faces (``build --faces``; a direct call of :func:`build` too):
  counters/<piece>-front.png, counters/<piece>-back.png     at game.counter.image_px (module images)
  counters/print/<piece>-front.png ...                      at game.counter.print_dpi (default 300)
Without them the faces are only inside the module and the sheets PDF: the module step gets its
images from memory (buildcache.Context.hold) and the sheets theirs from the cache. A few thousand
small files cost seconds of system time to create on a slow disk, and most builds need none of them.
Everything is rendered in memory first, so a counter that fails (bad colour, text too long) leaves the
previous images untouched; each file is then written atomically.

In a ``build`` each face is cached under a key of what it is drawn from (see :func:`face_keys`):
only faces whose inputs changed are drawn, in a pool of worker processes, and the sheets step
takes its print-size faces from here instead of drawing them again.
"""

from __future__ import annotations

import contextlib
import io
import math
from pathlib import Path

from PIL import Image

from builder import buildcache
from builder.progress import SILENT
from builder.render import counter_face
from builder.render import budget, png
from builder.render.counter_contact import contact_sheet_size, header_band, row_band, rows_of
from builder.render.counter_pieces import pieces

DEFAULT_DPI = 300
MODULE_PX_PER_INCH = 150  # image_px default: 75 px for a half-inch counter, VASSAL's usual scale
COUNTERS_DIR, PRINT_DIR, CONTACT_SHEET = "counters", "counters/print", "counter-contact-sheet.png"


def counter_info(game) -> dict:
    info = (game.doc.get("game") or {}).get("counter") or {}
    size_mm = float(info.get("size_mm") or 12.7)
    return {
        "size_mm": size_mm,
        "image_px": int(info.get("image_px") or round(size_mm / 25.4 * MODULE_PX_PER_INCH)),
        "print_dpi": int(info.get("print_dpi") or DEFAULT_DPI),
    }


def print_px(game, dpi: int | None = None) -> int:
    info = counter_info(game)
    return max(16, round(info["size_mm"] / 25.4 * (dpi or info["print_dpi"])))


def image_name(piece_id: str, face: str) -> str:
    return f"{piece_id}-{face}.png"


def counter_images(game) -> list[tuple[str, str, str]]:
    """(piece_id, face, file name relative to dist/GAME/) for every module image the build writes."""
    return [(p.piece_id, face, f"{COUNTERS_DIR}/{image_name(p.piece_id, face)}")
            for p in pieces(game) for face in p.faces]


def png_bytes(img: Image.Image) -> bytes:
    # deflate level 3: small flat faces gain little from more effort (see builder.render.png)
    return png.png_bytes(img, level=3)


def render_all(game, sizes: list[int], progress=SILENT, faces_of=None) -> dict:
    """{(piece_id, face): [module image, print image]} for every face of every piece (sizes: [module px, print px])."""
    out = {}
    plist = pieces(game)
    total = sum(len(faces_of(p) if faces_of else p.faces) for p in plist)
    done = 0
    for piece in plist:
        for face in (faces_of(piece) if faces_of else piece.faces):
            out[(piece.piece_id, face)] = list(module_and_print(game, piece, face, sizes))
            done += 1
            progress.step(f"{game.id}: counters", done, total)
    return out


# What a face is drawn from besides its own unit or marker: the rest of the game data (types, sizes,
# sides, layouts, values ...). Units, markers and scenarios are left out: a face reads only its own.
_NOT_FACE_CONTEXT = ("units", "markers", "scenarios")
RENDER_SOURCES = ("render", "gamedata/model.py")   # the renderer's version, fonts included


def face_keys(game, sizes: list[int], faces_of=None) -> dict:
    """{(piece_id, face): cache key}: a hash of the renderer's sources and fonts, the pixel sizes,
    the game data a face can read and the face's own unit (templates applied) or marker.
    ``faces_of(piece)``: the faces wanted (default: the piece's own, those the module shows)."""
    keys = {}
    for p, own in _piece_keys(game, sizes):
        for face in (faces_of(p) if faces_of else p.faces):
            keys[(p.piece_id, face)] = buildcache.digest(own, face)
    return keys


def _piece_keys(game, sizes: list[int]) -> list:
    """[(piece, its key before the face)]: worked out once a build for each list of sizes (the counters,
    the sheets and the module ask; each hashes the whole game's data and every unit)."""
    derived = buildcache.current().derived
    found = derived.get(("piece keys", id(game), tuple(sizes)))
    if found is not None and found[0] is game:
        return found[1]
    version = buildcache.source_version(*RENDER_SOURCES)
    context = buildcache.digest({k: v for k, v in game.doc.items() if k not in _NOT_FACE_CONTEXT})
    own = []
    for p in pieces(game):
        item = game.units[p.source_id] if p.kind == "unit" else game.by_id["markers"][p.source_id]
        own.append((p, buildcache.digest("counter-face", version, context, sizes, item, p.__dict__)))
    derived[("piece keys", id(game), tuple(sizes))] = (game, own)   # the game kept: its id stays its own
    return own


def print_only_pngs(game, wanted) -> dict:
    """{(piece_id, face): print-size PNG} of the faces in ``wanted`` the module has no image of
    (a one-sided counter's plain back, printed on the sheets): drawn once, then cached."""
    ctx = buildcache.current()
    px = print_px(game)
    by_id = {p.piece_id: p for p in pieces(game)}
    keys = face_keys(game, [px], lambda p: [f for f in ("front", "back") if (p.piece_id, f) in wanted])
    return {(pid, face): ctx.cached(None, key + "-print-only",
                                    lambda: png_bytes(counter_face.render(game, by_id[pid], face, [px])[0]))
            for (pid, face), key in keys.items()}


_WORKER_GAME = None   # the game a forked worker draws (set before the pool starts)


def _draw_pngs(game, piece, face, sizes) -> tuple[bytes, bytes]:
    small, large = module_and_print(game, piece, face, sizes)
    return png_bytes(counter_face.outline(small)), png_bytes(large)


def module_and_print(game, piece, face, sizes):
    """(module image, print image) of a face from one drawing, at print resolution with the die-cut
    safe margin. The print is that drawing scaled down; the module's image, where nothing is cut, is the
    drawing with the band between the safe and the screen margin trimmed off (module_image), so its
    art and text are larger by what the safe margin took (counter_face.screen_margin)."""
    module_px, print_size = sizes
    trim = _trim(game)
    side = drawing_px(game, sizes)
    master = counter_face.draw_master(game, piece, face, side)
    large = counter_face._downscale(master, print_size)
    # from the print image where it is still twice the module's (four times fewer pixels to average)
    source = large if large.width * (1 - 2 * trim) >= 2 * module_px else master
    return module_image(source, trim, module_px), large


def drawing_px(game, sizes) -> int:
    """The side of the drawing a face's images are made from (checked against the pixel budget): the
    print's supersampled size, or more where the trimmed drawing would be under twice the module image."""
    module_px, print_size = sizes
    side = max(counter_face.master_px([print_size]), math.ceil(2 * module_px / (1 - 2 * _trim(game))))
    budget.check(game, "each counter's drawing", side, side,
                 "game.counter.size_mm, print_dpi or image_px; it is drawn supersampled, at 2 to 4 times its image size")
    return side


def _trim(game) -> float:
    """The fraction of the side trimmed off each edge of the print drawing so that its safe margin
    becomes the screen margin: (safe - t) / (1 - 2 t) = screen."""
    safe, screen = counter_face.safe_margin(game), counter_face.screen_margin(game)
    return (safe - screen) / (1 - 2 * screen)


def module_image(master: Image.Image, trim: float, size: int) -> Image.Image:
    """The module's image of a face from its print drawing: ``trim`` of the side cut off each edge,
    the rest area-averaged (BOX) down to ``size`` pixels."""
    cut = master.width * trim
    if not cut:
        return counter_face._downscale(master, size)
    return master.resize((size, size), Image.BOX, box=(cut, cut, master.width - cut, master.height - cut))


def _worker_draw(task):
    piece, face, sizes = task
    return _draw_pngs(_WORKER_GAME, piece, face, sizes)


def face_pngs(game, progress=SILENT, count: bool = True, on_face=None) -> dict:
    """{(piece_id, face): (module PNG, print PNG)} of every face: from the build's cache where the
    face's key is there, else drawn (in ``jobs`` processes) and cached. ``on_face(key, small, large)``
    is told of each face as soon as it is there (the cached ones first, then each as it is drawn)."""
    global _WORKER_GAME
    ctx = buildcache.current()
    info = counter_info(game)
    sizes = [info["image_px"], print_px(game)]
    keys = face_keys(game, sizes)
    out, todo = {}, []
    by_id = {p.piece_id: p for p in pieces(game)}
    for (pid, face), key in keys.items():
        small, large = ctx.lookup(key + "-module"), ctx.lookup(key + "-print")
        if small is not None and large is not None:
            out[(pid, face)] = (small, large)
        else:
            todo.append((by_id[pid], face, sizes))
    if count:   # the sheets step asks again for the faces the counters step made: not counted twice
        ctx.count("counter face", reused=len(out), rebuilt=len(todo))
    if todo:   # one size for every face: an over-budget drawing is refused here, before any worker starts
        drawing_px(game, sizes)
    if on_face is not None:
        for k, (small, large) in out.items():
            on_face(k, small, large)
    _WORKER_GAME = game
    try:
        for n, ((piece, face, _), (small, large)) in enumerate(zip(todo, ctx.map(_worker_draw, todo, chunksize=8)), 1):
            key = keys[(piece.piece_id, face)]
            ctx.store(key + "-module", small)
            ctx.store(key + "-print", large)
            out[(piece.piece_id, face)] = (small, large)
            if on_face is not None:
                on_face((piece.piece_id, face), small, large)
            progress.step(f"{game.id}: counters", n, len(todo))
    finally:
        _WORKER_GAME = None
    return {k: out[k] for k in keys}


def build(report, out_dir: Path, progress=SILENT) -> list[Path]:
    game = report.model
    ctx = buildcache.current()
    plist = pieces(game)
    budget.check(game, CONTACT_SHEET, *contact_sheet_size(len(plist), counter_info(game)["image_px"]),
                 "game.counter.image_px")   # before anything is drawn
    files: dict[Path, bytes] = {}

    # in a build's staged folder each face is written as soon as it is drawn (creating a few thousand
    # files takes seconds on a slow disk, and the background writer does it while the rest is drawn);
    # a failed step's files are taken back then. Elsewhere files are replaced in place: all at the end.
    early = ctx.can_unwrite

    def write_face(key, small, large):
        if not ctx.faces:    # inside the module only: held for the module step, not written
            ctx.hold(out_dir / COUNTERS_DIR / image_name(*key), small)
            return
        for path, data in ((out_dir / COUNTERS_DIR / image_name(*key), small), (out_dir / PRINT_DIR / image_name(*key), large)):
            files[path] = data
            if early:
                ctx.write(path, data)
    try:
        faces = face_pngs(game, progress, on_face=write_face)
        sheet = _contact(game, plist, faces)
    except BaseException:   # the step failed: its images stay as the last build made them
        if early:
            ctx.unwrite(list(files))
        raise
    if not early:
        for path, data in files.items():
            ctx.write(path, data)
    files[out_dir / CONTACT_SHEET] = sheet
    ctx.write(out_dir / CONTACT_SHEET, sheet)
    _remove_stale(out_dir, files)
    return sorted(files)


def _contact(game, plist, faces: dict) -> bytes:
    """The contact sheet's PNG, from the cache or drawn."""
    ctx = buildcache.current()
    title = (game.doc.get("game") or {}).get("title") or game.id
    version = buildcache.source_version(*RENDER_SOURCES)
    digests = {k: buildcache.digest(small) for k, (small, _) in faces.items()}
    sheet_key = buildcache.digest("contact-sheet", version, title, [(p.piece_id, p.faces) for p in plist],
                                  list(digests.values()))
    return ctx.cached("contact sheet", sheet_key, lambda: _contact_sheet(game, title, plist, faces, digests))


_WORKER_SHEET = None   # (title, pieces, faces, px) the forked workers draw contact-sheet bands from


def _band_bytes(i: int) -> bytes:
    """Band i of the contact sheet (0: the header, then a row of counters each), deflated."""
    title, plist, faces, px = _WORKER_SHEET
    if i == 0:
        return png.band(header_band(title, plist, px), 3).to_bytes()
    row = rows_of(plist)[i - 1]
    images = {(p.piece_id, f): Image.open(io.BytesIO(faces[(p.piece_id, f)][0])) for p in row for f in p.faces}
    return png.band(row_band(row, images, px), 3).to_bytes()


def _contact_sheet(game, title: str, plist, faces: dict, digests: dict) -> bytes:
    """The contact sheet from its bands (the header, a band per row of counters): each band's
    compressed rows are cached under what it shows, so a changed counter redraws its row only; the
    bands to draw are drawn in the build's worker processes."""
    global _WORKER_SHEET
    ctx = buildcache.current()
    px = counter_info(game)["image_px"]
    version = buildcache.source_version(*RENDER_SOURCES)
    keys = [buildcache.digest("contact-header", version, px, title, [(p.piece_id, p.quantity) for p in plist])]
    keys += [buildcache.digest("contact-row", version, px,
                               [(p.piece_id, p.quantity, [digests[(p.piece_id, f)] for f in p.faces]) for p in row])
             for row in rows_of(plist)]
    bands = [ctx.lookup(key) for key in keys]
    todo = [i for i, band in enumerate(bands) if band is None]
    ctx.count("contact sheet row", reused=len(keys) - len(todo), rebuilt=len(todo))
    _WORKER_SHEET = (title, plist, faces, px)
    try:
        for i, band in zip(todo, ctx.map(_band_bytes, todo, chunksize=4)):
            ctx.store(keys[i], band)
            bands[i] = band
    finally:
        _WORKER_SHEET = None
    return png.png_from_bands([png.Band.from_bytes(band) for band in bands])


def _remove_stale(out_dir: Path, keep) -> None:
    """Drop face images of counters no longer in the data (a renamed unit must not linger in the module),
    and all of them where loose faces are not written; a face folder left empty goes too.

    A folder this step writes a file into is never removed, even when it looks empty: the background
    writer (buildcache.LooseWriter) may not have written its files yet, and removing the folder it has
    just made would fail their writing. Whether a folder goes depends only on what is kept."""
    keep = set(keep)
    holding = {parent for path in keep for parent in Path(path).parents}   # the folders of the kept files
    for folder in (out_dir / PRINT_DIR, out_dir / COUNTERS_DIR):
        for path in folder.glob("*-front.png"):
            if path not in keep:
                path.unlink()
        for path in folder.glob("*-back.png"):
            if path not in keep:
                path.unlink()
        if folder in holding:
            continue
        with contextlib.suppress(OSError):   # not there, or holding files of the designer's own
            folder.rmdir()
