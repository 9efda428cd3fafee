"""The 'counters' build step: files, sizes, names the packager can rely on, atomicity and determinism."""

from __future__ import annotations

import pytest
from PIL import Image

from builder.cli import main
from builder.errors import BuildError
from builder.gamedata.sources import shipped_games
from builder.gamedata.validate import Report, validate_game
from builder.render import counter_build
from builder.render.counter_pieces import pieces
from test_counters_support import TINY, bcs_doc, bcs_game, tiny_game


def report_for(game) -> Report:
    report = Report(game.id)
    report.model = game
    return report


def test_tiny_build_writes_module_print_and_contact_images(tmp_path):
    rc = main(["build", str(TINY), "--only", "counters", "--faces", "--out", str(tmp_path), "--quiet"])
    assert rc == 0
    out = tmp_path / "tiny"
    game = tiny_game()
    expected = counter_build.counter_images(game)
    assert len(expected) == 12  # six units, front and back
    for _pid, _face, name in expected:
        assert Image.open(out / name).size == (75, 75)
        # 15.875 mm at the default 300 dpi
        assert Image.open(out / "counters" / "print" / name.split("/")[-1]).size == (188, 188)
    assert (out / "counters" / "blue-1-front.png").is_file()
    sheet = Image.open(out / "counter-contact-sheet.png")
    assert sheet.width > 8 * 150
    names = {p.name for p in (out / "counters").glob("*.png")}
    assert names == {n.split("/")[-1] for _, _, n in expected}


def test_extra_counters_and_markers_get_their_own_images(tmp_path):
    game = bcs_game()
    files = counter_build.build(report_for(game), tmp_path, )
    names = {p.name for p in files}
    assert {"ger-pzg-front.png", "ger-pzg-2-front.png", "ger-pzg-2-back.png", "fatigue-back.png"} <= names
    assert "used-back.png" not in names  # a one-sided marker has no back image in the module
    # print_dpi 200 for a 15.875 mm counter
    assert Image.open(tmp_path / "counters" / "print" / "used-front.png").size == (125, 125)
    listed = {(pid, face) for pid, face, _ in counter_build.counter_images(game)}
    assert ("ger-pzg-2", "back") in listed and ("used", "back") not in listed


def test_build_is_deterministic(tmp_path):
    game = bcs_game()
    a = counter_build.build(report_for(game), tmp_path / "a")
    b = counter_build.build(report_for(bcs_game()), tmp_path / "b")
    assert [p.relative_to(tmp_path / "a") for p in a] == [p.relative_to(tmp_path / "b") for p in b]
    for pa, pb in zip(a, b):
        assert pa.read_bytes() == pb.read_bytes(), pa.name


def test_a_failed_render_leaves_previous_images_untouched(tmp_path):
    counter_build.build(report_for(bcs_game()), tmp_path)
    before = (tmp_path / "counters" / "ss-pz-1-front.png").read_bytes()
    doc = bcs_doc()
    doc["units"][0]["front"]["ar"] = 1
    doc["nationalities"][2]["background"] = "#nothex"
    with pytest.raises(BuildError):
        counter_build.build(report_for(bcs_game(doc)), tmp_path)
    assert (tmp_path / "counters" / "ss-pz-1-front.png").read_bytes() == before


def test_stale_images_of_removed_counters_are_dropped(tmp_path):
    counter_build.build(report_for(bcs_game()), tmp_path)
    doc = bcs_doc()
    doc["units"] = doc["units"][:1]
    counter_build.build(report_for(bcs_game(doc)), tmp_path)
    assert not (tmp_path / "counters" / "sov-inf-front.png").exists()
    assert (tmp_path / "counters" / "ss-pz-1-front.png").exists()


def test_a_face_folder_goes_only_when_nothing_is_written_into_it(tmp_path):
    # a folder the step writes into stays though its files are not there yet (the background writer
    # writes them later); one the step writes nothing into goes when empty, and stays with the
    # designer's own file in it
    kept = [tmp_path / "counters" / "a-front.png", tmp_path / "counters" / "print" / "a-front.png"]
    (tmp_path / "counters" / "print").mkdir(parents=True)
    counter_build._remove_stale(tmp_path, kept)
    assert (tmp_path / "counters" / "print").is_dir()
    counter_build._remove_stale(tmp_path, kept[:1])
    assert not (tmp_path / "counters" / "print").exists() and (tmp_path / "counters").is_dir()
    (tmp_path / "counters" / "notes.txt").write_text("the designer's own")
    (tmp_path / "counters" / "b-back.png").write_bytes(b"stale")
    counter_build._remove_stale(tmp_path, [])
    assert [p.name for p in (tmp_path / "counters").iterdir()] == ["notes.txt"]
    (tmp_path / "counters" / "notes.txt").unlink()
    counter_build._remove_stale(tmp_path, [])
    assert not (tmp_path / "counters").exists()


@pytest.mark.parametrize("name", shipped_games())
def test_shipped_game_counters_build(name, tmp_path):
    report = validate_game(name)
    if not report.ok:
        pytest.skip(f"{name} does not validate yet ({len(report.errors)} errors)")
    files = counter_build.build(report, tmp_path)
    game = report.model
    assert len(files) == 2 * len(counter_build.counter_images(game)) + 1
    px = counter_build.counter_info(game)["image_px"]
    for piece in pieces(game)[:5]:
        assert Image.open(tmp_path / "counters" / f"{piece.piece_id}-front.png").size == (px, px)
