"""The audit's findings drawn on the map: ``audit --png OUT.png`` and the picture in ``--html``.

The background is the map as players see it: the module's own board images when auditing a .vmod,
else the boards rendered from the game's data (only those the findings touch). Every finding is
numbered; its move is an arrow along the cheapest path (the finding's ``explain`` path, else
straight from -> to), the hex judged is outlined, and its number sits in a disc beside it (the discs of
findings on one hex fan out around it, so each number shows). The view is cropped to the findings (with
a margin) and scaled so hexes stay readable; a table of the numbered findings runs beside the map.
Deterministic: the same findings give the same bytes.
"""

from __future__ import annotations

import io
import math
import textwrap
import zipfile

from PIL import Image, ImageDraw

from builder.render.fonts import font

RED, ORANGE, DARK, WHITE, YELLOW = (200, 16, 16), (235, 120, 0), (30, 30, 30), (255, 255, 255), (255, 214, 0)
MAX_SIDE = 1800            # longest side of the map view (px)
TABLE_W = 760


def _board_images(ctx, module_path, needed: set) -> dict:
    """board image file -> PIL image for the main map's boards in *needed*."""
    out = {}
    if module_path is not None:
        with zipfile.ZipFile(module_path) as z:
            names = set(z.namelist())
            for b in ctx.layout.main.boards:
                entry = f"images/{b.image}"
                if b.image in needed and entry in names:
                    out[b.image] = Image.open(io.BytesIO(z.read(entry))).convert("RGB")
        if len(out) == len(needed):
            return out
    from builder.render import map_build
    for info, img in map_build.render(ctx.game.map_doc, ctx.grid, holds=map_build.game_holds(ctx.game),
                                      game=ctx.game, only=needed - set(out)):
        out[info.file] = img.convert("RGB")
    return out


class MapView:
    """Map points of hexes and the hex outline, from the module's layout (VASSAL's own pixels)."""

    def __init__(self, ctx) -> None:
        self.ctx, self.grid, self.layout = ctx, ctx.grid, ctx.layout
        self._corners = self._corner_offsets()

    def point(self, name: str):
        if self.grid.parse(name) is None:
            return None
        try:
            _, x, y = self.layout.hex_point(name)
        except Exception:            # noqa: BLE001 - a hex no board shows: not drawn
            return None
        return (x, y)

    def _corner_offsets(self) -> list:
        """The six corners around a hex centre: a corner is the centroid of the three hex centres that
        meet there, so the offsets come from an interior hex's neighbours, sorted by angle."""
        hexes = list(self.grid.all_hexes())
        for h in hexes[len(hexes) // 2:] + hexes:
            nbrs = list(self.grid.neighbours(h))
            if len(nbrs) != 6:
                continue
            c = self.point(self.grid.name(h))
            pts = [self.point(self.grid.name(n)) for n in nbrs]
            if c is None or None in pts:
                continue
            vecs = sorted(((p[0] - c[0], p[1] - c[1]) for p in pts), key=lambda v: math.atan2(v[1], v[0]))
            return [((a[0] + b[0]) / 3, (a[1] + b[1]) / 3) for a, b in zip(vecs, vecs[1:] + vecs[:1])]
        return [(30 * math.cos(a), 30 * math.sin(a)) for a in (k * math.pi / 3 for k in range(6))]

    @property
    def hex_size(self) -> float:
        return max(math.hypot(*c) for c in self._corners)

    def outline(self, centre) -> list:
        return [(centre[0] + dx, centre[1] + dy) for dx, dy in self._corners]


def _finding_points(view: MapView, f) -> list:
    """The map points of a finding's move: its explained path, else from and to."""
    names = [s["hex"] for s in (f.explain or {}).get("path") or []] or [n for n in (f.frm, f.to) if n]
    pts = [view.point(n) for n in names]
    return [p for p in pts if p is not None]


def render(ctx, findings: list, module_path=None, *, table: bool = True) -> Image.Image:
    """The map view with every finding drawn (and the numbered table beside it when *table*)."""
    view = MapView(ctx)
    r = view.hex_size
    drawn = [(k + 1, f, _finding_points(view, f)) for k, f in enumerate(findings)]
    pts = [p for _, _, ps in drawn for p in ps]
    boards = ctx.layout.main.boards
    full_w = max(b.offset[0] + b.size[0] for b in boards)
    full_h = max(b.offset[1] + b.size[1] for b in boards)
    if pts:
        margin = 4 * r
        x0, y0 = min(p[0] for p in pts) - margin, min(p[1] for p in pts) - margin
        x1, y1 = max(p[0] for p in pts) + margin, max(p[1] for p in pts) + margin
        # at least a readable neighbourhood: 24 hexes across
        cx, cy, half = (x0 + x1) / 2, (y0 + y1) / 2, 12 * r
        x0, x1 = min(x0, cx - half * 1.4), max(x1, cx + half * 1.4)
        y0, y1 = min(y0, cy - half), max(y1, cy + half)
    else:
        x0, y0, x1, y1 = 0, 0, full_w, full_h
    x0, y0 = max(0, int(x0)), max(0, int(y0))
    x1, y1 = min(full_w, int(x1)), min(full_h, int(y1))
    needed = {b.image for b in boards if b.image and b.offset[0] < x1 and b.offset[0] + b.size[0] > x0
              and b.offset[1] < y1 and b.offset[1] + b.size[1] > y0}
    images = _board_images(ctx, module_path, needed)
    canvas = Image.new("RGB", (x1 - x0, y1 - y0), WHITE)
    for b in boards:
        img = images.get(b.image)
        if img is not None:
            canvas.paste(img, (b.offset[0] - x0, b.offset[1] - y0))
    scale = min(MAX_SIDE / max(canvas.size), 2.0)
    if scale != 1:
        canvas = canvas.resize((max(1, round(canvas.width * scale)), max(1, round(canvas.height * scale))),
                               Image.LANCZOS)

    def at(p):
        return ((p[0] - x0) * scale, (p[1] - y0) * scale)

    d = ImageDraw.Draw(canvas)
    hex_px = r * scale
    lw = max(4, round(hex_px / 5))
    for k, f, ps in drawn:                    # arrows first, outlines and numbers on top
        if len(ps) >= 2:
            _arrow(d, [at(p) for p in ps], _over_flags(f, len(ps)), lw, hex_px)
    label_font = font(max(16, hex_px * 0.6), "bold")
    cost_font = font(max(12, hex_px * 0.42), "bold")
    for k, f, ps in drawn:
        if not ps:
            continue
        if len(ps) >= 2:                      # where the move began: a hollow ring
            sx, sy = at(ps[0])
            rr = hex_px * 0.3
            d.ellipse((sx - rr, sy - rr, sx + rr, sy + rr), outline=WHITE, width=lw + 4)
            d.ellipse((sx - rr, sy - rr, sx + rr, sy + rr), outline=RED, width=lw)
        c = ps[-1]
        d.polygon([at(q) for q in view.outline(c)], outline=WHITE, width=lw + 4)
        d.polygon([at(q) for q in view.outline(c)], outline=RED, width=lw)
    # the numbers after every outline, so no later finding's outline crosses one
    rad = max(14, hex_px * 0.45)
    spots = badge_spots([at(ps[-1]) if ps else None for _, _, ps in drawn], hex_px, rad)
    for (k, _, _), spot in zip(drawn, spots):
        if spot is not None:
            ox, oy = spot
            d.ellipse((ox - rad, oy - rad, ox + rad, oy + rad), fill=YELLOW, outline=DARK, width=3)
            d.text((ox, oy), str(k), fill=DARK, font=label_font, anchor="mm")
    for k, f, ps in drawn:                    # the running costs on top of everything
        _costs(d, f, ps, at, cost_font, hex_px)
    if not table:
        return canvas
    return _with_table(canvas, drawn)


def badge_spots(centres: list, hex_px: float, rad: float) -> list:
    """The centre of each finding's number disc (None where its hex is not drawn), in order. A disc sits
    up-right of its hex; when that place is taken (several findings on one hex, e.g. a move breaking two
    rules, or moves ending in the same hex) it goes to the nearest free place on a fan around the hex,
    alternating either side, then on a wider ring: every number stays readable and none covers another."""
    gap = 2 * rad + 2                          # closer than this, two discs overlap
    placed, out = [], []
    for c in centres:
        if c is None:
            out.append(None)
            continue
        spot, ring = None, hex_px * 0.95 * math.sqrt(2)
        while spot is None:
            # angular step so that neighbouring places on this ring are one disc apart
            step = 2 * math.asin(min(1.0, (gap + 2) / (2 * ring)))
            for i in range(int(2 * math.pi / step)):
                a = -math.pi / 4 + (i + 1) // 2 * step * (-1 if i % 2 else 1)
                p = (c[0] + ring * math.cos(a), c[1] + ring * math.sin(a))
                if all(math.hypot(p[0] - q[0], p[1] - q[1]) >= gap for q in placed):
                    spot = p
                    break
            ring += gap + 2
        placed.append(spot)
        out.append(spot)
    return out


def _over_flags(f, n: int) -> list:
    """Per path point: is the running cost there over the allowance (drawn red, the rest orange)."""
    steps = (f.explain or {}).get("path") or []
    if len(steps) != n:
        return [True] * n
    flags, over = [], False
    for s in steps:
        over = over or bool(s.get("over"))
        flags.append(over)
    return flags


def _arrow(d: ImageDraw.ImageDraw, pts: list, over: list, lw: int, hex_px: float) -> None:
    (ax, ay), (bx, by) = pts[-2], pts[-1]
    ang = math.atan2(by - ay, bx - ax)
    # the head's tip stops short of the centre so the destination hex's name stays visible
    tip = (bx - math.cos(ang) * hex_px * 0.3, by - math.sin(ang) * hex_px * 0.3)
    size = max(14, hex_px * 0.6)
    base = (tip[0] - size * 0.8 * math.cos(ang), tip[1] - size * 0.8 * math.sin(ang))
    line = pts[:-1] + [base]
    d.line(line, fill=WHITE, width=lw + 4, joint="curve")
    for i, (a, b) in enumerate(zip(line, line[1:])):
        d.line([a, b], fill=RED if over[i + 1] else ORANGE, width=lw)
    for p in line[1:-1]:
        d.ellipse((p[0] - lw * 0.8, p[1] - lw * 0.8, p[0] + lw * 0.8, p[1] + lw * 0.8), fill=RED, outline=WHITE)
    left = (tip[0] - size * math.cos(ang - 0.42), tip[1] - size * math.sin(ang - 0.42))
    right = (tip[0] - size * math.cos(ang + 0.42), tip[1] - size * math.sin(ang + 0.42))
    d.polygon([tip, left, right], fill=RED if over[-1] else ORANGE, outline=WHITE)


def _costs(d: ImageDraw.ImageDraw, f, ps: list, at, fnt, hex_px: float) -> None:
    """The running cost in MP on each hex of an explained path; on the last one, against the allowance."""
    ex = f.explain or {}
    steps = ex.get("path") or []
    if len(steps) != len(ps) or len(steps) < 2:
        return
    last = len(steps) - 1
    for i, (s, p) in enumerate(zip(steps, ps)):
        if i == 0:
            continue
        x, y = at(p)
        text = _num(s["total"])
        if i == last:                          # below the centre, inside the outlined hex
            text = f"{text} MP > MA {_num(ex.get('allowance'))}"
            y += hex_px * 0.42
        box = d.textbbox((x, y), text, font=fnt, anchor="mm")
        d.rectangle((box[0] - 3, box[1] - 2, box[2] + 3, box[3] + 2), fill=WHITE,
                    outline=RED if s.get("over") else DARK, width=2)
        d.text((x, y), text, fill=RED if s.get("over") else DARK, font=fnt, anchor="mm")


def _num(v) -> str:
    if v is None:
        return "?"
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def finding_text(f) -> str:
    when = f"turn {f.turn}" if f.turn is not None else "turn ?"
    if f.phase:
        when += f", {f.phase}"
    move = f"{f.frm} -> {f.to}" if f.frm and f.to else (f.to or f.frm or "")
    ref = f" ({f.reference})" if f.reference else ""
    return f"{f.unit} {f.name!r} {move}. {when}. {f.rule}{ref}: {f.message}"


def _with_table(canvas: Image.Image, drawn: list) -> Image.Image:
    title, body = font(26, "bold"), font(19)
    lines: list[tuple[str, object]] = [("Audit findings", title), ("", body)]
    for k, f, _ in drawn:
        wrapped = textwrap.wrap(finding_text(f), 60) or [""]
        lines.append((f"{k}. {wrapped[0]}", body))
        lines += [(f"    {w}", body) for w in wrapped[1:]]
        lines.append(("", body))
    if not drawn:
        lines.append(("No findings: every checked move is legal.", body))
    height = max(canvas.height, 24 + sum(36 if fnt is title else 26 for _, fnt in lines))
    out = Image.new("RGB", (canvas.width + TABLE_W, height), WHITE)
    out.paste(canvas, (0, 0))
    d = ImageDraw.Draw(out)
    y = 16
    for text, fnt in lines:
        d.text((canvas.width + 20, y), text, fill=DARK, font=fnt)
        y += 36 if fnt is title else 26
    d.line([(canvas.width, 0), (canvas.width, height)], fill=DARK, width=2)
    return out


def png_bytes(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=6)
    return buf.getvalue()
