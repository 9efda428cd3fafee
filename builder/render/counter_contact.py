"""A contact sheet: every counter of a game, front beside back, labelled with its piece id, for a quick look."""

from __future__ import annotations

from PIL import Image, ImageDraw

from builder.render import fonts
from builder.words import count

COLUMNS = 8


def _cells(px: int) -> tuple[int, int, int, int]:
    label_h = max(12, px // 5)
    return label_h, 2 * px + px // 6, px + label_h + px // 8, px // 2 + 10  # label, cell w, cell h, header


def contact_sheet_size(count: int, px: int) -> tuple[int, int]:
    """The sheet's pixel size for ``count`` counters of ``px`` pixels (known before drawing it)."""
    _, cell_w, cell_h, header = _cells(px)
    rows = (count + COLUMNS - 1) // COLUMNS
    return COLUMNS * cell_w + px // 6, header + max(rows, 1) * cell_h


def contact_sheet(title: str, plist, images: dict) -> Image.Image:
    """``images`` maps (piece_id, face) -> module image; markers without a back show an empty half."""
    px = next(iter(images.values())).width if images else 75
    bands = [header_band(title, plist, px)] + [row_band(r, images, px) for r in rows_of(plist)]
    sheet = Image.new("RGB", contact_sheet_size(len(plist), px), (255, 255, 255))
    y = 0
    for b in bands:
        sheet.paste(b, (0, y))
        y += b.height
    return sheet


def rows_of(plist) -> list[list]:
    """The pieces of each row of the sheet (at least one row, perhaps empty)."""
    plist = list(plist)
    return [plist[i:i + COLUMNS] for i in range(0, len(plist), COLUMNS)] or [[]]


# The sheet is a header band and a band per row of counters, each drawn on its own (a build keeps
# each band's compressed rows and redraws only the bands whose counters changed).

def header_band(title: str, plist, px: int) -> Image.Image:
    _, _, _, header = _cells(px)
    band = Image.new("RGB", (contact_sheet_size(0, px)[0], header), (255, 255, 255))
    printed = sum(p.quantity for p in plist)
    ImageDraw.Draw(band).text((px // 6, header // 2), f"{title}: {count(printed, 'printed counter')} "
                              f"({count(len(plist), 'different piece')})", font=fonts.font(px * 0.3, "bold"),
                              fill=(0, 0, 0), anchor="lm")
    return band


def row_band(row, images: dict, px: int) -> Image.Image:
    """One row of up to COLUMNS pieces: front beside back, the piece id below."""
    label_h, cell_w, cell_h, _ = _cells(px)
    band = Image.new("RGB", (contact_sheet_size(0, px)[0], cell_h), (255, 255, 255))
    draw = ImageDraw.Draw(band)
    label_font = fonts.font(label_h * 0.75)
    for i, piece in enumerate(row):
        x, y = px // 6 + i * cell_w, 0
        for k, face in enumerate(("front", "back")):
            img = images.get((piece.piece_id, face))
            if img is not None:
                band.paste(img, (x + k * px, y))
            else:
                draw.rectangle((x + k * px, y, x + (k + 1) * px - 1, y + px - 1), outline=(200, 200, 200))
        label = piece.piece_id + (f" x{piece.quantity}" if piece.quantity > 1 else "")
        while len(label) > 4 and draw.textlength(label, font=label_font) > 2 * px:
            label = label[:-2] + "…"
        draw.text((x + px, y + px + 2), label, font=label_font, fill=(0, 0, 0), anchor="ma")
    return band
