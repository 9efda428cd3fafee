"""Writes examples/tiny-game/moves.vlog: a short log of the tiny game's module (the 'meeting' scenario), made
with builder.audit.script so it is the same bytes every time. tests/test_examples.py checks that. Run it
from anywhere: python examples/make-tiny-log.py"""

from pathlib import Path

from builder.audit.script import ScriptedGame
from builder.gamedata.validate import validate_game

HERE = Path(__file__).resolve().parent


def script() -> ScriptedGame:
    g = ScriptedGame(validate_game(str(HERE / "tiny-game")), scenario="meeting")
    g.at(turn=1, phase="move", player_turn="blue-turn")
    g.start()
    g.move("blue-1", "C3", "D3")      # two hexes east: legal
    g.move("blue-2", "B4")            # joins blue-3 in B4: two units, the limit
    g.move("blue-1", "C4", "B4")      # back into B4: three units, over the stacking limit of 2
    g.chat("Blue moves up")
    g.next_phase()                    # Blue's combat phase
    return g


if __name__ == "__main__":
    out = script().write(HERE / "tiny-game" / "moves.vlog")
    print(f"wrote {out}")
