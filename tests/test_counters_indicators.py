"""Layout indicators and slot conditions: each mark shows only on faces whose value or flag is set (when:),
hides on those where it is (unless:), sits where the layout puts it, and leaves every other pixel alone."""

from __future__ import annotations

import copy

import pytest

from builder.gamedata.model import Game
from builder.render import counter_face
from builder.render.counter_build import png_bytes
from builder.render.counter_pieces import pieces

PX = 96
MARK = "#00FF00"  # an indicator colour nothing else on these faces uses
GREEN = (0, 255, 0)

DOC = {
    "game": {"id": "marks", "title": "Marks", "map": "none.yaml", "counter": {"size_mm": 15.9, "image_px": PX}},
    "sides": [{"id": "a", "name": "A"}],
    "nationalities": [{"id": "n", "name": "N", "side": "a", "text": "#000000", "background": "#A0A0A0"}],
    "unit_types": [{"id": "inf", "name": "Infantry", "symbol": ["infantry"]}],
    "sizes": [{"id": "bn", "name": "Battalion", "mark": "II"}],
    "values": [
        {"id": "ar", "name": "Action rating", "kind": "integer"},
        {"id": "ma", "name": "Movement", "kind": "integer"},
        {"id": "atk", "name": "Assault arrow", "kind": "boolean"},
        {"id": "hard", "name": "Hard", "kind": "boolean"},
        {"id": "support", "name": "Support side", "kind": "boolean"},
    ],
    "flags": [{"id": "nr", "name": "No rebuild"}, {"id": "heavy", "name": "Heavy tank"},
              {"id": "fest", "name": "Festung"}, {"id": "hun", "name": "Hungarian band"}],
    "layouts": [{"id": "l", "slots": [{"at": "center", "show": "symbol"},
                                      {"at": "bottom-left", "text": "{ar}", "size": 0.2, "bold": True},
                                      {"at": "bottom-right", "text": "{ma}", "size": 0.2, "bold": True}]}],
    "units": [
        {"id": "on", "name": "1", "nationality": "n", "type": "inf", "size": "bn", "steps": 2,
         "flags": ["nr", "heavy", "fest", "hun"],
         "front": {"ar": 3, "ma": 6, "atk": True, "hard": True, "support": True}, "back": {"ar": 3, "ma": 3}},
        {"id": "off", "name": "1", "nationality": "n", "type": "inf", "size": "bn", "steps": 2,
         "front": {"ar": 3, "ma": 6, "atk": False}, "back": {"ar": 3, "ma": 3}},
    ],
}


def game_with(*slots) -> Game:
    doc = copy.deepcopy(DOC)
    doc["layouts"][0]["slots"] = list(slots) + doc["layouts"][0]["slots"]
    return Game.from_documents(doc)


def face(game, uid, side="front"):
    piece = next(p for p in pieces(game) if p.piece_id == uid)
    return counter_face.render(game, piece, side, [PX])[0]


def green_pixels(img):
    """(x, y) of every pixel close to the indicator colour."""
    px = img.load()
    return [(x, y) for y in range(img.height) for x in range(img.width)
            if all(abs(c - g) <= 40 for c, g in zip(px[x, y][:3], GREEN))]


def baseline(uid, side="front"):
    return png_bytes(face(game_with(), uid, side))


def check_only_when_set(slot, region):
    """The mark is drawn in ``region`` (x0, y0, x1, y1 fractions) on 'on', and 'off' is untouched."""
    game = game_with(slot)
    on, off = face(game, "on"), face(game, "off")
    hits = green_pixels(on)
    assert len(hits) > 10, "the indicator drew nothing where its condition holds"
    x0, y0, x1, y1 = (v * PX for v in region)
    inside = [p for p in hits if x0 <= p[0] <= x1 and y0 <= p[1] <= y1]
    assert len(inside) >= 0.9 * len(hits), f"indicator pixels outside {region}"
    assert not green_pixels(off)
    assert png_bytes(off) == baseline("off"), "a slot whose condition fails must leave the face unchanged"
    return hits


def test_arrow_only_on_attack_capable_sides():
    hits = check_only_when_set({"at": "top-left", "show": "arrow", "when": "atk", "color": MARK}, (0, 0, 0.4, 0.3))
    xs = [x for x, _ in hits]
    assert max(xs) - min(xs) > 0.1 * PX  # an arrow, wider than a speck
    # The back of 'on' has no atk: no arrow there either.
    assert not green_pixels(face(game_with({"at": "top-left", "show": "arrow", "when": "atk", "color": MARK}), "on",
                                 "back"))


def test_dot_sits_behind_the_text_at_its_position():
    slot = {"at": "bottom-left", "show": "dot", "when": "nr", "color": MARK}
    hits = check_only_when_set(slot, (0, 0.6, 0.4, 1))
    # Centred on the AR digit, which is drawn over it (so the dot is not a solid disc: the digit cuts it).
    cx = sum(x for x, _ in hits) / len(hits)
    assert 0.03 * PX < cx < 0.25 * PX
    img = face(game_with(slot), "on")
    dark = [(x, y) for x, y in ((x, y) for y in range(int(0.7 * PX), PX) for x in range(int(0.3 * PX)))
            if sum(img.getpixel((x, y))[:3]) < 120]
    assert dark, "the AR text must stay on top of the dot"


def test_dot_follows_the_text_slot_that_applies():
    # BCS: the AR is printed black on the yellow No-Rebuild dot: two AR slots, one per condition. The dot
    # centres on whichever applies, and is not drawn where the face prints no AR at all.
    doc = copy.deepcopy(DOC)
    doc["layouts"][0]["slots"] = [
        {"at": "center", "show": "symbol"},
        {"at": "bottom-right", "show": "dot", "when": "nr", "color": MARK},
        {"at": "bottom-right", "text": "{ar}", "size": 0.2, "bold": True, "unless": "nr", "color": "#FFFFFF"},
        {"at": "bottom-right", "text": "{ar}", "size": 0.2, "bold": True, "when": "nr", "color": "#000000"},
    ]
    doc["units"].append({**copy.deepcopy(doc["units"][0]), "id": "no-ar", "front": {"ma": 6}})
    game = Game.from_documents(doc)
    hits = green_pixels(face(game, "on"))
    assert len(hits) > 10 and sum(x for x, _ in hits) / len(hits) > 0.7 * PX
    img = face(game, "on")
    assert not [1 for x, y in hits if img.getpixel((x, y))[:3] == (255, 255, 255)]
    assert any(sum(img.getpixel((x, y))[:3]) < 60 for y in range(int(0.75 * PX), PX) for x in range(int(0.7 * PX), PX))
    assert not green_pixels(face(game, "no-ar"))
    assert not green_pixels(face(game, "off"))


def test_circle_is_a_ring_only_for_heavy_tanks():
    hits = check_only_when_set({"at": "bottom-left", "show": "circle", "when": "heavy", "color": MARK},
                               (0, 0.6, 0.4, 1))
    cx = round(sum(x for x, _ in hits) / len(hits))
    cy = round(sum(y for _, y in hits) / len(hits))
    assert (cx, cy) not in set(hits)  # hollow: the centre is not painted


def test_band_across_the_counter():
    hits = check_only_when_set({"at": "bottom", "show": "band", "when": "hun", "color": MARK, "size": 0.06},
                               (0, 0.92, 1, 1))
    xs = {x for x, _ in hits}
    assert min(xs) <= 1 and max(xs) >= PX - 2  # edge to edge


def test_label_prints_a_boxed_word_on_support_sides():
    hits = check_only_when_set({"at": "above-symbol", "show": "label", "text": "Support", "when": "support",
                                "color": MARK}, (0.1, 0, 0.8, 0.35))
    img = face(game_with({"at": "above-symbol", "show": "label", "text": "Support", "when": "support",
                          "color": MARK}), "on")
    x0, x1 = min(x for x, _ in hits), max(x for x, _ in hits)
    y0, y1 = min(y for _, y in hits), max(y for _, y in hits)
    ink = [1 for y in range(y0, y1) for x in range(x0, x1) if sum(img.getpixel((x, y))[:3]) < 150]
    assert len(ink) > 15, "the word is drawn on the box, in an ink that reads on it"


def test_cross_is_see_through_and_only_for_festung():
    slot = {"at": "center", "show": "cross", "when": "fest", "color": MARK + "80"}
    game = game_with(slot)
    on, off = face(game, "on"), face(game, "off")
    assert png_bytes(off) == baseline("off")
    corner = on.getpixel((3, 3))[:3]
    # Half green over the grey background: blended, not painted over.
    assert corner[1] > corner[0] + 40 and corner[0] > 40
    assert on.getpixel((PX - 4, 3))[:3] == corner


def test_fill_when_colours_the_symbol_of_hard_units():
    slot = {"at": "center", "show": "symbol", "fill_when": {"hard": MARK}}
    doc_slots = [s for s in DOC["layouts"][0]["slots"] if s.get("show") != "symbol"]
    doc = copy.deepcopy(DOC)
    doc["layouts"][0]["slots"] = [slot] + doc_slots
    game = Game.from_documents(doc)
    on, off = face(game, "on"), face(game, "off")
    hits = green_pixels(on)
    assert len(hits) > 200 and not green_pixels(off)
    assert png_bytes(off) == baseline("off")
    # The symbol's lines take the ink that reads on the fill (black on green).
    assert any(sum(on.getpixel((x, y))[:3]) < 60 for x, y in [(PX // 2, int(PX * 0.47))])


def test_unless_hides_a_slot_when_set():
    game = game_with({"at": "top", "text": "NO", "unless": "support", "color": MARK, "size": 0.15})
    assert not green_pixels(face(game, "on"))
    assert len(green_pixels(face(game, "off"))) > 10


def test_when_reads_flags_and_face_values_alike():
    game = game_with({"at": "top", "show": "arrow", "when": "heavy", "color": MARK})
    # A flag holds on both faces.
    assert green_pixels(face(game, "on", "front")) and green_pixels(face(game, "on", "back"))
    assert not green_pixels(face(game, "off", "back"))


@pytest.mark.parametrize("show", ["arrow", "dot", "circle", "band", "label", "cross"])
def test_indicators_are_deterministic(show):
    slot = {"at": "bottom-left", "show": show, "when": "fest", "color": MARK, "text": "S"}
    a = png_bytes(face(game_with(slot), "on"))
    b = png_bytes(face(game_with(slot), "on"))
    assert a == b
