"""NATO (APP-6 style) land-unit symbols: the frame plus one small drawing function per glyph.

A unit type's ``symbol: [armor, infantry]`` draws each named glyph into the same frame, so compositions
(mechanized infantry, armoured cavalry, SP artillery ...) come for free. Glyphs work in frame coordinates
(0,0 top-left .. 1,1 bottom-right of the frame's inside) so they scale to any resolution. Every name in
builder.symbols.KNOWN_GLYPHS has a function here (tests check each draws distinct, non-empty pixels).
"""

from __future__ import annotations

import math

from PIL import ImageDraw

from builder.render import fonts

GLYPHS: dict = {}


def glyph(*names):
    def register(fn):
        for name in names:
            GLYPHS[name] = fn
        return fn
    return register


class Pen:
    """Draws in frame coordinates onto a Pillow ImageDraw; ``lw`` is the stroke width in pixels."""

    def __init__(self, draw: ImageDraw.ImageDraw, box, ink, lw: float, paper=None):
        self.draw, self.ink, self.lw, self.paper = draw, ink, max(1, int(round(lw))), paper
        self.inner = tuple(box)
        self.x0, self.y0, x1, y1 = box
        self.w, self.h = x1 - self.x0, y1 - self.y0
        self.glyphs: tuple = ()   # the whole composition, for a modifier that makes room for another
        self.band = 0.0           # the height of the type's text band above the box (a fraction of its height)

    def p(self, u, v):
        return (self.x0 + u * self.w, self.y0 + v * self.h)

    def line(self, *points, scale: float = 1.0):
        self.draw.line([self.p(u, v) for u, v in points], fill=self.ink, width=max(1, int(self.lw * scale)),
                       joint="curve")

    def poly(self, *points, fill=True):
        pts = [self.p(u, v) for u, v in points]
        if fill:
            self.draw.polygon(pts, fill=self.ink)
        else:
            self.draw.polygon(pts, outline=self.ink, width=self.lw)

    def ellipse(self, cu, cv, ru, rv, fill=False):
        """An ellipse centred at (cu, cv); ru is a fraction of the width, rv of the height."""
        x, y = self.p(cu, cv)
        box = (x - ru * self.w, y - rv * self.h, x + ru * self.w, y + rv * self.h)
        if fill:
            self.draw.ellipse(box, fill=self.ink)
        else:
            self.draw.ellipse(box, outline=self.ink, width=self.lw)

    def circle(self, cu, cv, r, fill=False):
        """A true circle of radius r (a fraction of the frame height)."""
        self.ellipse(cu, cv, r * self.h / self.w, r, fill)

    def arc(self, cu, cv, ru, rv, start, end, scale: float = 1.0):
        x, y = self.p(cu, cv)
        box = (x - ru * self.w, y - rv * self.h, x + ru * self.w, y + rv * self.h)
        self.draw.arc(box, start, end, fill=self.ink, width=max(1, int(self.lw * scale)))

    def rounded(self, u0, v0, u1, v1, fill=False):
        a, b = self.p(u0, v0), self.p(u1, v1)
        radius = (b[1] - a[1]) / 2
        if fill:
            self.draw.rounded_rectangle((*a, *b), radius=radius, fill=self.ink)
        else:
            self.draw.rounded_rectangle((*a, *b), radius=radius, outline=self.ink, width=self.lw)

    def chord(self, cu, cv, ru, rv):
        """The filled upper half of an ellipse centred at (cu, cv)."""
        x, y = self.p(cu, cv)
        self.draw.chord((x - ru * self.w, y - rv * self.h, x + ru * self.w, y + rv * self.h), 180, 360, fill=self.ink)

    def text(self, s: str, cu: float, cv: float, height: float):
        """Bold text centred at (cu, cv), ``height`` a fraction of the frame height."""
        f = fonts.font(height * self.h / 0.75, "bold")
        box = knockout(self.draw, self.draw.textbbox(self.p(cu, cv), s, font=f, anchor="mm"), f, self.paper)
        self.draw.text(self.p(cu, cv), s, font=f, fill=self.ink, anchor="mm")
        _note(self.draw, self.inner, box, f.size, self.ink)


# ---------------------------------------------------------------- arms (the main mark)
@glyph("infantry")
def _infantry(p: Pen):
    p.line((0, 0), (1, 1))
    p.line((0, 1), (1, 0))


@glyph("armor")
def _armor(p: Pen):
    p.rounded(0.18, 0.27, 0.82, 0.73)


@glyph("mechanized")
def _mechanized(p: Pen):
    _infantry(p)
    _armor(p)


@glyph("motorized")
def _motorized(p: Pen):
    p.line((0.5, 0), (0.5, 1))


@glyph("cavalry")
def _cavalry(p: Pen):
    p.line((0, 1), (1, 0))


@glyph("armored-cavalry")
def _armored_cavalry(p: Pen):
    _cavalry(p)
    _armor(p)


@glyph("recon")
def _recon(p: Pen):
    # The cavalry slash with a lens at its middle: reconnaissance, told apart from horse cavalry.
    _cavalry(p)
    p.circle(0.5, 0.5, 0.16, fill=True)


@glyph("mountain")
def _mountain(p: Pen):
    p.poly((0.36, 1), (0.5, 0.72), (0.64, 1))


@glyph("paratroop")
def _paratroop(p: Pen):
    # A canopy with its rigging lines, filled so it reads at 1/2".
    p.chord(0.5, 0.9, 0.24, 0.26)
    p.line((0.26, 0.9), (0.5, 1), scale=0.8)
    p.line((0.74, 0.9), (0.5, 1), scale=0.8)


@glyph("airborne")
def _airborne(p: Pen):
    # The APP-6 'gull wings' at the foot of the frame, in a heavier line than the frame's so they read at
    # 1/2"; in the top triangle of the X when a mountain mark takes the foot (mountain paratroops).
    v = 0.3 if "mountain" in p.glyphs else 0.95
    p.arc(0.39, v, 0.11, 0.16, 180, 360, scale=1.4)
    p.arc(0.61, v, 0.11, 0.16, 180, 360, scale=1.4)


@glyph("shock")
def _shock(p: Pen):
    # A lightning bolt above the centre.
    p.poly((0.58, 0.02), (0.4, 0.28), (0.52, 0.28), (0.42, 0.5), (0.66, 0.2), (0.54, 0.2), (0.64, 0.02))


@glyph("engineer")
def _engineer(p: Pen):
    p.line((0.3, 0.62), (0.3, 0.4), (0.7, 0.4), (0.7, 0.62))
    p.line((0.5, 0.4), (0.5, 0.62))


@glyph("pioneer")
def _pioneer(p: Pen):
    # Assault engineers: the bridge mark underlined.
    _engineer(p)
    p.line((0.26, 0.72), (0.74, 0.72))


@glyph("artillery")
def _artillery(p: Pen):
    p.circle(0.5, 0.5, 0.16, fill=True)


@glyph("anti-tank")
def _anti_tank(p: Pen):
    p.line((0, 1), (0.5, 0), (1, 1))


@glyph("tank-destroyer")
def _tank_destroyer(p: Pen):
    _anti_tank(p)
    p.rounded(0.3, 0.58, 0.7, 0.86)


@glyph("assault-gun")
def _assault_gun(p: Pen):
    # A tracked hull with a fixed gun pointing forward.
    _armor(p)
    p.line((0.5, 0.5), (0.95, 0.5))
    p.circle(0.5, 0.5, 0.08, fill=True)


@glyph("anti-aircraft")
def _anti_aircraft(p: Pen):
    p.arc(0.5, 1.0, 0.4, 0.55, 180, 360)


@glyph("flak")
def _flak(p: Pen):
    # Anti-aircraft guns: the dome over a gun dot.
    _anti_aircraft(p)
    p.circle(0.5, 0.78, 0.1, fill=True)


@glyph("machine-gun")
def _machine_gun(p: Pen):
    p.line((0.5, 0.9), (0.5, 0.15))
    p.line((0.38, 0.32), (0.5, 0.12), (0.62, 0.32))
    p.line((0.38, 0.9), (0.62, 0.9))


@glyph("bicycle")
def _bicycle(p: Pen):
    p.circle(0.38, 0.78, 0.12)
    p.circle(0.62, 0.78, 0.12)


@glyph("motorcycle")
def _motorcycle(p: Pen):
    p.circle(0.36, 0.8, 0.1, fill=True)
    p.circle(0.64, 0.8, 0.1, fill=True)
    p.line((0.36, 0.8), (0.5, 0.62), (0.64, 0.8))


@glyph("hq")
def _hq(p: Pen):
    # A staff and flag at the upper left.
    p.line((0.12, 0.9), (0.12, 0.1))
    p.poly((0.12, 0.1), (0.38, 0.1), (0.38, 0.34), (0.12, 0.34))


@glyph("headquarters-army")
def _hq_army(p: Pen):
    # Two flags: a higher headquarters.
    _hq(p)
    p.poly((0.12, 0.4), (0.38, 0.4), (0.38, 0.62), (0.12, 0.62))


@glyph("supply")
def _supply(p: Pen):
    p.line((0, 0.75), (1, 0.75))


@glyph("combat-trains")
def _combat_trains(p: Pen):
    _supply(p)
    for u in (0.3, 0.5, 0.7):
        p.line((u, 0.75), (u, 0.95), scale=0.7)


@glyph("rocket")
def _rocket(p: Pen):
    # Two rockets rising: multiple rocket launchers.
    for u in (0.4, 0.6):
        p.line((u, 0.85), (u, 0.3))
        p.poly((u - 0.06, 0.34), (u, 0.12), (u + 0.06, 0.34))


@glyph("static")
def _static(p: Pen):
    # A fixed base: a heavy plinth with two posts.
    p.poly((0.2, 0.82), (0.8, 0.82), (0.8, 0.92), (0.2, 0.92))
    p.line((0.32, 0.82), (0.32, 0.66))
    p.line((0.68, 0.82), (0.68, 0.66))


@glyph("amphibious")
def _amphibious(p: Pen):
    for v in (0.78, 0.92):
        pts = [(0.15 + i * 0.7 / 16, v + 0.05 * math.sin(i * math.pi / 4)) for i in range(17)]
        p.line(*pts)


@glyph("marine")
def _marine(p: Pen):
    # An anchor.
    p.line((0.5, 0.18), (0.5, 0.84))
    p.line((0.4, 0.3), (0.6, 0.3))
    p.arc(0.5, 0.62, 0.16, 0.22, 0, 180)
    p.circle(0.5, 0.13, 0.05)


# Glyphs that APP-6 draws as a short text in the upper part of the frame.
TEXT_GLYPHS = {"security": ("SEC", 0.26), "police": ("MP", 0.26), "training": ("TRG", 0.26),
               "militia": ("MIL", 0.26), "partisan": ("G", 0.3)}


def _text_glyph(text: str, size: float):
    def draw(p: Pen):
        p.text(text, 0.5, 0.25, size)
    return draw


for _name, (_text, _size) in TEXT_GLYPHS.items():
    glyph(_name)(_text_glyph(_text, _size))


@glyph("jaeger")
def _jaeger(p: Pen):
    # A hunting horn (the Jaeger badge) in the top triangle of the X: a heavy ring and a solid bell, legible at 1/2".
    p.circle(0.42, 0.2, 0.15)
    p.circle(0.42, 0.2, 0.07, fill=True)
    p.poly((0.5, 0.2), (0.7, 0.05), (0.7, 0.33))


@glyph("reserve")
def _reserve(p: Pen):
    # A bold R in the right-hand triangle of the X, clear of the frame's edge.
    p.text("R", 0.8, 0.5, 0.34)


def _corner_letter(p: Pen):
    """(u0, u1, v0, v1) of a letter modifier: upper left, in the text band beside the type's text if it has one."""
    if p.band:
        return 0.08, 0.24, -p.band * 0.72, p.band * 0.05
    return 0.09, 0.24, 0.1, 0.42


@glyph("heavy")
def _heavy(p: Pen):
    # An H drawn in the symbol's own line weight (type this small has hairline stems).
    u0, u1, v0, v1 = _corner_letter(p)
    p.line((u0, v0), (u0, v1))
    p.line((u1, v0), (u1, v1))
    p.line((u0, (v0 + v1) / 2), (u1, (v0 + v1) / 2))


@glyph("light")
def _light(p: Pen):
    u0, u1, v0, v1 = _corner_letter(p)
    p.line((u0, v0), (u0, v1), (u1, v1))


@glyph("cossack")
def _cossack(p: Pen):
    # A lance with its pennant beside the cavalry slash and parallel to it (crossing it would read as the
    # infantry X): in the upper-left triangle.
    p.line((0.06, 0.7), (0.5, 0.1))
    p.poly((0.5, 0.04), (0.62, 0.3), (0.4, 0.24))


@glyph("fortification")
def _fortification(p: Pen):
    # Battlements along the top.
    pts = [(0.1, 0.34), (0.1, 0.14)]
    for i in range(4):
        u = 0.1 + i * 0.2
        pts += [(u + 0.1, 0.14), (u + 0.1, 0.24), (u + 0.2, 0.24), (u + 0.2, 0.14)]
    pts += [(0.9, 0.34)]
    p.line(*pts, scale=0.8)


@glyph("flamethrower")
def _flamethrower(p: Pen):
    # A small flame above the centre, clear of an armour oval it is often composed with.
    p.poly((0.5, 0.0), (0.6, 0.12), (0.6, 0.2), (0.5, 0.26), (0.4, 0.2), (0.4, 0.12), (0.45, 0.07),
           (0.47, 0.14), (0.52, 0.09))


@glyph("ski")
def _ski(p: Pen):
    p.line((0.25, 0.9), (0.7, 0.9), (0.78, 0.82), scale=0.8)
    p.line((0.25, 0.8), (0.62, 0.8), (0.7, 0.72), scale=0.8)


@glyph("guards")
def _guards(p: Pen):
    # A five-pointed star at the top.
    cx, cy, r_out = 0.5, 0.2, 0.16
    pts = []
    for i in range(10):
        r = r_out if i % 2 == 0 else r_out * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((cx + r * math.cos(a) * p.h / p.w, cy + r * math.sin(a)))
    p.poly(*pts)


@glyph("self-propelled")
def _self_propelled(p: Pen):
    # Tracks under the symbol (APP-6 mobility: tracked).
    p.rounded(0.3, 0.8, 0.7, 0.94)


@glyph("towed")
def _towed(p: Pen):
    p.line((0.34, 0.87), (0.66, 0.87))
    p.circle(0.31, 0.87, 0.05)
    p.circle(0.69, 0.87, 0.05)


KNOCKOUT = 0.12  # the gap a text in the frame cuts in the lines under it, as a fraction of its size


def knockout(draw, ink_box, f, paper):
    """Clear the frame's fill round a text's ink (as printers knock out type over line art), so a letter
    never runs into a line of its own ink; returns the cleared box."""
    if paper is None:
        return ink_box
    pad = max(1, round(f.size * KNOCKOUT))
    box = (ink_box[0] - pad, ink_box[1] - pad, ink_box[2] + pad, ink_box[3] + pad)
    draw.rectangle(box, fill=paper)
    return box


TEXT_BAND = 0.27  # the share of the frame's height a type's text takes above its glyphs


def draw_frame(draw: ImageDraw.ImageDraw, box, glyphs, ink, fill, lw: float, text: str | None = None) -> None:
    """The land-unit frame at ``box`` (pixels), filled, with each glyph drawn inside and optional text."""
    x0, y0, x1, y1 = box
    lw = max(1, int(round(lw)))
    draw.rectangle(box, fill=fill)
    # Glyphs are drawn in the frame's inner box so strokes meet the outline cleanly.
    inner = (x0 + lw / 2, y0 + lw / 2, x1 - lw / 2, y1 - lw / 2)
    # Beside glyphs the type's text takes a band along the top of the frame and the glyphs the rest, so
    # neither runs into the other (a TGR over the armour oval).
    band = TEXT_BAND * (inner[3] - inner[1]) if text and glyphs else 0
    pen = Pen(draw, (inner[0], inner[1] + band, inner[2], inner[3]), ink, lw, fill)
    pen.glyphs, pen.band = tuple(glyphs), band / max(1, inner[3] - inner[1] - band)
    for name in glyphs:
        GLYPHS[name](pen)
    if text:
        # Alone, the type's text fills the frame; beside glyphs it sits small in its band.
        height, cy = (0.42, 0.5) if not glyphs else (0.17, 0.175)
        size = (y1 - y0) * height / 0.75
        f = fonts.font(size, "condensed-bold")
        while size > 4 and draw.textlength(text, font=f) > (x1 - x0) * (0.8 if not glyphs else 0.5):
            size *= 0.9
            f = fonts.font(size, "condensed-bold")
        cx = 0.5 if not glyphs else 0.56  # clear of a corner modifier (H, L) at the upper left
        xy = (x0 + (x1 - x0) * cx, y0 + (y1 - y0) * cy)
        cleared = knockout(draw, draw.textbbox(xy, text, font=f, anchor="mm"), f, fill)
        draw.text(xy, text, font=f, fill=ink, anchor="mm")
        _note(draw, inner, cleared, size, ink)
    draw.rectangle(box, outline=ink, width=lw)


def _note(draw, box, ink_box, size, ink) -> None:
    """Text inside the frame, for the legibility checks (builder.render.counter_text.note)."""
    notes = getattr(draw, "notes", None)
    if notes is not None:
        notes.append(("symbol text", tuple(box), tuple(ink_box), size, False, tuple(ink[:3])))


def unknown_glyphs(names) -> list[str]:
    return [n for n in names if n not in GLYPHS]
