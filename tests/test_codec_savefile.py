"""Saves and logs: container, the three payload encodings, command tree, typed commands,
byte-identical writing, and clear errors for bad input (§4)."""
from __future__ import annotations

import io
import lzma
import zipfile

import pytest

from builder.vassal.archive import Limits, SafeZip, zip_bytes
from builder.vassal.commands import (
    ESC,
    AddPiece,
    BoardPicker,
    ChangePiece,
    Chat,
    Compound,
    DiceRoll,
    Log,
    Malformed,
    MovePiece,
    Player,
    RemovePiece,
    TurnTracker,
    Undo,
    Unknown,
    decode_leaf,
    iter_leaves,
    parse_commands,
)
from builder.vassal.errors import ArchiveError, CommandError, PayloadError, VassalFormatError
from builder.vassal.savefile import (
    decode_payload,
    deobfuscate,
    encode_payload,
    make_metadata,
    obfuscate,
    read_metadata,
    read_save,
)

from codec_support import PASSWORD, real, sample_save, sample_save_bytes


# ------------------------------------------------------------------------------ payloads

def test_obfuscation_test_vectors_from_the_engine():
    v1 = (b"!VCSK581934347832393b333c392f2b7834372e3d783521783f2a3d392c782b283031362078373e78292d392a2c2276")
    assert obfuscate(b"All jackdaws love my great sphinx of quartz.", 0x58) == v1
    assert deobfuscate(v1) == (b"All jackdaws love my great sphinx of quartz.", 0x58)
    assert obfuscate(b"begin_save", 0xA5) == b"!VCSKa5c7c0c2cccbfad6c4d3c0"
    # upper-case hex is accepted on reading
    assert deobfuscate(b"!VCSKA5C7C0C2CCCBFAD6C4D3C0") == (b"begin_save", 0xA5)


@pytest.mark.parametrize("encoding", ["vcsk", "xz", "plain", "vobs"])
def test_payload_roundtrip_every_encoding(encoding):
    text = "begin_save\x1b\x1bCHATé ünïcode ☃\x1bend_save"
    payload = encode_payload(text, encoding, key=7)
    got, enc, key = decode_payload(payload)
    assert (got, enc) == (text, encoding)
    assert key == (7 if encoding in ("vcsk", "vobs") else None)
    if encoding == "vobs":
        assert payload[:5] == b"VOBS\x07" and len(payload) == 5 + len(text.encode())
    if encoding == "xz":
        assert payload.startswith(b"\xfd7zXZ\x00")
        assert lzma.decompress(payload) == text.encode()


@pytest.mark.parametrize("payload,message", [
    (b"!VCSK", "no key"),
    (b"!VCSKzz00", "invalid obfuscation key"),
    (b"!VCSK41abc", "odd number of hex digits"),
    (b"!VCSK41zz", "corrupt hex"),
    (b"!VCSZ1234", "unsupported savedGame encoding"),
    (lzma.compress(b"begin_save")[:-10], "XZ"),
    (b"\xfd7zXZ\x00garbage-garbage", "XZ"),
    (b"\xff\xfe\xfd", "not valid UTF-8"),
])
def test_bad_payloads_give_clear_errors(payload, message):
    with pytest.raises(PayloadError, match=message):
        decode_payload(payload)


def test_wrong_key_is_detected():
    good = obfuscate("begin_save\x1b\x1b\x1bend_save".encode(), 0x41)
    for wrong in (0x61, 0x40, 0xC1):   # same hex body, another key byte
        bad = good[:5] + b"%02x" % wrong + good[7:]
        with pytest.raises(PayloadError, match="key"):
            decode_payload(bad)


def test_payload_size_limit():
    with pytest.raises(PayloadError, match="too large"):
        decode_payload(encode_payload("x" * 5000, "plain"), max_size=1000)
    with pytest.raises(PayloadError, match="too large"):
        decode_payload(encode_payload("x" * 5000, "vcsk", 1), max_size=1000)
    with pytest.raises(PayloadError, match="too large"):
        decode_payload(encode_payload("x" * 50_000, "xz"), max_size=1000)


# ---------------------------------------------------------------------------- command tree

def test_tree_shape_of_a_save_matches_vassal_nesting():
    save = read_save(sample_save_bytes())
    root = save.commands
    assert isinstance(root, Compound)
    kinds = [type(i).__name__ for i in root.items]
    assert kinds[:3] == ["BeginSave", "NullCommand", "Compound"]
    pieces = root.items[2]
    assert [type(i).__name__ for i in pieces.items] == ["NullCommand", "AddPiece", "AddPiece", "AddPiece"]
    # plaintext starts as every VASSAL save does
    assert save.text.startswith("begin_save\x1b\x1b\\\x1b+/1700000000001/")
    leaves = list(save.leaves())
    assert [d for d, _ in leaves][:4] == [1, 1, 2, 2]


def test_stack_is_an_addpiece_of_a_stack():
    root = parse_commands(sample_save().text)
    stacks = [c for _, c in iter_leaves(root) if isinstance(c, AddPiece) and c.is_stack]
    assert len(stacks) == 1
    f = stacks[0].fields()
    assert f["kind"] == "stack" and f["members"] == ["1700000000001", "1700000000002"] and f["layer"] == "1"
    assert (f["map"], f["x"], f["y"]) == ("Main Map", 100, 69)


def test_move_piece_every_field():
    c = decode_leaf("M/17/Main Map/160/104/null/Other\\/Map/100/69/15/pw")
    assert isinstance(c, MovePiece)
    assert (c.piece_id, c.new_map, c.new_x, c.new_y, c.new_under) == ("17", "Main Map", 160, 104, None)
    assert (c.old_map, c.old_x, c.old_y, c.old_under, c.player_id) == ("Other/Map", 100, 69, "15", "pw")
    assert c.to_dict()["player_id"] == "********"
    no_player = decode_leaf("M/17/null/-5/6/null/null/0/0/null")
    assert no_player.player_id is None and no_player.new_map is None and no_player.new_x == -5
    c.new_x = 161
    assert c.encode() == "M/17/Main Map/161/104/null/Other\\/Map/100/69/15/pw"


@pytest.mark.parametrize("raw,cls,fields", [
    ("-/1234", RemovePiece, {"id": "1234"}),
    ("D/12/\tnew/\told", ChangePiece, {"id": "12", "new_state": "\tnew", "old_state": "\told"}),
    ("D/12/\tnew", ChangePiece, {"id": "12", "new_state": "\tnew", "old_state": None}),
    ("CHAT&lt;Bob&gt; - hi there", Chat, {"sender": "Bob", "message": "hi there"}),
    ("CHAT* Tank moves 0101 -> 0202 *", Chat, {"report": True}),
    ("UNDO\ttrue", Undo, {"in_progress": True}),
    ("UNDO\tfalse", Undo, {"in_progress": False}),
    ("PLAYER\tpw\tAlice\tBlue", Player, {"player_id": "pw", "name": "Alice", "side": "Blue"}),
    ("Main MapBoardPicker\tMain/rev\t0\t1\tSecond\t1\t1", BoardPicker,
     {"map": "Main Map", "boards": [{"board": "Main", "reversed": True, "column": 0, "row": 1},
                                    {"board": "Second", "reversed": False, "column": 1, "row": 1}]}),
    ("TURNTurnTracker0\t0|3;0;false;-1;0\\;0\\;0\\;true,true", TurnTracker,
     {"tracker": "TurnTracker0", "current_level": 0, "levels": [["3", "0", "false", "-1", ["0", "0", "0", "true,true"]]]}),
    ("INFO\tAxis\tAxis\t1", Unknown, {"text": "INFO\tAxis\tAxis\t1"}),
])
def test_typed_leaf_commands(raw, cls, fields):
    c = decode_leaf(raw)
    assert type(c) is cls
    got = c.fields()
    for k, v in fields.items():
        assert got[k] == v, k
    assert c.encode() == raw


def test_dice_rolls_are_recognised():
    c = decode_leaf("CHAT*** 2d6 = 3,5 *** &lt;Alice&gt;")
    assert isinstance(c, DiceRoll)
    assert c.fields()["label"] == "2d6" and c.fields()["dice"] == [3, 5] and c.fields()["player"] == "Alice"
    vasl = decode_leaf("CHAT*** (Other DR) 6,6 ***   <test>      [1 / 2   avg   10.00 (10.00)]")
    assert isinstance(vasl, DiceRoll) and vasl.fields()["dice"] == [6, 6] and vasl.fields()["label"] == "Other DR"


def test_log_wraps_and_nests_like_vassal():
    text = ("begin_save\x1bend_save\x1bLOG\tM/3/Main Map/160/104/null/Main Map/100/69/null/pw\\\x1bLOG\tCHAT* moves *"
            "\x1bLOG\t\\\x1bLOG\tUNDO\ttrue\\\x1bLOG\t-/3\\\x1bLOG\tUNDO\tfalse")
    root = parse_commands(text)
    leaves = list(iter_leaves(root))
    logs = [c for _, c in leaves if isinstance(c, Log)]
    assert [type(l.inner).__name__ for l in logs] == ["MovePiece", "Chat", "NullCommand", "Undo", "RemovePiece", "Undo"]
    assert root.encode() == text
    # the move's report is a sub-command of the move (second item of a compound)
    assert isinstance(root.items[2], Compound) and isinstance(root.items[2].items[1], Log)


def test_single_quoted_leaf_is_unquoted_like_vassal():
    root = parse_commands("'CHAThello'")
    assert isinstance(root, Compound)
    (c,) = [c for _, c in iter_leaves(root)]
    assert isinstance(c, Chat) and c.text == "hello"
    assert root.encode() == "'CHAThello'"


def test_malformed_known_command_is_kept_verbatim():
    for raw in ("M/1/map/x/y/null/map/0/0/null", "M/1/2", "+/onlytwo/x", "D/only"):
        c = decode_leaf(raw)
        assert isinstance(c, Malformed) and c.encode() == raw and c.error


def test_nesting_depth_is_limited():
    deep = "CHATx"
    for _ in range(260):
        from builder.vassal.sequence import encode
        deep = encode(["CHATa", deep], ESC)
    with pytest.raises(CommandError, match="nested deeper"):
        parse_commands(deep)


# ------------------------------------------------------------------------ save containers

@pytest.mark.parametrize("encoding", ["vcsk", "xz", "plain", "vobs"])
def test_save_roundtrip_all_encodings(encoding):
    data = sample_save_bytes(encoding=encoding)
    save = read_save(data)
    assert save.encoding == encoding
    assert save.to_bytes() == data                       # unchanged → byte-identical
    assert not save.modified()
    z = zipfile.ZipFile(io.BytesIO(data))
    assert z.namelist() == ["savedGame", "savedata", "moduledata"]
    meta = read_metadata(save.moduledata)
    assert meta["name"] == "Example" and meta["VassalVersion"] == "3.6.0"
    assert "name" not in read_metadata(save.savedata)


def test_same_commands_in_xz_and_vcsk():
    a = read_save(sample_save_bytes(encoding="vcsk"))
    b = read_save(sample_save_bytes(encoding="xz"))
    assert a.text == b.text
    assert [c.to_dict() for _, c in a.leaves()] == [c.to_dict() for _, c in b.leaves()]


def test_modified_save_is_rewritten_and_reads_back():
    save = read_save(sample_save_bytes())
    moves = [c.inner for _, c in save.leaves() if isinstance(c, Log) and isinstance(c.inner, MovePiece)]
    moves[0].new_x = 220
    out = save.to_bytes()
    assert out != save.source
    again = read_save(out)
    assert again.key == save.key and again.encoding == "vcsk"
    moved = [c.inner for _, c in again.leaves() if isinstance(c, Log) and isinstance(c.inner, MovePiece)]
    assert moved[0].new_x == 220
    # everything else is untouched
    assert again.text == save.text.replace("M/1700000000003/Main Map/160/", "M/1700000000003/Main Map/220/")
    assert again.moduledata == save.moduledata


def test_changing_encoding_rewrites_payload():
    save = read_save(sample_save_bytes())
    save.encoding = "xz"
    again = read_save(save.to_bytes())
    assert again.encoding == "xz" and again.text == save.text


def test_new_save_is_deterministic(tmp_path):
    a = sample_save_bytes(key=3)
    b = sample_save_bytes(key=3)
    assert a == b
    path = sample_save(key=3).write(tmp_path / "x.vsav")
    assert path.read_bytes() == a
    assert [p.name for p in tmp_path.iterdir()] == ["x.vsav"]   # no temp files left


def test_piece_edit_through_piece_object():
    save = read_save(sample_save_bytes(log=False))
    add = next(c for _, c in save.leaves() if isinstance(c, AddPiece) and not c.is_stack)
    add.piece.basic.set_location("Main Map", 160, 104)
    again = read_save(save.to_bytes())
    add2 = next(c for _, c in again.leaves() if isinstance(c, AddPiece) and not c.is_stack)
    assert add2.piece.position == (160, 104) and add2.piece.name == add.piece.name


@pytest.mark.shared
@pytest.mark.parametrize("name", ["jspy-Campaign-180907.vsav", "vasl-basic.vsav", "vasl-custom-labels.vlog"])
def test_real_saves_read_and_roundtrip(name):
    path = real(name)
    data = path.read_bytes()
    save = read_save(path)
    assert save.encoding == "vcsk"
    assert save.commands.encode() == save.text
    assert save.to_bytes() == data
    # re-encoding the payload with the same key reproduces the savedGame entry byte for byte
    assert encode_payload(save.text, "vcsk", save.key) == zipfile.ZipFile(io.BytesIO(data)).read("savedGame")
    leaves = list(save.leaves())
    assert leaves[0][1].TYPE == "BeginSave"
    assert sum(1 for _, c in leaves if c.TYPE == "EndSave") == 1
    for _, c in leaves:
        c.to_dict()
        c.summary()
    # an XZ rewrite of the same command stream decodes to the same commands
    save.encoding = "xz"
    xz = read_save(save.to_bytes())
    assert xz.encoding == "xz" and xz.text == save.text


@pytest.mark.shared
def test_real_trc_save_has_591_commands():
    save = read_save(real("jspy-Campaign-180907.vsav"))
    leaves = list(save.leaves())
    assert len(leaves) == 591
    assert sum(1 for _, c in leaves if isinstance(c, AddPiece)) == 573


@pytest.mark.shared
def test_real_vlog_logged_move_and_changes():
    save = read_save(real("vasl-custom-labels.vlog"))
    logs = [c for _, c in save.leaves() if isinstance(c, Log)]
    moves = [l.inner for l in logs if isinstance(l.inner, MovePiece)]
    assert len(moves) == 1 and (moves[0].new_x, moves[0].new_y, moves[0].old_x, moves[0].old_y) == (168, 115, 165, 118)
    changes = [l.inner for l in logs if isinstance(l.inner, ChangePiece)]
    assert len(changes) == 2 and all(c.old_state is not None for c in changes)


# ----------------------------------------------------------------------------- bad files

def _zip(entries):
    return zip_bytes(list(entries.items()))


def test_non_zip_input():
    with pytest.raises(ArchiveError, match="not a ZIP"):
        read_save(b"hello, this is not a zip file")
    with pytest.raises(ArchiveError, match="not a ZIP"):
        read_save(b"")


def test_truncated_file():
    data = sample_save_bytes()
    for cut in (len(data) // 2, len(data) - 10, 30):
        with pytest.raises(VassalFormatError, match="truncated|not a readable ZIP|corrupt"):
            read_save(data[:cut])


def test_truncated_payload_inside_a_valid_zip():
    payload = zipfile.ZipFile(io.BytesIO(sample_save_bytes())).read("savedGame")
    with pytest.raises(PayloadError, match="truncated"):
        read_save(_zip({"savedGame": payload[:-1]}))


def test_corrupt_hex_inside_a_valid_zip():
    payload = bytearray(zipfile.ZipFile(io.BytesIO(sample_save_bytes())).read("savedGame"))
    payload[40] = ord("g")
    with pytest.raises(PayloadError, match="corrupt hex at offset 40"):
        read_save(_zip({"savedGame": bytes(payload)}))


def test_wrong_key_in_file():
    payload = zipfile.ZipFile(io.BytesIO(sample_save_bytes(key=0x42))).read("savedGame")
    bad = payload[:5] + b"62" + payload[7:]
    with pytest.raises(PayloadError, match="wrong obfuscation key"):
        read_save(_zip({"savedGame": bad}))


def test_missing_saved_game_and_module_instead_of_save():
    with pytest.raises(VassalFormatError, match="no savedGame"):
        read_save(_zip({"moduledata": b"<data/>"}))
    with pytest.raises(VassalFormatError, match="module, not a saved game"):
        read_save(_zip({"buildFile.xml": b"<x/>", "moduledata": b"<data/>"}))


@pytest.mark.parametrize("name", ["../evil", "/etc/passwd", "a/../../b", "C:/windows/x", "a\\..\\b", ".."])
def test_zip_slip_names_are_refused(name):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("savedGame", b"begin_save")
        z.writestr(zipfile.ZipInfo(name), b"x")
    with pytest.raises(ArchiveError, match="unsafe entry name"):
        read_save(buf.getvalue())


def test_entry_name_check_direct():
    from builder.vassal.archive import check_entry_name
    for bad in ("", "x\x00y", "../a", "/a"):
        with pytest.raises(ArchiveError):
            check_entry_name(bad)
    assert check_entry_name("images/a.png") == "images/a.png"


def test_zip_bomb_is_refused():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("savedGame", b"begin_save")
        z.writestr("bomb", b"\0" * (8 * 1024 * 1024))
    data = buf.getvalue()
    with pytest.raises(ArchiveError, match="zip bomb|too large"):
        read_save(data, limits=Limits(max_entry_size=4 * 1024 * 1024))
    with pytest.raises(ArchiveError, match="zip bomb"):
        SafeZip(data, limits=Limits(max_ratio=100)).read("bomb")


def test_lying_header_sizes_are_enforced_while_inflating():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("savedGame", b"A" * 100_000)
    data = bytearray(buf.getvalue())
    # forge the declared uncompressed size (central directory) down to 10 bytes
    cd = data.rfind(b"PK\x01\x02")
    data[cd + 24:cd + 28] = (10).to_bytes(4, "little")
    with pytest.raises(ArchiveError):
        SafeZip(bytes(data)).read("savedGame")


def test_huge_saved_game_is_refused():
    data = _zip({"savedGame": encode_payload("CHAT" + "x" * 300_000, "vcsk", 1)})
    with pytest.raises(VassalFormatError, match="too large"):
        read_save(data, max_saved_game=100_000)


def test_too_many_entries():
    data = _zip({"savedGame": b"begin_save", **{f"f{i}": b"" for i in range(20)}})
    with pytest.raises(ArchiveError, match="too many entries"):
        read_save(data, limits=Limits(max_entries=10))


def test_metadata_is_parsed_securely():
    with pytest.raises(VassalFormatError, match="DOCTYPE"):
        read_metadata(b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "b">]><data><name>&a;</name></data>')
    with pytest.raises(VassalFormatError, match="well-formed"):
        read_metadata(b"<data><name>")
    with pytest.raises(ValueError):
        make_metadata(name="x", vassal_version="")


def test_players_password_never_in_repr_of_reports():
    save = read_save(sample_save_bytes())
    assert PASSWORD not in repr(save)
    for _, c in save.leaves():
        assert PASSWORD not in repr(c.to_dict())
        assert PASSWORD not in c.summary()
        assert PASSWORD not in repr(c)
        if isinstance(c, AddPiece):
            assert all(PASSWORD not in repr(t) for t in c.piece.layers)
    assert any(PASSWORD in repr(c.to_dict(mask=None)) for _, c in save.leaves())


def test_addpiece_strings_set_directly_win_over_decoded_piece():
    c = decode_leaf("+/5/piece;;;;A/Main;1;2;;0")
    assert c.piece.name == "A"
    c.state_string = "Main;7;8;;0"
    assert c.encode() == "+/5/piece;;;;A/Main;7;8;;0"
    assert c.piece.position == (7, 8)


def test_in_place_edits_of_tab_commands_are_written():
    root = parse_commands("begin_save\x1bPLAYER\tpw\tAlice\tBlue\x1bMain MapBoardPicker\tA\t0\t0\x1bend_save")
    player, bp = root.items[1], root.items[2]
    player.values[2] = "Red"
    bp.values[0] = "B/rev"
    assert root.encode() == "begin_save\x1bPLAYER\tpw\tAlice\tRed\x1bMain MapBoardPicker\tB/rev\t0\t0\x1bend_save"
    assert BoardPicker("Main Map", [("A", 0, 0), ("B/rev", 1, 0)]).encode() == \
        "Main MapBoardPicker\tA\t0\t0\tB/rev\t1\t0"


def test_text_and_tree_edits_stay_coherent():
    save = read_save(sample_save_bytes(log=False))
    assert len(list(save.leaves())) > 3
    save.text = "begin_save\x1bCHAThi\x1bend_save"          # replacing the text re-parses
    assert [c.TYPE for _, c in save.leaves()] == ["BeginSave", "Chat", "EndSave"]
    chat = save.commands.items[1]
    chat.text = "bye"                                         # editing the tree is written
    assert read_save(save.to_bytes()).text == "begin_save\x1bCHATbye\x1bend_save"


# ----------------------------------------------------------------------------- streaming from a file

def _chat_log(n: int) -> str:
    return ESC.join(["begin_save", "end_save"] + [f"LOG\tCHAT<p> - {i:06d} " + "x" * 900 for i in range(n)])


def test_a_stream_reads_the_file_as_it_goes_and_closes_it(tmp_path):
    """SaveStream never holds the file (or its payload) whole: over a 7 MB log stored without
    compression, read in 64 KB chunks, the memory it allocates stays far below the file's size,
    and the file is closed when the commands end."""
    import tracemalloc
    from builder.vassal.savefile import SaveStream

    path = tmp_path / "long.vlog"
    path.write_bytes(zip_bytes([("savedGame", encode_payload(_chat_log(4000), "vcsk", 0x42))],
                               compress=False))
    assert path.stat().st_size > 7_000_000
    tracemalloc.start()
    try:
        stream = SaveStream(path, chunk_size=1 << 16)
        count = sum(1 for _ in stream)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 4002
    assert peak < 2_000_000, peak
    assert stream._zip._file is None                    # closed at the end


def test_a_stream_stopped_early_closes_its_file(tmp_path):
    from builder.vassal.savefile import SaveStream

    path = tmp_path / "short.vlog"
    path.write_bytes(zip_bytes([("savedGame", encode_payload(_chat_log(10), "vcsk", 7))]))
    with SaveStream(path) as stream:
        first = next(iter(stream))
    assert first[0] == 1 and stream._zip._file is None


def test_a_stream_refuses_what_a_whole_read_refuses(tmp_path):
    from builder.vassal.errors import NotAVassalFile
    from builder.vassal.savefile import SaveStream

    data = sample_save_bytes()
    cut = tmp_path / "cut.vsav"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(ArchiveError, match="the file is truncated: the ZIP archive ends at byte"):
        SaveStream(cut)
    module = tmp_path / "game.vmod"
    module.write_bytes(_zip({"buildFile.xml": b"<x/>"}))
    with pytest.raises(NotAVassalFile, match="VASSAL module"):
        SaveStream(module)
    text = tmp_path / "notes.vsav"
    text.write_bytes(b"not a zip at all")
    with pytest.raises(ArchiveError, match="not a ZIP"):
        SaveStream(text)
    whole = tmp_path / "whole.vsav"
    whole.write_bytes(data)
    streamed = [node.encode() for _, _, node in SaveStream(whole, chunk_size=64)]
    assert streamed == [item.encode() for item in read_save(whole).commands.items]
