"""The one-pass command-tree parser and the AddPiece field split agree with their definitions.

The definitions (GameModule.decode: split on unescaped ESC, unquote, parse each token again; and
``decode(raw[2:], "/")`` for an AddPiece) are written out here the plain way and compared with
what the codec builds, on random trees (escapes, quotes, backslashes at token ends, logged
commands), on hand-made corner cases and on every real save.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder.vassal.commands import (
    ESC,
    MAX_COMMANDS,
    MAX_DEPTH,
    AddPiece,
    CommandError,
    Compound,
    Log,
    _parse,
    _three_tokens,
    decode_leaf,
    parse_commands,
)
from builder.vassal.errors import PieceError
from builder.vassal.piece import MAX_LAYERS, _plain_chain, join_layers, split_layers
from builder.vassal.savefile import read_save
from builder.vassal.sequence import decode, encode_str
from tests.codec_support import real_saves


def reference(s: str, depth: int = 0):
    """GameModule.decode, level by level (the parser's definition)."""
    if depth > MAX_DEPTH:
        raise CommandError("too deep")
    if ESC not in s and not (len(s) > 1 and s[0] == "'" and s[-1] == "'"):
        return decode_leaf(s, depth)
    toks = decode(s, ESC)
    if len(toks) == 1 and toks[0] == s:
        return decode_leaf(s, depth)
    return ("compound", s, [reference(t, depth + 1) for t in toks])


def shape(node):
    """A node as plain data: kind, the text it was read from, its parts."""
    if isinstance(node, tuple):                      # the reference's compound
        return ("compound", node[1], [shape(i) for i in node[2]])
    if isinstance(node, Compound):
        return ("compound", node.encode(), [shape(i) for i in node.items])
    if isinstance(node, Log):
        return ("Log", node.raw, shape(node.inner))
    return (type(node).__name__, node.raw)


def outcome(fn, text: str, depth: int = 0):
    try:
        return shape(fn(text, depth))
    except CommandError:
        return "too deep"


ATOMS = ["a", "b", "\\", "\\\\", "'", ESC, "+/", "LOG\t", "\t", "/", ";", "begin_save", "M/1/m/1/2/x/m/3/4/y"]
leaf_text = st.lists(st.sampled_from(ATOMS), max_size=6).map("".join)
trees = st.recursive(leaf_text, lambda kids: st.lists(kids, min_size=1, max_size=4).map(
    lambda items: encode_str(items, ESC)), max_leaves=30)


@settings(max_examples=600, deadline=None)
@given(trees, st.sampled_from([0, 1, 2, MAX_DEPTH - 3]))
def test_the_tree_is_the_one_the_definition_gives(text, depth):
    assert outcome(_parse, text, depth) == outcome(reference, text, depth)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(ATOMS), max_size=14).map("".join))
def test_any_text_parses_as_the_definition_says(text):
    assert outcome(_parse, text) == outcome(reference, text)


@pytest.mark.parametrize("text", [
    "a\\" + ESC + "b",                       # a backslash before a top-level ESC: read as an escape
    "a\\\\" + ESC + "b" + ESC + "c",         # an ESC two levels down in a one-item compound
    ESC, ESC + ESC, "\\" + ESC, "x\\",       # empty tokens, a trailing backslash kept as text
    "'q'" + ESC + "r",                       # a quoted token (the level-by-level path)
    encode_str(["begin_save", encode_str(["", "+/1/stack/m;1;2", "+/2/piece;;;a.png;T/\\tnull;0;0;;0"], ESC),
                "LOG\tM/1/m/1/2/x/m/3/4/y", "end_save"], ESC),
])
def test_corner_cases(text):
    assert outcome(_parse, text) == outcome(reference, text)
    assert parse_commands(text).encode() == text


def test_the_depth_limit_is_the_definitions():
    for levels in (MAX_DEPTH - 2, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1):
        text = "x"
        for _ in range(levels):
            text = encode_str(["a", text], ESC)
        assert outcome(_parse, text) == outcome(reference, text), levels
    with pytest.raises(CommandError, match="nested deeper"):
        parse_commands(text)


def test_too_many_commands_are_refused_before_the_tree_is_built():
    parse_commands(ESC * (MAX_COMMANDS - 1))
    with pytest.raises(CommandError, match="more than"):
        parse_commands(ESC * MAX_COMMANDS)


def test_a_compound_writes_its_own_text_until_changed():
    inner = encode_str(["+/1/stack/m;1;2", "-/7"], ESC)
    text = encode_str(["begin_save", inner, "end_save"], ESC)
    root = parse_commands(text)
    assert root.items[1].encode() == inner                 # made from the slice, one level unescaped
    root.items[1].items[1] = decode_leaf("-/8")
    assert root.encode() == encode_str(["begin_save", encode_str(["+/1/stack/m;1;2", "-/8"], ESC), "end_save"], ESC)


def test_real_saves_parse_as_the_definition_says():
    saves = real_saves()
    if not saves:
        pytest.skip("real saves not present")
    for path in saves:
        text = read_save(path).text
        assert outcome(_parse, text) == outcome(reference, text), path.name
        assert parse_commands(text).encode() == text


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(["a", "\\", "/", "'", "\t", "7"]), max_size=16).map("".join))
def test_add_piece_tokens_are_decodes(body):
    toks = decode(body, "/")
    three = _three_tokens("+/" + body)
    if len(toks) == 3:
        assert three is not None and list(three) == toks
    else:
        assert three is None


def test_add_piece_fields_from_the_fast_split_and_from_decode_agree():
    raw = "+/12/emb2;Step;;\\/x\\/\\tpiece;;;a\\/b.png;N/'1\\tnull;0;0;;0'"
    c = AddPiece.parse(raw)
    assert (c.piece_id, c.type_string, c.state_string) == ("12", "emb2;Step;;/x/\\tpiece;;;a/b.png;N",
                                                          "1\\tnull;0;0;;0")
    assert [c.piece_id, c.type_string, c.state_string] == decode(raw[2:], "/")
    c = AddPiece.parse("+/12/t/s/extra")      # four tokens: VASSAL reads the first three
    assert (c.piece_id, c.type_string, c.state_string) == ("12", "t", "s")


# --------------------------------------------------------------------------- trait chains

def _createpiece_layers(s: str) -> list[str]:
    """VASSAL's createPiece recursion: decode with TAB, recurse on the second token."""
    out, rest = [], s
    while True:
        toks = decode(rest, "\t")
        out.append(toks[0])
        if len(toks) < 2:
            return out
        rest = toks[1]


_PLAIN_LAYER = st.text(st.sampled_from(["a", ";", "\\", "'", ",", "/"]), max_size=6)


@settings(max_examples=400, deadline=None)
@given(st.lists(_PLAIN_LAYER, min_size=1, max_size=80))
def test_plain_chains_split_as_createpiece_does(layers):
    # layers without a TAB of their own: the one-split path (_plain_chain) when none starts with a
    # quote or ends the chain's first layer with a backslash, the level-by-level one otherwise
    s = join_layers(layers)
    assert split_layers(s) == _createpiece_layers(s)
    assert split_layers(s + "\tx") == _createpiece_layers(s + "\tx")


def test_a_plain_chain_takes_the_one_split_path():
    layers = ["emb2;a", "report;b;;x\\y", "", "mark;k", "piece;;;a.png;Tank\\"]
    s = join_layers(layers)
    assert _plain_chain(s.split("\t"), MAX_LAYERS) == layers == split_layers(s)
    assert _plain_chain(join_layers(["a", "'q'", "b"]).split("\t"), MAX_LAYERS) is None   # a quoted layer
    assert _plain_chain(join_layers(["a", "b\tc", "d"]).split("\t"), MAX_LAYERS) is None  # a TAB inside
    with pytest.raises(PieceError, match="more than 3 layers"):
        split_layers(join_layers(["a", "b", "c", "d"]), limit=3)
