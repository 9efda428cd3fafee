"""The piece palette: a tab per side (a list of its nationalities, or formations for games that have
them), then a "Markers" tab grouped by marker kind; one PieceSlot per unit and per marker."""

from __future__ import annotations

from builder.vassal.buildfile import P

from .names import side_name

WIDGET = "VASSAL.build.widget."
COLUMNS = 8                 # counters a row in a palette panel


def add_palette(root, game, defs, image_px: int) -> None:
    win = root.add(P + "PieceWindow", defaultWidth=0, hidden=False, hotkey="", icon="", name="Counters",
                   scale=1.0, text="Counters", tooltip="Show/hide the counter palette")
    tabs = win.add(WIDGET + "TabWidget", entryName="Counters")
    side_order = [s["id"] for s in game.doc.get("sides") or []]
    units = [d for d in defs if d.kind == "unit"]
    for sid in side_order + sorted({d.side for d in units if d.side not in side_order}, key=str):
        mine = [d for d in units if d.side == sid]
        if mine:
            _groups(tabs, side_name(game, sid), mine, image_px)
    markers = [d for d in defs if d.kind == "marker"]
    if markers:
        _groups(tabs, "Markers", markers, image_px)


def _groups(parent, title, defs, image_px) -> None:
    groups: dict[str, list] = {}
    for d in defs:
        groups.setdefault(d.group, []).append(d)
    # the counters' panel (left of the divider) as wide as a row of counters, the list of groups (right of
    # it) wide enough for its longest name, so no label is cut off in the docked palette
    divider = COLUMNS * (image_px + 4) + 24
    label_w = max(120, min(360, 8 * max(len(name) for name in groups) + 28))
    lst = parent.add(WIDGET + "ListWidget", entryName=title, divider=divider, height=3 * image_px + 60,
                     width=divider + label_w, scale=1.0)
    for name, members in groups.items():
        # a fixed grid: the engine keeps each counter whole instead of squeezing a row into the width
        panel = lst.add(WIDGET + "PanelWidget", entryName=name, fixed=True, nColumns=COLUMNS, vert=False)
        for d in members:
            panel.add(WIDGET + "PieceSlot", d.piece.add_piece_string(), entryName=d.entry_name,
                      gpid=d.gpid, height=image_px, width=image_px)
