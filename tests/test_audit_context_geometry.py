"""The audit's layout (builder.module.maps.Layout with draw=False) has the module's geometry exactly
(every map, board, size and zone) but draws no panel image: drawing the Staging, turn-track and
activation panels was most of an audit's peak memory (iron-dream 107 -> 46 MB, PLS 158 -> 67 MB)."""

from __future__ import annotations

import pytest

from test_module_support import _images, report

GAMES = ["iron-dream", "panzers-last-stand"]


def _geometry(layout):
    return [(plan.name, [(b.name, b.image, tuple(b.size), b.col, b.row, tuple(b.offset), sorted(b.zones.items()))
                         for b in plan.boards]) for plan in layout.maps], sorted(layout.zone_inner)


@pytest.mark.parametrize("game", GAMES)
def test_undrawn_layout_has_the_drawn_layouts_geometry(game):
    from builder.module import maps
    r = report(game)
    drawn = maps.Layout(r.model, r.grid, _images(game))
    plain = maps.Layout(r.model, r.grid, _images(game), draw=False)
    assert _geometry(plain) == _geometry(drawn)
    assert {k: v[2] for k, v in plain.zone_inner.items()} == {k: v[2] for k, v in drawn.zone_inner.items()}
    assert drawn.extra_images and all(drawn.extra_images.values())          # the build's panels are drawn
    assert set(plain.extra_images) == set(drawn.extra_images)
    assert not any(plain.extra_images.values())                                # the audit's are not


@pytest.mark.parametrize("game", GAMES)
def test_audit_context_draws_no_image(game, monkeypatch):
    from PIL import Image

    from builder.audit.context import AuditContext

    def refuse(*args, **kwargs):
        raise AssertionError(f"the audit context drew an image {args[:2]}")

    r = report(game)
    monkeypatch.setattr(Image, "new", refuse)
    ctx = AuditContext.from_report(r)
    assert ctx.boards
