"""The turn record track (data: ``turn_record_track``) as a window of the module.

One board of labelled boxes, "Turn 1" ... the last turn of any calendar (with the turn's date where every
calendar gives that turn the same one), drawn by the map step's box panel as the Staging map is. Each box
is a Zone, so moving the Game Turn marker is logged as "... moves Turn 3 -> Turn 4". Every scenario starts
the track's markers in the box of its first turn, a weather marker on the face of that turn's weather.
"""

from __future__ import annotations

import re

from .images import staging_panel

IMAGE = "turn-record-track.png"


def spec(game) -> dict | None:
    t = game.doc.get("turn_record_track")
    return t if isinstance(t, dict) and t.get("markers") else None


def markers(game) -> list[str]:
    t = spec(game)
    return [m for m in (t or {}).get("markers") or [] if m in game.by_id["markers"]]


def _turns(game) -> dict[int, set]:
    """Turn number -> the labels its calendars give it."""
    out: dict[int, set] = {}
    lists = [game.doc.get("turns")] + [sc.get("turns") for sc in game.by_id["scenarios"].values()]
    for turns in lists:
        for t in turns or []:
            if isinstance(t, dict) and isinstance(t.get("turn"), int):
                out.setdefault(t["turn"], set()).add(str(t.get("label") or t.get("date") or ""))
    return dict(sorted(out.items()))


def zone(game, turn: int) -> str:
    labels = _turns(game).get(turn) or set()
    return f"Turn {turn}" + (f": {next(iter(labels))}" if len(labels) == 1 and "" not in labels else "")


def zones(game) -> list[str]:
    return [zone(game, n) for n in _turns(game)]


def first_turn(game, scenario) -> int | None:
    turns = list(_turns(game))
    ft = scenario.get("first_turn")
    return ft if ft in turns else (turns[0] if turns else None)


def first_weather(game, scenario) -> dict | None:
    """The weather of a scenario's first turn: its ``first_turn_weather``, else the ``weather`` its
    calendar gives that turn; None where the data gives neither."""
    wid = scenario.get("first_turn_weather")
    if not wid:
        first = first_turn(game, scenario)
        for t in scenario.get("turns") or game.doc.get("turns") or []:
            if isinstance(t, dict) and t.get("turn") == first:
                wid = t.get("weather")
    return game.by_id["weather"].get(wid) if wid else None


def starting_face(game, scenario, marker_id: str) -> str:
    """The face a track marker starts on: a weather marker (a face that prints a weather's name, e.g. PLS's
    Good / Normal-Poor marker) on the face naming the first turn's weather; any other marker its front."""
    weather = first_weather(game, scenario)
    marker = game.by_id["markers"].get(marker_id) or {}
    if weather is None:
        return "front"
    names = {str(n).lower() for n in (weather.get("name"), weather.get("id")) if n}
    for face in ("front", "back"):
        text = str((marker.get(face) or {}).get("text") or "").lower()
        if any(re.search(rf"\b{re.escape(n)}\b", text) for n in names):
            return face
    return "front"


def add_track(layout) -> None:
    """Insert the track's map before the Staging map (which stays last), and its image."""
    from .maps import BoardPlan, MapPlan

    game = layout.game
    t = spec(game)
    names = zones(game)
    if t is None or not names:
        return
    title = t.get("name") or "Turn Record Track"
    holds = ({z: len(markers(game)) for z in names}, layout.place_px)
    png, size, rects, inner = staging_panel(layout.grid, title, names, holds, draw=layout.draw,
                                            groups=[(None, names)])     # the window's title says what they are
    layout.extra_images[IMAGE] = png
    plan = MapPlan(title, [BoardPlan(title, IMAGE, size, zones=rects)])
    for name, rect in inner.items():
        layout.zone_inner[name] = (plan, plan.boards[0], rect)
    layout.maps.insert(len(layout.maps) - 1, plan)
