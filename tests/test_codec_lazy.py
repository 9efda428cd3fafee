"""Streaming and lazy decoding give what the eager tree gives: top-level commands split from chunks
cut anywhere, and piece commands whose fields are decoded only when read."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder.vassal.commands import (
    UNREAD_CHAT,
    AddPiece,
    Chat,
    ChangePiece,
    Compound,
    Completeness,
    Log,
    Malformed,
    MovePiece,
    decode_leaf,
    iter_leaves,
    iter_top_level,
    parse_commands,
)
from builder.vassal.errors import TruncatedError
from builder.vassal.sequence import encode_str

ESC = "\x1b"

MOVE = "M/p1/Main Map/100/200/null/Main Map/50/60/null/secret"
ADD = "+/p1/emb2;Flip;128;F;;128;;;128;;;;1;false;0;0;a.png,b.png;,;true;Step;;;false;;1;1;true;;;;;1.0;;true\t" \
      "piece;;;a.png;Tank/1\tMain Map;10;20;;0"


def _texts() -> list[str]:
    logged = encode_str(["LOG\t" + MOVE, "LOG\tCHAT<a> - hi"], ESC)           # a logged compound
    nested = encode_str(["begin_save", "", encode_str(["", ADD, "+/2/stack/Main Map;10;20;p1"], ESC), "end_save"], ESC)
    return [
        nested + ESC + "LOG\t" + MOVE + ESC + "LOG\t" + logged + ESC + "LOG\tCHAT* moves *",
        "begin_save" + ESC + "end_save",
        "LOG\t'quoted'" + ESC + "'LOG\tCHAT x'" + ESC + "CHAT tail\\" + ESC + "more",   # quotes, an escaped ESC
        ESC + ESC + "CHAT a" + ESC,                                                  # empty commands
        "CHAT only",
    ]


@pytest.mark.parametrize("text", _texts())
@pytest.mark.parametrize("size", [1, 2, 3, 7, 64, 10**6])
def test_streamed_top_level_commands_equal_the_tree(text, size):
    tree = parse_commands(text)
    items = tree.items if isinstance(tree, Compound) else [tree]
    chunks = [text[i:i + size] for i in range(0, len(text), size)]
    got = list(iter_top_level(chunks))
    assert [n for n, _, _ in got] == list(range(1, len(items) + 1))
    assert [node.encode() for _, _, node in got] == [i.encode() for i in items]
    assert [[type(c).__name__ for _, c in iter_leaves(node)] for _, _, node in got] == \
           [[type(c).__name__ for _, c in iter_leaves(i)] for i in items]
    # each offset is where that command's text starts: the texts between offsets are the tokens
    offsets = [o for _, o, _ in got] + [len(text) + 1]
    raw = [text[offsets[k]:offsets[k + 1] - 1] for k in range(len(got))]
    assert ESC.join(raw) == text


@pytest.mark.parametrize("text", _texts() + [
    "begin_save" + ESC + "LOG\t" + MOVE + ESC + "end_save" + ESC + "LOG\t" + MOVE + ESC + "LOG\tCHAT* a *"
    + ESC + "LOG\t'quoted'" + ESC + "LOG\t" + MOVE])
@pytest.mark.parametrize("size", [1, 5, 10**6])
def test_unwrapped_log_entries_are_the_commands_of_the_plain_ones(text, size):
    chunks = [text[i:i + size] for i in range(0, len(text), size)]
    plain = list(iter_top_level(chunks))
    check = Completeness()
    try:
        list(iter_top_level(chunks, Completeness()))
    except TruncatedError:                  # a text cut short is told the same way
        with pytest.raises(TruncatedError):
            list(iter_top_level(chunks, check, unwrap=True))
        check = None
    got = list(iter_top_level(chunks, check, unwrap=True))
    assert [(n, o) for n, o, _ in got] == [(n, o) for n, o, _ in plain]
    seen_end, unwrapped = False, 0
    for k, ((_, _, node), (_, _, want)) in enumerate(zip(got, plain)):
        if seen_end and k < len(plain) - 1 and isinstance(want, Log) and not isinstance(want.inner, Compound):
            unwrapped += 1      # after the saved position, but the last: the entry's command itself
            assert type(node) is type(want.inner) and node.encode() == want.inner.encode()
        else:
            assert type(node) is type(want) and node.encode() == want.encode()
        seen_end = seen_end or type(want).__name__ == "EndSave"
    assert check is None or check.unwrapped == unwrapped
    assert type(got[-1][2]) is type(plain[-1][2])
    quiet = list(iter_top_level(chunks, unwrap=True, chat=False))    # a reader of no chat line: one Chat for all
    assert [(n, o) for n, o, _ in quiet] == [(n, o) for n, o, _ in got]
    for (_, _, node), (_, _, want), (_, _, logged) in zip(quiet, got, plain):
        if type(want) is Chat and isinstance(logged, Log):      # an unwrapped chat line
            assert node is UNREAD_CHAT
        else:
            assert node.encode() == want.encode()


def test_stream_reports_a_cut_at_the_end():
    text = "begin_save" + ESC + "+/1/stack/Main Map;1;2;a" + ESC + "LOG\tM/p1/Main Map/1"
    check = Completeness()
    with pytest.raises(TruncatedError) as err:
        list(iter_top_level([text[:5], text[5:]], check))
    assert "at command 3" in str(err.value) and "the last command is incomplete" in str(err.value)
    assert err.value.command == 3 and err.value.offset == text.index("LOG")


def _unset(cmd, name: str) -> bool:
    try:
        object.__getattribute__(cmd, name)
    except AttributeError:
        return True
    return False


def test_move_fields_wait_until_read_and_match_the_eager_decode():
    m = decode_leaf(MOVE)
    assert isinstance(m, MovePiece) and all(_unset(m, f) for f in MovePiece.LAZY)
    assert m.new_x == 100                       # one field read: the command is decoded now
    assert (m.piece_id, m.new_map, m.new_y, m.new_under, m.old_map, m.old_x, m.old_y, m.old_under,
            m.player_id) == ("p1", "Main Map", 200, None, "Main Map", 50, 60, None, "secret")
    assert m.encode() == MOVE and m.unchanged()


def test_setting_one_field_of_an_undecoded_move_keeps_the_others():
    m = decode_leaf(MOVE)
    m.new_x = 7
    assert m.encode() == "M/p1/Main Map/7/200/null/Main Map/50/60/null/secret"


@pytest.mark.parametrize("raw, lazy", [
    ("M/p1/Main Map/1/2/null/Main Map/3/4/null", True),
    ("M/p1/Main Map/+1/-2/null/Main Map/3/4/null", True),
    ("M/p\\/1/Main Map/1/2/null/Main Map/3/4/null", False),      # an escaped delimiter: decoded at once
    ("M/'p1'/Main Map/1/2/null/Main Map/3/4/null", False),       # a quoted token
    ("M/p1/Main Map/1234567890/2/null/Main Map/3/4/null", False),
])
def test_moves_off_the_plain_shape_are_decoded_at_once(raw, lazy):
    m = decode_leaf(raw)
    assert isinstance(m, MovePiece) and _unset(m, "piece_id") == lazy
    eager = MovePiece.__new__(MovePiece)
    object.__setattr__(eager, "raw", raw)
    eager._decode_fields(raw)
    assert m.fields() == eager.fields()


@pytest.mark.parametrize("raw", [
    "M/p1/Main Map/1/2/null/Main Map/3/4/null", "M/null/Main Map/+1/-2/p2/null/3/4/null/pw\\/x",
    "M/p\\/1/Main Map/1/2/null/Main Map/3/4/null", "M/'p1'/Main Map/1/2/'u'/Main Map/3/4/null",
    "M/p1/Main Map/0012/2/null/Main Map/3/4/null/'pw'", "M/p1/Main Map/1234567890/2/null/Main Map/3/4/null",
])
def test_a_moves_destination_is_its_fields(raw):
    for m in (decode_leaf(raw), iter_top_level(["LOG\t" + raw]).__next__()[2].inner):
        assert m.destination() == (m.piece_id, m.new_map, m.new_x, m.new_y, m.new_under)
    m = decode_leaf(raw)
    m.new_x = 7                                  # changed: read from the fields
    assert m.destination()[2] == 7
    assert MovePiece("p", "m", 1, 2, "u").destination() == ("p", "m", 1, 2, "u")


@settings(max_examples=500, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(["1", "+2", "-30", "1234567890", "null", "Main Map", ""]),
                          st.text(alphabet="ab/\\'+-19 ", max_size=6)), min_size=8, max_size=12))
def test_the_plain_move_pattern_agrees_with_the_shape_check(tokens):
    from builder.vassal.commands import _MOVE_SHAPE, _PLAIN_MOVE
    raw = "M/" + "/".join(tokens)
    if "\\" not in raw and "'" not in raw:
        assert (_PLAIN_MOVE.match(raw) is None) == (_MOVE_SHAPE.match(raw) is None)


@pytest.mark.parametrize("raw", [
    "M/p1/Main Map/x/2/null/Main Map/3/4/null",   # not an int
    "M/p1/Main Map/1/2/null/Main Map/3/4",        # 8 fields
    "M/p1/Main Map/99999999999/2/null/Main Map/3/4/null",
    "+/p1/piece;;;a.png;Tank",                     # AddPiece without a state
    "+/p1\\/piece;;;a.png;Tank/x",                 # ... its second delimiter is escaped
    "D/p1",                                        # ChangePiece without a new state
    "D/p1\\/x",
])
def test_malformed_piece_commands_are_still_told_at_parse_time(raw):
    assert isinstance(decode_leaf(raw), Malformed)


def test_add_and_change_fields_wait_until_read():
    deep = "+/p1/delete;Delete;68,130;\t" + ADD[len("+/p1/"):].replace("\t", "\\\t", 1).replace("/1\t", "/\t1\\\t", 1)
    a = decode_leaf(deep)                  # a chain of three: its text holds escapes, read when asked for
    assert isinstance(a, AddPiece) and _unset(a, "type_string")
    assert a.piece_id == "p1" and a.piece.name == "Tank" and a.encode() == deep
    assert [t.id for t in a.piece.layers] == ["delete;", "emb2;", "piece;"]
    plain = decode_leaf(ADD)               # nothing escaped: split at once, as cheap as checking it
    assert not _unset(plain, "type_string") and plain.piece_id == "p1" and plain.piece.name == "Tank"
    assert plain.encode() == ADD and decode_leaf("+/null/stack/m;1;2").piece_id is None
    c = decode_leaf("D/p1/new\\/state/old")
    assert isinstance(c, ChangePiece) and _unset(c, "new_state")
    assert (c.piece_id, c.new_state, c.old_state) == ("p1", "new/state", "old")
    c.old_state = None
    assert c.encode() == "D/p1/new\\/state"


def test_logged_move_in_a_stream_is_lazy_too():
    (_, _, node), = list(iter_top_level(["LOG\t" + MOVE]))
    assert isinstance(node, Log) and isinstance(node.inner, MovePiece) and _unset(node.inner, "new_map")
    assert node.inner.new_map == "Main Map"


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab/\\'", max_size=14), st.sampled_from([1, 2]))
def test_the_parse_time_token_check_agrees_with_decode(body, n):
    from builder.vassal.commands import _has_tokens
    from builder.vassal.sequence import decode
    assert _has_tokens("D/" + body, n) == (len(decode(body, "/")) > n)


@pytest.mark.parametrize("cut", [0, 1, 2, 3])
def test_a_long_payload_decodes_in_slices_as_in_one_call(cut):
    from builder.vassal.errors import PayloadError
    from builder.vassal.savefile import _UTF8_SLICE, decode_payload
    emoji = "\U0001f411".encode()                       # 4 bytes; one across each slice boundary
    body = bytearray(b"CHAT x" * (3 * _UTF8_SLICE // 6))
    for k in (1, 2):
        at = k * _UTF8_SLICE - cut
        body[at:at + 4] = emoji
    text, enc, _ = decode_payload(bytes(body))
    assert enc == "plain" and text == bytes(body).decode("utf-8")
    bad = 2 * _UTF8_SLICE + 5 - cut                    # a byte UTF-8 refuses, past two slices
    body[bad] = 0xFF
    with pytest.raises(PayloadError, match=f"not valid UTF-8 at byte {bad}$"):
        decode_payload(bytes(body))
    with pytest.raises(TruncatedError, match=f"inside a character at byte {len(body) - 2 + 2}$"):
        decode_payload(bytes(body[:bad]) + b"x" * (len(body) - bad - 2) + emoji[:2])


def test_a_piece_derives_name_and_properties_from_its_current_layers():
    """Name, properties and trait ids are worked out once per (type, state) pair and shared, yet
    a piece whose layers were changed, replaced or reordered gives what its layers now say."""
    from builder.vassal.piece import Piece
    from builder.vassal.traits import BasicPiece, Embellishment, Marker

    add = decode_leaf(ADD)
    twin = decode_leaf(ADD.replace("+/p1/", "+/p2/"))
    assert add.piece.display_name == twin.piece.display_name == "Tank"
    assert add.fields()["traits"] == ["emb2;", "piece;"]
    props = add.piece.properties()
    assert props["Step_Level"] == "1" and props["Step_Active"] == "true"
    props["Step_Level"] = "9"                                  # a caller's copy, not the shared one
    assert twin.piece.properties()["Step_Level"] == "1"

    layer = add.piece.find(Embellishment)
    layer.value = -2                                            # the state setter
    assert add.piece.properties()["Step_Level"] == "2" and add.piece.properties()["Step_Active"] == "false"
    assert twin.piece.properties()["Step_Level"] == "1"         # the other piece still reads its strings
    add.piece.basic.set("name", "Truck")                        # a type field
    assert add.piece.name == add.fields()["name"] == "Truck"
    assert twin.piece.name == "Tank"

    third = decode_leaf(ADD.replace("+/p1/", "+/p3/")).piece
    assert third.display_name == "Tank"
    mark = Marker(keys=["Side"])
    mark.set_values(["Blue"])
    third.layers.insert(0, mark)                                # a layer added in place
    assert third.properties()["Side"] == "Blue" and third.trait_ids()[0] == "mark;"
    fourth = Piece.decode(twin.type_string, twin.state_string)
    fourth.layers[-1] = BasicPiece(image="x.png", name="Jeep")  # a layer replaced
    assert fourth.display_name == "Jeep"
