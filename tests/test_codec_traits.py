"""Traits and decorator chains: one class per trait, type/state codecs, pass-through (§3)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder.vassal.buildfile import BuildFile, piece_from_definition
from builder.vassal.commands import AddPiece, Log
from builder.vassal.errors import PieceError, VassalFormatError
from builder.vassal.piece import Piece, join_layers, split_layers
from builder.vassal.savefile import read_save
from builder.vassal.traits import (
    REGISTRY,
    BasicPiece,
    CalculatedProperty,
    Clone,
    CounterGlobalKeyCommand,
    Deck,
    Delete,
    DynamicProperty,
    Embellishment,
    FreeRotator,
    Hideable,
    Immobilized,
    KeyStroke,
    Labeler,
    Marker,
    MovementMarkable,
    Obscurable,
    PassthroughTrait,
    PlaceMarker,
    Replace,
    ReportState,
    RestrictCommands,
    Restricted,
    ReturnToDeck,
    SendToLocation,
    Stack,
    TriggerAction,
    UsePrototype,
    trait_from_type,
)

from codec_support import REAL_BUILDFILES, real, real_saves

TAB = "\t"

# §3.7 worked example (spec text, TAB written as \t)
EMB = ("emb2;Activate;128;A;Flip;128;;;128;;;;1;false;0;0;inf1_front.png,inf1_back.png;,;true;Step;;;"
       "false;;1;1;true;;70,130;;;1.0;;true")
SLOT_TEXT = ("+/null/delete;Delete;68,130;\t" + EMB + "\\\tprototype;Blue Unit\\\\\tpiece;;;;1st Infantry"
             "/\t1\\\t\\\\\tnull;0;0;1;0")
PROTO_TEXT = ("+/null/report;70\\,130;$location$: $newPieceName$ flips *;;;Report flip;false\tmark;Side\\\t"
              "piece;;;;/-1\tBlue\\\tnull;0;0;;0")
INGAME_TEXT = ("+/1700000000001/delete;Delete;68,130;\t" + EMB + "\\\treport;70\\,130;$location$: "
               "$newPieceName$ flips *;;;Report flip;false\\\\\tmark;Side\\\\\\\tpiece;;;;1st Infantry/\t1\\\t-1"
               "\\\\\tBlue\\\\\\\tMain Map;100;69;1;1;UniqueID;1700000000001")

ALL_CLASSES = [BasicPiece, Stack, Deck, Embellishment, UsePrototype, Marker, Labeler, Delete, Clone, ReportState,
               Obscurable, Hideable, RestrictCommands, Restricted, DynamicProperty, CalculatedProperty,
               SendToLocation, TriggerAction, CounterGlobalKeyCommand, FreeRotator, MovementMarkable,
               PlaceMarker, Replace, ReturnToDeck, Immobilized]


def test_registry_covers_every_required_trait():
    ids = {"piece;", "emb2;", "prototype;", "mark;", "label;", "delete;", "clone;", "report;", "obs;",
           "hide;", "hideCmd;", "restrict;", "PROP;", "calcProp;", "sendto;", "macro;", "globalkey;",
           "rotate;", "markmoved;", "placemark;", "replace;", "return;", "immob;", "stack", "deck;"}
    assert ids <= set(REGISTRY)
    for cls in ALL_CLASSES:
        assert REGISTRY[cls.ID] is cls


@pytest.mark.parametrize("cls", ALL_CLASSES, ids=lambda c: c.__name__)
def test_default_trait_roundtrips_through_its_type(cls):
    t = cls()
    s = t.type_string()
    assert s.startswith(cls.ID.rstrip(";"))
    back = trait_from_type(s, t.state_string())
    assert type(back) is cls
    assert back.type_string() == s
    assert [back.get(f.name) for f in back.fields()] == [t.get(f.name) for f in t.fields()]
    assert back.state_string() == t.state_string()


@pytest.mark.parametrize("cls", [c for c in ALL_CLASSES if c.FIELDS], ids=lambda c: c.__name__)
def test_every_field_set_and_read_back(cls):
    t = cls()
    for f in t.fields():
        value = {"str": "v;a/l\\ue,x", "int": 7, "double": 0.5, "bool": True,
                 "key": KeyStroke(70, 130), "keys": [KeyStroke(65, 520), KeyStroke(0, 0, "Named")],
                 "list": ["a", "b,c"], "char": "z", "color": (1, 2, 3)}[f.kind]
        if cls is FreeRotator and f.name == "facings":
            continue
        if cls is UsePrototype:  # written verbatim by VASSAL: a ';' cannot be part of the name
            value = "Blue Unit/x\\y,z"
        t.set(f.name, value)
        back = trait_from_type(t.type_string())
        got = back.get(f.name)
        if cls is Immobilized:  # written without escaping, like VASSAL: only plain values survive
            continue
        assert got == value, (f.name, t.type_string())


def test_spec_examples_decode_to_fields():
    d = trait_from_type("delete;Delete;68,130;")
    assert isinstance(d, Delete) and d.command_name == "Delete" and d.key == KeyStroke(68, 130)
    e = trait_from_type(EMB, "2")
    assert isinstance(e, Embellishment)
    assert e.images == ["inf1_front.png", "inf1_back.png"] and e.level_names == ["", ""]
    assert e.name == "Step" and e.version == 1 and e.always_active and e.increase_keystroke == KeyStroke(70, 130)
    assert e.scale == 1.0 and e.level == 2 and e.active
    r = trait_from_type("report;70\\,130;$location$: $newPieceName$ flips *;;;Report flip;false", "-1")
    assert r.keys == [KeyStroke(70, 130)] and r.description == "Report flip" and r.state_dict() == {"cycle_index": -1}
    rot = trait_from_type("rotate;6;93,130;91,130;Rotate CW;Rotate CCW;;;;;;;;true", "2")
    assert rot.facings == 6 and rot.rotate_cw_text == "Rotate CW" and rot.state_dict()["angle"] == -120.0
    free = trait_from_type("rotate;1;82,130;Set angle;;;;", "45.0")
    assert free.get("set_angle_text") == "Set angle" and free.angle == 45.0
    im = trait_from_type("immob;g;N;R;")
    assert (im.selection, im.movement, im.stacking) == ("g", "N", "R")
    p = trait_from_type("PROP;Strength;true,0,10,false;Increase:61\\,130:I\\,1,Decrease:45\\,130:I\\,-1;", "4")
    assert p.property_name == "Strength" and p.constraints == ["true", "0", "10", "false"]
    assert p.commands() == [["Increase", "61,130", "I,1"], ["Decrease", "45,130", "I,-1"]]
    assert p.value == "4"
    lab = trait_from_type("label;;Change label;10;;0,0,0;t;0;c;0;b;c;$pieceName$ ($label$);Dialog;0;0;TextLabel;;false",
                          " Hello ")
    assert lab.text_fg == (0, 0, 0) and lab.text_bg is None and lab.label == "Hello"
    m = trait_from_type("mark;Side,Nation", "Blue,France")
    assert m.properties() == {"Side": "Blue", "Nation": "France"}
    u = trait_from_type("prototype;Blue Unit")
    assert u.prototype_name == "Blue Unit" and u.type_string() == "prototype;Blue Unit"
    g = trait_from_type("globalkey;Cmd;71,130;75,130;Side = Blue;false;1;true;true;;;-1;"
                        "COUNTER|false|CURMAP||||||||false|||EQUALS;false;")
    assert g.target_dict()["gkc_type"] == "COUNTER" and g.target_dict()["target_type"] == "CURMAP"


def test_keystroke_forms():
    assert KeyStroke.parse("") is None
    assert KeyStroke.parse("70,130") == KeyStroke(70, 130)
    assert KeyStroke.parse("57348,0,MovedOnMap").name == "MovedOnMap"
    assert KeyStroke.parse("D") == KeyStroke(68, 130)   # legacy one-char form = Ctrl+char
    assert KeyStroke.named("Flip").encode() == "0,0,Flip"


def test_secret_states_are_flagged():
    o = trait_from_type("obs;77,130;mask.png;Mask;I;?;;;;false;;", "pw123;")
    h = trait_from_type("hide;73,130;Invisible;;player:;0.3", "pw123")
    r = trait_from_type("restrict;Blue;false;true;", "pw123")
    for t in (o, h, r):
        assert t.SECRET_STATE and t.secret_values() == ["pw123"]
    assert trait_from_type("obs;77,130;mask.png", "null;").secret_values() == []
    p = Piece([o, BasicPiece(name="x")])
    desc = p.describe()
    assert "pw123" not in repr(desc) and desc["layers"][0]["state"]["masked"] is True
    assert "pw123" in repr(p.describe(mask=None))


# ------------------------------------------------------------------------------- chains

def test_worked_example_pieceslot_decodes_and_reencodes():
    p = piece_from_definition(SLOT_TEXT)
    assert [type(t).__name__ for t in p.layers] == ["Delete", "Embellishment", "UsePrototype", "BasicPiece"]
    assert p.name == "1st Infantry" and p.basic.gpid == "1" and p.map_id is None
    assert p.add_piece_string() == SLOT_TEXT
    for t in p.layers:      # fresh encoding (not the kept raw string) is identical too
        t.type_dirty = t.state_dirty = True
    assert p.add_piece_string() == SLOT_TEXT


def test_worked_example_prototype_and_ingame_piece():
    proto = piece_from_definition(PROTO_TEXT)
    assert [t.id for t in proto.layers] == ["report;", "mark;", "piece;"]
    assert proto.find(Marker).properties() == {"Side": "Blue"}
    add = AddPiece.parse(INGAME_TEXT)
    p = add.piece
    assert add.piece_id == "1700000000001"
    assert p.map_id == "Main Map" and p.position == (100, 69)
    assert p.basic.properties() == {"UniqueID": "1700000000001"}
    assert p.find(Embellishment).level == 1
    assert p.find(ReportState).state_dict() == {"cycle_index": -1}
    assert add.encode() == INGAME_TEXT


def test_build_piece_from_traits_matches_spec_text():
    layer = Embellishment(activate_command="Activate", up_command="Flip", images=["inf1_front.png", "inf1_back.png"],
                          level_names=["", ""], name="Step", increase_keystroke=KeyStroke(70, 130))
    layer.state = "1"
    basic = BasicPiece(name="1st Infantry")
    basic.state = "null;0;0;1;0"
    piece = Piece([Delete(command_name="Delete"), layer, UsePrototype(prototype_name="Blue Unit"), basic])
    piece.layers[2].state = ""
    assert piece.add_piece_string() == SLOT_TEXT


def test_modifying_a_trait_changes_only_that_layer():
    p = piece_from_definition(SLOT_TEXT)
    before = p.type_string()
    p.find(Delete).set("command_name", "Remove")
    after = p.type_string()
    assert after == before.replace("delete;Delete;", "delete;Remove;")
    p.find(Embellishment).value = 2
    assert p.state_string().startswith("\t2\\\t")


def test_passthrough_traits_roundtrip_byte_for_byte():
    odd = ["locmsg;Msg;$x$ \\; y", "nonRect;M 0 0 L 10 0 L 10 10 Z", "moved;moved58", "conceal;C;ru\\/ru",
           "turr;a,b;'q'", "footprint;84,130;Movement Trail;true", "weird-no-semicolon"]
    layers = odd + ["piece;;;img.png;Name"]
    type_str = join_layers(layers)
    state_str = join_layers(["s" + str(i) + ";x\\" if i % 2 else "" for i in range(len(odd))] + ["Map;1;2;;0"])
    p = Piece.decode(type_str, state_str)
    assert all(isinstance(t, PassthroughTrait) for t in p.layers[:-1])
    assert [t.id for t in p.layers[:-1]] == ["locmsg;", "nonRect;", "moved;", "conceal;", "turr;", "footprint;",
                                            "weird-no-semicolon"]
    assert p.type_string() == type_str and p.state_string() == state_str
    for t in p.layers:
        t.type_dirty = t.state_dirty = True
    assert p.type_string() == type_str


def test_stack_and_deck_states():
    s = trait_from_type("stack", "Main Map;100;69;a;b;@@1")
    assert isinstance(s, Stack) and s.members == ["a", "b"] and s.layer == "1" and s.position == (100, 69)
    old = trait_from_type("stack", "null;0;0")
    assert old.map_id is None and old.members == []
    d = trait_from_type("deck;" + ";" * 48, "Cards;10;20;true;c1,c2")
    assert isinstance(d, Deck) and d.members == ["c1", "c2"] and d.state_dict()["face_down"] is True


def test_bad_pieces():
    with pytest.raises(PieceError):
        Piece([])
    with pytest.raises(VassalFormatError):
        piece_from_definition("nonsense")
    with pytest.raises(VassalFormatError):
        piece_from_definition("+/null/only-two")
    p = Piece.decode("delete;D;68,130;\tpiece;;;;x", None)   # no state at all: defaults
    assert p.basic.map_id is None
    short = Piece.decode("delete;D;68,130;\tpiece;;;;x", "")  # fewer state layers than types
    assert short.state_string() == ""


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(st.sampled_from(["a", ";", "\\", ",", "/", "x", "'"]), max_size=10)
                .filter(lambda t: not t.endswith("\\") and not (len(t) > 1 and t[0] == t[-1] == "'")),
                min_size=1, max_size=8))
def test_join_then_split_is_identity_for_trait_like_layers(layers):
    # trait strings never contain a raw TAB, never end with a backslash and are never quote-wrapped
    assert split_layers(join_layers(layers)) == layers


# ---------------------------------------------------------------------------- real files

@pytest.mark.shared
@pytest.mark.parametrize("name", REAL_BUILDFILES)
def test_real_buildfile_pieces_roundtrip(name):
    bf = BuildFile.read(real(name))
    n = 0
    for slot in bf.piece_slots() + bf.prototypes():
        p = slot.piece
        text = slot.text
        assert p.add_piece_string().split("/", 2)[2] == text.split("/", 2)[2]
        fresh = join_layers([t._join_type() for t in p.layers])
        assert fresh == p.type_string(), slot
        n += 1
    assert n > 200


@pytest.mark.shared
def test_real_save_pieces_roundtrip_and_module_traits_pass_through():
    saves = real_saves()
    if not saves:
        pytest.skip("real saves not present")
    seen = set()
    for path in saves:
        for _, c in read_save(path).leaves():
            c = c.inner if isinstance(c, Log) else c
            if isinstance(c, AddPiece):
                p = c.piece
                seen.update(t.id for t in p.layers if isinstance(t, PassthroughTrait))
                assert p.type_string() == c.type_string and p.state_string() == c.state_string
                assert join_layers([t._join_type() for t in p.layers]) == c.type_string
                assert join_layers([t.state_string() for t in p.layers]) == c.state_string
    if any(p.name == "vasl-basic.vsav" for p in saves):
        assert {"moved;", "conceal;", "turr;", "info;"} <= seen


def _ref_split(s):
    """VASSAL's createPiece recursion, literally: decode with TAB, recurse on the second token."""
    from builder.vassal.sequence import decode
    out, rest = [], s
    while True:
        toks = decode(rest, TAB)
        out.append(toks[0])
        if len(toks) < 2:
            return out
        rest = toks[1]


@settings(max_examples=600, deadline=None)
@given(st.text(st.sampled_from(["a", "\t", "\\", "'", ";"]), max_size=24))
def test_fast_split_layers_matches_vassal_recursion(s):
    assert split_layers(s) == _ref_split(s)


def test_keystroke_names():
    assert str(KeyStroke(70, 130)) == "Ctrl+F"
    assert str(KeyStroke(83, 585)) == "Shift+Alt+S"
    assert str(KeyStroke(0, 0, "Flip")) == "Flip"


def test_display_name_applies_layer_and_label_names():
    def piece(level_names, value, label=None, fmt="$pieceName$ ($label$)"):
        layers = []
        if label is not None:
            lab = Labeler(name_format=fmt)
            lab.state = label
            layers.append(lab)
        e = Embellishment(images=["a", "b"], level_names=level_names)
        e.state = str(value)
        m = Marker(keys=["Side"])
        m.set_values(["Blue"])
        return Piece(layers + [e, m, BasicPiece(name="Tank")])

    assert piece(["", ""], 1).display_name == "Tank"
    assert piece(["Heavy ", "x"], -1).display_name == "Tank"          # inactive layer: no change
    assert piece(["Heavy +", ""], 1).display_name == "Heavy Tank"     # prefix
    assert piece(["", "+ (flipped)"], 2).display_name == "Tank (flipped)"   # suffix
    assert piece(["Stuka-C", "Stuka-N"], 1).display_name == "Stuka-C"  # replaces
    assert piece(["", ""], 1, "2-3").display_name == "Tank (2-3)"
    assert piece(["", ""], 1, "").display_name == "Tank"
    assert piece(["", ""], 1, "x", "$Side$ $pieceName$ [$label$] $nope$ $open").display_name == "Blue Tank [x] nope open"


def test_free_rotator_layout_follows_facings():
    free = FreeRotator(facings=1, set_angle_text="Set angle")
    assert free.type_string().startswith("rotate;1;;Set angle;")
    back = trait_from_type(free.type_string(), "30.0")
    assert back.get("set_angle_text") == "Set angle" and back.angle == 30.0
    fixed = FreeRotator(facings=12, rotate_cw_text="CW")
    assert trait_from_type(fixed.type_string(), "3").state_dict() == {"facing": 3, "angle": -90.0}


def test_legacy_key_char_with_multichar_uppercase():
    assert KeyStroke.parse("ß") == KeyStroke(ord("ß"), 130)
    assert trait_from_type("report;ßa;x").keys == [KeyStroke(ord("ß"), 130), KeyStroke(65, 130)]


def test_basic_piece_property_count_is_not_trusted():
    b = trait_from_type("piece;;;;x", "Main;1;2;;2147483647;a;1;b")
    assert b.properties() == {"a": "1", "b": ""}
    assert trait_from_type("piece;;;;x", "Main;1;2;;-5;a;1").properties() == {}


def test_expand_prototypes_like_piece_cloner():
    from builder.vassal.piece import expand_prototypes
    base = Piece([Marker(keys=["Class"]), UsePrototype(prototype_name="Inner"), BasicPiece(name="ignored")])
    base.layers[0].set_values(["Armor"])
    inner = Piece([ReportState(), trait_from_type("cmt;a comment"), BasicPiece()])
    protos = {"Base": base, "Inner": inner}
    piece = Piece([Delete(command_name="Delete"), UsePrototype(prototype_name="Base"),
                   UsePrototype(prototype_name="Missing"), BasicPiece(name="Tank")])
    out = expand_prototypes(piece, protos.get)
    assert out.trait_ids() == ["delete;", "mark;", "report;", "piece;"]
    assert out.find(Marker).properties() == {"Class": "Armor"} and out.name == "Tank"
    assert piece.trait_ids() == ["delete;", "prototype;", "prototype;", "piece;"]   # input untouched
    loop = {"A": Piece([UsePrototype(prototype_name="A"), BasicPiece()])}
    with pytest.raises(PieceError, match="nested deeper"):
        expand_prototypes(Piece([UsePrototype(prototype_name="A"), BasicPiece()]), loop.get)


_LAYER = st.text(st.sampled_from(["a", ";", "\\", "'", ",", "\t"]), max_size=6)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_LAYER, st.lists(_LAYER, min_size=1, max_size=4).map(join_layers)),
                min_size=1, max_size=60))
def test_split_layers_matches_vassal_recursion_on_deep_chains(layers):
    # deep chains whose layers may hold TABs and chains of their own (as Replace/Place Marker do)
    s = join_layers(layers)
    assert split_layers(s) == _ref_split(s)
    assert split_layers(s + "\t" + s) == _ref_split(s + "\t" + s)   # extra tokens at the top
