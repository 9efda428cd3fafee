"""BCS 1.1a: the MA number's colour is the movement class of the face it is printed on (red Tactical,
white Leg, black Truck), not the unit type's class. Where that ink is faint on the counter's colour (white
on the Heer's light grey) it keeps its colour and gets a halo (test_counters_contrast.py): the halo's
black or white is not counted as another class's ink."""

from __future__ import annotations

import pytest

from builder.gamedata.validate import validate_game
from builder.render import counter_face
from builder.render.colors import halo_for
from builder.render.counter_pieces import pieces

INKS = {"tactical": (0xC8, 0x10, 0x2E), "leg": (255, 255, 255), "truck": (0, 0, 0)}


@pytest.fixture(scope="module")
def pls():
    report = validate_game("panzers-last-stand")
    assert report.ok
    return report.model


def ma_ink_share(img, ink) -> float:
    """Share of the MA slot's (bottom-right) pixels that are the given ink."""
    S = img.width
    box = (int(S * 0.62), int(S * 0.74), int(S * 0.94), int(S * 0.96))
    px = [img.getpixel((x, y)) for x in range(box[0], box[2]) for y in range(box[1], box[3])]
    return sum(all(abs(a - b) <= 30 for a, b in zip(p, ink)) for p in px) / len(px)


@pytest.mark.parametrize("uid, face, cls", [
    ("ger-ii-716-inf-bn", "front", "leg"), ("ger-ii-716-inf-bn", "back", "leg"),
    ("ger-1-pz-recon-bn", "front", "tactical"), ("ger-1-pz-recon-bn", "back", "tactical"),
    ("sov-252-amphibious-bn", "front", "truck"), ("sov-252-amphibious-bn", "back", "leg"),
])
def test_ma_colour_follows_the_faces_own_movement_class(pls, uid, face, cls):
    piece = next(p for p in pieces(pls) if p.piece_id == uid)
    img = counter_face.render(pls, piece, face, [188])[0]
    mine = ma_ink_share(img, INKS[cls])
    ground = img.getpixel((img.width // 2, int(img.height * 0.97)))
    halo = halo_for((*INKS[cls], 255), (*ground, 255))
    others = [ma_ink_share(img, ink) for c, ink in INKS.items() if c != cls and (not halo or ink != halo[:3])]
    assert mine > 0.04, f"{uid} {face}: too little {cls} ink in the MA slot ({mine:.3f})"
    assert mine > 2 * max(others), f"{uid} {face}: the MA is not printed in {cls} ink"
