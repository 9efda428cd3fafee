"""Counter-sheet geometry: duplex registration within 0.1 mm, quantities, no overlaps, calibration maths."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from builder.publish import calibration
from builder.publish.sheet_layout import PAPER_MM, Group, grid, layout, mirror
from builder.publish.sheets import groups_for
from builder.render.counter_pieces import pieces
from test_counters_support import bcs_game, tiny_game

TOL = 0.1


def pages_for(game, paper="a4", bleed=0.0, offset=(0.0, 0.0)):
    size = game.doc["game"]["counter"]["size_mm"]
    return layout(groups_for(game), paper, size, bleed, offset, "t")


def big_groups(n_per_side=400):
    return [Group("A", "a", tuple((f"a{i}", 1 + i % 3) for i in range(n_per_side))),
            Group("A", "a", (("a-marker", 7),)),
            Group("B", "b", tuple((f"b{i}", 1) for i in range(n_per_side // 2)))]


@pytest.mark.parametrize("paper", sorted(PAPER_MM))
@pytest.mark.parametrize("offset", [(0.0, 0.0), (0.7, -0.4), (-1.25, 2.0)])
@pytest.mark.parametrize("bleed", [0.0, 1.0])
def test_every_back_is_the_mirror_of_its_front(paper, offset, bleed):
    width = PAPER_MM[paper][0]
    pages = layout(big_groups(), paper, 12.7, bleed, offset, "t")
    assert [p.kind for p in pages[:2]] == ["front", "back"]
    checked = 0
    for front, back in zip(pages[0::2], pages[1::2]):
        assert (front.kind, back.kind) == ("front", "back")
        backs = {(b.piece_id, b.copy): b for b in back.placements}
        assert len(backs) == len(front.placements)
        for f in front.placements:
            b = backs[(f.piece_id, f.copy)]
            assert b.face == "back" and b.size == f.size
            # The back's box is the front's box reflected about the vertical centre line, plus the offset.
            assert abs((b.x + b.size / 2) - (width - (f.x + f.size / 2)) - offset[0]) <= TOL
            assert abs(b.y - f.y - offset[1]) <= TOL
            checked += 1
    assert checked == sum(1 + i % 3 for i in range(400)) + 7 + 200


def test_mirror_of_a_centred_counter_is_itself():
    from builder.publish.sheet_layout import Placement
    w = PAPER_MM["a4"][0]
    p = Placement("x", "front", w / 2 - 5, 30, 10)
    assert mirror(p, "a4", (0, 0)) == Placement("x", "back", w / 2 - 5, 30, 10)


@pytest.mark.parametrize("make", [tiny_game, bcs_game], ids=["tiny", "bcs"])
def test_each_counter_appears_its_quantity_times(make):
    game = make()
    pages = pages_for(game)
    fronts = Counter(p.piece_id for page in pages if page.kind == "front" for p in page.placements)
    backs = Counter(p.piece_id for page in pages if page.kind == "back" for p in page.placements)
    expected = {p.piece_id: p.quantity for p in pieces(game)}
    assert dict(fronts) == expected and dict(backs) == expected
    # and each unit as many times as it has counters (its extra counters included)
    for uid, unit in game.units.items():
        n = sum(c for pid, c in fronts.items() if pid == uid or pid.startswith(uid + "-"))
        assert n == game.counter_count(unit)


def test_groups_start_new_rows_sides_a_blank_row_and_sheets_only_when_full():
    game = bcs_game()
    pages = pages_for(game)
    by_id = {p.piece_id: p for p in pieces(game)}
    fronts = [p for p in pages if p.kind == "front"]
    assert len(fronts) == 1   # a small game fits one sheet: no new sheet per side or nationality
    rows = {}
    for pl in fronts[0].placements:
        p = by_id[pl.piece_id]
        rows.setdefault(round(pl.y, 3), set()).add((p.side, p.nationality or p.kind))
    assert all(len(v) == 1 for v in rows.values())          # one group (side, nationality) per row
    ys = sorted(rows)
    pitch = game.doc["game"]["counter"]["size_mm"]
    for y0, y1 in zip(ys, ys[1:]):                          # a new side leaves one row empty before it
        (s0, _), = rows[y0]
        (s1, _), = rows[y1]
        gap = round((y1 - y0) / pitch)
        assert gap == (2 if s0 != s1 else 1), (s0, s1, gap)
    # a big game still fills several sheets, every one full but the last
    big = layout(big_groups(), "a4", 15.875, 0.0, (0.0, 0.0), "t")
    counts = [len(p.placements) for p in big if p.kind == "front"]
    cols = grid("a4", 15.875, 0.0)[0]
    assert len(counts) > 2 and all(c >= counts[0] - 3 * cols for c in counts[:-1])   # at most a group change short


def test_tiny_game_prints_on_one_sheet():
    pages = pages_for(tiny_game())
    assert [p.kind for p in pages] == ["front", "back"]


def test_calibration_rulers_are_100_mm_and_labels_do_not_overlap():
    from reportlab.pdfbase.pdfmetrics import stringWidth
    for paper, (w, h) in PAPER_MM.items():
        ticks = calibration.rulers(paper)
        for kind in ("h", "v"):
            along = [(x0 if kind == "h" else y0) for k, v, x0, y0, x1, y1 in ticks if k == kind]
            assert max(along) - min(along) == pytest.approx(calibration.RULER_MM)
            assert all(0 < c < (w if kind == "h" else h) for c in along)
        boxes = []
        for text, x, y, pt, anchor in calibration.labels(paper):
            tw = stringWidth(text, "Helvetica", pt) / 72 * 25.4
            th = pt / 72 * 25.4 * 0.75
            left = x - tw / 2 if anchor == "m" else x
            boxes.append((text, left, y - th, left + tw, y))
        for (ta, *a), (tb, *b) in itertools.combinations(boxes, 2):
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, (paper, ta, tb)
        # and no label sits on a scale of a target
        for t in calibration.targets(paper):
            for text, l, top, r, bottom in boxes:
                on_x = l < t.cx + calibration.SCALE_MM and r > t.cx - calibration.SCALE_MM and top < t.cy and bottom > t.cy - 4
                assert not on_x, (paper, text)


@pytest.mark.parametrize("paper", sorted(PAPER_MM))
def test_counters_are_on_the_paper_at_true_size_and_never_overlap(paper):
    width, height = PAPER_MM[paper]
    for page in layout(big_groups(), paper, 15.875, 0.5, (1.5, 1.5), "t"):
        for p in page.placements:
            assert p.size == 15.875
            assert 3 <= p.x and p.x + p.size <= width - 3 and 3 <= p.y and p.y + p.size <= height - 3
        for a, b in itertools.combinations(page.placements, 2):
            assert a.x + a.size + 1.0 - 1e-9 <= b.x or b.x + b.size + 1.0 - 1e-9 <= a.x \
                or a.y + a.size + 1.0 - 1e-9 <= b.y or b.y + b.size + 1.0 - 1e-9 <= a.y


def test_crop_marks_lie_outside_the_counters_on_every_cut_line():
    pages = layout(big_groups(30), "a4", 12.7, 0.0, (0, 0), "t")
    front = pages[0]
    assert front.crop_marks and not pages[1].crop_marks
    xs = {round(v, 4) for p in front.placements for v in (p.x, p.x + p.size)}
    marked = {round(m[0], 4) for m in front.crop_marks if m[0] == m[2]}
    assert xs == marked
    for x0, y0, x1, y1 in front.crop_marks:
        for p in front.placements:
            inside = p.x < (x0 + x1) / 2 < p.x + p.size and p.y < (y0 + y1) / 2 < p.y + p.size
            assert not inside
    assert not layout(big_groups(30), "a4", 12.7, marks=False)[0].crop_marks


def test_a_counter_too_big_for_the_paper_is_an_error():
    with pytest.raises(ValueError, match="does not fit"):
        layout(big_groups(3), "a4", 250.0)


@pytest.mark.parametrize("paper", sorted(PAPER_MM))
@pytest.mark.parametrize("drift", [(0.0, 0.0), (1.5, -0.5), (-2.0, 3.0)])
def test_calibration_reading_is_the_correction(paper, drift):
    for target in calibration.targets(paper):
        read = calibration.reading(paper, target, (0.0, 0.0), drift)
        assert read == pytest.approx((-drift[0], -drift[1]))
        # Printing again with the reading as the back offset brings both pointers to zero.
        assert calibration.reading(paper, target, read, drift) == pytest.approx((0.0, 0.0))
        # With an offset already set, the new offset is the old one plus the reading.
        old = (0.4, -0.6)
        r2 = calibration.reading(paper, target, old, drift)
        new = (old[0] + r2[0], old[1] + r2[1])
        assert calibration.reading(paper, target, new, drift) == pytest.approx((0.0, 0.0))


def test_calibration_pointers_sit_behind_the_scales():
    w = PAPER_MM["a4"][0]
    for t in calibration.targets("a4"):
        (xp, _a, xp2, _b), (yx0, yy, yx1, _c) = calibration.back_pointers("a4", t)
        assert xp == xp2 and w - xp == pytest.approx(t.cx)
        assert w - yx1 <= t.y_scale_x <= w - yx0 and yy == t.cy
