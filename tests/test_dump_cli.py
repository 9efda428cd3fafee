"""``vassal-builder dump``: text and JSON output, password masking, exit codes."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from builder.cli import main
from builder.vassal.archive import zip_bytes
from builder.vassal.savefile import read_save

from codec_support import PASSWORD, real_saves, sample_save_bytes


@pytest.fixture
def log_file(tmp_path):
    p = tmp_path / "game.vlog"
    p.write_bytes(sample_save_bytes())
    return p


def _run(capsys, *argv):
    code = main(["dump", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_object_shape_and_counts(capsys, log_file):
    code, out, err = _run(capsys, log_file, "--json")
    assert code == 0 and err == ""
    d = json.loads(out)
    assert set(d) == {"encoding", "counts", "commands"}
    assert d["encoding"] == "vcsk"
    types = [c["type"] for c in d["commands"]]
    assert [c["index"] for c in d["commands"]] == list(range(len(types)))
    # counts: every listed command by type, plus the commands Log entries wrap
    expected = {}
    for c in d["commands"]:
        expected[c["type"]] = expected.get(c["type"], 0) + 1
        if c["type"] == "Log":
            t = c["command"]["type"]
            expected[t] = expected.get(t, 0) + 1
    assert d["counts"] == expected
    assert d["counts"]["AddPiece"] == 3          # two pieces and one stack
    stack = [c for c in d["commands"] if c["type"] == "AddPiece" and c["kind"] == "stack"]
    assert stack[0]["members"] == ["1700000000001", "1700000000002"]
    move = [c["command"] for c in d["commands"] if c["type"] == "Log" and c["command"]["type"] == "MovePiece"][0]
    assert move == {"type": "MovePiece", "id": "1700000000003", "new_map": "Main Map", "new_x": 160, "new_y": 104,
                    "new_under": None, "old_map": "Main Map", "old_x": 100, "old_y": 69, "old_under": None,
                    "player_id": "********"}
    dice = [c["command"] for c in d["commands"] if c["type"] == "Log" and c["command"]["type"] == "DiceRoll"]
    assert dice[0]["dice"] == [3, 5]


def test_passwords_are_never_printed(capsys, log_file):
    for extra in ((), ("--json",)):
        code, out, err = _run(capsys, log_file, *extra)
        assert code == 0
        assert PASSWORD not in out and PASSWORD not in err
        assert "********" in out
    # the password really is in the file (so the masking is what hides it)
    assert PASSWORD in read_save(log_file).text


def test_text_output_one_line_per_command(capsys, log_file):
    code, out, _ = _run(capsys, log_file)
    lines = out.splitlines()
    n = len(list(read_save(log_file).leaves()))
    assert code == 0 and len(lines) == n + 1
    assert "vcsk" in lines[0]
    assert any("MovePiece 1700000000003: Main Map (100,69) -> Main Map (160,104)" in l for l in lines)
    assert any("Player 'Alice' sits as 'Blue'" in l for l in lines)


@pytest.mark.parametrize("content,message,status", [
    (b"not a zip", "not a ZIP", 2),                                 # not a save at all
    (None, "truncated|not a readable ZIP", 1),                      # a damaged save
    (zip_bytes({"savedGame": b"!VCSK41zz"}), "corrupt hex", 1),
])
def test_unreadable_file_exits_with_one_line(capsys, tmp_path, content, message, status):
    import re
    p = tmp_path / "bad.vsav"
    p.write_bytes(content if content is not None else sample_save_bytes()[:100])
    code, out, err = _run(capsys, p)
    assert code == status and out == ""
    assert err.count("\n") == 1 and err.startswith(f"vassal-builder: dump: {p}: ")
    assert re.search(message, err)
    assert "Traceback" not in err


def test_missing_file_and_usage(capsys, tmp_path):
    code, _, err = _run(capsys, tmp_path / "nope.vsav")
    assert code == 2 and "nope.vsav" in err
    with pytest.raises(SystemExit) as e:
        main(["dump"])
    assert e.value.code == 2


def test_console_script_runs(tmp_path, log_file):
    r = subprocess.run([sys.executable, "-m", "builder", "dump", "--json", str(log_file)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["counts"]["Player"] == 1


@pytest.mark.shared
def test_dump_every_real_file(capsys):
    saves = real_saves()
    if not saves:
        pytest.skip("real saves not present")
    for p in saves:
        for extra in ((), ("--json",)):
            code, out, err = _run(capsys, p, *extra)
            assert code == 0, err
        d = json.loads(out)
        assert d["encoding"] == "vcsk" and d["counts"]["BeginSave"] == 1
        secrets = set()
        for _, c in read_save(p).leaves():
            secrets.update(c.secret_values())
        for s in secrets:
            if len(s) >= 4:
                assert s not in out


def test_password_set_by_a_later_change_is_masked(capsys, tmp_path):
    from builder.vassal.commands import ChangePiece, Log
    from builder.vassal.piece import Piece
    from builder.vassal.traits import Obscurable

    save = read_save(sample_save_bytes())
    add = next(c for _, c in save.leaves() if c.TYPE == "AddPiece" and c.piece.name == "1st Infantry")
    p = Piece.decode(add.type_string, add.state_string)
    old = p.state_string()
    p.find(Obscurable).state = "only-in-change;"
    root = save.commands
    root.items.append(Log(ChangePiece(add.piece_id, p.state_string(), old)))
    path = tmp_path / "masked.vlog"
    save.write(path)
    assert "only-in-change" in read_save(path).text
    for extra in ((), ("--json",)):
        code, out, _ = _run(capsys, path, *extra)
        assert code == 0 and "only-in-change" not in out
    d = json.loads(out)
    change = d["commands"][-1]["command"]
    assert change["type"] == "ChangePiece" and change["name"] == "1st Infantry"
    assert any(c["trait"] == "obs;" and c["new"]["masked"] for c in change["changes"])


def test_dump_of_a_module_summarises_it_and_dumps_its_setups(capsys, tmp_path):
    from builder.vassal.archive import write_zip_atomic
    from builder.vassal.buildfile import P, BuildFile

    bf = BuildFile.new("Mod", version="2.0")
    m = bf.root.add(P + "Map", mapName="Main Map")
    m.add(P + "map.BoardPicker").add(P + "map.boardPicker.Board", name="B", image="b.png") \
        .add(P + "map.boardPicker.board.HexGrid", dx=60.0, dy=69.0)
    bf.root.add(P + "PredefinedSetup", name="Scenario 1", useFile=True, file="s1.vsav")
    bf.root.add(P + "PredefinedSetup", name="Missing", useFile=True, file="gone.vsav")
    bf.root.add(P + "PredefinedSetup", name="Broken", useFile=True, file="bad.vsav")
    vmod = write_zip_atomic(tmp_path / "m.vmod", [("buildFile.xml", bf.to_bytes()),
                                                  ("s1.vsav", sample_save_bytes(log=False)),
                                                  ("bad.vsav", b"not a zip")])
    code, out, err = _run(capsys, vmod)
    assert code == 0, err
    assert "module 'Mod' version '2.0'" in out and "map 'Main Map': B [hex]" in out
    assert "setup file s1.vsav: vcsk encoding" in out and "AddPiece stack" in out
    assert "setup file bad.vsav: unreadable: not a ZIP archive" in out
    assert PASSWORD not in out
    code, out, _ = _run(capsys, vmod, "--json")
    d = json.loads(out)
    assert d["module"]["name"] == "Mod" and [s["file"] for s in d["setups"]] == ["s1.vsav", "bad.vsav"]
    assert "not a ZIP" in d["setups"][1]["error"]
    assert d["counts"]["AddPiece"] == 3 and d["commands"] == [] and d["encoding"] is None
    xml = tmp_path / "buildFile.xml"
    xml.write_bytes(bf.to_bytes())
    code, out, _ = _run(capsys, xml)
    assert code == 0 and "module 'Mod'" in out


@pytest.mark.parametrize("content,message", [
    (b"<html><body/></html>", "root element"),
    (b"<?xml version='1.0'?><!DOCTYPE x [<!ENTITY a 'b'>]><x/>", "entities"),
    (zip_bytes({"readme.txt": b"hi"}), "no savedGame"),
])
def test_dump_of_other_files_fails_cleanly(capsys, tmp_path, content, message):
    p = tmp_path / "f.bin"
    p.write_bytes(content)
    code, out, err = _run(capsys, p)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


@pytest.mark.shared
def test_dump_works_on_every_file_in_real_vassal(capsys):
    from codec_support import REAL
    files = [p for p in sorted(REAL.glob("*")) if p.name != "README.md"] if REAL.is_dir() else []
    if not files:
        pytest.skip("../shared/real-vassal not present")
    for p in files:
        for extra in ((), ("--json",)):
            code, out, err = _run(capsys, p, *extra)
            assert code == 0, (p.name, err)
            assert out.strip()


@pytest.mark.parametrize("encoding", ["vcsk", "xz", "plain", "vobs"])
def test_json_encoding_field(capsys, tmp_path, encoding):
    p = tmp_path / f"g-{encoding}.vsav"
    p.write_bytes(sample_save_bytes(encoding=encoding))
    code, out, _ = _run(capsys, p, "--json")
    d = json.loads(out)
    assert code == 0 and d["encoding"] == encoding and d["counts"]["Log"] == 4
    assert PASSWORD not in out
