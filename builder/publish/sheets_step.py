"""The 'sheets' build step: the counter-sheet PDF with default options, beside the game's output folder.

The PDF is drawn from the print-size faces the counters step made (cached, so nothing is drawn
twice) and is itself cached under a hash of those faces, the sheet code and the data it lays out.
"""

from __future__ import annotations

from pathlib import Path

from builder import buildcache
from builder.errors import BuildError

SHEET_SOURCES = ("publish", "render", "gamedata/model.py")
_OPTIONS = ("a4", (0.0, 0.0), 0.0, True, True)    # paper, back offset, bleed, crop marks, calibration


def build(report, out_dir: Path, progress) -> list[Path]:
    from builder.publish.sheets import sheets_pdf  # reportlab only loads when sheets are made
    from builder.render.counter_build import counter_info, face_keys, face_pngs, print_only_pngs, print_px

    game = report.model
    ctx = buildcache.current()
    out = out_dir.parent / f"{report.game}-counters.pdf"
    try:   # the layout first: a counter that does not fit the paper is one line, nothing drawn
        pages = _layout(game)
    except ValueError as exc:
        raise BuildError(str(exc)) from None
    faces = {k: large for k, (_, large) in face_pngs(game, progress, count=False).items()}
    # and the faces printed that the module has none of (one-sided counters' plain backs)
    printed = {(pl.piece_id, pl.face) for page in pages for pl in page.placements}
    faces |= print_only_pngs(game, printed - faces.keys())
    info = counter_info(game)
    key = buildcache.digest("sheets", buildcache.source_version(*SHEET_SOURCES), _OPTIONS,
                            {k: v for k, v in game.doc.items() if k != "scenarios"},
                            sorted(face_keys(game, [info["image_px"], print_px(game)]).values()))
    data = ctx.lookup(key)
    if data is not None and buildcache.file_digest(out) == buildcache.digest_bytes(data):
        ctx.count("sheets PDF", reused=1)
        return [out]
    if data is None:
        try:
            data, _ = sheets_pdf(game, *_OPTIONS, progress, None, faces=faces)
        except ValueError as exc:  # a counter that does not fit the paper: one line, like any failed step
            raise BuildError(str(exc)) from None
        ctx.store(key, data)
        ctx.count("sheets PDF", rebuilt=1)
    else:
        ctx.count("sheets PDF", reused=1)
    ctx.write_beside(out, data)   # once the game's folder is in place: a build that crashes writes no PDF
    return [out]


def _layout(game) -> list:
    from builder.publish.sheet_layout import layout
    from builder.publish.sheets import groups_for
    from builder.render.counter_build import counter_info

    paper, back_offset, bleed, crop_marks, _ = _OPTIONS
    title = (game.doc.get("game") or {}).get("title") or game.id
    return layout(groups_for(game), paper, counter_info(game)["size_mm"], bleed, back_offset, title, crop_marks)
