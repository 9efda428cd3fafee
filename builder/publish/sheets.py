"""Printable counter sheets: a PDF of every counter at its true size, backs mirrored for duplex.

reportlab writes the PDF: it works in points (1/72 inch) so a 12.7 mm counter is placed at exactly
36 pt, crop marks are vectors, counter images go in as the PNGs they are (pdf_png), each stored once,
and ``invariant=1`` drops the creation date and random document id so the same data gives the same
bytes. The page geometry comes
from sheet_layout (a pure function the tests check); this module only draws it.
"""

from __future__ import annotations

import io
import time
from pathlib import Path

from PIL import Image
from reportlab import rl_config
from reportlab.pdfgen import canvas as rl_canvas

from builder.atomic import write_bytes
from builder.progress import SILENT
from builder.publish import calibration
from builder.publish.pdf_png import as_embeddable, draw_png
from builder.publish.sheet_layout import PAPER_MM, Group, Page, layout
from builder.render.counter_build import counter_info, png_bytes, print_px
from builder.render.counter_face import render
from builder.render.counter_pieces import pieces

MM = 72 / 25.4  # points per millimetre
rl_config.useA85 = 0  # binary streams: ASCII85 would make every counter image a third larger


def groups_for(game) -> list[Group]:
    """Counters grouped by side (in the data's order) then nationality; markers of no side come last."""
    plist = pieces(game)
    side_order = list(game.by_id["sides"]) + [None]
    nat_order = list(game.by_id["nationalities"]) + [None]
    side_names = {sid: s.get("name") or sid for sid, s in game.by_id["sides"].items()}
    out = []
    for side in side_order:
        for nat in nat_order:
            for kind in ("unit", "marker"):
                items = tuple((p.piece_id, p.quantity) for p in plist
                              if p.side == side and p.nationality == nat and p.kind == kind)
                if items:
                    label = side_names.get(side, "Markers") if side else "Markers"
                    out.append(Group(label, side, items))
    known = {s for s in side_order}
    stray = tuple((p.piece_id, p.quantity) for p in plist if p.side not in known)
    if stray:
        out.append(Group("Other", "?", stray))
    return out


def _bleed_image(img: Image.Image, border: int) -> Image.Image:
    """Extend the counter's edge pixels outwards by ``border`` so a slightly-off cut shows no white."""
    if border <= 0:
        return img
    w, h = img.size
    out = Image.new("RGB", (w + 2 * border, h + 2 * border))
    out.paste(img.crop((0, 0, w, 1)).resize((w, border)), (border, 0))
    out.paste(img.crop((0, h - 1, w, h)).resize((w, border)), (border, h + border))
    out.paste(img.crop((0, 0, 1, h)).resize((border, h)), (0, border))
    out.paste(img.crop((w - 1, 0, w, h)).resize((border, h)), (w + border, border))
    for (sx, sy), (dx, dy) in (((0, 0), (0, 0)), ((w - 1, 0), (w + border, 0)),
                               ((0, h - 1), (0, h + border)), ((w - 1, h - 1), (w + border, h + border))):
        out.paste(img.getpixel((sx, sy)), (dx, dy, dx + border, dy + border))
    out.paste(img, (border, border))
    return out


def write_sheets(game, out_path: Path, paper: str = "a4", back_offset=(0.0, 0.0), bleed: float = 0.0,
                 crop_marks: bool = True, with_calibration: bool = True, progress=SILENT,
                 dpi: int | None = None, faces: dict | None = None) -> dict:
    """Write the PDF atomically; returns facts about it (pages, counters placed, seconds).

    ``faces`` ({(piece_id, face): PNG bytes at the print size}) are the build's own print faces,
    used as they are instead of drawing every counter again."""
    data, facts = sheets_pdf(game, paper, back_offset, bleed, crop_marks, with_calibration, progress, dpi, faces)
    write_bytes(out_path, data)
    return {"path": str(out_path), **facts}


def sheets_pdf(game, paper: str = "a4", back_offset=(0.0, 0.0), bleed: float = 0.0, crop_marks: bool = True,
               with_calibration: bool = True, progress=SILENT, dpi: int | None = None,
               faces: dict | None = None) -> tuple[bytes, dict]:
    """The PDF's bytes and facts about it (pages, counters placed, bytes, seconds); see write_sheets."""
    started = time.perf_counter()
    info = counter_info(game)
    size = info["size_mm"]
    title = (game.doc.get("game") or {}).get("title") or game.id
    pages = layout(groups_for(game), paper, size, bleed, back_offset, title, crop_marks)
    px = print_px(game, dpi)
    bleed_px = round(bleed / size * px) if bleed > 0 else 0
    by_id = {p.piece_id: p for p in pieces(game)}
    needed = {(pl.piece_id, pl.face) for page in pages for pl in page.placements}
    readers = {}   # (piece_id, face) -> PNG bytes the PDF embeds as they are (builder.publish.pdf_png)
    for n, key in enumerate(sorted(needed), 1):
        if faces is not None and key in faces and not bleed_px:
            readers[key] = as_embeddable(faces[key])
        else:
            if faces is not None and key in faces:
                image = Image.open(io.BytesIO(faces[key])).convert("RGB")
            else:
                image = render(game, by_id[key[0]], key[1], [px])[0]
            # encoded as the build's faces are, so equal pixels stay one image in the PDF
            readers[key] = png_bytes(_bleed_image(image.convert("RGB"), bleed_px))
        progress.step(f"{game.id}: sheet images", n, len(needed))
    buf = io.BytesIO()
    width, height = PAPER_MM[paper]
    c = rl_canvas.Canvas(buf, pagesize=(width * MM, height * MM), invariant=1, pageCompression=1)
    c.setTitle(f"{title} - counter sheets")
    c.setAuthor("vassal-builder")
    c.setCreator("vassal-builder")
    for page in pages:
        _draw_page(c, page, readers, height, bleed)
    if with_calibration:
        _draw_calibration(c, paper, back_offset)
    c.save()
    data = buf.getvalue()
    fronts = sum(len(p.placements) for p in pages if p.kind == "front")
    return data, {"pages": len(pages) + (2 if with_calibration else 0), "counters": fronts,
                  "bytes": len(data), "seconds": time.perf_counter() - started}


def _draw_page(c, page: Page, readers: dict, height: float, bleed: float) -> None:
    c.setFont("Helvetica", 8)
    c.setFillColorRGB(0, 0, 0)
    c.drawString(12 * MM, (height - 8) * MM, page.title)
    for pl in page.placements:
        box = pl.size + 2 * bleed
        draw_png(c, readers[(pl.piece_id, pl.face)], (pl.x - bleed) * MM, (height - pl.y - pl.size - bleed) * MM,
                 box * MM, box * MM)
    if page.crop_marks:
        c.setLineWidth(0.25)
        c.setStrokeColorRGB(0, 0, 0)
        for x0, y0, x1, y1 in page.crop_marks:
            c.line(x0 * MM, (height - y0) * MM, x1 * MM, (height - y1) * MM)
    c.showPage()


def _draw_calibration(c, paper: str, offset) -> None:
    width, height = PAPER_MM[paper]

    def line(x0, y0, x1, y1):
        c.line(x0 * MM, (height - y0) * MM, x1 * MM, (height - y1) * MM)

    lines = [
        "Duplex calibration: print this page and the next one on one sheet (long-edge duplex), like the counters.",
        "Hold the sheet against a light. Where each back line shows through a scale is the correction in mm:",
        "the horizontal scales give X, the vertical ones Y. Add them to the offset this sheet was printed with",
        f"(--back-offset {offset[0]:g},{offset[1]:g}) and pass the sum as --back-offset X,Y next time.",
    ]
    c.setFont("Helvetica-Bold", 11)
    c.drawString(15 * MM, (height - 18) * MM, "Counter sheets: duplex calibration (front)")
    c.setFont("Helvetica", 8.5)
    for i, text in enumerate(lines):
        c.drawString(15 * MM, (height - 26 - 5 * i) * MM, text)
    c.setLineWidth(0.15)
    for _kind, _v, x0, y0, x1, y1 in calibration.rulers(paper):
        line(x0, y0, x1, y1)
    line(15, calibration.rulers(paper)[0][5], 15 + calibration.RULER_MM, calibration.rulers(paper)[0][5])
    vx, vtop = calibration.rulers(paper)[1][2], calibration.rulers(paper)[1][3]
    line(vx, vtop, vx, vtop + calibration.RULER_MM)
    for text, x, y, pt, anchor in calibration.labels(paper):
        c.setFont("Helvetica", pt)
        (c.drawCentredString if anchor == "m" else c.drawString)(x * MM, (height - y) * MM, text)
    for n, t in enumerate(calibration.targets(paper), 1):
        c.setFont("Helvetica", 4)
        for value, x, y0, y1 in calibration.x_ticks(t):
            line(x, y0, x, y1)
            if calibration.labelled(value):
                c.drawCentredString(x * MM, (height - y0 + 0.7) * MM, f"{value:+g}" if value else "0")
        line(t.cx - calibration.SCALE_MM, t.cy, t.cx + calibration.SCALE_MM, t.cy)
        for value, x0, x1, y in calibration.y_ticks(t):
            line(x0, y, x1, y)
            if calibration.labelled(value):
                c.drawString((x1 + 0.6) * MM, (height - y - 0.5) * MM, f"{value:+g}" if value else "0")
        line(t.y_scale_x, t.cy - calibration.SCALE_MM, t.y_scale_x, t.cy + calibration.SCALE_MM)
    c.showPage()
    c.setFont("Helvetica-Bold", 11)
    c.drawString(15 * MM, (height - 18) * MM, "Counter sheets: duplex calibration (back)")
    c.setLineWidth(0.6)
    for t in calibration.targets(paper):
        for seg in calibration.back_pointers(paper, t, offset):
            line(*seg)
    c.showPage()
