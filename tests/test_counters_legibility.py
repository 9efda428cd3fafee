"""Every counter of both shipped games, drawn at print size, is legible as a publisher would print it: each text
inside its slot, no two slots' texts overlapping (nor a text over the symbol frame it is not part of), every
value at least the minimum cap height, and everything inside the die-cut safe margin. The module's images are
the print drawing trimmed to a screen margin instead (nothing is cut on screen): the same checks hold inside it,
and their text is larger than the print's.

The faces are drawn once at print resolution (no supersampling: the geometry scales exactly) and each text
reports the box its ink covers (builder.render.counter_text.note)."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image, ImageDraw

from builder.gamedata.validate import validate_game
from builder.render import counter_build, counter_face
from builder.render.counter_pieces import pieces

DPI = 300
CAP = 0.72               # cap height of the counter typeface, as a fraction of its size
MIN_VALUE_CAP_MM = 1.2   # a printed value (AR, AV, MA, strengths) must read at arm's length
MIN_TEXT_CAP_MM = 0.7    # names and marks: about 4 pt type, the smallest a die-cut counter carries
TOL = 1.0                # pixels: anti-aliasing and rounding
STROKE = 0.022           # the symbol frame's line width, as a fraction of the side (counter_face._draw_symbol)


def faces_of(name, screen=False):
    game = validate_game(name).model
    size_mm = game.doc["game"]["counter"]["size_mm"]
    S = round(size_mm / 25.4 * DPI)
    out = []
    for p in pieces(game):
        for face in p.faces:
            img = Image.new("RGB", (S, S), (255, 255, 255))
            draw = ImageDraw.Draw(img)
            draw.canvas = img
            draw.notes = []
            draw.marks = []
            if p.kind == "unit":
                counter_face._draw_unit(draw, S, game, p, face)
            else:
                counter_face._draw_marker(draw, S, game, p, face)
            notes, marks = draw.notes, draw.marks
            if screen:
                notes, marks = as_module_image(notes, marks, counter_build._trim(game) * S)
            out.append((p.piece_id, face, notes, marks))
    if screen:   # the side of what the module's image shows, in the drawing's pixels
        return game, size_mm, S * (1 - 2 * counter_build._trim(game)), out, counter_face.screen_margin(game)
    return game, size_mm, S, out, counter_face.safe_margin(game)


def as_module_image(notes, marks, cut):
    """The notes and marks of a print drawing where the module's image shows them: that image is the
    drawing with ``cut`` pixels trimmed off each edge (counter_build.module_image), then scaled down."""
    def box(b):
        return tuple(v - cut for v in b)
    return ([(slot, box(b), box(ink), *rest) for slot, b, ink, *rest in notes],
            [(name, box(b), *rest) for name, b, *rest in marks])


_DRAWN = {}


def drawn_faces(name, screen):
    if (name, screen) not in _DRAWN:
        _DRAWN[(name, screen)] = faces_of(name, screen)
    return _DRAWN[(name, screen)]


@pytest.fixture(scope="module", params=[("iron-dream", False), ("panzers-last-stand", False),
                                        ("iron-dream", True), ("panzers-last-stand", True)],
                ids=["iron-dream-print", "panzers-last-stand-print", "iron-dream-screen", "panzers-last-stand-screen"])
def drawn(request):
    return drawn_faces(*request.param)


def inside(inner, outer, tol=TOL):
    return (inner[0] >= outer[0] - tol and inner[1] >= outer[1] - tol and inner[2] <= outer[2] + tol
            and inner[3] <= outer[3] + tol)


def overlap(a, b, tol=TOL):
    return min(a[2], b[2]) - max(a[0], b[0]) > tol and min(a[3], b[3]) - max(a[1], b[1]) > tol


def test_every_text_stays_in_its_slot(drawn):
    _, _, _, faces, _ = drawn
    bad = [(pid, face, slot) for pid, face, notes, _ in faces for slot, box, ink, *_ in notes
           if slot != "symbol frame" and not inside(ink, box)]
    assert not bad, bad[:10]


def test_no_two_slots_overlap(drawn):
    _, _, S, faces, _ = drawn
    bad = []
    for pid, face, notes, _ in faces:
        texts = [n for n in notes if n[0] not in ("symbol frame", "symbol text")]
        frames = [n for n in notes if n[0] == "symbol frame"]
        for a, b in itertools.combinations(texts, 2):
            if a[0] != b[0] and overlap(a[2], b[2]):
                bad.append((pid, face, a[0], b[0]))
        for t in texts:          # no slot's text over the symbol frame or its stroke (its own text is inside it)
            for fr in frames:
                half = STROKE * S / 2
                x0, y0, x1, y1 = fr[2]
                if overlap(t[2], (x0 - half, y0 - half, x1 + half, y1 + half)):
                    bad.append((pid, face, t[0], "symbol frame"))
    assert not bad, bad[:10]


def test_values_and_texts_are_tall_enough(drawn):
    _, size_mm, S, faces, _ = drawn
    mm = size_mm / S
    bad = []
    for pid, face, notes, _ in faces:
        for slot, _, _, size, value, *_ in notes:
            if slot == "symbol frame":
                continue
            cap = size * CAP * mm
            need = MIN_VALUE_CAP_MM if value else MIN_TEXT_CAP_MM
            if cap < need:
                bad.append((pid, face, slot, round(cap, 2)))
    assert not bad, bad[:10]


def test_everything_inside_the_safe_margin(drawn):
    game, size_mm, S, faces, margin = drawn
    m = margin * S
    safe = (m, m, S - m, S - m)
    bad = [(pid, face, slot, [round(v) for v in ink]) for pid, face, notes, _ in faces
           for slot, _, ink, *_ in notes if not inside(ink, safe)]
    assert not bad, bad[:10]
    assert counter_face.safe_margin(game) * size_mm == pytest.approx(counter_face.SAFE_MM)


@pytest.mark.parametrize("name", ["iron-dream", "panzers-last-stand"])
def test_module_images_print_larger_text_than_the_sheets(name):
    """On screen nothing is cut: no text is smaller than in print, and the values (what a player reads
    across the map) are clearly larger."""
    _, _, p_side, printed, _ = drawn_faces(name, False)
    _, _, s_side, screen, _ = drawn_faces(name, True)
    ratios, smaller = [], []
    for (pid, face, pnotes, _), (_, _, snotes, _) in zip(printed, screen):
        assert [n[0] for n in pnotes] == [n[0] for n in snotes], (pid, face)    # the same texts in the same slots
        for p, s in zip(pnotes, snotes):
            if p[0] in ("symbol frame", "symbol text"):
                continue
            p_size, s_size = p[3] / p_side, s[3] / s_side     # as fractions of the counter's side
            if s_size < p_size - 1e-6:
                smaller.append((pid, face, p[0], round(p_size, 3), round(s_size, 3)))
            if p[4]:
                ratios.append(s_size / p_size)
    assert not smaller, smaller[:10]
    assert ratios and sum(ratios) / len(ratios) >= 1.04, sum(ratios) / len(ratios)


def hides(under, over) -> bool:
    """Whether mark ``over``, drawn after ``under`` where their boxes meet, hides it: only a see-through
    print, ink over a ground, or a text over the dot or ring behind it in its own slot does not."""
    name_u, _, layer_u, _ = under
    name_o, _, layer_o, alpha_o = over
    if alpha_o < 255:
        return False
    if layer_u == "ground" and layer_o != "ground":
        return False
    return not (layer_u == "behind" and layer_o == "ink" and name_u == name_o)


def test_no_mark_hides_another(drawn):
    """Each mark has its own place: no mark's box meets one drawn before it unless it lets it show (BCS: the
    HQ's Used stripe must not blank out the Festung X)."""
    _, _, _, faces, _ = drawn
    bad = [(pid, face, a[0], b[0]) for pid, face, _, marks in faces for i, a in enumerate(marks)
           for b in marks[i + 1:] if overlap(a[1], b[1]) and hides(a, b)]
    assert not bad, bad[:10]
    assert sum(len(m) for *_, m in faces) > 3 * len(faces)


def test_the_festung_x_shows_over_the_bands_and_bars():
    """PLS 2.3: the X is a see-through print over the formation bar and the HQ's Used stripe, not under them."""
    game = validate_game("panzers-last-stand").model
    for face in ("front", "back"):
        img = _face(game, "ger-buda-hq", face, 188)
        S = img.width
        assert img.getpixel((3, 3)) != img.getpixel((S // 2, 3)), face          # the X's corner on the bar
    plain = _face(game, "ger-1pz-hq", "back", 188)
    fest = _face(game, "ger-buda-hq", "back", 188)
    assert fest.getpixel((round(S * 0.2), round(S * 0.2)))[:3] != plain.getpixel((round(S * 0.2), round(S * 0.2)))[:3]


def _face(game, pid, face, S=150):
    p = next(p for p in pieces(game) if p.piece_id == pid)
    return counter_face.render(game, p, face, [S])[0]


def test_single_sided_counters_print_a_plain_back():
    game = validate_game("iron-dream").model
    for pid in ("ger-ss-cav-15", "wa-su-1"):
        back = _face(game, pid, "back")
        colours = back.getcolors(1 << 16)
        assert len(colours) == 1, pid     # one colour: the nationality's, nothing printed
        front = _face(game, pid, "front")
        assert colours[0][1] == front.getpixel((2, front.height // 2))


def test_combat_trains_ghost_side_is_printed():
    """BCS 3.5: a CT's back (no values) is its Ghost side: the layout prints 'Ghost' there, so it is not a
    plain back like a single-sided counter's."""
    game = validate_game("panzers-last-stand").model
    back = _face(game, "ger-153fa-ct", "back", 188)
    assert len(back.getcolors(1 << 16)) > 20
    S = back.width
    ink = [1 for x in range(int(S * 0.1), int(S * 0.9)) for y in range(int(S * 0.76), int(S * 0.93))
           if sum(back.getpixel((x, y))[:3]) < 150]
    assert len(ink) > 100, "no 'Ghost' on the Ghost side"
    front = _face(game, "ger-153fa-ct", "front", 188)
    assert not [1 for x in range(int(S * 0.1), int(S * 0.9)) for y in range(int(S * 0.76), int(S * 0.93))
                if sum(front.getpixel((x, y))[:3]) < 150]


def test_obj_marker_prints_its_offset_arrow():
    game = validate_game("panzers-last-stand").model
    img = _face(game, "obj", "front", 188)
    S = img.width
    ink = lambda box: sum(1 for x in range(box[0], box[2]) for y in range(box[1], box[3]) if sum(img.getpixel((x, y))) < 200)
    top = ink((int(S * 0.4), int(S * 0.08), int(S * 0.6), int(S * 0.26)))       # the arrow, below the safe margin
    assert top > 0.2 * (0.2 * S) * (0.18 * S)
    assert ink((0, 0, S, int(S * 0.06))) == 0                                 # nothing in the margin
    plain = _face(game, "march-obj", "front", 188)                             # March OBJ: no arrow (2.4g)
    assert plain.getpixel((S // 2, int(S * 0.15))) == plain.getpixel((2, 2))
