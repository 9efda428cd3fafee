"""The audit's input: a module that carries its game's data (audit MODULE.vmod LOG needs nothing
else), saves of another module or game, truncated and random files — exit 2 and one line each;
several files and folders at once, --jobs, --quiet, JSON lines."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile

import pytest

from builder.cli import main
from builder.module import gamedata_entry
from builder.vassal.commands import Compound
from builder.vassal.savefile import SaveFile, make_metadata
from test_audit_support import LogBuilder, game, run_audit, tiny_with_module

START = {"blue-1": "B3", "blue-2": "B3", "blue-3": "B4", "red-1": "H5"}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return tiny_with_module(tmp_path_factory.mktemp("audit-input"))


run = run_audit


def bad_log(kit, path):
    """Three findings: stacking, prohibited terrain, movement allowance."""
    lb = LogBuilder(kit, START).move("blue-3", "B3").move("red-1", "G5").move("blue-1", "E3")
    return lb.write(path)


def with_metadata(kit, path, name, version="1.0"):
    lb = LogBuilder(kit, START).move("blue-1", "C3")
    text = Compound([*lb.setup, *lb.entries]).encode()
    SaveFile.new(text, savedata=make_metadata(version=version),
                 moduledata=make_metadata(name=name, version=version)).write(path)
    return path


# ---------------------------------------------------------------------- the module carries the data
def test_module_carries_versioned_game_data(tiny):
    _, kit, vmod = tiny
    with zipfile.ZipFile(vmod) as z:
        names = z.namelist()
        info = z.getinfo(gamedata_entry.ENTRY)
        obj = json.loads(z.read(gamedata_entry.ENTRY))
    assert names.index(gamedata_entry.ENTRY) == names.index("moduledata") + 1
    assert info.compress_type == zipfile.ZIP_DEFLATED and info.compress_size < info.file_size
    assert (obj["format"], obj["version"], obj["game"]) == ("vassal-builder-gamedata", 1, "tiny")
    assert obj["doc"] == json.loads(json.dumps(kit.report.model.doc))
    assert obj["map"]["grid"] == kit.report.model.map_doc["grid"]
    assert gamedata_entry.pack(kit.report) == gamedata_entry.pack(kit.report)     # deterministic


def test_audit_from_module_equals_audit_from_data(tiny, tmp_path, capsys):
    arg, kit, vmod = tiny
    log = bad_log(kit, tmp_path / "bad.vlog")
    c1, out1, _ = run(capsys, arg, log, "--json")
    c2, out2, _ = run(capsys, vmod, log, "--json")
    assert c1 == c2 == 1
    a, b = json.loads(out1), json.loads(out2)
    assert a == b and len(a["findings"]) == 3
    assert {f["rule"] for f in a["findings"]} == {"stacking", "prohibited-terrain", "movement-allowance"}


def test_audit_module_needs_nothing_else(tiny, tmp_path):
    """From another directory with no checkout on the path: the module and the log only."""
    _, kit, vmod = tiny
    work = tmp_path / "elsewhere"
    work.mkdir()
    (work / "game.vmod").write_bytes(vmod.read_bytes())
    bad_log(kit, work / "bad.vlog")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VASSAL_BUILDER_SHARED")}
    r = subprocess.run([sys.executable, "-m", "builder", "audit", "game.vmod", "bad.vlog"], cwd=work,
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 1, r.stderr
    assert r.stderr == "" and r.stdout.count("\n") >= 4
    assert "stacking" in r.stdout and "prohibited-terrain" in r.stdout and "movement-allowance" in r.stdout


@pytest.mark.parametrize("damage", ["no-entry", "newer-version", "not-json"])
def test_module_without_usable_data_is_exit_2(tiny, tmp_path, capsys, damage):
    _, kit, vmod = tiny
    bad = tmp_path / "bad.vmod"
    with zipfile.ZipFile(vmod) as src, zipfile.ZipFile(bad, "w") as dst:
        for n in src.namelist():
            data = src.read(n)
            if n == gamedata_entry.ENTRY:
                if damage == "no-entry":
                    continue
                if damage == "newer-version":
                    data = data.replace(b'"version":1', b'"version":99', 1)
                else:
                    data = data[:100]
            dst.writestr(n, data)
    log = LogBuilder(kit, START).write(tmp_path / "ok.vlog")
    code, out, err = run(capsys, bad, log)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert {"no-entry": "carries no vassal-builder game data", "newer-version": "newer than this",
            "not-json": "not valid JSON"}[damage] in err


# ---------------------------------------------------------------------- foreign input
def test_save_of_another_game_is_exit_2(tiny, tmp_path, capsys):
    pls = game("panzers-last-stand")
    uid = next(iter(pls.defs))
    log = LogBuilder(pls, {uid: pls.report.grid.name(next(iter(pls.report.grid.all_hexes())))}).write(
        tmp_path / "pls.vlog")
    code, out, err = run(capsys, "iron-dream", log)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert "a save of the module 'Panzers Last Stand: The Battles for Budapest, 1945', not of " \
           "'End of the Iron Dream'" in err
    bare = tmp_path / "pls-bare.vlog"          # no metadata: told by its UnitIds
    SaveFile.new(SaveFile.from_bytes(log.read_bytes()).text).write(bare)
    code, out, err = run(capsys, "iron-dream", bare)
    assert code == 2 and out == ""
    assert err == f"vassal-builder: audit: {bare}: 1 of its 1 UnitIds (e.g. {uid}) are not units of iron-dream: " \
                  f"a save of another game, cannot audit\n"


def test_save_naming_another_module_is_exit_2(tiny, tmp_path, capsys):
    arg, kit, _ = tiny
    log = with_metadata(kit, tmp_path / "other.vlog", "Panzers Last Stand")
    code, out, err = run(capsys, arg, log)
    assert code == 2 and len(err.splitlines()) == 1
    assert "a save of the module 'Panzers Last Stand', not of" in err
    ours = kit.report.model.doc["game"]["title"]
    assert run(capsys, arg, with_metadata(kit, tmp_path / "ours.vlog", ours))[0] == 0
    code, _, err = run(capsys, arg, with_metadata(kit, tmp_path / "v2.vlog", ours, "2.0"))
    assert code == 2 and "saved with version 2.0" in err


def test_truncated_command_text_is_exit_2_with_where(tiny, tmp_path, capsys):
    arg, kit, _ = tiny
    lb = LogBuilder(kit, START).move("blue-1", "C3").move("blue-2", "C4")
    text = Compound([*lb.setup, *lb.entries]).encode()
    cut = text[: text.rindex("/Main") + 3]          # inside the last move
    path = tmp_path / "cut.vlog"
    SaveFile.new(cut).write(path)
    code, out, err = run(capsys, arg, path)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    last = len(lb.setup) + len(lb.entries)
    assert f"savedGame is truncated at command {last} (offset" in err and "incomplete" in err
    cut2 = text[: text.index("end_save") - 3]       # inside the start position
    SaveFile.new(cut2).write(path)
    code, _, err = run(capsys, arg, path)
    assert code == 2 and "truncated" in err


def test_dump_reports_truncation_in_one_line(tiny, tmp_path, capsys):
    _, kit, _ = tiny
    lb = LogBuilder(kit, START).move("blue-1", "C3").move("blue-2", "C4")
    text = Compound([*lb.setup, *lb.entries]).encode()
    path = tmp_path / "cut.vlog"
    SaveFile.new(text[: text.rindex("/Main") + 3]).write(path)
    code = main(["dump", str(path)])
    out, err = capsys.readouterr()
    assert code == 1 and out                       # what could be decoded is shown
    assert len(err.splitlines()) == 1 and f"truncated at command {len(lb.setup) + len(lb.entries)}" in err
    assert main(["dump", "--json", str(path)]) == 1
    out, _ = capsys.readouterr()
    assert json.loads(out)["truncated"]["command"] == len(lb.setup) + len(lb.entries)
    SaveFile.new(text).write(path)
    assert main(["dump", str(path)]) == 0


@pytest.mark.parametrize("content", [os.urandom(2000), b"PK\x03\x04" + os.urandom(500), b""])
def test_random_bytes_are_exit_2_one_line(tiny, tmp_path, capsys, content):
    arg, _, _ = tiny
    path = tmp_path / "random.vlog"
    path.write_bytes(content)
    code, out, err = run(capsys, arg, path)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and "Traceback" not in err


def test_truncated_zip_says_truncated(tiny, tmp_path, capsys):
    arg, kit, _ = tiny
    data = LogBuilder(kit, START).move("blue-1", "C3").bytes()
    path = tmp_path / "cut.vlog"
    path.write_bytes(data[: len(data) - 30])
    code, _, err = run(capsys, arg, path)
    assert code == 2 and f"the file is truncated: the ZIP archive ends at byte {len(data) - 30}" in err


# ---------------------------------------------------------------------- many files
def test_many_files_and_folders_one_table(tiny, tmp_path, capsys):
    arg, kit, vmod = tiny
    season = tmp_path / "season"
    (season / "week2").mkdir(parents=True)
    LogBuilder(kit, START).move("blue-1", "C3").write(season / "a-clean.vlog")
    bad_log(kit, season / "week2" / "b-bad.vlog")
    (season / "c-broken.vsav").write_bytes(b"nonsense")
    (season / "notes.txt").write_text("ignored")
    code, out, err = run(capsys, vmod, season)
    assert code == 2                               # the worst: one file could not be audited
    lines = out.splitlines()
    head = next(i for i, ln in enumerate(lines) if ln.startswith("file "))
    table = lines[head:head + 4]
    assert [ln.split()[0] for ln in table] == ["file", str(season / "a-clean.vlog"), str(season / "c-broken.vsav"),
                                               str(season / "week2" / "b-bad.vlog")]
    assert table[1].split()[1:5] == ["1", "1", "0", "-"]
    assert "movement-allowance 1, prohibited-terrain 1, stacking 1" in table[3]
    assert "not audited" in table[2]
    assert lines[-1].startswith("not checked (") and sum(ln.startswith("not checked") for ln in lines) == 1
    assert lines[-2].startswith("checked (") and sum(ln.startswith("checked") for ln in lines) == 1
    assert err.count("\n") == 1 and "c-broken.vsav" in err
    # each finding names its file (grep -H style): three, all of the bad log, before the table
    bad = f"{season / 'week2' / 'b-bad.vlog'}: entry "
    assert [ln for ln in lines[:head] if ln.strip()] and all(ln.startswith(bad) for ln in lines[:head] if ln.strip())
    assert sum(ln.startswith(bad) for ln in lines) == 3
    # --quiet: the same finding lines only
    code, quiet, _ = run(capsys, vmod, season, "--quiet")
    assert code == 2 and quiet.splitlines() == [ln for ln in lines[:head] if ln.strip()]


def test_jobs_give_the_same_output_in_the_same_order(tiny, tmp_path, capsys):
    arg, kit, vmod = tiny
    files = []
    for i in range(5):
        lb = LogBuilder(kit, START).move("blue-1", "C3")
        if i % 2:
            lb.move("red-1", "G5")
        files.append(lb.write(tmp_path / f"g{i}.vlog"))
    one = run(capsys, vmod, *files, "--json")
    four = run(capsys, vmod, *files, "--json", "--jobs", "3")
    assert one == four and one[0] == 1
    rows = [json.loads(ln) for ln in one[1].splitlines()]
    assert [r["file"] for r in rows] == [str(f) for f in files]
    assert [len(r["findings"]) for r in rows] == [0, 1, 0, 1, 0]
    assert run(capsys, vmod, *files, "--jobs", "2") == run(capsys, vmod, *files)


def test_quiet_prints_findings_only(tiny, tmp_path, capsys):
    arg, kit, _ = tiny
    log = bad_log(kit, tmp_path / "bad.vlog")
    code, out, _ = run(capsys, arg, log, "--quiet")
    assert code == 1 and len(out.splitlines()) == 3 and all(ln.startswith("entry ") for ln in out.splitlines())
    clean = LogBuilder(kit, START).write(tmp_path / "ok.vlog")
    assert run(capsys, arg, clean, "-q") == (0, "", "")
