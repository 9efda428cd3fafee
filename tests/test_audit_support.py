"""Shared by tests/test_audit_*.py: saves and logs built with the codec from our own module pieces
(the palette's exact type strings, placed where the module's layout puts a hex). No tests here."""

from __future__ import annotations

import shutil
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace

from builder.audit.context import AuditContext
from builder.gamedata.validate import validate_game
from builder.module import maps, pieces
from builder.module.pieces import placed_strings
from builder.render import counter_build, map_build
from builder.vassal.commands import (AddPiece, BeginSave, ChangePiece, Compound, EndSave, Log, MovePiece,
                                     NullCommand, RemovePiece, TurnTracker)
from builder.vassal.piece import Piece, join_layers, split_layers
from builder.vassal.savefile import SaveFile
from builder.vassal.sequence import encode_str

REPO = Path(__file__).resolve().parents[1]

# The tiny game's map, extended (in a temporary copy only) with terrain costs, a river and a road.
TINY_TERRAIN = """
terrain_types:
  - {id: clear, name: Clear, color: "#EEEEEE", movement: {all: 1}, source: "T1"}
  - {id: forest, name: Forest, color: "#228822", movement: {foot: 2, tracked: 3}, source: "T2"}
  - {id: lake, name: Lake, color: "#2244CC", movement: {all: prohibited}, playable: false, source: "T3 lakes"}
  - {id: swamp, name: Swamp, color: "#557755", movement: {foot: 3, tracked: prohibited}, source: "T4 swamps"}
hexside_types:
  - {id: river, name: River, color: "#0000FF", movement: {all: 2}}
line_types:
  - {id: road, name: Road, color: "#885522", movement: {all: 0.5}}
terrain:
  default: clear
  rows:
    - {column: C, codes: "ffffffffff"}
    - {column: D, codes: "ffffffffff"}
  codes: {f: forest}
  hexes: {G5: lake, H7: swamp}
hexsides:
  - {type: river, sides: [[H5, H6]]}
lines:
  - {type: road, path: [B8, C8, D8, E8]}
"""


def tiny_copy(tmp: Path) -> Path:
    dest = tmp / "tiny-game"
    if not dest.exists():
        shutil.copytree(REPO / "examples" / "tiny-game", dest)
        with open(dest / "map.yaml", "a", encoding="utf-8") as f:
            f.write(TINY_TERRAIN)
    return dest / "game.yaml"


@lru_cache(maxsize=None)
def game(arg: str) -> "GameKit":
    return GameKit(arg)


class GameKit:
    """A validated game, its audit context and the module's pieces and layout (no images drawn)."""

    def __init__(self, arg: str) -> None:
        self.report = validate_game(arg)
        assert self.report.ok, [d.format() for d in self.report.errors[:5]]
        g, grid = self.report.model, self.report.grid
        counters = {(pid, face): Path(rel).name for pid, face, rel in counter_build.counter_images(g)}
        self.defs = {d.key: d for d in pieces.build_defs(g, counters) if d.kind == "unit"}
        self.layout = maps.Layout(g, grid, SimpleNamespace(maps=map_build.map_images(g.map_doc, grid)))
        self.ctx = AuditContext.from_report(self.report)

    def point(self, where: str) -> tuple[str, int, int]:
        if self.report.grid.parse(where) is not None:
            return self.layout.hex_point(where)
        side = self.report.model.doc["sides"][0]["id"]
        m, x, y, _ = self.layout.staging_point(maps.REINFORCEMENTS, side)
        return m, x, y


class LogBuilder:
    """A .vlog (or .vsav with no entries) of our pieces: start position, then logged actions."""

    def __init__(self, kit: GameKit, start: dict, turn: int = 1, player_turn: int = 0, phase: int = 0,
                 status: dict | None = None) -> None:
        self.kit = kit
        self.where: dict[str, tuple] = {}
        self.states: dict[str, str] = {}
        self.entries: list = []
        adds = []
        for uid, spec in start.items():
            hex_id, level = (spec, 1) if isinstance(spec, str) else spec
            d = kit.defs[uid]
            m, x, y = kit.point(hex_id)
            t, st = placed_strings(d, m, x, y, level, (status or {}).get(uid, ""))
            adds.append(AddPiece(uid, type_string=t, state_string=st))
            self.where[uid] = (m, x, y)
            self.states[uid] = st
        self.setup = [BeginSave(), NullCommand(), Compound([NullCommand(), *adds]),
                      self.tracker(turn, player_turn, phase), EndSave()]

    def tracker(self, turn: int, player_turn: int, phase: int) -> TurnTracker:
        cal = self.kit.ctx.calendars["TurnTracker0"]
        flags = lambda n: encode_str(["true"] * n, ",")  # noqa: E731
        subs = [encode_str([str(phase if i == player_turn else 0), "0", "0", flags(len(pt["phases"]))], ";")
                for i, pt in enumerate(cal.sequence)]
        top = encode_str([str(cal.turns.index(turn)), str(player_turn), "0", flags(len(cal.turns)), *subs], ";")
        return TurnTracker("TurnTracker0", encode_str(["0", top], "|"))

    # ------------------------------------------------------------------ actions
    def phase(self, turn: int, player_turn: int, phase: int) -> "LogBuilder":
        self.entries.append(Log(self.tracker(turn, player_turn, phase)))
        return self

    def move(self, uid: str, to: str, under: str | None = None) -> "LogBuilder":
        m, x, y = self.kit.point(to)
        om, ox, oy = self.where[uid]
        self.where[uid] = (m, x, y)
        self.entries.append(Log(MovePiece(uid, m, x, y, under, om, ox, oy, None)))
        return self

    def move_stack(self, stack_id: str, members: list[str], to: str) -> "LogBuilder":
        """A new stack of *members* where the first one is, then the stack dragged to *to*."""
        m0, x0, y0 = self.where[members[0]]
        m, x, y = self.kit.point(to)
        add = AddPiece(stack_id, Piece.new_stack(m0, x0, y0, members, 1))
        move = MovePiece(stack_id, m, x, y, None, m0, x0, y0, None)
        for uid in members:
            self.where[uid] = (m, x, y)
        self.entries.append(Compound([Log(add), Log(move)]))
        return self

    def flip(self, uid: str, level: int) -> "LogBuilder":
        states = split_layers(self.states[uid])
        old = self.states[uid]
        states[0] = str(level)
        self.states[uid] = join_layers(states)
        self.entries.append(Log(ChangePiece(uid, self.states[uid], old)))
        return self

    def remove(self, uid: str) -> "LogBuilder":
        self.entries.append(Log(RemovePiece(uid)))
        return self

    def bytes(self) -> bytes:
        root = Compound([*self.setup, *self.entries])
        return SaveFile.new(root, encoding="vcsk", key=0x21).to_bytes()

    def write(self, path: Path) -> Path:
        path.write_bytes(self.bytes())
        return path
