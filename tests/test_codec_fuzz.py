"""Fuzzing: mutated saves, payloads and command strings never raise anything but
VassalFormatError (a clear, one-line error) — no uncaught exceptions."""
from __future__ import annotations

import io
import os
import zipfile
from functools import lru_cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builder.vassal.archive import zip_bytes
from builder.vassal.commands import parse_commands
from builder.vassal.errors import VassalFormatError
from builder.vassal.report import format_lines, save_report
from builder.vassal.savefile import encode_payload, read_save

from codec_support import real_saves, sample_save

FUZZ = settings(max_examples=int(os.environ.get("CODEC_FUZZ_EXAMPLES", "150")), deadline=None, suppress_health_check=list(HealthCheck), derandomize=False)


@lru_cache(maxsize=None)
def _texts() -> tuple[str, ...]:
    texts = [sample_save(log=True).text]
    for p in real_saves()[:3]:
        texts.append(read_save(p).text[:20_000])
    return tuple(texts)


@lru_cache(maxsize=None)
def _files() -> tuple[bytes, ...]:
    files = [sample_save(encoding=e).to_bytes() for e in ("vcsk", "xz", "plain")]
    for p in real_saves()[:2]:
        files.append(p.read_bytes())
    return tuple(files)


def _exercise(data: bytes) -> None:
    try:
        save = read_save(data)
        save_report(save)
        format_lines(save)
        save.to_bytes()
    except VassalFormatError as exc:
        assert str(exc)          # a message, on one line
        assert "\n" not in str(exc)


@st.composite
def mutations(draw, data: bytes):
    buf = bytearray(data)
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["flip", "set", "delete", "insert", "truncate"]))
        if not buf:
            break
        i = draw(st.integers(0, len(buf) - 1))
        if kind == "flip":
            buf[i] ^= 1 << draw(st.integers(0, 7))
        elif kind == "set":
            buf[i] = draw(st.integers(0, 255))
        elif kind == "delete":
            del buf[i:i + draw(st.integers(1, 16))]
        elif kind == "insert":
            buf[i:i] = draw(st.binary(min_size=1, max_size=8))
        else:
            del buf[i:]
    return bytes(buf)


@FUZZ
@given(st.data())
def test_mutated_save_files(data):
    src = data.draw(st.sampled_from(_files()))
    _exercise(data.draw(mutations(src)))


SPECIAL = st.sampled_from(["\x1b", "\\", "\t", "/", ";", ",", "'", "+/", "M/", "D/", "-/", "LOG\t", "CHAT",
                           "stack", "null", "@@", "piece;", "emb2;", "\\\x1b", "\\\\\t", "UNDO\t", "TURN"])


@st.composite
def text_mutations(draw):
    t = list(draw(st.sampled_from(_texts())))
    for _ in range(draw(st.integers(1, 8))):
        if not t:
            break
        i = draw(st.integers(0, len(t) - 1))
        op = draw(st.integers(0, 2))
        if op == 0:
            del t[i:i + draw(st.integers(1, 20))]
        elif op == 1:
            t[i:i] = list(draw(SPECIAL))
        else:
            t[i] = draw(st.characters(exclude_categories=("Cs",)))
    return "".join(t)


@FUZZ
@given(text_mutations(), st.sampled_from(["vcsk", "xz", "plain"]))
def test_mutated_command_text(text, encoding):
    root = parse_commands(text) if "\x1b" in text or text else None
    if root is not None:
        assert root.encode() == text          # whatever we read writes back byte for byte
    data = zip_bytes({"savedGame": encode_payload(text, encoding, 0x21)})
    _exercise(data)


@FUZZ
@given(st.binary(max_size=300))
def test_random_payload_in_valid_zip(payload):
    _exercise(zip_bytes({"savedGame": payload}))
    _exercise(zip_bytes({"savedGame": b"!VCSK" + payload}))


@FUZZ
@given(st.binary(max_size=200))
def test_random_bytes(data):
    _exercise(b"PK" + data)
    _exercise(data)


def test_fuzz_corpus_is_readable_unmutated():
    for data in _files():
        save = read_save(data)
        assert save.to_bytes() == data
        assert zipfile.ZipFile(io.BytesIO(data)).read("savedGame")


@lru_cache(maxsize=None)
def _buildfile() -> bytes:
    from builder.vassal.buildfile import P, BuildFile
    from codec_support import counter

    bf = BuildFile.new("Fuzz", version="1")
    m = bf.root.add(P + "Map", mapName="Main", edgeWidth=5)
    b = m.add(P + "map.BoardPicker").add(P + "map.boardPicker.Board", name="B", image="b.png")
    g = b.add(P + "map.boardPicker.board.HexGrid", dx=60.0, dy=69.0, x0=1, y0=2)
    g.add(P + "map.boardPicker.board.mapgrid.HexGridNumbering", stagger=True)
    z = b.add(P + "map.boardPicker.board.ZonedGrid").add(P + "map.boardPicker.board.mapgrid.Zone",
                                                          name="Z", path="0,0;10,0;10,10")
    z.add(P + "map.boardPicker.board.SquareGrid", dx=10.0)
    bf.root.add(P + "PieceWindow").add("VASSAL.build.widget.PieceSlot",
                                       counter("A", "a.png", "1").add_piece_string(), gpid=1)
    bf.root.add(P + "PredefinedSetup", name="S", isMenu=True).add(P + "PredefinedSetup", name="T", file="t.vsav")
    bf.root.add(P + "turn.TurnTracker", name="Turn")
    return bf.to_bytes()


def _walk_buildfile(data: bytes) -> None:
    from builder.vassal.buildfile import BuildFile
    try:
        bf = BuildFile.from_bytes(data)
        for m in bf.maps():
            m.edge
            for b in m.boards():
                g = b.grid
                if g is not None:
                    g.settings
                    if g.numbering is not None:
                        g.numbering.settings
                    for z in g.zones():
                        z.path
        for s in bf.piece_slots() + bf.prototypes():
            try:
                s.piece.describe()
            except VassalFormatError:
                pass
        [(s.is_menu, s.file) for s in bf.predefined_setups()]
        bf.to_bytes()
    except VassalFormatError as exc:
        assert str(exc)


@FUZZ
@given(st.data())
def test_mutated_buildfiles(data):
    _walk_buildfile(data.draw(mutations(_buildfile())))


_TRAIT_IDS = None


def _trait_ids():
    global _TRAIT_IDS
    if _TRAIT_IDS is None:
        from builder.vassal.traits import REGISTRY
        _TRAIT_IDS = sorted(REGISTRY) + ["locmsg;", "emb;", "weird"]
    return _TRAIT_IDS


TRAIT_TEXT = st.lists(st.sampled_from(["a", "1", "-1", "2147483647", "99999999999", ";", ",", "\\", "'", "true",
                                       "null", "+", ":", "|", "ß", "0,0,X", "70,130", "1.5", "NaN", "$x$", "@@1",
                                       "\t", "9" * 5000]), max_size=30).map("".join)


@FUZZ
@given(st.lists(st.tuples(st.integers(0, 40), TRAIT_TEXT, TRAIT_TEXT), min_size=1, max_size=6))
def test_random_trait_chains_decode_without_crashing(spec):
    from builder.vassal.piece import Piece, join_layers
    ids = _trait_ids()
    types = [ids[i % len(ids)] + body for i, body, _ in spec]
    states = [state for _, _, state in spec]
    try:
        p = Piece.decode(join_layers(types), join_layers(states))
        p.describe()
        p.display_name
        p.add_piece_string("1")
        for t in p.layers:
            t.as_dict()
            t.state_dict()
            for f in t.fields():
                t.get(f.name)
    except VassalFormatError as exc:
        assert str(exc)
