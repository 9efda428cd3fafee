"""Opaque cups (map data: a box with ``role: cup``) as VASSAL draw piles.

A cup is a DrawPile at its box's centre: face down, always shuffled (a draw takes a random piece), a drawn
piece seen only by the player who drew it (drawFaceUp off: VASSAL masks it to the others) until that
player reveals it with its Mask command. The pieces a scenario sets up in the cup are the deck's contents
in the set-up save (a Deck piece named after the box, so VASSAL reports their location as the box's
name, as before); each such marker carries a Mask trait with a plain back, which VASSAL shows while the
deck is face down.

E.g. End of the Iron Dream 14.12 A: "the WA secretly draw one of the second invasion chits from an opaque
container ... The WA may immediately look at the drawn chit", and reveal it when the invasion is launched.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from builder.render import fonts
from builder.render.counter_build import png_bytes
from builder.vassal.buildfile import P
from builder.vassal.sequence import encode_str
from builder.vassal.traits import Deck, KeyStroke, Obscurable

BACK_IMAGE = "cup-back.png"
REVEAL_KEY = (85, 130)                  # Ctrl+U: reveal / hide a drawn piece
OUTLINE = "0,0,0"


def boxes(game) -> list[str]:
    return [b["id"] for b in (game.map_doc or {}).get("boxes") or [] if isinstance(b, dict) and b.get("role") == "cup"]


def markers(game) -> set[str]:
    """Marker ids some scenario sets up in a cup."""
    cups = set(boxes(game))
    return {e["marker"] for sc in game.by_id["scenarios"].values() for e in sc.get("setup") or []
            if isinstance(e, dict) and e.get("box") in cups and isinstance(e.get("marker"), str)}


def mask_trait(name: str) -> Obscurable:
    return Obscurable(key=KeyStroke(*REVEAL_KEY), image=BACK_IMAGE, hide_command="Reveal / hide",
                      display_style="I", mask_name=f"{name} (hidden)", description="Hidden when drawn from a cup")


def back_image(px: int) -> bytes:
    """A plain back: what everyone sees of a piece in the cup, and the others of a drawn one."""
    img = Image.new("RGBA", (px, px), (245, 245, 240, 255))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, px - 1, px - 1), outline=(0, 0, 0, 255), width=max(1, px // 40))
    d.text((px / 2, px / 2), "?", font=fonts.font(px * 0.55, "bold"), fill=(90, 90, 90, 255), anchor="mm")
    return png_bytes(img)


def _deck_fields(name: str, px: int) -> dict:
    return dict(draw_outline=True, outline_color=OUTLINE, width=px, height=px, face_down_option="Always",
                shuffle_option="Always", allow_multiple_draw=False, allow_select_draw=False, reversible=False,
                deck_name=name, draw_face_up=False, persistable=False, max_stack=10,
                shuffle_command="Shuffle", face_up_message="Face up", face_down_message="Face down")


def deck_piece(name: str, px: int, map_id: str, x: int, y: int, members: list[str]) -> Deck:
    """The Deck a set-up save holds for a cup: face down, its members bottom first."""
    deck = Deck(**_deck_fields(name, px))
    deck.state = encode_str([map_id, str(x), str(y), "true", encode_str(members, ",")], ";")
    return deck


def add_draw_piles(map_el, plan, layout, px: int) -> None:
    """A DrawPile at the centre of every cup box on this map (x, y relative to its board)."""
    for bid in boxes(layout.game):
        where = layout.box_where.get(bid)
        if where is None or where[0] is not plan:
            continue
        board = where[1]
        zone = layout.box_zone[bid]
        x, y, w, h = board.zones[zone]
        map_el.add(P + "map.DrawPile", name=zone, owningBoard=board.name, x=x + w // 2, y=y + h // 2,
                   width=px, height=px, allowMultiple=False, allowSelect=False, faceDown="Always",
                   drawFaceUp=False, shuffle="Always", shuffleCommand="Shuffle", reversible=False,
                   draw=True, color=OUTLINE, maxStack=10, reshufflable=False, canSave=False,
                   expressionCounting=False, hotkeyOnEmpty=False, restrictOption=False, deckRestrictAccess=False,
                   faceUpMessage="Face up", faceDownMessage="Face down")
