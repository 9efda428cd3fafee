"""Incremental builds: a cached, a parallel and a clean build give the same bytes; a changed unit
redraws only its faces; a corrupt cache entry is found and rebuilt; a crash leaves the old output."""

import errno
import io
import re
import shutil
import sqlite3
import zipfile
from pathlib import Path

import pytest
from PIL import Image

from builder import buildcache
from builder.cli import main
from builder.gamedata.validate import validate_game
from builder.render import counter_build
from builder.render.counter_contact import contact_sheet
from builder.render.counter_pieces import pieces
from test_counters_support import bcs_game


def _files(root: Path) -> dict[str, bytes]:
    """Every output file under root (the cache aside), by relative path."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and buildcache.CACHE_DIR not in p.relative_to(root).parts}


def _build(game: Path, out: Path, capsys, *extra) -> str:
    # with the loose faces: the cache's work shows in each face's file (the default build's own tests are below)
    assert main(["build", str(game), "--out", str(out), "--faces", *extra]) == 0
    return capsys.readouterr().err


def _summary(err: str) -> str:
    return next(line for line in err.splitlines() if "rebuilt" in line or "nothing changed" in line)


def test_cached_parallel_and_clean_builds_give_identical_bytes(tiny_game, tmp_path, capsys):
    game = tiny_game / "game.yaml"
    clean, parallel = tmp_path / "clean", tmp_path / "parallel"
    _build(game, clean, capsys, "--jobs", "1")
    _build(game, parallel, capsys, "--jobs", "2")
    assert _files(clean) == _files(parallel)
    assert len(_files(clean)) > 5
    # from the cache: the manifest gone, every output is looked up by its key (nothing drawn)
    shutil.rmtree(parallel / buildcache.CACHE_DIR / "manifests")
    shutil.rmtree(parallel / "tiny")
    (parallel / "tiny-counters.pdf").unlink()
    summary = _summary(_build(game, parallel, capsys, "--jobs", "2"))
    assert re.search(r"rebuilt nothing; reused \d+ map images?, \d+ counter faces, 1 contact sheet, 1 module, "
                     r"1 sheets PDF", summary), summary
    assert _files(clean) == _files(parallel)
    # nothing changed: answered from the manifest, no file rewritten
    stamps = {p: p.stat().st_mtime_ns for p in (parallel / "tiny").rglob("*.png")}
    assert "nothing changed" in _summary(_build(game, parallel, capsys))
    assert stamps == {p: p.stat().st_mtime_ns for p in (parallel / "tiny").rglob("*.png")}


def test_changing_one_unit_redraws_its_faces_and_repackages_the_module_only(tiny_game, tmp_path, capsys):
    game = tiny_game / "game.yaml"
    out = tmp_path / "out"
    _build(game, out, capsys)
    before = _files(out)
    text = game.read_text()
    assert "front: {attack: 6" in text
    game.write_text(text.replace("front: {attack: 6", "front: {attack: 7", 1))
    summary = _summary(_build(game, out, capsys))
    # the contact sheet: only the unit's row of counters is drawn again
    assert re.search(r"rebuilt 2 counter faces, 1 contact sheet row, 1 contact sheet, 1 module, 1 sheets PDF; "
                     r"reused \d+ map images?, \d+ counter faces, 1 contact sheet row\b", summary), summary
    after = _files(out)
    changed = {name for name in after if after[name] != before.get(name)}
    faces = {name for name in changed if name.startswith("tiny/counters/")}
    # the unit's front at module and print size (its back was redrawn too, to the same bytes)
    assert len(faces) == 2 and {Path(n).name for n in faces} == {"blue-3-front.png"}
    assert changed - faces == {"tiny/tiny.vmod", "tiny/counter-contact-sheet.png", "tiny-counters.pdf"}


def test_a_corrupt_cache_entry_is_dropped_and_rebuilt(tiny_game, tmp_path, capsys):
    game = tiny_game / "game.yaml"
    out = tmp_path / "out"
    _build(game, out, capsys)
    good = _files(out)
    with sqlite3.connect(out / buildcache.CACHE_DIR / "objects.sqlite") as db:   # one flipped bit
        key, data = db.execute("SELECT key, data FROM entries WHERE length(data) > 1000 LIMIT 1").fetchone()
        data = bytearray(data)
        data[-10] ^= 0x01
        db.execute("UPDATE entries SET data = ? WHERE key = ?", (bytes(data), key))
    shutil.rmtree(out / buildcache.CACHE_DIR / "manifests")
    shutil.rmtree(out / "tiny")
    (out / "tiny-counters.pdf").unlink()
    summary = _summary(_build(game, out, capsys))
    assert "(1 corrupt cache entry dropped)" in summary and "rebuilt nothing" not in summary
    assert _files(out) == good


def test_an_edited_output_is_noticed(tiny_game, tmp_path, capsys):
    game = tiny_game / "game.yaml"
    out = tmp_path / "out"
    _build(game, out, capsys)
    good = _files(out)
    (out / "tiny" / "map.png").write_bytes(b"not a map")
    assert "nothing changed" not in _summary(_build(game, out, capsys))
    assert _files(out) == good


def test_a_crash_mid_build_leaves_the_previous_output(tiny_game, tmp_path, capsys, monkeypatch):
    game = tiny_game / "game.yaml"
    out = tmp_path / "out"
    _build(game, out, capsys)
    good = _files(out)
    game.write_text(game.read_text().replace("front: {attack: 6", "front: {attack: 7", 1))
    from builder.module import package

    def crash(*_a, **_k):
        raise RuntimeError("simulated crash after the counters were written")
    monkeypatch.setattr(package, "assemble", crash)
    with pytest.raises(RuntimeError):
        main(["build", str(game), "--out", str(out), "--faces", "-q"])
    assert _files(out) == good
    assert [p.name for p in out.iterdir() if p.name.startswith(".") and p.name != buildcache.CACHE_DIR] == []


def test_a_file_that_cannot_be_written_leaves_the_previous_output(tiny_game, tmp_path, capsys, monkeypatch):
    game = tiny_game / "game.yaml"
    out = tmp_path / "out"
    _build(game, out, capsys)
    good = {k: v for k, v in _files(out).items() if k.startswith("tiny/")}
    game.write_text(game.read_text().replace("front: {attack: 6", "front: {attack: 7", 1))
    real = buildcache.write_loose

    def disk_full(path, data, known=None):
        if Path(path).name == "blue-3-front.png":
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real(path, data, known)
    monkeypatch.setattr(buildcache, "write_loose", disk_full)
    assert main(["build", str(game), "--out", str(out), "--faces", "-q"]) == 1
    err = capsys.readouterr().err
    assert err.splitlines() == [f"vassal-builder: build: tiny: cannot write {out / 'tiny' / 'counters' / 'blue-3-front.png'}: "
                                "No space left on device"]
    assert {k: v for k, v in _files(out).items() if k.startswith("tiny/")} == good
    assert [p.name for p in out.iterdir() if p.name.startswith(".") and p.name != buildcache.CACHE_DIR] == []
    monkeypatch.setattr(buildcache, "write_loose", real)   # the next build makes what the failed one could not
    assert "rebuilt" in _summary(_build(game, out, capsys))
    assert _files(out)["tiny/counters/blue-3-front.png"] != good["tiny/counters/blue-3-front.png"]


def test_unchanged_files_are_known_by_their_recorded_hash_not_read_again(tiny_game, tmp_path, capsys, monkeypatch):
    game = tiny_game / "game.yaml"
    out = tmp_path / "out"
    _build(game, out, capsys)
    game.write_text(game.read_text().replace("front: {attack: 6", "front: {attack: 7", 1))
    read = []
    real = Path.read_bytes

    def spy(self):
        if self.suffix == ".png":
            read.append(self.name)
        return real(self)
    monkeypatch.setattr(Path, "read_bytes", spy)
    _build(game, out, capsys)
    assert read == []
    # a file edited since the last build has another stamp: it is read, found different and rewritten
    monkeypatch.setattr(Path, "read_bytes", real)
    before = _files(out)
    (out / "tiny" / "counters" / "red-1-front.png").write_bytes(b"edited")
    _build(game, out, capsys)
    assert _files(out) == before


def test_staged_dir_replaces_the_folder_at_once_or_not_at_all(tmp_path):
    target = tmp_path / "game"
    target.mkdir()
    (tmp_path / ".game.999999999~dead.tmp").mkdir()      # a killed build's staged folder
    (target / "old.png").write_bytes(b"old")
    (target / "same.png").write_bytes(b"same")
    with buildcache.staged_dir(target) as stage:
        assert (stage / "old.png").read_bytes() == b"old"       # starts as the previous output
        assert not buildcache.write_loose(stage / "same.png", b"same")   # unchanged: not rewritten
        assert buildcache.write_loose(stage / "old.png", b"new")
        assert (target / "old.png").read_bytes() == b"old"      # a hard link is never written through
    assert (target / "old.png").read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game"]
    with pytest.raises(KeyError):
        with buildcache.staged_dir(target) as stage:
            buildcache.write_loose(stage / "old.png", b"half")
            raise KeyError("boom")
    assert (target / "old.png").read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game"]


def test_cache_entries_are_verified_and_a_damaged_database_is_a_cold_cache(tmp_path):
    cache = buildcache.Cache(tmp_path / "c.sqlite")
    cache.put("k1", b"payload")
    cache.put("k2", b"other")
    cache.close()
    with sqlite3.connect(tmp_path / "c.sqlite") as db:
        db.execute("UPDATE entries SET data = ? WHERE key = 'k2'", (b"othe",))   # truncated
    cache = buildcache.Cache(tmp_path / "c.sqlite")
    assert cache.get("k1") == b"payload"
    assert cache.get("k2") is None and cache.dropped == 1
    assert cache.get("k2") is None and cache.dropped == 1          # dropped, not found again
    assert cache.get("k3") is None
    cache.close()
    (tmp_path / "c.sqlite").write_bytes(b"garbage" * 1000)          # not a database at all
    cache = buildcache.Cache(tmp_path / "c.sqlite")
    assert cache.get("k1") is None
    cache.put("k1", b"again")
    assert cache.get("k1") == b"again"
    cache.close()


def test_the_sheets_are_made_from_the_print_faces_not_a_second_drawing(tiny_game, tmp_path, monkeypatch):
    """Render once, use twice: the PDF from the build's print PNGs is the PDF of the same pixels."""
    from builder.gamedata.validate import validate_game
    from builder.publish import sheets
    from builder.render import counter_build, counter_face

    game = validate_game(str(tiny_game / "game.yaml")).model
    faces = counter_build.face_pngs(game)
    sizes = [counter_build.counter_info(game)["image_px"], counter_build.print_px(game)]
    drawn = []

    def no_drawing(*_a):
        drawn.append(1)
        raise AssertionError("the sheets drew a counter again")
    monkeypatch.setattr(sheets, "render", no_drawing)
    sheets.write_sheets(game, tmp_path / "a.pdf", faces={k: v[1] for k, v in faces.items()})
    assert drawn == []
    monkeypatch.setattr(sheets, "render", lambda g, p, f, _s: [counter_face.render(g, p, f, sizes)[1]])
    sheets.write_sheets(game, tmp_path / "b.pdf")
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()


def test_the_contact_sheet_from_cached_bands_is_the_sheet_drawn_whole(tiny_game, tmp_path, capsys):
    game = tiny_game / "game.yaml"
    out = tmp_path / "out"
    _build(game, out, capsys)
    sheet = Image.open(out / "tiny" / "counter-contact-sheet.png")
    model = validate_game(str(game)).model
    faces = {(p.piece_id, f): Image.open(out / "tiny" / "counters" / f"{p.piece_id}-{f}.png")
             for p in pieces(model) for f in p.faces}
    whole = contact_sheet(model.doc["game"]["title"], pieces(model), faces)
    assert sheet.size == whole.size and sheet.convert("RGB").tobytes() == whole.tobytes()
    # a game of several rows, one of them short, made of bands outside a build too
    bcs = bcs_game()
    pngs = counter_build.face_pngs(bcs)
    plist = pieces(bcs)
    assert len(plist) > 8 and len(plist) % 8
    data = counter_build._contact_sheet(bcs, "BCS", plist, pngs, {k: str(k) for k in pngs})
    drawn = contact_sheet("BCS", plist, {k: Image.open(io.BytesIO(v[0])) for k, v in pngs.items()})
    assert Image.open(io.BytesIO(data)).convert("RGB").tobytes() == drawn.tobytes()


def test_after_a_one_unit_change_only_that_units_faces_are_drawn(tiny_game, tmp_path, capsys, monkeypatch):
    from builder.render import counter_face
    game = tiny_game / "game.yaml"
    out = tmp_path / "out"
    drawn = []
    real = counter_face.draw_master

    def spy(game_, piece, face, *rest):
        drawn.append((piece.piece_id, face))
        return real(game_, piece, face, *rest)
    monkeypatch.setattr(counter_face, "draw_master", spy)
    # a one-sided marker: the module has its front only, the sheets print its plain back too
    game.write_text(game.read_text().replace("\nscenarios:", "\nmarkers:\n  - {id: spent, name: Spent, quantity: 2, "
                                                               "front: {text: SPENT}}\n\nscenarios:", 1))
    _build(game, out, capsys, "--jobs", "1")
    assert {("blue-3", "front"), ("spent", "front"), ("spent", "back")} <= set(drawn) and len(set(drawn)) > 10
    drawn.clear()
    game.write_text(game.read_text().replace("front: {attack: 6", "front: {attack: 7", 1))
    _build(game, out, capsys, "--jobs", "1")
    # the unit's two faces, each drawn once (its module and print images are made from one drawing);
    # the sheets and the contact sheet take them from there, and everything else from the cache
    assert sorted(drawn) == [("blue-3", "back"), ("blue-3", "front")]


def test_an_abandoned_writer_writes_nothing_more(tmp_path, monkeypatch):
    import threading
    gate, written, real = threading.Event(), [], buildcache.write_loose

    def slow(path, data, known=None):
        gate.wait(5)
        written.append(Path(path).name)
        return real(path, data, known)
    monkeypatch.setattr(buildcache, "write_loose", slow)
    writer = buildcache.LooseWriter()
    for i in range(5):
        writer.put(tmp_path / f"{i}.png", b"x")
    threading.Timer(0.2, gate.set).start()
    writer.finish(abandon=True)        # a failed build: the rest of the queue is dropped
    assert len(written) <= 1 and len(list(tmp_path.iterdir())) == len(written)


def test_a_face_folder_the_writer_has_just_made_is_not_removed_under_it(tiny_game, tmp_path, capsys, monkeypatch):
    # The background writer makes a face's folder, then opens the file in it. The counters step, at its
    # end, removes face folders left empty: one the writer had made but not yet filled went under it
    # ("cannot write .../counters/blue-1-front.png: No such file or directory", now and then). Here the
    # writer is held between the two until the step's clean-up has run, every time.
    import builtins
    import threading
    cleaned, real_open, real_remove = threading.Event(), builtins.open, counter_build._remove_stale

    def remove_stale(*args):
        try:
            real_remove(*args)
        finally:
            cleaned.set()

    def held_open(path, *args, **kwargs):
        if threading.current_thread().name == "loose-writer" and Path(path).parent.is_dir():
            assert cleaned.wait(30), "the counters step did not finish"
        return real_open(path, *args, **kwargs)
    monkeypatch.setattr(counter_build, "_remove_stale", remove_stale)
    monkeypatch.setattr(buildcache, "open", held_open, raising=False)   # write_loose's open
    out = tmp_path / "out"
    assert main(["build", str(tiny_game / "game.yaml"), "--out", str(out), "--only", "counters", "--faces",
                 "--jobs", "1", "-q"]) == 0, capsys.readouterr().err
    assert cleaned.is_set()
    faces = {p.relative_to(out / "tiny" / "counters").as_posix() for p in (out / "tiny" / "counters").rglob("*.png")}
    assert {"blue-1-front.png", "print/blue-1-front.png"} <= faces and len(faces) == 2 * 12


# A build whose drawing of one face (blue-3's front) misbehaves in a worker process only; run as its own
# process with a timeout, so a build that hangs fails this test instead of hanging the suite.
_MISBEHAVING_WORKER = """
import os, signal, sys
from builder.errors import BuildError
from builder.render import counter_face
from builder.cli import main
parent, real = os.getpid(), counter_face.draw_master

def draw(game, piece, face, *rest):
    if os.getpid() != parent and (piece.piece_id, face) == ("blue-3", "front"):
        if sys.argv[1] == "killed":
            os.kill(os.getpid(), signal.SIGKILL)
        raise BuildError("blue-3 front: no ink left")
    return real(game, piece, face, *rest)
counter_face.draw_master = draw
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("how", ["raises", "killed"])
def test_a_worker_that_fails_or_dies_fails_the_build_in_a_line_without_hanging(tiny_game, tmp_path, capsys, how):
    import subprocess
    import sys
    out = tmp_path / "out"
    _build(tiny_game / "game.yaml", out, capsys)
    before = _files(out)
    (tiny_game / "game.yaml").write_text((tiny_game / "game.yaml").read_text().replace(
        "front: {attack: 6", "front: {attack: 7", 1))   # blue-3 changed: its faces are drawn again
    r = subprocess.run([sys.executable, "-c", _MISBEHAVING_WORKER, how, "build", "game.yaml", "--out", str(out),
                        "--faces", "--jobs", "2", "-q"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    # one line from each step that needed the face (the counters, then the sheets asking again)
    why = "no ink left" if how == "raises" else "a worker process stopped before it finished"
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert [line.split(": ")[3] for line in lines] == ["counters", "sheets"], r.stderr
    assert all(why in line for line in lines), r.stderr
    after = _files(out)   # the failed step's images stay as they were (the module step did its own part)
    assert {k: v for k, v in after.items() if "counters" in k} == {k: v for k, v in before.items() if "counters" in k}


# The map step runs in a child process beside the counters step (builder.background): its failure or
# death is the map step's one line, the other steps' outputs are made, and nothing hangs.
_MISBEHAVING_MAP = """
import os, signal, sys
from builder.errors import BuildError
from builder.render import map_build
from builder.cli import main
parent, real = os.getpid(), map_build.build

def build(report, out_dir, progress):
    if os.getpid() != parent:
        if sys.argv[1] == "killed":
            os.kill(os.getpid(), signal.SIGKILL)
        raise BuildError("the map ran out of ink")
    return real(report, out_dir, progress)
map_build.build = build
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("how", ["raises", "killed"])
def test_a_step_run_beside_another_fails_in_its_own_line(tiny_game, tmp_path, how):
    import subprocess
    import sys
    out = tmp_path / "out"
    r = subprocess.run([sys.executable, "-c", _MISBEHAVING_MAP, how, "build", "game.yaml", "--out", str(out),
                        "--faces", "--jobs", "2", "-q"], cwd=tiny_game, capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    why = "the map ran out of ink" if how == "raises" else "a worker process stopped before it finished"
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    # the map's own line, then the module's, which tried to draw the missing map again (in a child too)
    assert [line.split(": ")[3] for line in lines] == ["map", "module"], r.stderr
    assert all(why in line for line in lines), r.stderr
    # the steps that did not need the map made their outputs
    assert (out / "tiny-counters.pdf").is_file() and not (out / "tiny" / "tiny.vmod").exists()
    assert len(list((out / "tiny" / "counters").glob("*.png"))) > 5


def test_steps_run_beside_each_other_give_a_one_process_builds_bytes_and_summary(tiny_game, tmp_path, capsys):
    game = tiny_game / "game.yaml"
    one, two = tmp_path / "one", tmp_path / "two"
    s1 = _summary(_build(game, one, capsys, "--jobs", "1"))
    s2 = _summary(_build(game, two, capsys, "--jobs", "2"))
    assert _files(one) == _files(two)
    assert s1.replace(str(one), "OUT") == s2.replace(str(two), "OUT")
    with sqlite3.connect(one / buildcache.CACHE_DIR / "objects.sqlite") as a, \
            sqlite3.connect(two / buildcache.CACHE_DIR / "objects.sqlite") as b:
        q = "SELECT key, sha FROM entries ORDER BY key"
        assert a.execute(q).fetchall() == b.execute(q).fetchall()    # the children's entries are stored too


def test_without_fork_the_steps_run_one_after_the_other_with_the_same_bytes(tiny_game, tmp_path, capsys, monkeypatch):
    """Where os.fork does not exist (Windows) nothing is forked: the same outputs, in one process."""
    import os
    from builder import background
    game = tiny_game / "game.yaml"
    _build(game, tmp_path / "forked", capsys, "--jobs", "2")
    forks = []
    monkeypatch.setattr(background, "AVAILABLE", False)
    monkeypatch.setattr(buildcache, "CAN_FORK", False)
    monkeypatch.delattr(os, "fork")
    monkeypatch.setattr(background.StepInChild, "__init__", lambda *a: forks.append(a))
    _build(game, tmp_path / "unforked", capsys, "--jobs", "2")
    assert forks == [] and _files(tmp_path / "forked") == _files(tmp_path / "unforked")


def test_without_faces_the_module_and_sheets_are_the_same_and_no_face_file_is_written(tiny_game, tmp_path, capsys):
    # the default build: the faces only inside the module and the sheets, the same bytes as with --faces
    game = tiny_game / "game.yaml"
    loose, plain = tmp_path / "loose", tmp_path / "plain"
    _build(game, loose, capsys)
    assert main(["build", str(game), "--out", str(plain), "-q"]) == 0
    with_faces, without = _files(loose), _files(plain)
    assert set(without) == {"tiny/map.png", "tiny/tiny.vmod", "tiny/counter-contact-sheet.png", "tiny-counters.pdf"}
    assert without == {k: v for k, v in with_faces.items() if k in without}
    # the module's images are the loose faces' bytes
    with zipfile.ZipFile(plain / "tiny" / "tiny.vmod") as z:
        assert z.read("images/blue-1-front.png") == with_faces["tiny/counters/blue-1-front.png"]
    # a build with the other choice is not "nothing changed": the faces come and go as a whole (from the cache)
    summary = _summary(_build(game, plain, capsys))
    assert "rebuilt nothing; reused" in summary and _files(plain) == with_faces
    (plain / "tiny" / "counters" / "my-notes.txt").write_text("the designer's own file")
    assert main(["build", str(game), "--out", str(plain), "-q"]) == 0
    assert _files(plain) == {**without, "tiny/counters/my-notes.txt": b"the designer's own file"}
    assert not (plain / "tiny" / "counters" / "print").exists()


def test_the_module_step_alone_after_a_build_without_faces_gets_them_from_the_cache(tiny_game, tmp_path, capsys):
    game = tiny_game / "game.yaml"
    out = tmp_path / "out"
    assert main(["build", str(game), "--out", str(out), "-q"]) == 0
    module = (out / "tiny" / "tiny.vmod").read_bytes()
    (out / "tiny" / "tiny.vmod").unlink()
    assert main(["build", str(game), "--out", str(out), "--only", "module"]) == 0
    err = capsys.readouterr().err
    assert "running step 'counters'" in err and re.search(r"reused \d+ counter faces", _summary(err)), err
    assert (out / "tiny" / "tiny.vmod").read_bytes() == module and not (out / "tiny" / "counters").exists()
