"""Every NATO glyph the validator accepts is drawn, non-empty and distinct from every other glyph; every
unit type of the shipped and example games shows its glyphs in the symbol region of its counters."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image, ImageChops, ImageDraw

from builder.gamedata.sources import shipped_games
from builder.gamedata.validate import validate_game
from builder.render import counter_face, nato
from builder.render.counter_pieces import pieces
from builder.symbols import KNOWN_GLYPHS
from test_counters_support import TINY, bcs_game

W, H = 120, 80
INK, FILL = (0, 0, 0), (255, 255, 255)


def glyph_image(names) -> Image.Image:
    img = Image.new("RGB", (W + 20, H + 20), FILL)
    nato.draw_frame(ImageDraw.Draw(img), (10, 10, 10 + W, 10 + H), list(names), INK, FILL, 3)
    return img


def diff_pixels(a: Image.Image, b: Image.Image) -> int:
    mask = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 40 else 0)
    return mask.histogram()[255]


EMPTY = glyph_image([])
IMAGES = {name: glyph_image([name]) for name in sorted(KNOWN_GLYPHS)}


def test_every_known_glyph_has_a_drawing_function():
    assert sorted(KNOWN_GLYPHS - set(nato.GLYPHS)) == []


@pytest.mark.parametrize("name", sorted(KNOWN_GLYPHS))
def test_glyph_draws_pixels_inside_the_frame(name):
    changed = diff_pixels(IMAGES[name], EMPTY)
    assert changed >= 40, f"{name} draws only {changed} pixels"
    # Nothing outside the frame: the glyph stays in its region.
    outside = ImageChops.difference(IMAGES[name], EMPTY).crop((0, 0, W + 20, 8))
    assert outside.getbbox() is None


def test_glyphs_are_pairwise_distinct():
    same = [(a, b) for a, b in itertools.combinations(sorted(IMAGES), 2) if diff_pixels(IMAGES[a], IMAGES[b]) < 40]
    assert same == []


def test_composition_draws_both_glyphs():
    both = glyph_image(["armor", "infantry"])
    assert diff_pixels(both, IMAGES["armor"]) >= 40 and diff_pixels(both, IMAGES["infantry"]) >= 40


def _games():
    out = [("tiny", validate_game(str(TINY)).model), ("bcs", bcs_game())]
    for name in shipped_games():
        report = validate_game(name)
        if report.ok:
            out.append((name, report.model))
    return out


def _symbol_region(game, piece, size=200):
    unit = game.units[piece.source_id]
    box = counter_face.frame_box(counter_face.layout_of(game, unit))
    img = counter_face.draw_master(game, piece, "front", size)
    return img.crop(tuple(int(v * size) for v in box))


@pytest.mark.parametrize("label,game", _games(), ids=lambda v: v if isinstance(v, str) else "")
def test_each_unit_type_shows_its_glyphs(label, game):
    seen = {}
    for piece in pieces(game):
        if piece.kind == "unit":
            seen.setdefault(game.units[piece.source_id].get("type"), piece)
    assert seen
    for type_id, piece in seen.items():
        utype = game.by_id["unit_types"][type_id]
        layout = counter_face.layout_of(game, game.units[piece.source_id])
        if not any(s.get("show") == "symbol" for s in layout.get("slots", [])):
            continue
        drawn = _symbol_region(game, piece)
        saved = dict(utype)
        try:
            utype["symbol"] = []
            utype.pop("text", None)
            blank = _symbol_region(game, piece)
        finally:
            utype.clear()
            utype.update(saved)
        assert diff_pixels(drawn, blank) >= 30, f"{label}: type {type_id}: glyphs {saved['symbol']} not visible"
