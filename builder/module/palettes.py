"""The piece palettes: one PieceSlot per unit and per marker.

VASSAL 3.6 docks the first PieceWindow into the main window at the chat's height (Map.setup sets the
divider to the Chatter's preferred height, about 150 px: one row of counters), whatever the module
asks, and a palette panel neither scrolls nor keeps more rows than fit (its grid squeezes them). So:

* the docked palette holds the markers (what a player drags on during play): a list of marker kinds
  (split by side where a kind has markers of several sides), each entry one row of counters;
* the units are in a palette window of their own ("Units", from the toolbar), ROWS rows tall: a tab
  per side, each a list of its nationalities (or formations, in games that have them).

A group larger than a panel holds is listed in parts ("German Army (Wehrmacht) 2/3"), so every counter
is drawn whole. A game without markers docks its units' palette.
"""

from __future__ import annotations

from builder.vassal.buildfile import P

from .names import side_name

WIDGET = "VASSAL.build.widget."
UNITS, MARKERS = "Units", "Markers"
COLUMNS = 10                # counters a row in a palette panel
ROWS = 4                    # rows of counters the units' window shows
DOCKED_ROWS = 1             # rows the docked palette shows (the engine's docking height)
GAP = 4                     # px between counters in a panel


def add_palette(root, game, defs, image_px: int) -> None:
    side_order = [s["id"] for s in game.doc.get("sides") or []]
    units = [d for d in defs if d.kind == "unit"]
    markers = [d for d in defs if d.kind == "marker"]
    if markers:          # the first PieceWindow is the docked one
        win = _window(root, MARKERS, "Show/hide the marker palette")
        _groups(win, MARKERS, _marker_groups(game, markers), image_px, DOCKED_ROWS)
    if units:
        win = _window(root, UNITS, "Show/hide the units' palette (by side, then nationality or formation)")
        tabs = win.add(WIDGET + "TabWidget", entryName=UNITS)
        rows = DOCKED_ROWS if not markers else ROWS
        for sid in side_order + sorted({d.side for d in units if d.side not in side_order}, key=str):
            mine = [d for d in units if d.side == sid]
            if mine:
                groups: dict[str, list] = {}
                for d in mine:
                    groups.setdefault(d.group, []).append(d)
                _groups(tabs, side_name(game, sid), groups, image_px, rows)


def _window(root, name: str, tooltip: str):
    return root.add(P + "PieceWindow", defaultWidth=0, hidden=False, hotkey="", icon="", name=name,
                    scale=1.0, text=name, tooltip=tooltip)


def _marker_groups(game, markers) -> dict[str, list]:
    by_kind: dict[str, list] = {}
    for d in markers:
        by_kind.setdefault(d.group, []).append(d)
    out: dict[str, list] = {}
    names = {k.get("id"): k.get("name") for k in game.doc.get("marker_kinds") or [] if isinstance(k, dict)}
    for kind, members in by_kind.items():
        label = names.get(kind) or kind_label(kind)
        sides = {d.side for d in members}
        for d in members:
            key = label if len(sides) == 1 else f"{label}: {side_name(game, d.side) if d.side else 'any side'}"
            out.setdefault(key, []).append(d)
    return out


def kind_label(kind: str) -> str:
    """A marker kind the data does not name, as a label ('step-loss' -> 'Step loss')."""
    words = kind.replace("-", " ").replace("_", " ")
    return words[:1].upper() + words[1:]


def parts(groups: dict[str, list], per: int) -> list[tuple[str, list]]:
    """(entry name, members) with at most *per* members each: a larger group in numbered parts."""
    out = []
    for name, members in groups.items():
        n = -(-len(members) // per)
        for k in range(n):
            out.append((name if n == 1 else f"{name} {k + 1}/{n}", members[k * per:(k + 1) * per]))
    return out


def panel_height(image_px: int, rows: int) -> int:
    """A list's height: *rows* rows of counters, the tab row and the split's border."""
    return rows * (image_px + GAP) + 48


def _groups(parent, title, groups: dict[str, list], image_px, rows) -> None:
    entries = parts(groups, COLUMNS * rows)
    # the counters' panel (left of the divider) as wide as a row of counters, the list of groups (right of
    # it) wide enough for its longest name, so no label is cut off
    divider = COLUMNS * (image_px + GAP) + 24
    label_w = max(120, min(360, 8 * max(len(name) for name, _ in entries) + 28))
    lst = parent.add(WIDGET + "ListWidget", entryName=title, divider=divider, height=panel_height(image_px, rows),
                     width=divider + label_w, scale=1.0)
    for name, members in entries:
        # a fixed grid of whole counters: a part never has more rows than the palette shows
        panel = lst.add(WIDGET + "PanelWidget", entryName=name, fixed=True, nColumns=COLUMNS, vert=False)
        for d in members:
            panel.add(WIDGET + "PieceSlot", d.piece.add_piece_string(), entryName=d.entry_name,
                      gpid=d.gpid, height=image_px, width=image_px)
