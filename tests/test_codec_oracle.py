"""Independent check with the real VASSAL 3.6 engine (../shared/tools/vassal-oracle).

A tiny module is written with the codec's buildFile writer and deterministic zip writer;
a save (and a log) written with the codec is fed to the engine, which must decode every
command and place every piece exactly where the codec said. Skips cleanly when Java, the
oracle or its set-up are not available.
"""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from builder.vassal.archive import write_zip_atomic
from builder.vassal.buildfile import P, BuildFile
from builder.vassal.commands import (
    AddPiece,
    BeginSave,
    BoardPicker,
    ChangePiece,
    Chat,
    Compound,
    EndSave,
    Log,
    MovePiece,
    NullCommand,
    Player,
    RemovePiece,
    SetupStack,
    TurnTracker,
)
from builder.vassal.piece import Piece
from builder.vassal.savefile import SaveFile, make_metadata, read_save
from builder.vassal.traits import (
    REGISTRY,
    BasicPiece,
    Delete,
    Embellishment,
    FreeRotator,
    KeyStroke,
    Marker,
    ReportState,
    Stack,
    UsePrototype,
)

from builder.vassal.placement import initial_placements

from codec_support import REAL
from oracle_support import run_oracle

pytestmark = pytest.mark.oracle

MAP = "Main Map"
EDGE = (20, 10)
BOARD = (1200, 900)
# (id, name, map point, expected location): board point = map point − edge; hex centres per §5.6
PIECES = [
    ("1700000000001", "Tank A", (60, 45), "0101"),
    ("1700000000002", "Tank B", (120, 79), "0201"),
    ("1700000000003", "Tank C", (180, 114), "0302"),
    ("1700000000004", "Tank D", (180, 114), "0302"),
    ("1700000000005", "Tank E", (720, 493), "1207"),
    ("1700000000006", "Tank F", (5, 5), "offboard"),
]
STACK_ID = "1700000000009"
MODULE_NAME = "Codec Oracle Tiny"


def _run_oracle(module: Path, save: Path) -> dict:
    return run_oracle(module, "--save", str(save), "--exec")


def _png(w: int, h: int, rgb: tuple[int, int, int]) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (w, h), rgb).save(buf, format="PNG")
    return buf.getvalue()


def _counter_type(name: str) -> Piece:
    layer = Embellishment(up_command="Flip", images=["counter.png", "counter_back.png"], level_names=["", "+ (flipped)"],
                          name="Step", increase_keystroke=KeyStroke(70, 130))
    layer.state = "1"
    mark = Marker(keys=["Side"])
    mark.set_values(["Allies"])
    report = ReportState(keys=[KeyStroke(70, 130)], report_format="$location$: $newPieceName$ flips *")
    return Piece([Delete(command_name="Delete"), report, layer, mark, BasicPiece(image="counter.png", name=name)])


def every_trait_piece() -> Piece:
    """One piece with every decorator the codec models, each built from its defaults."""
    layers = []
    for prefix, cls in REGISTRY.items():
        if cls.INNERMOST:
            continue
        if cls is UsePrototype:
            layers.append(UsePrototype(prototype_name="Base"))
        elif cls is FreeRotator:
            layers.append(FreeRotator(facings=6, rotate_cw_text="CW", rotate_ccw_text="CCW"))
        elif prefix in ("obs;",):
            layers.append(cls(image="counter.png"))
        elif prefix in ("markmoved;",):
            layers.append(cls(moved_icon="counter.png"))
        elif prefix in ("placemark;", "replace;"):
            layers.append(cls(command_name="Place", marker_spec="null"))
        elif prefix in ("delete;", "clone;", "return;"):
            layers.append(cls(**{cls.FIELDS[0].name: "Do it"}))
        else:
            layers.append(cls())
    piece = Piece(layers + [BasicPiece(image="counter.png", name="Everything")])
    piece.inner.set_state(None, 0, 0, "2")
    return piece


def build_module(path: Path) -> None:
    bf = BuildFile.new(MODULE_NAME, version="1.0", vassal_version="3.6.0", next_piece_slot_id=2)
    m = bf.root.add(P + "Map", mapName=MAP, edgeWidth=EDGE[0], edgeHeight=EDGE[1], allowMultiple=False,
                    backgroundcolor="255,255,255", buttonName="Map", launch=False)
    bp = m.add(P + "map.BoardPicker", title="Choose Boards", slotWidth=350, slotHeight=125, slotScale=0.2)
    board = bp.add(P + "map.boardPicker.Board", name="Board A", image="board.png", reversible=False)
    grid = board.add(P + "map.boardPicker.board.HexGrid", dx=60.0, dy=69.0, x0=40, y0=35, sideways=False,
                     snapTo=True, visible=False)
    grid.add(P + "map.boardPicker.board.mapgrid.HexGridNumbering", first="H", hLeading=1, vLeading=1, hOff=1,
             vOff=1, hType="N", vType="N", sep="", stagger=False, locationFormat="$gridLocation$")
    m.add(P + "map.StackMetrics", disabled=False, exSepX=6, exSepY=18, unexSepX=2, unexSepY=4)
    for c in ("ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer", "MapCenterer",
              "StackExpander", "PieceMover", "KeyBufferer"):
        m.add(P + "map." + c)
    m.add(P + "map.SetupStack", name="Reinforcements", owningBoard="Board A", x=500, y=400)
    proto = bf.root.child("PrototypesContainer").add(P + "PrototypeDefinition", name="Base")
    proto.piece = Piece([Marker(keys=["Class"]), BasicPiece()])
    pw = bf.root.add(P + "PieceWindow", name="Pieces", text="Pieces", hidden=False, scale=1.0)
    slot_piece = Piece([UsePrototype(prototype_name="Base")] + _counter_type("Tank").layers)
    slot_piece.inner.set_state(None, 0, 0, "1")
    pw.add("VASSAL.build.widget.PieceSlot", slot_piece.add_piece_string(), entryName="Tank", gpid=1,
           width=50, height=50)
    pw.add("VASSAL.build.widget.PieceSlot", every_trait_piece().add_piece_string(), entryName="Everything",
           gpid=2, width=50, height=50)
    tt = bf.root.add(P + "turn.TurnTracker", name="Turn", turnFormat="$level1$")
    tt.add(P + "turn.CounterTurnLevel", name="Turn", property="Turn", start=1, incr=1, loop=False,
           turnFormat="Turn $value$")
    moduledata = make_metadata(name=MODULE_NAME, version="1.0", vassal_version="3.6.0",
                               description="codec oracle test", date_saved=0)
    write_zip_atomic(path, [
        ("buildFile.xml", bf.to_bytes()),
        ("moduledata", moduledata),
        ("images/board.png", _png(*BOARD, (200, 220, 180))),
        ("images/counter.png", _png(50, 50, (40, 90, 160))),
        ("images/counter_back.png", _png(50, 50, (160, 90, 40))),
    ])


def build_save(*, encoding: str, log: bool) -> SaveFile:
    adds = []
    for pid, name, (x, y), _ in PIECES:
        p = _counter_type(name)
        p.inner.set_state(MAP, x, y, "1", {"UniqueID": pid})
        adds.append(AddPiece(pid, p))
    stack = Piece([Stack()])
    stack.inner.set_stack(MAP, 180, 114, ["1700000000003", "1700000000004"], 1)
    pieces = Compound([NullCommand(), *adds, AddPiece(STACK_ID, stack)])
    items = [BeginSave(), NullCommand(), pieces,
             BoardPicker.parse(f"{MAP}BoardPicker\tBoard A\t0\t0"),
             Player("pw-alice", "Alice", "Allies"),
             TurnTracker("TurnTracker0", "0|3;0;false;-1"),
             SetupStack(), EndSave()]
    if log:
        flipped = _counter_type("Tank A")
        flipped.inner.set_state(MAP, 60, 45, "1", {"UniqueID": PIECES[0][0]})
        old = flipped.state_string()
        flipped.find(Embellishment).value = 2
        items += [
            Compound([Log(MovePiece(PIECES[1][0], MAP, 240, 148, None, MAP, 120, 79, None, "pw-alice")),
                      Log(Chat("* Tank B moves 0201 -> 0402 *"))]),
            Log(ChangePiece(PIECES[0][0], flipped.state_string(), old)),
            Log(Chat("*** 2d6 = 3,5 *** &lt;Alice&gt;")),
            # (UNDO\t markers exist since VASSAL 3.6.7; the oracle's 3.6.0 engine does not know them)
            Compound([Log(NullCommand()), Log(RemovePiece(PIECES[4][0]))]),
        ]
    root = Compound(items)
    return SaveFile.new(root.encode(), encoding=encoding, key=0x5A,
                        savedata=make_metadata(version="1.0", vassal_version="3.6.0", date_saved=0),
                        moduledata=make_metadata(name=MODULE_NAME, version="1.0", vassal_version="3.6.0",
                                                 description="codec oracle test", date_saved=0))


@pytest.mark.parametrize("encoding,log", [("vcsk", False), ("plain", False), ("vcsk", True)])
def test_engine_decodes_our_save_and_places_every_piece(tmp_path, encoding, log):
    module = tmp_path / "tiny.vmod"
    build_module(module)
    save_path = tmp_path / ("game.vlog" if log else "game.vsav")
    build_save(encoding=encoding, log=log).write(save_path)
    ours = read_save(save_path)
    assert ours.encoding == encoding

    report = _run_oracle(module, save_path)
    assert report.get("loaded") is True, report.get("load_error")
    assert report["errors"] == [], report["errors"]
    s = report["save"]
    assert s.get("load_error") in (None, ""), s
    assert s["payload"] == ("obfuscated" if encoding == "vcsk" else "plain")
    assert s["undecoded"] == [] and s["decode_errors"] == []
    our_adds = [c for _, c in ours.leaves() if isinstance(c, AddPiece)]
    assert s["add_piece_commands"] == len(our_adds)

    by_id = {p["id"]: p for p in s["pieces"]}
    for pid, name, (x, y), loc in PIECES:
        p = by_id[pid]
        assert (p["name"], p["map"], p["x"], p["y"], p["location"]) == (name, MAP, x, y, loc), p
        ours_piece = next(a.piece for a in our_adds if a.piece_id == pid)
        assert [t.rstrip(";") for t in p["traits"]][: len(ours_piece.layers)] == [
            t.rstrip(";") for t in ours_piece.trait_ids()]
    # the codec's own view of where the save puts things agrees with the engine's
    placed = initial_placements(ours.commands)
    for pid, p in placed.items():
        if p.kind == "piece":
            e = by_id[pid]
            assert (p.name, p.map_id, p.x, p.y) == (e["name"], e["map"], e["x"], e["y"])
    stacks = {st["id"]: st for st in s["stacks"]}
    assert stacks[STACK_ID]["members"] == ["1700000000003", "1700000000004"]
    assert (stacks[STACK_ID]["x"], stacks[STACK_ID]["y"]) == (180, 114)
    assert by_id["1700000000004"]["container"]["id"] == STACK_ID
    assert by_id["1700000000004"]["container"]["index"] == 1


@pytest.mark.shared
def test_engine_agrees_with_codec_on_real_trc_save(tmp_path):
    """The real 3.2.17 TRC save: every piece's name (Layer/Label names applied), map,
    position and stack membership as the codec computes them equals the engine's."""
    build, save = REAL / "jspy-buildFile-trc.xml", REAL / "jspy-Campaign-180907.vsav"
    if not (build.is_file() and save.is_file()):
        pytest.skip("real TRC files not present")
    module = tmp_path / "trc.vmod"           # test-time only: a zip of the real buildFile
    write_zip_atomic(module, [("buildFile.xml", build.read_bytes())])
    report = _run_oracle(module, save)
    s = report["save"]
    assert s["undecoded"] == [] and s["add_piece_commands"] == 573
    engine = {p["id"]: p for p in s["pieces"]}
    engine_stacks = {st["id"]: st for st in s["stacks"]}
    placed = initial_placements(read_save(save).commands)
    assert len(placed) == 573
    for pid, p in placed.items():
        if p.kind == "piece":
            e = engine[pid]
            cont = e["container"] or {}
            assert (p.name, p.map_id, p.x, p.y, p.container, p.index) == (
                e["name"], e["map"], e["x"], e["y"], cont.get("id"), cont.get("index")), pid
        else:
            e = engine_stacks[pid]
            assert (p.map_id, p.x, p.y, list(p.members)) == (e["map"], e["x"], e["y"], e["members"]), pid


def test_engine_builds_every_modeled_trait_from_our_type_strings(tmp_path):
    module = tmp_path / "tiny.vmod"
    build_module(module)
    save_path = tmp_path / "game.vsav"
    build_save(encoding="vcsk", log=False).write(save_path)
    report = _run_oracle(module, save_path)
    assert report["errors"] == [], report["errors"]
    unknown = [w for w in report["warnings"] if "Unknown type" in w or "not found in BasicCommandEncoder" in w]
    assert unknown == []
    slot = next(p for p in report["piece_slots"] if p["name"] == "Everything")
    assert slot.get("error") in (None, ""), slot
    ours = every_trait_piece()
    assert [t.rstrip(";") for t in slot["traits"]] == [t.rstrip(";") for t in ours.trait_ids()]
    # the engine picked, for each layer, the class the codec models it with (not a Marker stand-in)
    assert [c.rsplit(".", 1)[-1] for c in slot["trait_classes"]] == [type(t).__name__ for t in ours.layers]


def _run_oracle_module(module: Path) -> dict:
    return run_oracle(module)


@pytest.mark.shared
def test_engine_agrees_on_real_almoravid_palette_and_prototype_expansion(tmp_path):
    """All 382 palette pieces of the real Almoravid buildFile: the codec's trait chain, its
    prototype expansion (PieceCloner rules) and the piece name equal the engine's."""
    from builder.vassal.piece import expand_prototypes
    from builder.vassal.traits import Labeler

    build = REAL / "almoravid-buildFile.xml"
    if not build.is_file():
        pytest.skip("real Almoravid buildFile not present")
    module = tmp_path / "almoravid.vmod"      # test-time only: a zip of the real buildFile
    write_zip_atomic(module, [("buildFile.xml", build.read_bytes())])
    report = _run_oracle_module(module)
    bf = BuildFile.read(build)
    protos = {p.get("name"): p.piece for p in bf.prototypes()}
    slots = bf.piece_slots()
    engine = report["piece_slots"]
    assert len(slots) == len(engine) == 382
    names_checked = 0
    for slot, e in zip(slots, engine):
        assert slot.gpid == e["gpid"]
        assert slot.piece.trait_ids() == e["traits"]
        expanded = expand_prototypes(slot.piece, protos.get)
        assert expanded.trait_ids() == e["traits_expanded"], slot.entry_name
        # names that depend on properties only unmodelled traits define (a label text with
        # $var$, e.g. from 'locmsg;') cannot be known without running those traits
        if not any(isinstance(t, Labeler) and "$" in t.state for t in expanded.layers):
            assert expanded.display_name == e["piece_name"], slot.entry_name
            names_checked += 1
    assert names_checked >= 350
