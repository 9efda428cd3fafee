"""The Activation Display (data: ``activation_display``) as a window of the module.

One board of labelled boxes, per side and box "<side>: <box>" (drawn by the map step's box panel, as the
Staging map is), each side's boxes in columns of their own under the side's name. Each box is a Zone, so a marker moved there is logged as "... moves X -> Axis: Activating"
and the audit names its location after the box: activating a formation, spending an allotment, a Second
Activation and being done are ordinary logged moves of the formation's Activation marker.
"""

from __future__ import annotations

from .images import staging_panel
from .names import side_name

IMAGE = "activation-display.png"


def display(game) -> dict | None:
    d = game.doc.get("activation_display")
    return d if isinstance(d, dict) and d.get("boxes") else None


def zone_name(game, side: str, box: dict) -> str:
    return f"{side_name(game, side)}: {box.get('name') or box['id']}"


def zones(game) -> dict:
    """Zone name -> (side id, box spec), in drawing order."""
    d = display(game)
    if d is None:
        return {}
    out = {}
    for s in game.doc.get("sides") or []:
        for box in d["boxes"]:
            if isinstance(box, dict) and box.get("id"):
                out[zone_name(game, s["id"], box)] = (s["id"], box)
    return out


def starting_markers(game, scenario) -> list[tuple[str, str]]:
    """(marker id, zone) for a scenario's start: the activation marker of every formation with units set up
    in it, in its side's box of role ``available`` (PLS 1.8c: the Available Formations Box)."""
    d = display(game)
    avail = next((b for b in (d or {}).get("boxes") or [] if isinstance(b, dict) and b.get("role") == "available"), None)
    if avail is None:
        return []
    units = set()
    for e in scenario.get("setup") or []:
        if isinstance(e, dict):
            units |= {e["unit"]} if isinstance(e.get("unit"), str) else set(e.get("units") or [])
    formations = {(game.units.get(u) or {}).get("formation") for u in units} - {None}
    return [(mid, zone_name(game, m["side"], avail)) for mid, m in game.by_id["markers"].items()
            if m.get("kind") == d.get("marker_kind") and m.get("formation") in formations and m.get("side")]


def add_display(layout) -> None:
    """Insert the display's map before the Staging map (which stays last) and its image."""
    from .maps import BoardPlan, MapPlan

    game = layout.game
    d = display(game)
    if d is None:
        return
    names = zones(game)
    title = d.get("name") or "Activation Display"
    # each box is sized for its data's ``holds`` markers side by side (more stack, as on the cardboard)
    # and the Available box for every formation a scenario starts there, so none is stacked out of sight
    counts = {z: int(box.get("holds") or 1) for z, (_, box) in names.items()}
    for sc in game.by_id["scenarios"].values():
        start: dict = {}
        for _, zone in starting_markers(game, sc):
            start[zone] = start.get(zone, 0) + 1
        for zone, n in start.items():
            counts[zone] = max(counts.get(zone, 1), n)
    holds = (counts, layout.place_px)
    # each side's boxes together, in a column of their own under the side's name
    groups = [(side_name(game, s["id"]), [z for z, (sid, _) in names.items() if sid == s["id"]])
              for s in game.doc.get("sides") or []]
    png, size, rects, inner = staging_panel(layout.grid, title, list(names), holds, draw=layout.draw,
                                            groups=[g for g in groups if g[1]])
    layout.extra_images[IMAGE] = png
    plan = MapPlan(title, [BoardPlan(title, IMAGE, size, zones=rects)])
    for name, rect in inner.items():
        layout.zone_inner[name] = (plan, plan.boards[0], rect)
    layout.maps.insert(len(layout.maps) - 1, plan)
    layout.display_map = plan
