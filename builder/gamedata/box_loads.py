"""What the scenarios put in each off-map box at set-up: how many counter places a box must show.

A place is one unit (with the markers that go with it) or up to MARKER_STACK copies of one marker (they
stack), so a box laid out side by side needs one place per unit and per few markers. The map step sizes its drawn boxes from this and
the module lays its pieces into those places; both read the same numbers, so a box always fits what
any scenario starts in it.
"""

from __future__ import annotations

MARKER_STACK = 3


def box_loads(game) -> dict[str, int]:
    """box id -> the most places any one scenario's set-up fills in it."""
    boxes = {b["id"] for b in (game.map_doc or {}).get("boxes") or [] if isinstance(b, dict) and "id" in b}
    out: dict[str, int] = {}
    for sc in game.by_id["scenarios"].values():
        units: dict[str, set] = {}
        markers: dict[tuple, int] = {}          # (box, marker id) -> copies
        for e in sc.get("setup") or []:
            if not isinstance(e, dict) or "hex" in e:
                continue
            box = e.get("box")
            if box not in boxes:
                continue
            if isinstance(e.get("marker"), str):
                q = e.get("quantity") if isinstance(e.get("quantity"), int) else 1
                markers[(box, e["marker"])] = markers.get((box, e["marker"]), 0) + max(1, q)
            ids = [e["unit"]] if isinstance(e.get("unit"), str) else list(e.get("units") or [])
            units.setdefault(box, set()).update(u for u in ids if isinstance(u, str))
        for box in boxes:
            n = len(units.get(box, ())) + sum(-(-q // MARKER_STACK) for (b, _), q in markers.items() if b == box)
            if n:
                out[box] = max(out.get(box, 0), n)
    return out
