"""Build step 'counters': every counter face as a PNG for the module and for print, plus a contact sheet.

Writes under dist/GAME/:
  counters/<piece>-front.png, counters/<piece>-back.png     at game.counter.image_px (module images)
  counters/print/<piece>-front.png ...                      at game.counter.print_dpi (default 300)
  counter-contact-sheet.png                                 every counter, front beside back
Everything is rendered in memory first, so a counter that fails (bad colour, text too long) leaves the
previous images untouched; each file is then written atomically.
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from builder.atomic import write_bytes
from builder.progress import SILENT
from builder.render import counter_face
from builder.render import budget
from builder.render.counter_contact import contact_sheet, contact_sheet_size
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
    buf = io.BytesIO()
    # No metadata, fixed compression: identical pixels give identical bytes.
    img.save(buf, "PNG", compress_level=6)
    return buf.getvalue()


def render_all(game, sizes: list[int], progress=SILENT, faces_of=None) -> dict:
    """{(piece_id, face): [image at each size]} for every face of every piece."""
    out = {}
    plist = pieces(game)
    total = sum(len(faces_of(p) if faces_of else p.faces) for p in plist)
    done = 0
    for piece in plist:
        for face in (faces_of(piece) if faces_of else piece.faces):
            out[(piece.piece_id, face)] = counter_face.render(game, piece, face, sizes)
            done += 1
            progress.step(f"{game.id}: counters", done, total)
    return out


def build(report, out_dir: Path, progress=SILENT) -> list[Path]:
    game = report.model
    info = counter_info(game)
    module_px, print_size = info["image_px"], print_px(game)
    images = render_all(game, [module_px, print_size], progress)
    files: dict[Path, bytes] = {}
    module_images = {}
    for (pid, face), (small, large) in images.items():
        small = counter_face.outline(small)
        module_images[(pid, face)] = small
        files[out_dir / COUNTERS_DIR / image_name(pid, face)] = png_bytes(small)
        files[out_dir / PRINT_DIR / image_name(pid, face)] = png_bytes(large)
    title = (game.doc.get("game") or {}).get("title") or game.id
    plist = pieces(game)
    budget.check(game, CONTACT_SHEET, *contact_sheet_size(len(plist), module_px), "game.counter.image_px")
    files[out_dir / CONTACT_SHEET] = png_bytes(contact_sheet(title, plist, module_images))
    for path, data in files.items():
        write_bytes(path, data)
    _remove_stale(out_dir, files)
    return sorted(files)


def _remove_stale(out_dir: Path, keep) -> None:
    """Drop face images of counters no longer in the data (a renamed unit must not linger in the module)."""
    keep = set(keep)
    for folder in (out_dir / COUNTERS_DIR, out_dir / PRINT_DIR):
        for path in folder.glob("*-front.png"):
            if path not in keep:
                path.unlink()
        for path in folder.glob("*-back.png"):
            if path not in keep:
                path.unlink()
