"""Every modifier mark of a unit symbol (Jäger horn, reserve R, airborne wings, mountain, Cossack lance,
motorized stroke, bicycle wheels, heavy H ...) reads on the printed counter: drawn at print size (300 dpi,
true size) in the symbol frame of the game's counters, the ink it adds to the symbol without it covers at
least MIN_AREA_MM2, and most of that ink is at least MIN_STROKE_MM wide (it survives a morphological
opening of that width: a hairline or a smudge of thin strokes does not). A unit type with a modifier never
prints the symbol of another type of its game (the Cossack lance beside the cavalry slash is not the
infantry X; mountain paratroops are neither paratroops nor mountain troops)."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFilter

from builder.gamedata.sources import shipped_games
from builder.gamedata.validate import validate_game
from builder.render import counter_face, nato

DPI = 300
MM2 = (25.4 / DPI) ** 2
MIN_AREA_MM2 = 0.6      # about a 0.8 mm square of new ink: the size of a printed full stop at 8 pt is ~0.1
MIN_STROKE_MM = 0.25    # the symbol frame's own line is 0.28 mm (EotID) to 0.35 mm (PLS) at print size
THICK_SHARE = 0.6       # of a mark's ink, at least this share is MIN_STROKE_MM wide or wider (type has thinner joins)
MODIFIERS = {"jaeger", "reserve", "airborne", "paratroop", "mountain", "cossack", "motorized", "bicycle",
             "motorcycle", "recon", "security", "police", "marine", "amphibious", "static", "heavy", "light",
             "shock", "flamethrower", "ski", "guards", "self-propelled", "towed", "training", "militia",
             "partisan", "pioneer"}


def print_side(game) -> int:
    return round(game.doc["game"]["counter"]["size_mm"] / 25.4 * DPI)


def symbol_ink(game, glyphs, text) -> Image.Image:
    """The symbol frame as the game's counters print it (frame size and line width at 300 dpi), black on
    white, as a mask of its ink."""
    S = print_side(game)
    w = counter_face.FRAME_W * S
    h = w * 2 / 3
    img = Image.new("L", (int(w) + 8, int(h) + 8), 255)
    nato.draw_frame(ImageDraw.Draw(img), (4, 4, 4 + w, 4 + h), list(glyphs), 0, 255, S * 0.022, text)
    return img.point(lambda v: 255 if v < 128 else 0)


def _games():
    return [(name, validate_game(name).model) for name in shipped_games()]


GAMES = _games()


def _modified():
    out = []
    for name, game in GAMES:
        for utype in game.by_id["unit_types"].values():
            glyphs = utype.get("symbol") or []
            for k, g in enumerate(glyphs):
                if g in MODIFIERS and k > 0:        # the first glyph is the arm, the rest modify it
                    out.append(pytest.param(game, utype, g, id=f"{name}-{utype['id']}-{g}"))
    return out


MODIFIED = _modified()


def test_both_games_have_modifier_marks():
    ids = {p.id for p in MODIFIED}
    for want in ("iron-dream-jaeger-jaeger", "iron-dream-reserve-reserve", "iron-dream-cossack-cossack",
                 "iron-dream-paratroop-airborne", "iron-dream-paratroop-mountain",
                 "panzers-last-stand-motorized-infantry-motorized", "panzers-last-stand-bicycle-bicycle",
                 "panzers-last-stand-heavy-tank-heavy"):
        assert want in ids


@pytest.mark.parametrize("game, utype, mark", MODIFIED)
def test_each_modifier_mark_is_large_and_bold_enough_at_print_size(game, utype, mark):
    glyphs, text = utype["symbol"], utype.get("text")
    with_mark = symbol_ink(game, glyphs, text)
    without = symbol_ink(game, [g for g in glyphs if g != mark], text)
    added = ImageChops.subtract(with_mark, without)
    area = added.histogram()[255]
    assert area * MM2 >= MIN_AREA_MM2, f"{mark} adds only {area * MM2:.2f} mm² of ink to {glyphs}"
    k = 2 * round(MIN_STROKE_MM / 25.4 * DPI / 2) + 1          # the opening's square, odd pixels (3 at 300 dpi)
    opened = ImageChops.darker(added.filter(ImageFilter.MinFilter(k)).filter(ImageFilter.MaxFilter(k)), added)
    share = opened.histogram()[255] / area
    assert share >= THICK_SHARE, f"{mark}: only {share:.0%} of its ink is {MIN_STROKE_MM} mm wide or wider"


def test_the_opening_catches_a_hairline():
    """The stroke measure fails a mark drawn in a hairline: the same Jäger horn in 1-px lines."""
    img = Image.new("L", (60, 40), 0)
    ImageDraw.Draw(img).ellipse((10, 10, 30, 30), outline=255, width=1)
    opened = img.filter(ImageFilter.MinFilter(3)).filter(ImageFilter.MaxFilter(3))
    assert opened.histogram()[255] == 0


@pytest.mark.parametrize("name, game", GAMES, ids=[n for n, _ in GAMES])
def test_a_modified_symbol_is_no_other_types_symbol(name, game):
    drawn = {}
    for utype in game.by_id["unit_types"].values():
        key = (tuple(utype.get("symbol") or []), utype.get("text"))
        modified = any(g in MODIFIERS for g in key[0][1:])
        drawn.setdefault(key, (utype["id"], symbol_ink(game, *key), modified))
    same = [(a[0], b[0]) for a, b in itertools.combinations(drawn.values(), 2) if a[2] or b[2]
            if ImageChops.difference(a[1], b[1]).histogram()[255] * MM2 < MIN_AREA_MM2]
    assert not same, same
