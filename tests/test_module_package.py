"""The 'module' build step: buildFile structure, piece properties, scenario saves, determinism, atomicity.

Both shipped games are built once per session (test_module_support); the engine's own view is in
test_module_oracle.py.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest
from PIL import Image

from builder.errors import BuildError
from builder.geometry.vassal_derive import derive_vassal_grid, local_name
from builder.geometry.vassal_grid import grid_attributes
from builder.module import package, pieces, setups
from builder.module.names import face_key, value_text
from builder.render.counter_pieces import unit_face_values
from builder.render.map_build import game_map_images
from builder.vassal.commands import AddPiece, BoardPicker, TurnTracker
from builder.vassal.piece import Piece
from builder.vassal.placement import initial_placements
from builder.vassal.savefile import read_save
from builder.vassal.traits import Embellishment, UsePrototype

from test_module_support import GAMES, built, buildfile, defs, entries, layout, report, vmod

REPO = Path(__file__).resolve().parents[1]


def _game(name):
    return report(name).model


# ------------------------------------------------------------------------------ buildFile
@pytest.mark.parametrize("game", GAMES)
def test_root_and_singletons(game):
    bf, info = buildfile(game), _game(game).doc["game"]
    assert bf.name == info["title"]
    assert bf.vassal_version == "3.6.0"
    assert bf.version == str(info.get("version") or "1.0")
    assert bf.player_sides() == [s["name"] for s in _game(game).doc["sides"]]
    for short in ("BasicCommandEncoder", "GlobalOptions", "Chatter", "PrototypesContainer"):
        assert bf.root.child(short) is not None, short
    dice = {d.get("name") for d in bf.root.children("DiceButton")}
    assert all(d.get("reportFormat") == "** $name$ = $result$ *** <$PlayerName$>"
               for d in bf.root.children("DiceButton"))
    assert dice == set(info.get("dice") or ["1d6"])
    assert dice == ({"1d6", "2d6"} if game == "panzers-last-stand" else {"1d6"})
    assert "moduledata" in entries(game)


@pytest.mark.parametrize("game", GAMES)
def test_boards_and_grids_equal_vassal_derive(game):
    r = report(game)
    bf = buildfile(game)
    boards = {b.name: b for b in bf.map("Main Map").boards()}
    imgs = [m for m in game_map_images(r.model, r.grid) if m.kind == "board"]
    assert len(boards) == len(imgs) == (4 if game == "panzers-last-stand" else 1)
    for mi in imgs:
        b = boards[f"Sheet {mi.sheet}" if mi.sheet else "Map"]
        assert b.image == mi.file and f"images/{mi.file}" in entries(game)
        vg = derive_vassal_grid(r.grid, mi.sheet, board_origin=mi.board_origin, board_size=mi.size)
        g = b.grid if b.grid.kind == "hex" else b.grid.background
        assert g.kind == "hex"
        assert {k: g.get(k) for k in grid_attributes(vg.grid)} == grid_attributes(vg.grid)
        assert {k: g.numbering.get(k) for k in vg.numbering.attributes()} == vg.numbering.attributes()


@pytest.mark.parametrize("game", GAMES)
def test_box_zones_named_after_boxes(game):
    r = report(game)
    zones = {z.get("name") for z in buildfile(game).zones()}
    boxes = {b["name"] for b in r.model.map_doc.get("boxes") or []}
    assert boxes <= zones
    for s in r.model.doc["sides"]:
        assert {f"To place: {s['name']}", f"Reinforcements: {s['name']}"} <= zones
    turns = {e["turn"] for sc in r.model.by_id["scenarios"].values() for e in sc.get("reinforcements") or []
             if "turn" in e}
    assert {f"Reinforcements: {r.model.doc['sides'][0]['name']}, Turn {t}" for t in turns} <= zones
    if game == "panzers-last-stand":   # boxes drawn on their own image form their own map
        assert {z.get("name") for z in buildfile(game).map("Boxes").zones()} == boxes


def test_sheets_preselected_in_printedlayout():
    bf = buildfile("panzers-last-stand")
    setup = bf.map("Main Map").board_picker.child("setup")
    cmd = BoardPicker.parse(setup.text)
    assert {(b["board"], b["column"], b["row"]) for b in cmd.boards()} == {
        ("Sheet C", 0, 0), ("Sheet D", 1, 0), ("Sheet A", 0, 1), ("Sheet B", 1, 1)}


@pytest.mark.parametrize("game", GAMES)
def test_palette_one_slot_per_unit_and_marker(game):
    g, bf = _game(game), buildfile(game)
    slots = bf.piece_slots()
    props = [s.piece.properties() for s in slots]
    assert sorted(p["UnitId"] for p in props if "UnitId" in p) == sorted(g.units)
    assert sorted(p["MarkerId"] for p in props if "MarkerId" in p) == sorted(g.by_id["markers"])
    assert len(slots) == len(g.units) + len(g.by_id["markers"])
    gpids = [int(s.gpid) for s in slots]
    assert len(set(gpids)) == len(gpids) and max(gpids) < int(bf.root.get("nextPieceSlotId"))
    # the docked palette (the first) holds the markers, the units' window a tab per side
    windows = [w for w in bf.root.children() if w.short == "PieceWindow"]
    assert [w.get("name") for w in windows] == ["Markers", "Units"]
    tabs = [c.get("entryName") for c in windows[1].child("TabWidget").children()]
    assert tabs == [s["name"] for s in g.doc["sides"]]


@pytest.mark.parametrize("game", GAMES)
def test_prototypes_referenced_exist(game):
    bf = buildfile(game)
    names = {p.get("name") for p in bf.prototypes()}
    used = {t.get("prototype_name") for s in bf.piece_slots() for t in s.piece.find_all(UsePrototype)}
    assert used and used <= names


@pytest.mark.parametrize("game", GAMES)
def test_turn_tracker_levels_equal_turns_and_phases(game):
    g, bf = _game(game), buildfile(game)
    tracker = bf.turn_trackers()[0]
    (turn,) = tracker.levels()
    assert turn.get("list").split(",")[0].startswith("Turn 1")
    assert len(turn.get("list").split(",")) == len(g.doc["turns"])
    subs = [c for c in turn.children() if c.short == "ListTurnLevel"]
    assert [c.get("name") for c in subs] == [pt["name"] for pt in g.doc["sequence"]]
    for c, pt in zip(subs, g.doc["sequence"]):
        assert c.get("list") == ",".join(p["name"].replace(",", "\\,") for p in pt["phases"])
    assert tracker.get("reportFormat")   # turn/phase changes go to the chat
    lhj = _game("iron-dream").by_id["scenarios"]["let-history-judge"]
    if game == "iron-dream":   # a scenario with its own calendar gets its own tracker
        assert len(bf.turn_trackers()) == 2
        assert len(bf.turn_trackers()[1].levels()[0].get("list").split(",")) == len(lhj["turns"])


# ------------------------------------------------------------------------------ pieces
@pytest.mark.parametrize("game", GAMES)
def test_marker_traits_decode_to_unit_data(game):
    g = _game(game)
    seen = 0
    for slot in buildfile(game).piece_slots():
        props = slot.piece.properties()
        if "UnitId" not in props:
            continue
        unit = g.units[props["UnitId"]]
        assert props["Side"] == g.side_of(unit)
        assert props["Nationality"] == unit.get("nationality", "")
        assert props["Type"] == unit.get("type", "")
        assert props["Steps"] == value_text(unit.get("steps", ""))
        assert props["Formation"] == (unit.get("formation") or "")
        utype = g.by_id["unit_types"].get(unit.get("type")) or {}
        assert props["MovementClass"] == (unit.get("movement_class") or utype.get("movement_class")
                                          or value_text((unit.get("front") or {}).get("movement_class", "")))
        for index in range(g.counter_count(unit)):
            for face in ("front", "back"):
                for vid, v in (unit_face_values(unit, index, face) or {}).items():
                    assert props[f"{face_key(face, index)}_{vid}"] == value_text(v)
        assert slot.piece.name == unit.get("name", props["UnitId"])
        seen += 1
    assert seen == len(g.units)


def test_reinforcements_by_turn_and_status_in_saves():
    g = _game("panzers-last-stand")
    sc = g.by_id["scenarios"]["scenario-5-2"]
    plan = setups.ScenarioPlan(g, layout("panzers-last-stand"), defs("panzers-last-stand"), sc)
    e = next(e for e in sc["reinforcements"] if isinstance(e.get("unit"), str) and "turn" in e and not e.get("side"))
    p = next(p for p in plan.placements if p.d.key == e["unit"])
    assert (p.map, p.location) == ("Staging", f"Reinforcements: {g.by_id['sides'][g.side_of(g.units[e['unit']])]['name']}, Turn {e['turn']}")
    save = read_save(entries("panzers-last-stand")["scenario-5-2.vsav"])
    status = {}
    for _, c in save.leaves():
        if isinstance(c, AddPiece) and not c.is_stack:
            props = c.piece.properties()
            if "UnitId" in props:
                status[props["UnitId"]] = props["Status"]
    e = next(e for e in sc["setup"] if e.get("status") == ["Support"])
    assert status[e["unit"]] == "Support"


def _layer(piece, name):
    return next(t for t in piece.layers if isinstance(t, Embellishment) and t.get("name") == name)


def test_multi_counter_unit_is_one_piece_with_more_levels():
    g = _game("iron-dream")
    uid = next(u for u, unit in g.units.items() if unit.get("extra_counters"))
    slot = next(s for s in buildfile("iron-dream").piece_slots() if s.piece.properties().get("UnitId") == uid)
    layer = slot.piece.find(Embellishment)
    assert len(layer.get("images")) >= 3 and layer.get("images")[2] == f"{uid}-2-front.png"
    assert slot.piece.properties()["Front2_attack"] == value_text(g.units[uid]["extra_counters"][0]["front"]["attack"])


# ------------------------------------------------------------------------------ saves
@lru_cache(maxsize=None)
def _board_offsets(game):
    """Map-pixel top-left of each main-map board, by VASSAL's rule, from the images and the
    BoardPicker selection (independent of builder.module.maps)."""
    bf = buildfile(game)
    boards = {b.name: b for b in bf.map("Main Map").boards()}
    size = {n: Image.open(io.BytesIO(entries(game)[f"images/{b.image}"])).size for n, b in boards.items()}
    setup = bf.map("Main Map").board_picker.child("setup")
    cells = ({(b["board"]): (b["column"], b["row"]) for b in BoardPicker.parse(setup.text).boards()}
             if setup is not None else {next(iter(boards)): (0, 0)})
    out = {}
    for n, (c, r) in cells.items():
        x = sum(size[m][0] for m, (c2, r2) in cells.items() if r2 == r and c2 < c)
        y = sum(size[m][1] for m, (c2, r2) in cells.items() if c2 == c and r2 < r)
        out[n] = (x, y)
    return out


@lru_cache(maxsize=None)
def _board_images(game):
    r = report(game)
    return [m for m in game_map_images(r.model, r.grid) if m.kind == "board"]


def _expected_point(game, hex_id):
    r = report(game)
    grid = r.grid
    h = grid.parse(hex_id)
    sheet = None
    if grid.spec.has_sheets:
        sheet = next(s for s in grid.sheets_of(h) if local_name(grid, s, h) == hex_id)
    mi = next(m for m in _board_images(game) if m.sheet == sheet)
    ox, oy = _board_offsets(game)[f"Sheet {sheet}" if sheet else "Map"]
    cx, cy = grid.centre(h)
    return ox + round(cx - mi.board_origin[0]), oy + round(cy - mi.board_origin[1])


@pytest.mark.parametrize("game", GAMES)
def test_every_setup_save_places_each_unit_once_at_its_hex(game):
    g, bf = _game(game), buildfile(game)
    slot_types = {s.gpid: s.piece.type_string() for s in bf.piece_slots()}
    setups_ = [s for s in bf.predefined_setups() if s.use_file]
    assert len(setups_) == len(g.by_id["scenarios"])
    for ps, sc in zip(setups_, g.by_id["scenarios"].values()):
        save = read_save(entries(game)[ps.file])
        adds = [c for _, c in save.leaves() if isinstance(c, AddPiece)]
        ids = [c.piece_id for c in adds]
        assert len(set(ids)) == len(ids), sc["id"]
        for c in adds:
            if not c.is_stack and not c.is_deck:   # the palette's exact type string, matched by gpid
                assert c.type_string == slot_types[c.piece.basic.gpid]
        placed = initial_placements(save.commands)
        by_id = {c.piece_id: c for c in adds}
        units = {}
        for pid, p in placed.items():
            if p.kind != "piece":
                continue
            uid = by_id[pid].piece.properties().get("UnitId")
            if uid:
                assert uid not in units, f"{sc['id']}: {uid} placed twice"
                units[uid] = p
        wanted = set()
        for e in (sc.get("setup") or []) + (sc.get("reinforcements") or []):
            wanted |= {e["unit"]} if isinstance(e.get("unit"), str) else set(e.get("units") or [])
        assert set(units) == wanted, sc["id"]
        for e in sc.get("setup") or []:
            if isinstance(e.get("hex"), str) and isinstance(e.get("unit"), str):
                p = units[e["unit"]]
                assert (p.map_id, p.x, p.y) == ("Main Map", *_expected_point(game, e["hex"])), (sc["id"], e)
            if e.get("face") == "back" and isinstance(e.get("unit"), str):
                add = by_id[next(pid for pid, p in placed.items() if p is units[e["unit"]])]
                assert _layer(add.piece, "Face").level >= 2
        turns = [c for _, c in save.leaves() if isinstance(c, TurnTracker)]
        assert len(turns) == 1


def test_step_losses_select_the_layer_level_or_loss_markers():
    g = _game("panzers-last-stand")
    plan = setups.ScenarioPlan(g, layout("panzers-last-stand"), defs("panzers-last-stand"),
                               g.by_id["scenarios"]["scenario-5-2"])
    e = next(e for e in g.by_id["scenarios"]["scenario-5-2"]["setup"] if (e.get("step_losses") or 0) >= 2)
    at = next(p for p in plan.placements if p.d.key == e["unit"])
    here = [p.d.key for p in plan.placements if (p.map, p.x, p.y) == (at.map, at.x, at.y)]
    # BCS: a loss is a level of the unit's own Losses layer (a badge), not a marker covering it
    assert at.losses == e["step_losses"] and not any(k.startswith("step-loss") for k in here)
    type_, state = pieces.placed_strings(at.d, at.map, at.x, at.y, at.level, "", at.losses)
    assert _layer(Piece.decode(type_, state), "Losses").level == e["step_losses"] + 1
    layer = _layer(at.d.piece, "Losses")
    assert layer.get("images")[e["step_losses"]] == f"badge-loss-{e['step_losses']}.png"
    assert f"images/badge-loss-{e['step_losses']}.png" in entries("panzers-last-stand")
    eotid = _game("iron-dream")
    d = next(d for d in defs("iron-dream") if len(d.levels) == 3)
    assert (d.level_of("front", 0), d.level_of("front", 1), d.level_of("back", 1), d.level_of("front", 9)) == (1, 2, 3, 3)
    assert eotid


# ------------------------------------------------------------------------------ determinism, atomicity
def test_two_builds_are_byte_identical():
    game = "iron-dream"
    first = vmod(game).read_bytes()
    package.build(report(game), built(game))
    assert vmod(game).read_bytes() == first
    # and from another process with another hash seed (no set or dict-order accidents)
    r = subprocess.run([sys.executable, "-m", "builder", "build", game, "--only", "module",
                        "--out", str(built(game).parent), "-q"], capture_output=True, text=True, cwd=REPO,
                       env={**os.environ, "PYTHONHASHSEED": "12345"})
    assert r.returncode == 0, r.stderr
    assert vmod(game).read_bytes() == first


def test_failed_build_leaves_old_module_untouched(monkeypatch):
    game = "iron-dream"
    target = vmod(game)
    before = target.read_bytes()
    calls = []

    def boom(*a, **k):
        calls.append(1)
        if len(calls) == 2:   # fail midway: after the first scenario's save
            raise BuildError("simulated failure")
        return real(*a, **k)

    real = setups.save_bytes
    monkeypatch.setattr(setups, "save_bytes", boom)
    with pytest.raises(BuildError):
        package.build(report(game), built(game))
    assert target.read_bytes() == before

    def no_replace(*a, **k):
        raise OSError("disk full")
    monkeypatch.setattr(setups, "save_bytes", real)
    monkeypatch.setattr(os, "replace", no_replace)
    with pytest.raises(OSError):
        package.build(report(game), built(game))
    assert target.read_bytes() == before
    assert [p.name for p in target.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_only_module_from_clean_dist(tmp_path):
    """`vassal-builder build GAME --only module` renders the images it needs itself."""
    r = subprocess.run([sys.executable, "-m", "builder", "build", str(REPO / "examples" / "tiny-game" / "game.yaml"),
                        "--only", "module", "--out", str(tmp_path), "-q"], capture_output=True, text=True, cwd=REPO)
    assert r.returncode == 0, r.stderr
    (out,) = tmp_path.glob("*/*.vmod")
    names = set(entries_of(out))
    assert {"buildFile.xml", "moduledata"} <= names and any(n.startswith("images/map") for n in names)
    assert any(n.endswith(".vsav") for n in names)


def entries_of(path):
    from builder.vassal.archive import SafeZip
    return SafeZip(path, what="module").names()


def test_tiny_game_marker_faces_and_multi_counter_unit(tiny_game, tmp_path):
    """A two-faced marker gets a flip layer; an extra counter is a further face level, and set-up step
    losses walk down the levels."""
    from builder.gamedata.validate import validate_game
    game = tiny_game / "game.yaml"
    text = game.read_text()
    text = text.replace("    back: {attack: 3, defense: 2, movement: 6}\n",
                        "    back: {attack: 3, defense: 2, movement: 6}\n"
                        "    extra_counters: [{front: {attack: 2, defense: 1, movement: 6}}]\n", 1)
    text = text.replace("      - {unit: blue-3, hex: B4}", "      - {unit: blue-3, hex: B4, step_losses: 2}")
    text += ("\nmarkers:\n  - {id: red-flag, name: Red flag, quantity: 2, front: {text: R1}, back: {text: R1b}}\n")
    game.write_text(text)
    r = validate_game(str(game))
    assert r.ok, [d.format() for d in r.errors]
    (path,) = package.build(r, tmp_path / "out")
    from builder.vassal.buildfile import read_module
    bf = read_module(path)
    slots = {(s.piece.properties().get("UnitId") or "m:" + s.piece.properties()["MarkerId"]): s.piece
             for s in bf.piece_slots()}
    assert slots["m:red-flag"].basic.get("image") == "red-flag-front.png"
    assert slots["m:red-flag"].find(Embellishment).get("images") == ["", "red-flag-back.png"]
    blue3 = slots["blue-3"].find(Embellishment)
    assert blue3.get("images")[1:] == ["blue-3-back.png", "blue-3-2-front.png"]
    assert slots["blue-3"].properties()["Front2_attack"] == "2"
    save = read_save(next(e for e in entries_of_bytes(path) if e[0].endswith(".vsav"))[1])
    levels = {c.piece.properties().get("UnitId"): c.piece.find(Embellishment).level
              for _, c in save.leaves() if isinstance(c, AddPiece) and not c.is_stack
              and c.piece.find(Embellishment) is not None}
    assert levels["blue-3"] == 3 and levels["blue-1"] == 1


def entries_of_bytes(path):
    from builder.vassal.archive import SafeZip
    z = SafeZip(path, what="module")
    return [(n, z.read(n)) for n in z.names()]


def test_single_hex_setup_area_places_the_unit_on_it():
    """EotID's R3/R4/H1-H3 armies set up in 'the hex marked R3' etc.: an area of one hex is no choice."""
    g, bf = _game("iron-dream"), buildfile("iron-dream")
    ps = next(s for s in bf.predefined_setups() if s.use_file)
    save = read_save(entries("iron-dream")[ps.file])
    adds = {c.piece_id: c for _, c in save.leaves() if isinstance(c, AddPiece) and not c.is_stack}
    placed = initial_placements(save.commands)
    where = {adds[pid].piece.properties().get("UnitId"): p for pid, p in placed.items() if pid in adds}
    scen = g.by_id["scenarios"]["iron-dream"]
    single = [(e["unit"], g.area_hexes(e["area"])[0]) for e in scen["setup"]
              if isinstance(e.get("unit"), str) and isinstance(e.get("area"), str) and len(g.area_hexes(e["area"])) == 1]
    assert len(single) >= 5
    for uid, hex_id in single:
        p = where[uid]
        assert (p.map_id, p.x, p.y) == ("Main Map", *_expected_point("iron-dream", hex_id)), uid
