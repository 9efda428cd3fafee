"""Piece behaviour and windows players expect: Mark When Moved cleared by the turn tracker, Eliminate and
Return commands to real zones, Inventory and Notes windows (read back from the built buildFile)."""

from __future__ import annotations

import pytest

from builder.module import behaviour, palettes
from builder.module.maps import UNMOVED_KEY
from builder.vassal.traits import MovementMarkable, SendToLocation

from test_module_support import GAMES, buildfile, entries, layout, report


@pytest.mark.parametrize("game", GAMES)
def test_moved_marks_are_on_and_cleared_at_every_phase_change(game):
    bf = buildfile(game)
    for m in bf.maps():
        assert m.get("markMoved") == "Always" and m.get("markUnmovedHotkey") == UNMOVED_KEY
    trackers = bf.turn_trackers()
    assert trackers
    for tt in trackers:
        hot = [c for c in tt.children() if c.short == "TurnGlobalHotkey"]
        assert [h.get("hotkey") for h in hot] == [UNMOVED_KEY] and not hot[0].get("match")
    units = [s for s in bf.piece_slots() if s.piece.properties().get("UnitId")]
    for s in units:
        mm = s.piece.find(MovementMarkable)
        assert mm is not None and mm.get("moved_icon") == behaviour.MOVED_IMAGE and not mm.moved
    assert f"images/{behaviour.MOVED_IMAGE}" in entries(game)


@pytest.mark.parametrize("game", GAMES)
def test_eliminate_and_return_send_each_side_to_its_own_boxes(game):
    g, bf = report(game).model, buildfile(game)
    zones = {(m.map_name, z.name) for m in bf.maps() for z in m.zones()}
    dead = {b["side"]: b["name"] for b in g.map_doc["boxes"] if b.get("role") == "eliminated"}
    assert set(dead) == {s["id"] for s in g.doc["sides"]}
    for proto in bf.prototypes():
        sends = {t.get("command_name"): t for t in proto.piece.layers if isinstance(t, SendToLocation)}
        if proto.name == "Marker":
            assert not sends
            continue
        elim, back = sends["Eliminate"], sends["Return to reinforcements"]
        assert (elim.get("map_id"), elim.get("zone")) in zones and elim.get("destination") == "Z"
        assert (back.get("map_id"), back.get("zone")) in zones and back.get("zone").startswith("Reinforcements: ")
        side = next(s for s in g.doc["sides"] if proto.name.startswith(s["name"] + " "))
        assert elim.get("zone") == dead[side["id"]] and back.get("zone") == f"Reinforcements: {side['name']}"


@pytest.mark.parametrize("game", GAMES)
def test_inventory_by_side_and_formation_and_notes(game):
    g, bf = report(game).model, buildfile(game)
    inv = [c for c in bf.root.children() if c.short == "Inventory"]
    assert len(inv) == 1
    group = "Formation" if g.by_id["formations"] else "Nationality"
    assert inv[0].get("groupBy") == f"Side,{group}" and "UnitId" in inv[0].get("include")
    assert [c for c in bf.root.children() if c.short == "NotesWindow"]


@pytest.mark.parametrize("game", GAMES)
def test_chart_window_holds_the_charts_drawn_from_the_data(game):
    import io

    from PIL import Image

    from builder.module import charts
    g, bf = report(game).model, buildfile(game)
    win = [c for c in bf.root.children() if c.short == "ChartWindow"]
    assert len(win) == 1
    tabs = {c.get("chartName"): c.get("fileName") for c in win[0].iter("Chart")}
    assert {"Terrain Effects", "Sequence of Play", "Turn Record"} <= set(tabs)
    for name, file in tabs.items():
        with Image.open(io.BytesIO(entries(game)[f"images/{file}"])) as im:
            assert im.width > 200 and im.height > 100, name
    # deterministic, and one terrain row per terrain and hexside type of the map
    assert charts.terrain_chart(g) == charts.terrain_chart(g)
    n_types = len(g.map_doc["terrain_types"]) + len(g.map_doc.get("hexside_types") or [])
    with Image.open(io.BytesIO(charts.terrain_chart(g))) as im:
        assert im.height >= 40 + 34 * (n_types + 1)


@pytest.mark.parametrize("game", GAMES)
def test_zoom_levels_fit_the_map_and_palette_labels_fit_their_list(game):
    from builder.module.maps import _map_size
    bf = buildfile(game)
    for plan in layout(game).maps:
        z = bf.map(plan.name).child("Zoomer")
        levels = sorted(float(v) for v in z.get("zoomLevels").split(","))
        w, h = _map_size(plan)
        # the most zoomed-out level shows the whole map in a 1800 x 950 window
        assert levels[0] <= max(0.05, min(1.0, 1800 / w, 950 / h)) + 0.01 and levels[-1] >= 1.0
        start = sorted(levels, reverse=True)[int(z.get("zoomStart")) - 1]
        assert 0.05 <= start <= 1.0
    lists = list(bf.root.iter("ListWidget"))
    assert lists
    for lst in lists:
        names = [c.get("entryName") for c in lst.children() if c.short == "PanelWidget"]
        px = int(next(lst.iter("PieceSlot")).get("width"))
        assert int(lst.get("divider")) >= 8 * px                       # a row of counters left of it
        assert int(lst.get("width")) - int(lst.get("divider")) >= min(360, 8 * max(len(n) for n in names))
        # every part of a group fits the rows its palette shows: the docked one row, the units' window ROWS
        docked = lst.parent is not None and lst.parent.get("name") == palettes.MARKERS
        rows = palettes.DOCKED_ROWS if docked else palettes.ROWS
        assert int(lst.get("height")) >= rows * px
        for panel in (c for c in lst.children() if c.short == "PanelWidget"):
            assert 0 < len(list(panel.iter("PieceSlot"))) <= rows * int(panel.get("nColumns"))
