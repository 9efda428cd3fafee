"""Shared helpers for tests/test_codec_*.py and tests/test_dump_cli.py.

Real VASSAL files live in ../shared/real-vassal (or $VASSAL_BUILDER_SHARED/real-vassal); tests
that need them skip cleanly when the folder is absent. Everything else here builds saves with
the codec's own writers from the format rules, so the tests run anywhere.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from builder.vassal.commands import (
    ESC,
    AddPiece,
    BeginSave,
    BoardPicker,
    Chat,
    Compound,
    EndSave,
    Log,
    MovePiece,
    NullCommand,
    Player,
    TurnTracker,
)
from builder.vassal.piece import Piece
from builder.vassal.savefile import SaveFile, make_metadata
from builder.vassal.traits import BasicPiece, Delete, Embellishment, Marker, Obscurable, Stack

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("VASSAL_BUILDER_SHARED") or Path(__file__).resolve().parents[2] / "shared")
REAL = SHARED / "real-vassal"
REAL_SAVES = ("jspy-Campaign-180907.vsav", "vasl-basic.vsav", "vasl-custom-labels.vlog")
REAL_BUILDFILES = ("almoravid-buildFile.xml", "jspy-buildFile-trc.xml")
REAL_MODULES = ("vassal-test-predefined-setups.vmod",)

PASSWORD = "s3cret-pw"


def real(name: str) -> Path:
    p = REAL / name
    if not p.is_file():
        pytest.skip(f"{p} not present (../shared is not available)")
    return p


def real_saves() -> list[Path]:
    return [REAL / n for n in REAL_SAVES if (REAL / n).is_file()]


def counter(name: str, image: str, gpid: str, map_id: str | None = None, x: int = 0, y: int = 0,
            *, side: str = "Blue", masked_by: str | None = None, uid: str | None = None) -> Piece:
    """A two-sided counter with Delete, Layer, Mask and Marker traits."""
    layer = Embellishment(images=[image, image.replace(".png", "_back.png")], level_names=["", ""],
                          name="Step", increase_keystroke="70,130", up_command="Flip")
    layer.state = "1"
    mask = Obscurable(image="mask.png", key="77,130")
    mask.state = f"{masked_by or 'null'};"
    mark = Marker(keys=["Side"])
    mark.set_values([side])
    basic = BasicPiece(image=image, name=name)
    basic.set_state(map_id, x, y, gpid, {"UniqueID": uid} if uid else {})
    return Piece([Delete(command_name="Delete", key="68,130"), layer, mask, mark, basic])


def sample_save(*, encoding: str = "vcsk", key: int | None = 0x42, log: bool = True) -> SaveFile:
    """A save (optionally a log) in VASSAL's structure, with a stack, a masked piece and a player."""
    p1 = counter("1st Infantry", "inf1.png", "1", "Main Map", 100, 69, uid="1700000000001")
    p2 = counter("2nd Infantry", "inf2.png", "2", "Main Map", 100, 69, uid="1700000000002",
                 masked_by=PASSWORD)
    stack = Piece([Stack()])
    stack.inner.set_stack("Main Map", 100, 69, ["1700000000001", "1700000000002"], 1)
    pieces = Compound([NullCommand(), AddPiece("1700000000001", p1), AddPiece("1700000000002", p2),
                       AddPiece("1700000000003", stack)])
    bp = BoardPicker.parse("Main MapBoardPicker\tMain\t0\t0")
    items = [BeginSave(), NullCommand(), pieces, bp, Player(PASSWORD, "Alice", "Blue"),
             TurnTracker("TurnTracker0", "0|3;0;false;-1;0\\;0\\;0\\;true,true"), EndSave()]
    if log:
        move = Compound([Log(MovePiece("1700000000003", "Main Map", 160, 104, None, "Main Map", 100, 69,
                                       None, PASSWORD)),
                         Log(Chat("* 1st Infantry, 2nd Infantry moves 0201 &rarr; 0302 *"))])
        items += [move, Log(Chat("*** 2d6 = 3,5 *** &lt;Alice&gt;")), Log(Chat("&lt;Alice&gt; - hello"))]
    root = Compound(items)
    save = SaveFile.new(root.encode(), encoding=encoding, key=key,
                        savedata=make_metadata(version="1.0", vassal_version="3.6.0", date_saved=0),
                        moduledata=make_metadata(name="Example", version="1.0", vassal_version="3.6.0",
                                                 description="test", date_saved=0))
    return save


def sample_save_bytes(**kw) -> bytes:
    return sample_save(**kw).to_bytes()


__all__ = ["ESC", "REPO", "SHARED", "REAL", "real", "real_saves", "counter", "sample_save",
           "sample_save_bytes", "PASSWORD", "REAL_SAVES", "REAL_BUILDFILES", "REAL_MODULES"]
