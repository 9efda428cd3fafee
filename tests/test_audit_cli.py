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
    assert any(line.startswith("not checked: zones of control") for line in out.splitlines())


def test_findings_exit_1_one_line_each(tiny, tmp_path, capsys):
    arg, kit = tiny
    log = LogBuilder(kit, START).move("blue-3", "B3").move("red-1", "G5").write(tmp_path / "bad.vlog")
    code, out, err = run(capsys, arg, log)
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == ("entry 1: turn 1, Movement: blue-3 '3' B4 -> B3: stacking: "
                        "Blue has 3 stacking points in B3, limit 2: blue-1, blue-2, blue-3")
    assert lines[1].startswith("entry 2: turn 1, Movement: red-1 '1' H5 -> G5: prohibited-terrain (T3 lakes): ")


def test_json_output(tiny, tmp_path, capsys):
    arg, kit = tiny
    log = LogBuilder(kit, START).move("blue-2", "E3").write(tmp_path / "ma.vlog")
    code, out, _ = run(capsys, arg, log, "--json")
    assert code == 1
    d = json.loads(out)
    assert set(d) == {"game", "file", "turns_replayed", "moves", "findings", "warnings", "not_checked"}
    assert (d["game"], d["turns_replayed"], d["moves"]) == ("tiny", 1, 1)
    f = d["findings"][0]
    assert {k: f[k] for k in ("turn", "phase", "unit", "name", "from", "to", "rule")} == {
        "turn": 1, "phase": "Movement", "unit": "blue-2", "name": "2", "from": "B3", "to": "E3",
        "rule": "movement-allowance"}
    assert "reference" in f and "costs 5 MP" in f["message"]
    assert d["not_checked"] and d["warnings"] == []


@pytest.mark.parametrize("make", ["truncated", "garbage", "no-savedgame", "bad-payload", "missing"])
def test_unreadable_input_is_one_line_exit_1(tiny, tmp_path, capsys, make):
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
    assert code == 1
    assert len(err.strip().splitlines()) == 1 and err.startswith("vassal-builder: audit: ")
    assert "Traceback" not in err + out


def test_unreadable_input_json(tiny, tmp_path, capsys):
    arg, _ = tiny
    path = tmp_path / "x.vsav"
    path.write_bytes(b"PK\x03\x04broken")
    code, out, err = run(capsys, arg, path, "--json")
    assert code == 1 and "error" in json.loads(out)


def test_unknown_game_is_usage_exit_2(tmp_path, capsys):
    code, out, err = run(capsys, "no-such-game-xyz", tmp_path / "x.vlog")
    assert code == 2 and err.startswith("vassal-builder: audit: ")


def test_missing_arguments_is_usage_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["audit"])
    assert exc.value.code == 2


def test_foreign_log_warns_instead_of_crashing(tiny, shared_dir, capsys):
    arg, _ = tiny
    log = shared_dir / "real-vassal" / "vasl-custom-labels.vlog"
    if not log.is_file():
        pytest.skip("vasl-custom-labels.vlog not present")
    code, out, err = run(capsys, arg, log, "--json")
    assert code == 0 and "Traceback" not in err
    d = json.loads(out)
    assert d["findings"] == []
    assert any("not a module built by vassal-builder" in w for w in d["warnings"])


def test_foreign_save_text(tiny, shared_dir, capsys):
    arg, _ = tiny
    save = shared_dir / "real-vassal" / "vasl-basic.vsav"
    if not save.is_file():
        pytest.skip("vasl-basic.vsav not present")
    code, out, err = run(capsys, arg, save)
    assert code == 0
    assert "warning: " in out and "unknown pieces" in out


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
