"""``vassal-builder audit``: exit codes, one-line errors, JSON, foreign logs."""

from __future__ import annotations

import json
import zipfile

import pytest

from builder.cli import main
from test_audit_support import LogBuilder, game, tiny_copy

START = {"blue-1": "B3", "blue-2": "B3", "blue-3": "B4", "red-1": "H5"}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    path = tiny_copy(tmp_path_factory.mktemp("audit-cli"))
    return str(path), game(str(path))


def setup_commands(path) -> int:
    """The number of top-level commands up to and with end_save."""
    from builder.vassal.commands import EndSave
    from builder.vassal.savefile import SaveStream
    return next(n for n, _, node in SaveStream(path) if isinstance(node, EndSave))


def run(capsys, *argv):
    code = main(["audit", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_clean_log_exits_0(tiny, tmp_path, capsys):
    arg, kit = tiny
    log = LogBuilder(kit, START).move("blue-1", "C3").write(tmp_path / "ok.vlog")
    code, out, err = run(capsys, arg, log)
    assert code == 0 and err == ""
    assert out.splitlines()[-1].endswith("1 move(s) replayed over 1 turn(s), 0 findings, 0 warning(s)")
    nc = [line for line in out.splitlines() if line.startswith("not checked")]
    assert len(nc) == 1 and "zones of control" in nc[0]          # one summary line; reasons in --json


def test_findings_exit_1_one_line_each(tiny, tmp_path, capsys):
    arg, kit = tiny
    log = LogBuilder(kit, START).move("blue-3", "B3").move("red-1", "G5").write(tmp_path / "bad.vlog")
    code, out, err = run(capsys, arg, log)
    assert code == 1
    lines = out.splitlines()
    setup = setup_commands(log)          # entry k is top-level command setup + k
    assert lines[0] == (f"entry 1 (command {setup + 1}): turn 1, Movement, side blue: blue-3 '3' B4 -> B3: "
                        "stacking: Blue has 3 stacking points in B3, limit 2: blue-1 '1', blue-2 '2', blue-3 '3'")
    assert lines[1].startswith(f"entry 2 (command {setup + 2}): turn 1, Movement, side red: red-1 '1' H5 -> G5: "
                               "prohibited-terrain (T3 lakes): ")


def test_json_output(tiny, tmp_path, capsys):
    arg, kit = tiny
    log = LogBuilder(kit, START).move("blue-2", "E3").write(tmp_path / "ma.vlog")
    code, out, _ = run(capsys, arg, log, "--json")
    assert code == 1
    d = json.loads(out)
    assert set(d) == {"game", "file", "status", "turns_replayed", "entries", "moves", "findings_by_rule",
                      "findings", "warnings", "checked", "not_checked"}
    assert [c["rule"] for c in d["checked"]][:3] == ["stacking", "prohibited-terrain", "movement-allowance"]
    assert d["status"] == "findings" and d["findings_by_rule"] == {"movement-allowance": 1}
    assert (d["game"], d["turns_replayed"], d["moves"]) == ("tiny", 1, 1)
    f = d["findings"][0]
    assert {k: f[k] for k in ("turn", "phase", "side", "unit", "name", "from", "to", "rule", "entry", "command")} == {
        "turn": 1, "phase": "Movement", "side": "blue", "unit": "blue-2", "name": "2", "from": "B3", "to": "E3",
        "rule": "movement-allowance", "entry": 1, "command": setup_commands(log) + 1}
    assert "reference" in f and "costs 5 MP" in f["message"]
    assert d["not_checked"] and d["warnings"] == []


@pytest.mark.parametrize("make", ["truncated", "garbage", "no-savedgame", "bad-payload", "missing"])
def test_unreadable_input_is_one_line_exit_2(tiny, tmp_path, capsys, make):
    arg, kit = tiny
    good = LogBuilder(kit, START).move("blue-1", "C3").bytes()
    path = tmp_path / f"{make}.vlog"
    if make == "truncated":
        path.write_bytes(good[: len(good) // 2])
    elif make == "garbage":
        path.write_bytes(b"this is not a zip file at all")
    elif make == "no-savedgame":
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("something", "x")
    elif make == "bad-payload":
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("savedGame", b"!VCSKzz\xff\xfe")
    code, out, err = run(capsys, arg, path)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("vassal-builder: audit: ")
    assert "Traceback" not in err + out


def test_unreadable_input_json(tiny, tmp_path, capsys):
    arg, _ = tiny
    path = tmp_path / "x.vsav"
    path.write_bytes(b"PK\x03\x04broken")
    code, out, err = run(capsys, arg, path, "--json")
    assert code == 2 and "error" in json.loads(out)


def test_unknown_game_is_usage_exit_2(tmp_path, capsys):
    code, out, err = run(capsys, "no-such-game-xyz", tmp_path / "x.vlog")
    assert code == 2 and err.startswith("vassal-builder: audit: ")


def test_missing_arguments_is_usage_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["audit"])
    assert exc.value.code == 2


@pytest.mark.parametrize("name", ["vasl-custom-labels.vlog", "vasl-basic.vsav", "jspy-Campaign-180907.vsav"])
def test_another_modules_save_is_one_line_exit_2(tiny, shared_dir, capsys, name):
    arg, _ = tiny
    log = shared_dir / "real-vassal" / name
    if not log.is_file():
        pytest.skip(f"{name} not present")
    code, out, err = run(capsys, arg, log)
    assert code == 2 and out == "" and "Traceback" not in err
    assert len(err.splitlines()) == 1 and err.startswith(f"vassal-builder: audit: {log}: ")
    assert "a save of the module" in err or "UnitId" in err
    code, out, _ = run(capsys, arg, log, "--json")
    assert code == 2 and json.loads(out)["status"] == "not audited"


def test_mutated_logs_never_crash(tiny, tmp_path):
    """Random damage inside the command text: warnings or a one-line error, never an exception."""
    import random

    from builder.audit import audit_file
    from builder.audit.errors import AuditInputError
    from builder.vassal.commands import Compound
    from builder.vassal.savefile import SaveFile

    _, kit = tiny
    lb = LogBuilder(kit, START)
    lb.move("blue-1", "C3").flip("blue-3", 2).move("blue-3", "B3").remove("blue-2").phase(1, 1, 0)
    lb.move("red-1", "G5")
    text = Compound([*lb.setup, *lb.entries]).encode()
    rnd = random.Random(7)
    alphabet = "/\t\x1b\\;,0123456789-+MD@ab\n"
    path = tmp_path / "m.vlog"
    for _ in range(150):
        t = list(text)
        for _ in range(rnd.randint(1, 8)):
            k = rnd.randrange(len(t))
            op = rnd.random()
            if op < 0.4:
                t[k] = rnd.choice(alphabet)
            elif op < 0.7:
                del t[k]
            else:
                t.insert(k, rnd.choice(alphabet))
        path.write_bytes(SaveFile.new("".join(t), encoding="plain").to_bytes())
        try:
            audit_file(kit.ctx, path)
        except AuditInputError:
            pass
