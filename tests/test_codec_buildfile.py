"""buildFile reading (secure), typed access, writing; deterministic atomic ZIP writing (§1, §2)."""
from __future__ import annotations

import io
import os
import zipfile

import pytest
from lxml import etree

from builder.vassal.archive import FIXED_DATE_TIME, write_zip_atomic, zip_bytes
from builder.vassal.buildfile import P, BuildFile, read_module
from builder.vassal.errors import ArchiveError, BuildFileError
from builder.vassal.piece import Piece
from builder.vassal.traits import BasicPiece, Delete, Marker

from codec_support import real


def _canon(data: bytes) -> bytes:
    return etree.tostring(etree.fromstring(data), method="c14n")


# ------------------------------------------------------------------------------ real files

@pytest.mark.shared
def test_trc_legacy_root_hexgrid_on_board():
    bf = BuildFile.read(real("jspy-buildFile-trc.xml"))
    assert bf.legacy_root and bf.name == "TRC4" and bf.vassal_version == "3.2.17"
    trc = bf.map("TRC Map")
    assert trc is not None and trc.edge == (75, 75)
    (board,) = trc.boards()
    g = board.grid
    assert g.kind == "hex"
    s = g.settings
    assert s["x0"] == -28 and s["y0"] == 0 and not s["sideways"]
    assert s["dy"] == pytest.approx(float(g.get("dy")))
    assert g.numbering.settings["h_off"] == 0 and g.numbering.settings["stagger"] is False
    assert len(bf.piece_slots()) == 221 and len(bf.prototypes()) == 14
    assert [t.name for t in bf.turn_trackers()] == ["Turn"]
    names = [s.name for s in bf.predefined_setups()]
    assert names == ["Scenarios", "New", "Campaign"]
    assert bf.max_gpid() < int(bf.root.get("nextPieceSlotId"))


@pytest.mark.shared
def test_almoravid_modern_module():
    bf = BuildFile.read(real("almoravid-buildFile.xml"))
    assert not bf.legacy_root and bf.root.cls == "VASSAL.build.GameModule"
    assert len([s for s in bf.piece_slots() if s.short == "PieceSlot"]) == 270
    assert len([s for s in bf.piece_slots() if s.short == "CardSlot"]) == 112
    assert len(bf.zones()) == 70
    assert len(bf.maps()) == 13
    zoned = [b.grid for b in bf.boards() if b.grid is not None and b.grid.kind == "zoned"]
    assert zoned and all(isinstance(z.path, list) for g in zoned for z in g.zones())
    assert any(len(z.path) >= 3 for g in zoned for z in g.zones())
    ids = {t.id for s in bf.piece_slots()[:400] for t in s.piece.layers}
    assert "piece;" in ids
    setups = bf.predefined_setups()
    assert setups[0].is_menu and any(s.file and s.file.endswith(".vsav") for s in setups)


@pytest.mark.shared
@pytest.mark.parametrize("name", ["almoravid-buildFile.xml", "jspy-buildFile-trc.xml"])
def test_real_buildfile_writes_back_equivalent(name, tmp_path):
    path = real(name)
    bf = BuildFile.read(path)
    out = bf.write(tmp_path / "buildFile.xml")
    assert _canon(out.read_bytes()) == _canon(path.read_bytes())
    assert out.read_bytes().startswith(b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n')


@pytest.mark.shared
def test_module_from_vmod_with_nested_setups():
    bf = read_module(real("vassal-test-predefined-setups.vmod"))
    assert bf.name == "Test Predefined Setups Module"
    tops = [s for s in bf.predefined_setups() if s.parent.short != "PredefinedSetup"]
    assert [s.name for s in tops] == ["Menu1"]
    chain, s = [], tops[0]
    while True:
        chain.append(s.name)
        kids = s.setups()
        if not kids:
            break
        s = kids[0]
    assert chain == ["Menu1", "Menu2", "Menu3", "pds1"]
    (m,) = bf.maps()
    assert m.map_name == "Main Map" and m.boards() == []


# ---------------------------------------------------------------------------- security

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<VASSAL.build.GameModule name="&lol3;"/>"""
XXE = b"""<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]>
<VASSAL.build.GameModule name="&x;"/>"""
NET_DTD = b"""<?xml version="1.0"?><!DOCTYPE m SYSTEM "http://example.invalid/x.dtd">
<VASSAL.build.GameModule name="a"/>"""


@pytest.mark.parametrize("data,message", [
    (BILLION_LAUGHS, "entities"),
    (XXE, "entities"),
    (NET_DTD, "DOCTYPE"),
    (b"<VASSAL.build.GameModule name='a'>", "not well-formed"),
    (b"<html/>", "root element"),
    (b"", "not well-formed"),
])
def test_unsafe_or_bad_buildfiles_are_refused(data, message):
    with pytest.raises(BuildFileError, match=message):
        BuildFile.from_bytes(data)


def test_size_limit():
    data = b"<VASSAL.build.GameModule name='a'>" + b" " * 2000 + b"</VASSAL.build.GameModule>"
    with pytest.raises(BuildFileError, match="too large"):
        BuildFile.from_bytes(data, max_size=1000)


def test_read_module_errors():
    with pytest.raises(ArchiveError, match="not a ZIP"):
        read_module(b"not a zip")
    with pytest.raises(BuildFileError, match="no buildFile"):
        read_module(zip_bytes({"moduledata": b"<data/>"}))
    with pytest.raises(BuildFileError, match="saved game"):
        read_module(zip_bytes({"savedGame": b"begin_save"}))


def test_legacy_buildfile_entry_chosen_by_metadata_version():
    legacy = b'<?xml version="1.0"?>\n<VASSAL.launch.BasicModule name="Old" version="1"/>'
    modern = b'<?xml version="1.0"?>\n<VASSAL.build.GameModule name="New" version="2"/>'
    md_old = b"<data version='1'><VassalVersion>3.1.15</VassalVersion></data>"
    md_new = b"<data version='1'><VassalVersion>3.6.7</VassalVersion></data>"
    both = {"buildFile": legacy, "buildFile.xml": modern}
    assert read_module(zip_bytes({**both, "moduledata": md_old})).name == "Old"
    assert read_module(zip_bytes({**both, "moduledata": md_new})).name == "New"
    assert read_module(zip_bytes({"buildFile": legacy})).name == "Old"


# ------------------------------------------------------------------------------- writing

def test_new_buildfile_with_map_grid_and_pieces_reads_back():
    bf = BuildFile.new("Tiny & <Game>", version="1.0", vassal_version="3.6.0", next_piece_slot_id=3)
    m = bf.root.add(P + "Map", mapName="Main Map", edgeWidth=20, edgeHeight=10, allowMultiple=False)
    bp = m.add(P + "map.BoardPicker")
    board = bp.add(P + "map.boardPicker.Board", name="Board A", image="board.png", reversible=False)
    grid = board.add(P + "map.boardPicker.board.HexGrid", dx=60.0, dy=69.0, x0=40, y0=35, sideways=False)
    grid.add(P + "map.boardPicker.board.mapgrid.HexGridNumbering", stagger=False, locationFormat="$gridLocation$")
    pw = bf.root.add(P + "PieceWindow", name="Counters")
    piece = Piece([Delete(command_name="Delete"), Marker(keys=["Side", "Tab\tbed"]), BasicPiece(image="a.png", name="Tank")])
    piece.layers[1].set_values(["Blue", "x"])
    piece.inner.set_state(None, 0, 0, "1")
    slot = pw.add("VASSAL.build.widget.PieceSlot", piece.add_piece_string(), entryName="Tank", gpid=1,
                  width=64, height=64)
    proto = bf.root.child("PrototypesContainer").add(P + "PrototypeDefinition", name="Base", description="\ttab\nnl")
    proto.piece = Piece([Marker(keys=["Class"]), BasicPiece()])
    data = bf.to_bytes()
    assert data.startswith(b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<VASSAL.build.GameModule')
    assert b'description="&#9;tab&#10;nl"' in data       # TAB/LF survive as char refs in attributes
    again = BuildFile.from_bytes(data)
    assert again.name == "Tiny & <Game>"
    (m2,) = again.maps()
    assert m2.edge == (20, 10)
    (b2,) = m2.boards()
    assert b2.image == "board.png" and b2.grid.kind == "hex"
    assert b2.grid.settings == {"sideways": False, "x0": 40, "y0": 35, "dx": 60.0, "dy": 69.0, "snap_to": True,
                                "edges_legal": False, "corners_legal": False}
    assert b2.grid.numbering.settings["stagger"] is False
    (s2,) = again.piece_slots()
    assert s2.gpid == "1" and s2.piece.add_piece_string() == slot.text
    assert s2.piece.find(Marker).properties() == {"Side": "Blue", "Tab\tbed": "x"}
    assert again.prototype("Base").get("description") == "\ttab\nnl"
    assert [t.id for t in again.prototype("Base").piece.layers] == ["mark;", "piece;"]
    # attributes are written sorted, as VASSAL does
    assert b'allowMultiple="false" edgeHeight="10" edgeWidth="20" mapName="Main Map"' in data
    # the singletons VASSAL expects
    shorts = [c.short for c in again.root.children()]
    for s in ("BasicCommandEncoder", "Documentation", "PlayerRoster", "GlobalOptions", "Chatter",
              "PrototypesContainer", "Language", "GlobalProperties"):
        assert s in shorts


def test_text_is_trimmed_like_vassal_builder():
    bf = BuildFile.from_bytes(b"<VASSAL.build.GameModule><VASSAL.build.widget.PieceSlot>\n   +/null/piece;;;;/null;0;0;;0 \n"
                              b"</VASSAL.build.widget.PieceSlot></VASSAL.build.GameModule>")
    (slot,) = bf.piece_slots()
    assert slot.text == "+/null/piece;;;;/null;0;0;;0"


# ------------------------------------------------------------------------ deterministic zip

def test_write_zip_atomic_is_deterministic(tmp_path):
    entries = [("buildFile.xml", b"<x/>"), ("moduledata", b"<data/>"), ("images/a.png", b"\x89PNG")]
    a = write_zip_atomic(tmp_path / "a.vmod", entries)
    b = write_zip_atomic(tmp_path / "b.vmod", list(entries))
    assert a.read_bytes() == b.read_bytes()
    z = zipfile.ZipFile(a)
    assert z.namelist() == ["buildFile.xml", "moduledata", "images/a.png"]
    assert all(i.date_time == FIXED_DATE_TIME for i in z.infolist())
    assert z.read("images/a.png") == b"\x89PNG"
    s = write_zip_atomic(tmp_path / "s.vmod", dict(entries), sort=True)
    assert zipfile.ZipFile(s).namelist() == sorted(n for n, _ in entries)
    assert sorted(os.listdir(tmp_path)) == ["a.vmod", "b.vmod", "s.vmod"]


def test_write_zip_atomic_leaves_destination_untouched_on_error(tmp_path):
    dest = tmp_path / "m.vmod"
    dest.write_bytes(b"old")
    with pytest.raises(ArchiveError, match="unsafe"):
        write_zip_atomic(dest, [("../x", b"")])
    with pytest.raises(ArchiveError, match="duplicate"):
        write_zip_atomic(dest, [("a", b""), ("a", b"")])
    with pytest.raises(TypeError):
        write_zip_atomic(dest, [("a", "text")])
    assert dest.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["m.vmod"]


def test_zip_bytes_stored_and_deflated_read_back():
    for compress in (True, False):
        data = zip_bytes({"a": b"x" * 1000}, compress=compress)
        info = zipfile.ZipFile(io.BytesIO(data)).infolist()[0]
        assert info.compress_type == (zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED)


def test_per_entry_compression_choice():
    data = zip_bytes([("buildFile.xml", b"<x/>" * 100), ("images/a.png", b"\x89PNG" * 100, False)])
    infos = zipfile.ZipFile(io.BytesIO(data)).infolist()
    assert [i.compress_type for i in infos] == [zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED]
    assert data == zip_bytes([("buildFile.xml", b"<x/>" * 100), ("images/a.png", b"\x89PNG" * 100, False)])


def test_atomic_write_uses_umask_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        p = write_zip_atomic(tmp_path / "x.vmod", [("a", b"")])
    finally:
        os.umask(old)
    assert p.stat().st_mode & 0o777 == 0o644
    os.chmod(p, 0o600)
    write_zip_atomic(p, [("b", b"")])          # replacing keeps the existing mode
    assert p.stat().st_mode & 0o777 == 0o600


def test_turn_tracker_state_decoded_against_its_levels():
    bf = BuildFile.new("T")
    tt = bf.root.add(P + "turn.TurnTracker", name="Turn")
    turn = tt.add(P + "turn.CounterTurnLevel", name="Turn", property="Turn", start=1, incr=1)
    turn.add(P + "turn.ListTurnLevel", name="Phase", property="Phase", list="Blue,Red")
    (view,) = BuildFile.from_bytes(bf.to_bytes()).turn_trackers()
    # §4.7 example: Turn 3, phase "Blue"
    got = view.decode_state("0|3;0;false;-1;0\\;0\\;0\\;true,true")
    assert got == [{"level": "Turn", "property": "Turn", "value": "3", "current": True},
                   {"level": "Phase", "property": "Phase", "value": "Blue", "current": True}]
    assert view.turn_text("0|4;0;false;-1;1\\;0\\;0\\;true,true") == "4 Red"
    assert view.turn_text("") == "1 Blue"          # defaults: start value, first item


@pytest.mark.shared
def test_real_trc_turn_state():
    from builder.vassal.commands import TurnTracker
    from builder.vassal.savefile import read_save
    bf = BuildFile.read(real("jspy-buildFile-trc.xml"))
    (view,) = bf.turn_trackers()
    save = read_save(real("jspy-Campaign-180907.vsav"))
    (cmd,) = [c for _, c in save.leaves() if isinstance(c, TurnTracker)]
    levels = view.decode_state(cmd.state)
    assert levels[0]["value"] == "1941" and levels[0]["current"]
    assert all(isinstance(l["value"], str) for l in levels) and len(levels) >= 2
