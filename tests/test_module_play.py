"""What a player expects of the module's pieces, palettes and windows (issue 9), from the buildFile and in
the real VASSAL Player window (the oracle's --screenshot --window all: the palettes and every window the
engine opens). The oracle parts skip cleanly where it cannot run."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest
from PIL import Image

from builder.module import palettes
from builder.module.names import safe
from builder.render.counter_build import counter_info

from oracle_support import run_oracle
from test_module_support import GAMES, buildfile, report, vmod

SCREEN = {"iron-dream": "End of the Iron Dream", "panzers-last-stand": "Operation Konrad III (Big)"}


@lru_cache(maxsize=None)
def windows(game: str) -> tuple[dict, Path]:
    out = Path(tempfile.mkdtemp(prefix=f"vb-play-{game}-"))
    atexit.register(shutil.rmtree, out, ignore_errors=True)
    o = run_oracle(vmod(game), "--screenshot", str(out), "--setup", SCREEN[game], "--zoom", "0.25",
                   "--window", "all")
    return o, out


def _px(game) -> int:
    return counter_info(report(game).model)["image_px"]


# ---------------------------------------------------------------------- palettes
@pytest.mark.parametrize("game", GAMES)
def test_palettes_markers_docked_units_in_their_own_window_every_part_whole(game):
    bf = buildfile(game)
    windows_ = [w for w in bf.root.children() if w.short == "PieceWindow"]
    assert [w.get("name") for w in windows_] == [palettes.MARKERS, palettes.UNITS]
    g = report(game).model
    seen = set()
    for w, rows in zip(windows_, (palettes.DOCKED_ROWS, palettes.ROWS)):
        for panel in w.iter("PanelWidget"):
            slots = list(panel.iter("PieceSlot"))
            assert 0 < len(slots) <= rows * palettes.COLUMNS, panel.get("entryName")
            seen |= {s.get("gpid") for s in slots}
    assert len(seen) == len(g.units) + len(g.by_id["markers"])
    # a group too large for one panel is listed in numbered parts, in order
    assert palettes.parts({"G": list(range(25))}, 10) == [
        ("G 1/3", list(range(10))), ("G 2/3", list(range(10, 20))), ("G 3/3", list(range(20, 25)))]
    assert palettes.parts({"G": [1, 2]}, 10) == [("G", [1, 2])]


@pytest.mark.oracle
@pytest.mark.parametrize("game", GAMES)
def test_real_window_units_palette_shows_its_rows_and_markers_are_docked(game):
    o, out = windows(game)
    assert o["exit_code"] == 0 and not o["errors"] and not o["warnings"], (o["errors"], o["warnings"])
    shots = {s["file"].rsplit("/", 1)[-1]: s for s in o["screenshots"]}
    docked = shots["palette-markers.png"]
    assert docked["kind"] == "palette" and docked["height"] >= _px(game)        # one whole row, docked
    units = [s for s in o["screenshots"] if s["window"] == palettes.UNITS and s["kind"] == "window"]
    assert units, sorted(shots)
    with Image.open(out / units[0]["file"].rsplit("/", 1)[-1]) as im:
        # ROWS rows of counters below the tab row, and a row of counters plus the list beside it
        assert im.height >= palettes.ROWS * (_px(game) + palettes.GAP)
        assert im.width >= palettes.COLUMNS * (_px(game) + palettes.GAP)


# ---------------------------------------------------------------------- game piece layers
@pytest.mark.parametrize("game", GAMES)
def test_every_map_orders_pieces_in_the_datas_layers_and_every_piece_names_its_layer(game):
    from builder.module import layers
    g, bf = report(game).model, buildfile(game)
    order = [la["name"] for la in g.doc["piece_layers"]]
    units_layer = next(la["name"] for la in g.doc["piece_layers"] if la.get("units"))
    maps = [m for m in bf.root.children() if m.short == "Map"]
    assert maps
    for m in maps:
        (lpc,) = m.children("LayeredPieceCollection")
        assert lpc.get("property") == layers.PROPERTY and lpc.get("layerOrder").split(",") == order
    by_kind = {k: la["name"] for la in g.doc["piece_layers"] for k in la.get("kinds") or []}
    for s in bf.piece_slots():
        props = s.piece.properties()
        if "UnitId" in props:
            assert props[layers.PROPERTY] == units_layer, props["UnitId"]
        else:
            kind = g.by_id["markers"][props["MarkerId"]].get("kind")
            assert props[layers.PROPERTY] == by_kind.get(kind, order[-1]), props["MarkerId"]
    # hex markers (control, forts, invasion ports) are drawn under the units, status markers over them
    assert order.index(by_kind["fortification"]) < order.index(units_layer) < len(order) - 1


@pytest.mark.parametrize("game", GAMES)
def test_set_up_stacks_hold_one_layer_each_with_that_layers_index(game):
    from builder.module import layers
    from builder.vassal.savefile import SaveFile
    from test_module_support import entries
    g = report(game).model
    order = [la["name"] for la in g.doc["piece_layers"]]
    files = {n: b for n, b in entries(game).items() if n.endswith(".vsav")}
    assert len(files) == len(g.by_id["scenarios"])
    for name, data in files.items():
        adds = {c.piece_id: c for c in (c for _, c in SaveFile.from_bytes(data).leaves()) if c.TYPE == "AddPiece"}
        for c in adds.values():
            p = c.piece
            if not p.is_stack:
                continue
            member_layers = {adds[m].piece.properties()[layers.PROPERTY] for m in p.inner.state_dict()["members"]}
            assert len(member_layers) == 1, (name, member_layers)
            (la,) = member_layers
            assert p.inner.state_dict()["layer"] == str(order.index(la)), name
    # the markers a set-up puts with a unit ride in its stack (the audit reads what a unit carries from it)
    units_layer = next(la["name"] for la in g.doc["piece_layers"] if la.get("units"))
    for sc in g.by_id["scenarios"].values():
        for e in sc.get("setup") or []:
            for mid in e.get("with") or [] if isinstance(e, dict) else []:
                assert layers.layer_of(g, "marker", g.by_id["markers"][mid].get("kind")) == units_layer, mid


def test_a_layer_naming_an_unknown_marker_kind_is_an_error_at_its_place(tmp_path):
    from builder.gamedata.validate import validate_game
    from test_audit_support import tiny_copy
    extra = """
markers:
  - {id: ctl, name: Control, kind: control, front: {text: C}}
piece_layers:
  - {name: Under, kinds: [control]}
  - {name: Units, units: true, kinds: [contrl]}
  - {name: Over, units: true, kinds: [control]}
"""
    r = validate_game(str(tiny_copy(tmp_path, game_extra=extra)))
    msgs = sorted(d.message for d in r.errors)
    assert any("no marker has kind 'contrl'" in m for m in msgs), msgs
    assert any("kind 'control' is already in layer 'Under'" in m for m in msgs), msgs
    assert any("more than one layer says 'units: true'" in m for m in msgs), msgs
    assert all(d.line for d in r.errors)


# ---------------------------------------------------------------------- the cup
def test_the_chit_cup_is_a_face_down_shuffled_deck_of_masked_chits():
    from builder.module import cups
    from builder.vassal.savefile import SaveFile
    from builder.vassal.traits import Obscurable
    from test_module_support import entries
    game = "iron-dream"
    g, bf = report(game).model, buildfile(game)
    assert cups.boxes(g) == ["chit-cup"]
    (pile,) = list(bf.root.iter("DrawPile"))
    assert pile.get("name") == "Second invasion chit cup"
    assert (pile.get("faceDown"), pile.get("shuffle"), pile.get("drawFaceUp")) == ("Always", "Always", "false")
    assert pile.parent.get("mapName") == "Main Map" and pile.get("owningBoard") == "Map"
    chits = {m for m in g.by_id["markers"] if m.startswith("invasion-chit-")}
    assert cups.markers(g) == chits
    for s in bf.piece_slots():
        props = s.piece.properties()
        mask = s.piece.find(Obscurable)
        assert (mask is not None) == (props.get("MarkerId") in chits), props
        if mask is not None:
            assert mask.get("image") == cups.BACK_IMAGE and s.piece.layers[0].id == "obs;"
    assert f"images/{cups.BACK_IMAGE}" in entries(game)
    for sc in g.by_id["scenarios"]:
        cmds = [c for _, c in SaveFile.from_bytes(entries(game)[f"{safe(sc)}.vsav"]).leaves()]
        decks = [c for c in cmds if c.TYPE == "AddPiece" and c.piece.is_deck]
        assert len(decks) == 1, sc
        st = decks[0].piece.inner.state_dict()
        assert st["face_down"] and len(st["members"]) == 3
        assert {c.piece.properties()["MarkerId"] for c in cmds if c.TYPE == "AddPiece" and c.piece_id in st["members"]} == chits
        assert any(c.TYPE == "SetupStack" for c in cmds)      # the draw pile is not laid out again


@pytest.mark.oracle
def test_real_engine_puts_the_chits_in_the_cups_deck_in_every_scenario():
    o = run_oracle(vmod("iron-dream"), "--setups")
    assert o["_exit"] == 0 and not o["errors"] and not o["warnings"], (o["errors"], o["warnings"])
    for s in (s for s in o["predefined_setups"] if not s["is_menu"]):
        chits = [p for p in s["save"]["pieces"] if p["name"].startswith("Second Invasion Chit")]
        assert len(chits) == 3, s["name"]
        for p in chits:
            assert p["container"]["type"] == "Deck" and p["container"]["name"] == "Second invasion chit cup"
            assert p["location"] == "Second invasion chit cup"
        decks = [st for st in s["save"]["stacks"] if st["type"] == "Deck"]
        assert len(decks) == 1 and len(decks[0]["members"]) == 3


# ---------------------------------------------------------------------- combat results tables
@pytest.mark.parametrize("game", GAMES)
def test_combat_results_table_is_the_datas_chart_and_says_what_is_authored(game):
    import io
    from builder.module import charts
    from test_module_support import entries
    g, bf = report(game).model, buildfile(game)
    tables = g.doc["combat_results"]
    assert tables
    tabs = {c.get("chartName"): c.get("fileName") for c in bf.root.iter("Chart")}
    for t in tables:
        assert tabs[t["name"]] == f"chart-crt-{t['id']}.png"
        png = entries(game)[f"images/chart-crt-{t['id']}.png"]
        assert png == charts.crt_chart(g, t)                       # drawn from the data, deterministic
        width = len(t["headings"][0]["cells"])
        assert all(len(r["cells"]) == width for r in t["headings"] + t["rows"])
        with Image.open(io.BytesIO(png)) as im:
            # a row per heading line and per roll, the key and the modifiers under it
            assert im.height >= 34 * (len(t["headings"]) + len(t["rows"]) + len(t.get("key") or []))
        assert t.get("authored"), "no rulebook of the shipped games prints its CRT: the table is authored"
    # what 'AUTHORED' adds to the title, and that a table without authored parts has none
    plain = {**tables[0], "authored": {}}
    assert charts.crt_chart(g, plain) != charts.crt_chart(g, tables[0])


def test_eotid_crt_keeps_what_the_rulebook_gives():
    t = report("iron-dream").model.doc["combat_results"][0]
    lines = {h["label"]: h["cells"] for h in t["headings"]}
    rolls = {r["label"]: r["cells"] for r in t["rows"]}
    assert lines["Clear"][-1] == "7-1"                                   # 18.12: clear's highest column
    assert rolls["6"][lines["Clear"].index("5-1")] == "1/2"              # 18.9 A
    assert "Berlin" in lines                                             # 25.1 A: its own line
    results = {part for cells in rolls.values() for c in cells for part in c.split("/")}
    assert results <= {"0", "1", "2", "3", "E"}                          # 18.13 B
    assert set(rolls) >= {"1", "2", "3", "4", "5", "6"}


def test_a_crt_row_with_the_wrong_number_of_cells_is_an_error_at_its_place(tmp_path):
    from builder.gamedata.validate import validate_game
    from test_audit_support import tiny_copy
    extra = """
combat_results:
  - id: crt
    name: CRT
    headings: [{label: Odds, cells: ["1-1", "2-1"]}]
    rows: [{label: "1", cells: ["0/1", "0/2"]}, {label: "2", cells: ["0/1"]}]
"""
    r = validate_game(str(tiny_copy(tmp_path, game_extra=extra)))
    (err,) = r.errors
    assert "1 cells; the table has 2 result columns" in err.message and err.line


# ---------------------------------------------------------------------- turn record track
@pytest.mark.parametrize("game", GAMES)
def test_turn_record_track_window_has_a_box_per_turn_and_every_scenario_starts_its_markers_on_it(game):
    from builder.module import turntrack
    from test_module_support import layout, plans
    g, bf = report(game).model, buildfile(game)
    spec = g.doc["turn_record_track"]
    names = turntrack.zones(g)
    turns = sorted({t["turn"] for t in g.doc["turns"]})
    assert len(names) >= len(turns) and names[0].startswith("Turn 1")
    track_map = bf.map(spec.get("name") or "Turn Record Track")
    zones = [z.get("name") for z in track_map.iter("Zone")]
    assert zones == names
    lay = layout(game)
    for sid, sc in g.by_id["scenarios"].items():
        plan = plans(game)[sid]
        first = turntrack.zone(g, turntrack.first_turn(g, sc))
        on_track = {p.d.key: p.location for p in plan.placements if p.d.key in spec["markers"]}
        assert on_track == {m: first for m in spec["markers"]}, sid
        # inside the box, one place each
        placed = [(p.x, p.y) for p in plan.placements if p.d.key in spec["markers"]]
        assert len(set(placed)) == len(placed)
        _, board, (x, y, w, h) = lay.zone_inner[first]
        assert all(x <= px <= x + w and y <= py <= y + h for px, py in placed)


def test_a_track_marker_that_does_not_exist_is_an_error(tmp_path):
    from builder.gamedata.validate import validate_game
    from test_audit_support import tiny_copy
    r = validate_game(str(tiny_copy(tmp_path, game_extra="\nturn_record_track: {markers: [game-trun]}\n")))
    assert any("game-trun" in d.message for d in r.errors) and all(d.line for d in r.errors)


@pytest.mark.oracle
@pytest.mark.parametrize("game", GAMES)
def test_real_window_shows_the_turn_record_track_with_its_marker(game):
    from builder.module import turntrack
    o, out = windows(game)
    g = report(game).model
    sc = next(sc for k, sc in g.by_id["scenarios"].items() if (sc.get("name") or k) == SCREEN[game])
    title = g.doc["turn_record_track"].get("name") or "Turn Record Track"
    shots = [s for s in o["screenshots"] if s["map"] == title]
    assert {s["kind"] for s in shots} >= {"window", "whole_map"}, [s["file"] for s in o["screenshots"]]
    whole = next(s for s in shots if s["kind"] == "whole_map")
    # the first turn's box holds the marker's picture: not the blank box of the empty image
    from test_module_support import entries, layout
    import io
    lay = layout(game)
    _, cx, cy, _ = lay.place_point(turntrack.zone(g, turntrack.first_turn(g, sc)), 0)
    z, half = whole["zoom"], _px(game) / 2
    with Image.open(out / whole["file"].rsplit("/", 1)[-1]) as seen, \
            Image.open(io.BytesIO(entries(game)[f"images/{turntrack.IMAGE}"])) as empty:
        box = (round((cx - half) * z), round((cy - half) * z), round((cx + half) * z), round((cy + half) * z))
        a = seen.convert("L").crop(box)
        b = empty.convert("L").resize(seen.size).crop(box)
        from PIL import ImageChops, ImageStat
        assert ImageStat.Stat(ImageChops.difference(a, b)).mean[0] > 8


# ---------------------------------------------------------------------- right-click commands
def _commands(piece) -> list[tuple[str, str, tuple]]:
    """(trait, command name, (key code, modifiers)) of every menu command of an expanded piece."""
    from builder.vassal.traits import (Clone, Delete, DynamicProperty, Embellishment, KeyStroke,
                                       MovementMarkable, Obscurable, SendToLocation)
    out = []
    for t in piece.layers:
        if isinstance(t, Embellishment):
            for name, key in ((t.get("up_command"), t.get("increase_keystroke")),
                              (t.get("down_command"), t.get("decrease_keystroke"))):
                if name and key:
                    out.append((t.get("name"), name, (key.code, key.modifiers)))
        elif isinstance(t, (SendToLocation, Clone, Delete)):
            out.append((type(t).__name__, t.get("command_name"), (t.get("key").code, t.get("key").modifiers)))
        elif isinstance(t, MovementMarkable):
            out.append(("moved", t.get("command"), (t.get("key").code, t.get("key").modifiers)))
        elif isinstance(t, Obscurable):
            out.append(("mask", t.get("hide_command"), (t.get("key").code, t.get("key").modifiers)))
        elif isinstance(t, DynamicProperty):
            for name, key, *_ in t.commands():
                k = KeyStroke.parse(key)
                out.append(("property", name, (k.code, k.modifiers)))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_piece_has_its_right_click_commands_on_distinct_keys(game):
    from builder.module import behaviour, cups
    from builder.module.names import FLIP_KEY, LOSS_KEY
    from builder.vassal.piece import expand_prototypes
    g, bf = report(game).model, buildfile(game)
    protos = {p.get("name"): p.piece for p in bf.prototypes()}
    seen = set()
    for s in bf.piece_slots():
        piece = expand_prototypes(s.piece, protos.get)
        cmds = _commands(piece)
        keys = [k for _, _, k in cmds]
        assert len(keys) == len(set(keys)), (s.piece.name, cmds)          # one command per key
        names = {n: k for _, n, k in cmds}
        seen |= set(names)
        props = s.piece.properties()
        if "UnitId" in props:
            assert names.get("Mark moved / unmoved") == (77, 130)
            unit = g.units[props["UnitId"]]
            if g.counter_count(unit) > 1 or (unit.get("back") or {}):
                assert FLIP_KEY in keys, props["UnitId"]
            if behaviour.eliminated_box(g, props["Side"]):
                assert names.get("Eliminate") == behaviour.ELIMINATE_KEY, props["UnitId"]
            assert names.get("Return to reinforcements") == behaviour.RETURN_KEY, props["UnitId"]
        if props.get("MarkerId") in cups.markers(g):
            assert names.get("Reveal / hide") == cups.REVEAL_KEY
    assert {"Eliminate", "Return to reinforcements", "Mark moved / unmoved"} <= seen
    assert any(n in seen for n in ("Flip", "Lose step"))


@pytest.mark.oracle
@pytest.mark.parametrize("game", GAMES)
def test_real_engine_reads_every_pieces_trait_chain_as_written(game):
    """The engine expands each palette piece to the trait chain we wrote: no trait unknown to it (which it
    would turn into a plain Marker), no prototype missing; so its menu holds the commands checked above."""
    from builder.vassal.piece import expand_prototypes
    o, _ = windows(game)
    bf = buildfile(game)
    protos = {p.get("name"): p.piece for p in bf.prototypes()}
    engine = {s["gpid"]: s for s in o["piece_slots"]}
    slots = bf.piece_slots()
    assert len(engine) == len(slots)
    for s in slots:
        e = engine[s.gpid]
        assert not e.get("error")
        assert s.piece.trait_ids() == e["traits"]
        assert expand_prototypes(s.piece, protos.get).trait_ids() == e["traits_expanded"], s.gpid


# ---------------------------------------------------------------------- Activation Display
def test_each_scenario_starts_its_formations_activation_markers_in_the_available_box():
    from builder.module import activation
    from test_module_support import plans
    game = "panzers-last-stand"
    g = report(game).model
    d = g.doc["activation_display"]
    avail = next(b for b in d["boxes"] if b.get("role") == "available")
    checked = 0
    for sid, sc in g.by_id["scenarios"].items():
        units = set()
        for e in sc.get("setup") or []:
            units |= {e["unit"]} if isinstance(e.get("unit"), str) else set(e.get("units") or [])
        formations = {g.units[u].get("formation") for u in units if u in g.units} - {None}
        want = {mid: activation.zone_name(g, m["side"], avail) for mid, m in g.by_id["markers"].items()
                if m.get("kind") == d["marker_kind"] and m.get("formation") in formations}
        got = {p.d.key: p.location for p in plans(game)[sid].placements
               if g.by_id["markers"].get(p.d.key, {}).get("kind") == d["marker_kind"]}
        assert got == want, sid
        checked += len(got)
    assert checked > 20
