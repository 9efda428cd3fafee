"""Shared by tests/test_audit_*.py: scripted logs of our own modules (builder.audit.script) and the
tiny game with terrain costs. No tests here."""

from __future__ import annotations

import shutil
from pathlib import Path

from builder.audit.script import GameKit, ScriptedGame, kit as game  # noqa: F401  (game: the shared kit)

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


def tiny_copy(tmp: Path, extra: str = "", game_extra: str = "") -> Path:
    """A copy of examples/tiny-game with terrain costs (and *extra* map / *game_extra* game YAML)."""
    dest = tmp / "tiny-game"
    if not dest.exists():
        shutil.copytree(REPO / "examples" / "tiny-game", dest)
        with open(dest / "map.yaml", "a", encoding="utf-8") as f:
            f.write(TINY_TERRAIN + extra)
        if game_extra:
            with open(dest / "game.yaml", "a", encoding="utf-8") as f:
                f.write(game_extra)
    return dest / "game.yaml"


class LogBuilder(ScriptedGame):
    """The older test API on ScriptedGame: a start {unit: hex or (hex, level)} at tracker indices
    (turn, player-turn index, phase index), then logged steps."""

    def __init__(self, kit: GameKit, start: dict, turn: int = 1, player_turn: int = 0, phase: int = 0,
                 status: dict | None = None) -> None:
        super().__init__(kit, units=start, status=status)
        self.at(turn=turn, player_turn=player_turn, phase=phase)
        self.start()

    def phase(self, turn: int, player_turn: int, phase: int) -> "LogBuilder":
        return self.at(turn=turn, player_turn=player_turn, phase=phase)

    def move_stack(self, stack_id: str, members: list[str], to: str) -> "LogBuilder":
        return super().move_stack(members, to, stack_id=stack_id)

    @property
    def setup(self) -> list:
        """The start position's commands (begin_save ... end_save)."""
        return self._start_items()

    def bytes(self) -> bytes:
        return self.log_bytes()


def tiny_with_module(root: Path):
    """(data path, GameKit, .vmod built from it) of a tiny-game copy under *root*."""
    from builder.module import package
    path = tiny_copy(root)
    kit = game(str(path))
    return str(path), kit, package.build(kit.report, root / "dist")[0]


def run_audit(capsys, *argv):
    """``vassal-builder audit ARGV``: (exit code, stdout, stderr)."""
    from builder.cli import main
    code = main(["audit", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err
