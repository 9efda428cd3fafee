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
    label_h, cell_w, cell_h, header = _cells(px)
    sheet = Image.new("RGB", contact_sheet_size(len(plist), px), (255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    printed = sum(p.quantity for p in plist)
    draw.text((px // 6, header // 2), f"{title}: {count(printed, 'printed counter')} "
              f"({count(len(plist), 'different piece')})", font=fonts.font(px * 0.3, "bold"),
              fill=(0, 0, 0), anchor="lm")
    label_font = fonts.font(label_h * 0.75)
    for i, piece in enumerate(plist):
        x = px // 6 + (i % COLUMNS) * cell_w
        y = header + (i // COLUMNS) * cell_h
        for k, face in enumerate(("front", "back")):
            img = images.get((piece.piece_id, face))
            if img is not None:
                sheet.paste(img, (x + k * px, y))
            else:
                draw.rectangle((x + k * px, y, x + (k + 1) * px - 1, y + px - 1), outline=(200, 200, 200))
        label = piece.piece_id + (f" x{piece.quantity}" if piece.quantity > 1 else "")
        while len(label) > 4 and draw.textlength(label, font=label_font) > 2 * px:
            label = label[:-2] + "…"
        draw.text((x + px, y + px + 2), label, font=label_font, fill=(0, 0, 0), anchor="ma")
    return sheet
