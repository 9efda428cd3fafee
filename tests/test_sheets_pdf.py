"""The counter-sheet PDF: exact paper size, counters at true physical size, deterministic bytes, the CLI."""

from __future__ import annotations

import base64
import re
import zlib

import pytest

from builder.cli import main
from builder.gamedata.sources import shipped_games
from builder.gamedata.validate import validate_game
from builder.publish.sheet_layout import PAPER_MM
from builder.publish.sheets import write_sheets
from test_counters_support import TINY, bcs_doc, bcs_game

POINTS = {"a4": (595.2756, 841.8898), "letter": (612.0, 792.0)}
MM = 72 / 25.4


def media_boxes(data: bytes):
    return [tuple(float(v) for v in m.split()) for m in re.findall(rb"/MediaBox \[\s*([\d.\s]+?)\s*\]", data)]


def content_streams(data: bytes):
    # The stream keeps its end-of-line before 'endstream' (compressed data may itself end in \r or \n): a
    # decompressor object stops at the end of the zlib data and leaves the rest.
    for m in re.finditer(rb"stream\r?\n(.*?)endstream", data, re.S):
        raw = m.group(1)
        for decode in (lambda b: zlib.decompressobj().decompress(b),
                       lambda b: zlib.decompress(base64.a85decode(b.strip(), adobe=True))):
            try:
                yield decode(raw).decode("latin-1")
                break
            except (zlib.error, ValueError):
                continue


def image_boxes(data: bytes):
    """(width, height) in points of every image placed (reportlab: 'q w 0 0 h x y cm /FormXob.. Do Q')."""
    out = []
    for text in content_streams(data):
        for m in re.finditer(r"([\d.]+) 0 0 ([\d.]+) (-?[\d.]+) (-?[\d.]+) cm\s*/FormXob\.\w+ Do", text):
            out.append((float(m.group(1)), float(m.group(2))))
    return out


@pytest.mark.parametrize("paper", sorted(PAPER_MM))
def test_pages_are_exactly_the_paper_size(paper, tmp_path):
    out = tmp_path / "s.pdf"
    facts = write_sheets(bcs_game(), out, paper)
    boxes = media_boxes(out.read_bytes())
    assert len(boxes) == facts["pages"]
    for box in boxes:
        assert box[:2] == (0.0, 0.0)
        assert box[2:] == pytest.approx(POINTS[paper], abs=0.001)


@pytest.mark.parametrize("bleed", [0.0, 1.0])
def test_counters_are_placed_at_true_physical_size(tmp_path, bleed):
    out = tmp_path / "s.pdf"
    game = bcs_game()
    facts = write_sheets(game, out, "a4", bleed=bleed, with_calibration=False)
    boxes = image_boxes(out.read_bytes())
    # every copy on a front and on a back
    assert len(boxes) == 2 * facts["counters"] == 2 * (1 + 2 + 1 + 1 + 1 + 5 + 3 + 2)
    side = (15.875 + 2 * bleed) * MM
    assert all(w == pytest.approx(side, abs=0.01) and h == pytest.approx(side, abs=0.01) for w, h in boxes)


def test_pdf_is_deterministic(tmp_path):
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    write_sheets(bcs_game(), a, "letter", (0.5, -0.5), 0.5)
    write_sheets(bcs_game(), b, "letter", (0.5, -0.5), 0.5)
    assert a.read_bytes() == b.read_bytes()
    assert b"CreationDate" not in a.read_bytes() or b"D:20000101" in a.read_bytes()


def test_sheets_command_writes_the_pdf(tmp_path):
    out = tmp_path / "tiny-counters.pdf"
    assert main(["sheets", str(TINY), "--out", str(out), "--paper", "letter", "--back-offset", "0.5,-1",
                 "--bleed", "1", "--quiet"]) == 0
    data = out.read_bytes()
    assert data.startswith(b"%PDF-")
    assert len(media_boxes(data)) == 2 + 2  # both sides fit one sheet: its front and back, plus calibration
    assert media_boxes(data)[0][2:] == pytest.approx(POINTS["letter"], abs=0.001)


def test_sheets_command_bad_arguments_exit_2(tmp_path, capsys):
    assert main(["sheets", str(TINY), "--back-offset", "1", "--out", str(tmp_path / "x.pdf")]) == 2
    assert "--back-offset" in capsys.readouterr().err
    assert main(["sheets", "no-such-game-anywhere", "--out", str(tmp_path / "x.pdf")]) == 2
    assert main(["sheets", str(TINY), "--bleed", "9", "--out", str(tmp_path / "x.pdf")]) == 2
    assert not (tmp_path / "x.pdf").exists()


def test_sheets_command_reports_a_counter_that_cannot_be_drawn(tmp_path, capsys, monkeypatch):
    import builder.commands.sheets as cmd
    from builder.gamedata.validate import Report

    doc = bcs_doc()
    doc["nationalities"][0]["text"] = "black"
    report = Report("bcs-test")
    report.model = bcs_game(doc)
    monkeypatch.setattr(cmd, "valid_game", lambda *_args: report)
    assert main(["sheets", "whatever", "--out", str(tmp_path / "x.pdf"), "--quiet"]) == 1
    assert "unknown colour 'black'" in capsys.readouterr().err
    assert not (tmp_path / "x.pdf").exists()


@pytest.mark.parametrize("name", shipped_games())
def test_shipped_game_sheets(name, tmp_path):
    report = validate_game(name)
    if not report.ok:
        pytest.skip(f"{name} does not validate yet ({len(report.errors)} errors)")
    out = tmp_path / f"{name}.pdf"
    facts = write_sheets(report.model, out, dpi=150)
    assert facts["counters"] == report.summary["counters"]
    assert media_boxes(out.read_bytes())[0][2:] == pytest.approx(POINTS["a4"], abs=0.001)
