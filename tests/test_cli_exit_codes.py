"""One exit-code table for every command (issue 12, points 4, 5 and 13): 0 success, 1 the input has
problems or findings, 2 usage or an input that cannot be used, 3 a step this version cannot run; each
--help shows the table, each refusal is one line on stderr, and no special file blocks or is read."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from builder.cli import COMMANDS, EXIT_CODES, main
from builder.commands import build as build_cmd

REPO = Path(__file__).resolve().parents[1]
TINY = REPO / "examples" / "tiny-game"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_every_help_shows_the_exit_code_table(capsys, command):
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"] if command else ["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert EXIT_CODES.splitlines()[0] in out
    for code in ("0    success", "1    the input has problems", "2    usage error", "3    a step this version"):
        assert code in out, (command, code)


def test_readme_states_the_same_table():
    readme = (REPO / "README.md").read_text()
    for code, meaning in [("0", "success"), ("1", "the input has problems or findings"),
                          ("2", "usage error, or an input that cannot be used"),
                          ("3", "a step this version cannot run")]:
        assert f"| {code} | {meaning}" in readme, code


@pytest.mark.parametrize("command", COMMANDS)
def test_unknown_option_is_a_usage_error(capsys, command):
    with pytest.raises(SystemExit) as exc:
        main([command, "--no-such-option"])
    assert exc.value.code == 2


def test_no_command_is_a_usage_error(capsys):
    assert main([]) == 2


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe.vsav"
    os.mkfifo(path)
    return path


def _special_inputs(tmp_path, fifo):
    return {"missing": tmp_path / "absent.vsav", "folder": tmp_path, "fifo": fifo, "device": Path("/dev/zero")}


@pytest.mark.parametrize("kind", ["missing", "folder", "fifo", "device"])
@pytest.mark.parametrize("command", ["dump", "lint"])
def test_file_that_cannot_be_used_exits_2_at_once(capsys, tmp_path, fifo, command, kind):
    path = _special_inputs(tmp_path, fifo)[kind]
    start = time.monotonic()
    code, out, err = run(capsys, command, path)
    assert code == 2 and out == ""
    assert one_line(err).startswith(f"vassal-builder: {command}: {path}: ")
    assert time.monotonic() - start < 5


@pytest.mark.parametrize("kind", ["missing", "fifo", "device"])
def test_validate_of_a_file_that_cannot_be_used_exits_2(capsys, tmp_path, fifo, kind):
    path = _special_inputs(tmp_path, fifo)[kind]
    code, _, err = run(capsys, "validate", path)
    assert code == 2 and one_line(err).startswith("vassal-builder: validate: ")


@pytest.mark.parametrize("command", ["dump", "lint"])
def test_not_a_save_or_module_exits_2(capsys, tmp_path, command):
    path = tmp_path / "notes.txt"
    path.write_bytes(b"\x89PNG not a VASSAL file")
    code, _, err = run(capsys, command, path)
    assert code == 2 and "Traceback" not in err


def test_lint_of_a_saved_game_exits_2(capsys, tmp_path):
    from builder.vassal.savefile import SaveFile
    save = SaveFile.new("", encoding="plain").write(tmp_path / "game.vsav")
    code, out, _ = run(capsys, "lint", save)
    assert code == 2 and "archive.not-module" in out


def test_validate_0_1_2(capsys, tiny_game):
    assert run(capsys, "validate", "game.yaml")[0] == 0
    assert run(capsys, "validate", "no-such-game")[0] == 2
    (tiny_game / "game.yaml").write_text((tiny_game / "game.yaml").read_text().replace("steps: 2", "steps: x", 1))
    assert run(capsys, "validate", "game.yaml")[0] == 1


@pytest.mark.parametrize("command", ["build", "sheets"])
def test_out_that_is_an_existing_file_or_folder_is_refused_before_anything_is_made(capsys, tiny_game, command):
    blocker = tiny_game / ("blocker.txt" if command == "build" else "a-folder")
    if command == "build":
        blocker.write_text("keep me")
    else:
        blocker.mkdir()
    before = sorted(p.name for p in tiny_game.rglob("*"))
    code, out, err = run(capsys, command, "game.yaml", "--out", blocker, "-q")
    assert code == 2 and "--out" in one_line(err)
    assert sorted(p.name for p in tiny_game.rglob("*")) == before
    if command == "build":
        assert blocker.read_text() == "keep me"


@pytest.mark.parametrize("command,out", [("build", "/proc/vassal-builder-test"),
                                         ("sheets", "/proc/vassal-builder-test/x.pdf"),
                                         ("build", "{file}/sub")])
def test_out_that_cannot_be_created_is_one_line(capsys, tiny_game, command, out):
    out = out.format(file=tiny_game / "map.yaml")
    code, _, err = run(capsys, command, "game.yaml", "--out", out, "-q")
    assert code == 2 and "--out" in one_line(err)


def test_build_0_1_2_3(capsys, tiny_game, tmp_path, monkeypatch):
    out = tmp_path / "out"
    assert run(capsys, "build", "game.yaml", "--only", "map", "--out", out, "-q")[0] == 0
    assert run(capsys, "build", "nope", "--out", out, "-q")[0] == 2
    monkeypatch.setitem(build_cmd.STEPS, "future", "builder.no_such_step_yet")
    code, _, err = run(capsys, "build", "game.yaml", "--only", "future", "--out", out)
    assert code == 3 and "not available in this version" in err
    (tiny_game / "game.yaml").write_text((tiny_game / "game.yaml").read_text().replace("steps: 2", "steps: x", 1))
    assert run(capsys, "build", "game.yaml", "--out", out, "-q")[0] == 1


def test_sheets_usage_errors_exit_2(capsys, tiny_game, tmp_path):
    assert run(capsys, "sheets", "game.yaml", "--back-offset", "x", "--out", tmp_path / "s.pdf")[0] == 2
    assert run(capsys, "sheets", "game.yaml", "--dpi", "5", "--out", tmp_path / "s.pdf")[0] == 2
    assert run(capsys, "sheets", "nope", "--out", tmp_path / "s.pdf")[0] == 2
