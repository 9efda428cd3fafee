"""`vassal-builder build` on a designer's game: what it writes, its exit codes, and that failures keep old output."""

import json

from builder.cli import main


def test_build_writes_map_counters_and_sheets(capsys, tiny_game, tmp_path):
    out = tmp_path / "out"
    code = main(["build", str(tiny_game / "game.yaml"), "--out", str(out), "--json", "-q",
                 "--only", "map", "--only", "counters", "--only", "sheets"])
    assert code == 0
    written = json.loads(capsys.readouterr().out)["tiny"]
    names = {p.split("/out/")[1] for p in written}
    assert names == {"tiny/map.png", "tiny-counters.pdf", "tiny/counter-contact-sheet.png"}
    assert all((out / n).is_file() for n in names)
    assert not (out / "tiny" / "counters").exists()    # the faces are loose files only when asked for
    # --faces: every face at module and at print size besides
    code = main(["build", str(tiny_game / "game.yaml"), "--out", str(out), "--json", "-q", "--faces",
                 "--only", "map", "--only", "counters", "--only", "sheets"])
    assert code == 0
    names = {p.split("/out/")[1] for p in json.loads(capsys.readouterr().out)["tiny"]}
    assert {"tiny/counters/blue-1-front.png", "tiny/counters/print/blue-1-front.png"} <= names
    assert len(names) == 3 + 2 * 12 and all((out / n).is_file() for n in names)


def test_invalid_game_builds_nothing_and_exits_1(capsys, tiny_game, tmp_path):
    game = tiny_game / "game.yaml"
    game.write_text(game.read_text().replace("symbol: [armor]", "symbol: [armour]"))
    out = tmp_path / "out"
    assert main(["build", str(game), "--out", str(out), "-q"]) == 1
    err = capsys.readouterr().err
    assert "no NATO glyph 'armour'" in err and "tiny has 1 error(s); nothing built" in err
    assert not out.exists()


def test_unknown_game_exits_2(capsys, tmp_path):
    assert main(["build", "no-such-game", "--out", str(tmp_path), "-q"]) == 2
    assert "not a shipped game" in capsys.readouterr().err


def test_sheets_command_refuses_invalid_game(capsys, tiny_game, tmp_path):
    game = tiny_game / "game.yaml"
    game.write_text(game.read_text().replace("steps: 2\n    front: {attack: 6", "steps: x\n    front: {attack: 6"))
    assert main(["sheets", str(game), "--out", str(tmp_path / "s.pdf"), "-q"]) == 1
    assert "no sheets written" in capsys.readouterr().err
    assert not (tmp_path / "s.pdf").exists()
