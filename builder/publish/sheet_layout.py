"""Counter-sheet geometry as a pure function: where every copy of every counter goes, in millimetres.

Coordinates have their origin at the page's top-left corner, y downwards. A front page is followed by its
back page; for long-edge duplex (the sheet turns over its long, vertical edge) the point (x, y) of a front
is behind (W - x, y) of the back, so each back box is the front box mirrored about the page's vertical
centre line, then moved by the printer's back offset. Tests check this geometry directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN_MM = 12.0        # room for crop marks and the printer's unprintable edge
HEADER_MM = 8.0         # a line of text above the grid
CROP_GAP_MM, CROP_LEN_MM = 1.5, 5.0


@dataclass(frozen=True)
class Placement:
    piece_id: str
    face: str           # "front" or "back": which image goes here
    x: float            # the counter's cut box, mm from the page's top-left
    y: float
    size: float
    copy: int = 0       # which copy of the piece (0 .. quantity-1)


@dataclass
class Page:
    kind: str                       # "front", "back", "calibration-front", "calibration-back"
    title: str
    placements: list[Placement] = field(default_factory=list)
    crop_marks: list[tuple[float, float, float, float]] = field(default_factory=list)


@dataclass(frozen=True)
class Group:
    """Counters printed together (one side and nationality), each piece id with its quantity."""
    label: str
    side: str | None
    items: tuple[tuple[str, int], ...]


def grid(paper: str, size: float, bleed: float) -> tuple[int, int, float, float, float]:
    """(columns, rows, x of the first column, y of the first row, pitch) for counters of ``size`` mm."""
    width, height = PAPER_MM[paper]
    pitch = size + 2 * bleed
    usable_w = width - 2 * MARGIN_MM
    usable_h = height - 2 * MARGIN_MM - HEADER_MM
    cols, rows = int((usable_w + 2 * bleed) // pitch), int((usable_h + 2 * bleed) // pitch)
    if cols < 1 or rows < 1:
        raise ValueError(f"a {size} mm counter (bleed {bleed} mm) does not fit on {paper} paper")
    # Centre the grid across the page so mirroring keeps backs on the paper with the same margins.
    x0 = (width - (cols * pitch - 2 * bleed)) / 2
    y0 = MARGIN_MM + HEADER_MM
    return cols, rows, x0, y0, pitch


def mirror(p: Placement, paper: str, offset: tuple[float, float]) -> Placement:
    """The back of front placement ``p`` for long-edge duplex, moved by the back offset (x, y) mm."""
    width = PAPER_MM[paper][0]
    return Placement(p.piece_id, "back", width - p.x - p.size + offset[0], p.y + offset[1], p.size, p.copy)


def crop_marks(placements: list[Placement]) -> list[tuple[float, float, float, float]]:
    """Short lines outside the grid on every cut line (line segments x0, y0, x1, y1 in mm)."""
    if not placements:
        return []
    xs = sorted({round(v, 4) for p in placements for v in (p.x, p.x + p.size)})
    ys = sorted({round(v, 4) for p in placements for v in (p.y, p.y + p.size)})
    left, right, top, bottom = xs[0], xs[-1], ys[0], ys[-1]
    marks = []
    for x in xs:
        marks.append((x, top - CROP_GAP_MM - CROP_LEN_MM, x, top - CROP_GAP_MM))
        marks.append((x, bottom + CROP_GAP_MM, x, bottom + CROP_GAP_MM + CROP_LEN_MM))
    for y in ys:
        marks.append((left - CROP_GAP_MM - CROP_LEN_MM, y, left - CROP_GAP_MM, y))
        marks.append((right + CROP_GAP_MM, y, right + CROP_GAP_MM + CROP_LEN_MM, y))
    return marks


def layout(groups: list[Group], paper: str, size: float, bleed: float = 0.0,
           back_offset: tuple[float, float] = (0.0, 0.0), title: str = "", marks: bool = True) -> list[Page]:
    """Front and back pages for ``groups``, filled as a publisher fills a sheet: each group (a side's nationality)
    starts a new row, a new side leaves one empty row before it, and a new sheet starts only when one is full."""
    if paper not in PAPER_MM:
        raise ValueError(f"unknown paper {paper!r}; use {' or '.join(PAPER_MM)}")
    cols, rows, x0, y0, pitch = grid(paper, size, bleed)
    sheets: list[tuple[list[str], list[Placement]]] = []
    current: list[Placement] | None = None
    labels: list[str] = []
    row = col = 0
    last_side = object()
    for group in groups:
        if current is None:
            current, labels = [], []
            sheets.append((labels, current))
        elif current:
            row, col = row + (1 if col else 0), 0
            if group.side != last_side and row:
                row += 1                      # a blank row between sides
            if row >= rows:
                current, labels, row = [], [], 0
                sheets.append((labels, current))
        last_side = group.side
        for piece_id, quantity in group.items:
            for copy in range(quantity):
                if col == cols:
                    row, col = row + 1, 0
                if row == rows:
                    current, labels, row, col = [], [], 0, 0
                    sheets.append((labels, current))
                if group.label not in labels:
                    labels.append(group.label)
                current.append(Placement(piece_id, "front", x0 + col * pitch, y0 + row * pitch, size, copy))
                col += 1
    pages: list[Page] = []
    for number, (names, fronts) in enumerate(sheets, 1):
        label = ", ".join(names)
        head = f"{title} - {label} - sheet {number} of {len(sheets)}"
        pages.append(Page("front", f"{head} - fronts", fronts, crop_marks(fronts) if marks else []))
        pages.append(Page("back", f"{head} - backs (long-edge duplex)",
                          [mirror(p, paper, back_offset) for p in fronts]))
    return pages
