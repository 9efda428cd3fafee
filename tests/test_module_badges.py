"""The module's step-loss badge ("-1" ... on a BCS unit's Losses layer) hides nothing a player reads: on every
face of every Panzers Last Stand unit that can lose a step, drawn as the module draws it (its image size, its
screen margin), no printed mark (value, name, size mark, step squares, assault arrow, symbol) meets the
badge's box; the badge's own pixels stay in that box, and its number is large enough to read at 100 % zoom.
The status tags (fatigue, Prepared Defense) keep to the top edge, clear of the badge."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from builder.gamedata.validate import validate_game
from builder.module import badges, pieces
from builder.render import counter_face
from builder.render.counter_build import counter_info
from builder.render.counter_pieces import pieces as counter_pieces

MIN_DIGIT_PX = 8        # the badge's digit at least this tall on screen at 100 % (the unit's own MA is ~12)


@pytest.fixture(scope="module")
def pls():
    report = validate_game("panzers-last-stand")
    assert report.ok
    return report.model


def _overlap(a, b) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) >= 0 and min(a[3], b[3]) - max(a[1], b[1]) >= 0


def _ink_marks(game, piece, face, px):
    img = Image.new("RGB", (px, px), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    draw.canvas, draw.marks, draw.notes = img, [], []
    draw.safe = counter_face.screen_margin(game)
    counter_face._draw_unit(draw, px, game, piece, face)
    return [(name, box) for name, box, layer, _ in draw.marks if layer == "ink"]


def _badge_pixels(png: bytes):
    img = Image.open(io.BytesIO(png))
    return img, img.getchannel("A").getbbox()


def test_the_badge_hides_no_printed_mark_of_any_unit_that_can_lose_a_step(pls):
    assert pieces.uses_loss_layer(pls)
    px = counter_info(pls)["image_px"]
    box = badges._box(px, badges.LOSS_BOX)
    checked, hidden = 0, []
    for p in counter_pieces(pls):
        if p.kind != "unit" or not pieces._max_losses(pls.units[p.source_id]):
            continue
        for face in p.faces:
            marks = _ink_marks(pls, p, face, px)
            if any(name == "blank back" for name, _ in marks):
                continue    # a face the data leaves blank: only the unit's name, printed large
            checked += 1
            # pixel boxes: a mark covering [x0, x1) meets the badge's pixels x0..x1 inclusive
            hidden += [(p.piece_id, face, name) for name, m in marks
                       if _overlap((m[0], m[1], m[2] - 1, m[3] - 1), box)]
    assert checked > 1000
    assert not hidden, hidden[:10]


def test_the_badge_draws_inside_its_box_and_reads_at_100_percent(pls):
    px = counter_info(pls)["image_px"]
    box = badges._box(px, badges.LOSS_BOX)
    for k in range(1, 5):
        img, drawn = _badge_pixels(badges.loss_badge(px, k))
        assert img.size == (px, px)
        assert drawn == (box[0], box[1], box[2] + 1, box[3] + 1), k
        # the number: white pixels inside the red box, tall enough to read
        crop = img.crop(drawn).convert("RGB")
        white = [(x, y) for x in range(crop.width) for y in range(crop.height)
                 if min(crop.getpixel((x, y))) > 200 and 0 < x < crop.width - 1 and 0 < y < crop.height - 1]
        ys = [y for _, y in white]
        assert ys and max(ys) - min(ys) + 1 >= MIN_DIGIT_PX, (k, ys and max(ys) - min(ys) + 1)


def test_status_tags_stay_clear_of_the_badge(pls):
    px = counter_info(pls)["image_px"]
    loss = badges._box(px, badges.LOSS_BOX)
    for slot in range(len(badges.TAG_BOXES)):
        tag = badges._box(px, badges.TAG_BOXES[slot])
        assert not _overlap(tag, loss), slot
        _, drawn = _badge_pixels(badges.status_tag(px, {"text": "PD", "background": "#FFFFFF"}, slot))
        assert drawn[3] <= loss[1]
