"""Where the command line reads and writes: a game given as a folder, output under ./dist of the current
folder (not the tool's checkout), and a bad --out (issue 12, points 2, 3 and 4)."""

from __future__ import annotations

from pathlib import Path

from builder.cli import main

REPO = Path(__file__).resolve().parents[1]


def test_game_folder_holding_its_map_validates_like_its_game_file(capsys, tiny_game):
    assert main(["validate", "."]) == 0
    by_folder = capsys.readouterr().out
    assert main(["validate", "game.yaml"]) == 0
    assert by_folder == capsys.readouterr().out and by_folder.startswith("tiny: valid:")
    assert main(["validate", str(REPO / "examples" / "tiny-game")]) == 0


def test_game_folder_error_names_the_right_file(capsys, tiny_game):
    (tiny_game / "game.yaml").write_text((tiny_game / "game.yaml").read_text().replace("steps: 2", "steps: x", 1))
    assert main(["validate", "."]) == 1
    out = capsys.readouterr().out
    assert out.startswith("game.yaml:") and "steps" in out and "map: unknown key" not in out


def test_build_writes_under_dist_of_the_current_folder(capsys, tiny_game, tmp_path, monkeypatch):
    game = tiny_game / "game.yaml"
    game.write_text(game.read_text().replace("id: tiny\n", "id: cwd-dist-check\n", 1))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert main(["build", str(game), "--only", "map", "-q"]) == 0
    assert (elsewhere / "dist" / "cwd-dist-check" / "map.png").is_file()
    assert not (REPO / "dist" / "cwd-dist-check").exists()
    assert main(["sheets", str(game), "-q", "--no-calibration"]) == 0
    assert (elsewhere / "dist" / "cwd-dist-check-counters.pdf").is_file()
