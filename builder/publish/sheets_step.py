"""The 'sheets' build step: the counter-sheet PDF with default options, beside the game's output folder."""

from __future__ import annotations

from pathlib import Path

from builder.errors import BuildError


def build(report, out_dir: Path, progress) -> list[Path]:
    from builder.publish.sheets import write_sheets  # reportlab only loads when sheets are made

    out = out_dir.parent / f"{report.game}-counters.pdf"
    try:
        facts = write_sheets(report.model, out, "a4", (0.0, 0.0), 0.0, True, True, progress, None)
    except ValueError as exc:  # a counter that does not fit the paper: one line, like any failed step
        raise BuildError(str(exc)) from None
    return [Path(facts["path"])]
