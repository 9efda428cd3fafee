"""What players of hex-and-counter modules expect a piece and the module to do, beyond moving it.

* Mark When Moved: every unit carries the trait (in the piece, as it has a state), every map has the
  option on, and each turn tracker clears the marks at every change of turn or phase (a Turn Global
  Hotkey fires the maps' "mark all unmoved" key).
* Right-click commands with the usual keys: Eliminate (Ctrl+E) sends a unit to its side's box whose
  data ``role`` is ``eliminated``; Return to reinforcements (Ctrl+R) to its side's "Reinforcements" box
  on the Staging map. (Flip Ctrl+F, lose/recover a step Ctrl+-/Ctrl+= are the pieces' layers.)
* An Inventory window (units by side, then formation or nationality) and a Notes window.
"""

from __future__ import annotations

from builder.vassal.buildfile import P
from builder.vassal.traits import KeyStroke, MovementMarkable, SendToLocation

from .maps import REINFORCEMENTS, UNMOVED_KEY
from .names import side_name

MOVED_IMAGE = "badge-moved.png"
ELIMINATE_KEY = (69, 130)         # Ctrl+E
RETURN_KEY = (82, 130)            # Ctrl+R


def moved_trait(px: int) -> MovementMarkable:
    # the icon's top-left is placed relative to the piece's top-right corner: half outside it
    t = MovementMarkable(moved_icon=MOVED_IMAGE, x_offset=-moved_px(px) // 2, y_offset=-moved_px(px) // 2,
                         command="Mark moved / unmoved", key=KeyStroke(77, 130),
                         description="Mark When Moved (cleared at each phase change)")
    t.state = "false"
    return t


def moved_px(px: int) -> int:
    return max(10, round(px * 0.18))


def moved_icon(px: int) -> bytes:
    from PIL import Image, ImageDraw

    from builder.render.counter_build import png_bytes
    s = moved_px(px)
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse((0, 0, s - 1, s - 1), fill=(255, 140, 0, 255), outline=(0, 0, 0, 255), width=max(1, s // 8))
    return png_bytes(img)


def eliminated_box(game, side: str | None) -> str | None:
    for b in (game.map_doc or {}).get("boxes") or []:
        if isinstance(b, dict) and b.get("role") == "eliminated" and b.get("side") == side:
            return b["id"]
    return None


def send_traits(game, layout, side: str | None) -> list:
    """Eliminate and Return-to-reinforcements commands for a side's units (in their prototype)."""
    out = []
    box = eliminated_box(game, side)
    if box is not None and box in layout.box_where:
        plan, board = layout.box_where[box]
        out.append(SendToLocation(command_name="Eliminate", key=KeyStroke(*ELIMINATE_KEY), map_id=plan.name,
                                  board_name=board.name, destination="Z", zone=layout.box_zone[box],
                                  description="Eliminate: to the side's dead pile"))
    if side in layout.sides:
        zone = layout.staging_zone(REINFORCEMENTS, side)
        staging = layout.maps[-1]
        out.append(SendToLocation(command_name="Return to reinforcements", key=KeyStroke(*RETURN_KEY),
                                  map_id=staging.name, board_name=staging.boards[0].name, destination="Z",
                                  zone=zone, description="Return to the side's reinforcement box"))
    return out


def add_windows(root, game) -> None:
    group = "Formation" if game.by_id["formations"] else "Nationality"
    root.add(P + "Inventory", name="Inventory", text="Inventory", tooltip="Units by side and " + group.lower(),
             icon="", hotkey="73,650", canDisable=False, propertyGate="", hideWhenDisabled=False, disabledIcon="",
             include='{UnitId!=""}', groupBy=f"Side,{group}", nonLeafFormat="$PropertyValue$",
             leafFormat="$PieceName$ ($LocationName$)", foldersOnly=False, sortPieces=True,
             sortFormat="$PieceName$", sorting="alpha", centerOnPiece=True, forwardKeystroke=True,
             showMenu=True, drawPieces=True, zoomOn=False, pieceZoom="0.33", pieceZoom2="0.5",
             pieceZoom3="0.6", sides="", refreshHotkey="")
    root.add(P + "NotesWindow", buttonText="Notes", hotkey="78,650", icon="", tooltip="Game notes")

