"""Every text of every counter of both shipped games reads against what it is printed on: where its letters
meet something else, that is a colour with at least the WCAG contrast for large text (3:1) against the
letters' ink: the ground itself, or a halo drawn round them (BCS 1.1a keeps its white Leg MA on light grey,
with a dark edge, as real BCS counters do).

Measured on the pixels: each face is drawn at print size (300 dpi, true size) and at the module's size,
with un-antialiased type, so a letter's pixels are exactly its ink and what borders them is exactly the
halo or the ground. The ink colour comes from the renderer's note of the text; the test checks that ink is
there, then what touches it."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFilter

from builder.gamedata.validate import validate_game
from builder.render import counter_face
from builder.render.counter_pieces import pieces

WCAG_LARGE = 3.0      # WCAG 2 AA, large or bold text
SHARE = 0.95          # of the pixels bordering a text's letters, at least this share must contrast with them


def luminance(rgb) -> float:
    def lin(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    return 0.2126 * lin(rgb[0]) + 0.7152 * lin(rgb[1]) + 0.0722 * lin(rgb[2])


def ratio(a, b) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_wcag_ratio_is_the_standard_one():
    assert ratio((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    assert ratio((255, 255, 255), (0xA4, 0xA7, 0xA9)) == pytest.approx(2.4, abs=0.05)   # white Leg MA on Heer grey
    assert ratio((0x77, 0x77, 0x77), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)


def draw_faces(name: str, screen: bool):
    """Every face at print size (300 dpi), or as the module's image is drawn before it is reduced to its
    pixel size (its screen margin, at the drawing's size)."""
    game = validate_game(name).model
    counter = game.doc["game"]["counter"]
    S = counter_face.master_px([counter["image_px"]]) if screen else round(counter["size_mm"] / 25.4 * 300)
    for p in pieces(game):
        for face in p.faces:
            img = Image.new("RGB", (S, S), (255, 255, 255))
            draw = ImageDraw.Draw(img)
            draw.fontmode = "1"          # no anti-aliasing: letters are exactly their ink
            draw.canvas = img
            draw.notes = []
            if screen:
                draw.safe = counter_face.screen_margin(game)
            if p.kind == "unit":
                counter_face._draw_unit(draw, S, game, p, face)
            else:
                counter_face._draw_marker(draw, S, game, p, face)
            yield p.piece_id, face, img, draw.notes


REACH = 8                # pixels: how deep another mark of the text's ink may reach into its box (its halo)
SENTINEL = (1, 2, 3)     # a colour no counter uses: marks the pixels that do not border the text


def bordering(img, box, ink):
    """(ink pixels, {colour: pixels}) of the text in ``box``: how many pixels are its ink, and the colours
    of the pixels that touch them (8-neighbours) and are not the ink."""
    x0, y0 = max(0, int(box[0]) - 2), max(0, int(box[1]) - 2)
    x1, y1 = min(img.width, int(box[2]) + 3), min(img.height, int(box[3]) + 3)
    crop = img.crop((x0, y0, x1, y1))
    r, g, b = ImageChops.difference(crop, Image.new("RGB", crop.size, ink)).split()
    mask = ImageChops.add(ImageChops.add(r, g), b).point(lambda v: 255 if v == 0 else 0)
    inside = Image.new("L", crop.size, 0)
    inside.paste(255, _letters(mask, (int(box[0]) - x0, int(box[1]) - y0, int(box[2]) + 1 - x0, int(box[3]) + 1 - y0)))
    # A symbol line of the same ink reaching into the text's box (up to its halo) is not a letter: the ink
    # connected to ink outside the box, a few pixels deep, is left out (a letter touching it loses pixels
    # there, and those then border the rest of it in its own ink: a failure, as it should be).
    other = ImageChops.subtract(mask, inside)
    for _ in range(REACH):
        other = ImageChops.darker(other.filter(ImageFilter.MaxFilter(3)), mask)
    mask = ImageChops.subtract(ImageChops.multiply(mask, inside), other)
    ring = ImageChops.subtract(mask.filter(ImageFilter.MaxFilter(3)), mask)
    canvas = Image.new("RGB", crop.size, SENTINEL)
    canvas.paste(crop, (0, 0), ring)
    colours = {c: n for n, c in canvas.getcolors(crop.width * crop.height) if c != SENTINEL}
    return mask.histogram()[255], colours


def _letters(mask, box):
    """``box`` shrunk inside a frame of ink round it (a boxed value whose outline is the letters' colour:
    BCS Limited AV, red on white in a red edge): the letters' own box."""
    x0, y0, x1, y1 = box
    for _ in range(12):
        if x1 - x0 < 4 or y1 - y0 < 4:
            break
        edge = [mask.crop(b).histogram()[255] / max(1, (b[2] - b[0]) * (b[3] - b[1]))
                for b in ((x0, y0, x1, y0 + 1), (x0, y1 - 1, x1, y1), (x0, y0, x0 + 1, y1), (x1 - 1, y0, x1, y1))]
        if min(edge) < 0.6:
            break
        x0, y0, x1, y1 = x0 + 1, y0 + 1, x1 - 1, y1 - 1
    else:
        return box
    if (x0, y0, x1, y1) != box:   # past the frame: also past the gap inside it
        x0, y0, x1, y1 = x0 + 1, y0 + 1, x1 - 1, y1 - 1
    return (x0, y0, x1, y1)


@pytest.fixture(scope="module", params=[("iron-dream", False), ("panzers-last-stand", False),
                                        ("iron-dream", True), ("panzers-last-stand", True)],
                ids=["iron-dream-print", "panzers-last-stand-print", "iron-dream-module", "panzers-last-stand-module"])
def measured(request):
    name, screen = request.param
    out = []
    for pid, face, img, notes in draw_faces(name, screen):
        for slot, _, box, _, value, ink in notes:
            if ink is None or slot == "symbol frame":
                continue
            pixels, colours = bordering(img, box, ink)
            out.append((pid, face, slot, value, ink, pixels, colours))
    return out


def test_every_text_is_printed_in_its_ink(measured):
    missing = [(pid, face, slot) for pid, face, slot, _, _, pixels, _ in measured if pixels < 3]
    assert not missing, missing[:10]
    assert len(measured) > 1000


def test_every_text_contrasts_with_what_borders_it(measured):
    """Each value and name: its letters meet only colours with a WCAG ratio of at least 3 to their ink
    (the ground, or the halo round them)."""
    bad = []
    for pid, face, slot, value, ink, _, colours in measured:
        total = sum(colours.values())
        good = sum(n for c, n in colours.items() if ratio(c, ink) >= WCAG_LARGE)
        if total and good / total < SHARE:
            worst = min(colours, key=lambda c: ratio(c, ink))
            bad.append((pid, face, slot, ink, worst, round(ratio(worst, ink), 2), round(good / total, 2)))
    assert not bad, f"{len(bad)} texts: {bad[:10]}"


def test_the_leg_ma_stays_white_and_gets_a_dark_edge():
    """BCS 1.1a: the white Leg MA on the Heer's light grey keeps its colour; what borders it is dark."""
    faces = {(pid, face): (img, notes) for pid, face, img, notes in draw_faces("panzers-last-stand", False)
             if pid == "ger-ii-716-inf-bn"}
    img, notes = faces[("ger-ii-716-inf-bn", "front")]
    ma = next(n for n in notes if n[0] == "bottom-right")
    assert ma[5] == (255, 255, 255)
    pixels, colours = bordering(img, ma[2], ma[5])
    assert pixels > 50
    edge = max(colours, key=colours.get)
    assert luminance(edge) < 0.05, edge
