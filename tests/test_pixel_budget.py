"""The pixel budget (issue 12, points 7 and 11): an image over it is refused before it is drawn, in one line
that gives the numbers and how to change them (game.max_image_megapixels)."""

from __future__ import annotations

import time

import pytest
import yaml

from builder.cli import main


def run(capsys, *argv):
    start = time.monotonic()
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err, time.monotonic() - start


def edit(path, old, new):
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize("step,old,new,what", [
    ("map", "hex_size: 80", "hex_size: 5000", "map image map.png would be"),
    ("counters", "size_mm: 15.875", "size_mm: 2000", "each counter's drawing would be"),
    ("sheets", "size_mm: 15.875", "size_mm: 2000", "does not fit on a4 paper"),
    ("module", "hex_size: 80", "hex_size: 5000", "map image map.png would be"),
])
def test_an_image_over_the_budget_is_refused_before_drawing(capsys, tiny_game, tmp_path, step, old, new, what):
    edit(tiny_game / ("map.yaml" if "hex" in old else "game.yaml"), old, new)
    code, out, err, seconds = run(capsys, "build", "game.yaml", "--only", step, "--out", tmp_path / "out", "-q")
    assert code == 1 and "Traceback" not in err
    line = next(l for l in err.splitlines() if what in l)
    if "paper" not in what:
        assert "megapixels), over the pixel budget of 100 megapixels" in line
        assert "raise game.max_image_megapixels" in line
    assert seconds < 10
    assert not list((tmp_path / "out").rglob("map*.png"))


def test_a_long_thin_grid_is_refused_with_its_size(capsys, tiny_game, tmp_path):
    m = tiny_game / "map.yaml"
    doc = yaml.safe_load(m.read_text())
    doc["grid"]["columns"]["last"] = 8
    doc["grid"]["rows"]["last"] = 25000
    m.write_text(yaml.safe_dump(doc))
    g = tiny_game / "game.yaml"
    g.write_text(g.read_text().replace("J5", "H5"))  # column J is gone
    code, out, err, seconds = run(capsys, "build", "game.yaml", "--only", "map", "--out", tmp_path / "out", "-q")
    assert code == 1, out + err
    assert "map image map.png would be" in err and ",000" in err and "megapixels" in err
    assert seconds < 30


def test_the_budget_is_data(capsys, tiny_game, tmp_path):
    edit(tiny_game / "game.yaml", "  stacking: {limit: 2}", "  stacking: {limit: 2}\n  max_image_megapixels: 0.5")
    code, _, err, _ = run(capsys, "build", "game.yaml", "--only", "map", "--out", tmp_path / "out", "-q")
    assert code == 1 and "over the pixel budget of 0.5 megapixels" in err
    edit(tiny_game / "game.yaml", "max_image_megapixels: 0.5", "max_image_megapixels: 2")
    code, _, err, _ = run(capsys, "build", "game.yaml", "--only", "map", "--out", tmp_path / "out", "-q")
    assert code == 0, err
    assert (tmp_path / "out" / "tiny" / "map.png").is_file()


def test_printed_counters_at_a_high_dpi_are_checked_too(capsys, tiny_game, tmp_path):
    edit(tiny_game / "game.yaml", "size_mm: 15.875", "size_mm: 150")
    code, _, err, seconds = run(capsys, "sheets", "game.yaml", "--dpi", "1200", "--out", tmp_path / "s.pdf", "-q")
    assert code == 1 and "each counter's drawing would be 14,174 x 14,174 px (201 megapixels)" in err
    assert seconds < 10 and not (tmp_path / "s.pdf").exists()
