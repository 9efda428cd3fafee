"""The 'sheets' build step: the counter-sheet PDF with default options, beside the game's output folder."""

from __future__ import annotations

from pathlib import Path


def build(report, out_dir: Path, progress) -> list[Path]:
    from builder.publish.sheets import write_sheets  # reportlab only loads when sheets are made

    out = out_dir.parent / f"{report.game}-counters.pdf"
    facts = write_sheets(report.model, out, "a4", (0.0, 0.0), 0.0, True, True, progress, None)
    return [Path(facts["path"])]
