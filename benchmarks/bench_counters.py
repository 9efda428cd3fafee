"""Benchmark: counter faces rendered per second and the time to write each game's counter-sheet PDF.

Plain script: ``python benchmarks/bench_counters.py [GAME ...]`` (default: the tiny example and every shipped
game that validates). Machine speed varies, so each figure is also given as a ratio to a baseline measured
in the same run: saving a blank Pillow PNG of the same size (what any image output costs at least).
"""

from __future__ import annotations

import io
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from builder.gamedata.sources import shipped_games  # noqa: E402
from builder.gamedata.validate import validate_game  # noqa: E402
from builder.publish.sheets import write_sheets  # noqa: E402
from builder.render.counter_build import counter_info, png_bytes, print_px, render_all  # noqa: E402


def baseline_per_second(px: int, seconds: float = 0.5) -> float:
    """Blank PNG saves of a px-square image per second."""
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        buf = io.BytesIO()
        Image.new("RGB", (px, px), (200, 200, 200)).save(buf, "PNG", compress_level=6)
        n += 1
    return n / (time.perf_counter() - start)


def bench(name: str) -> dict | None:
    report = validate_game(name)
    if not report.ok:
        print(f"{name}: does not validate ({len(report.errors)} errors); skipped")
        return None
    game = report.model
    px, big = counter_info(game)["image_px"], print_px(game)
    start = time.perf_counter()
    images = render_all(game, [px, big])
    for small, large in images.values():
        png_bytes(small), png_bytes(large)
    faces_per_s = len(images) / (time.perf_counter() - start)
    base = baseline_per_second(px)
    with tempfile.TemporaryDirectory() as tmp:
        facts = write_sheets(game, Path(tmp) / "sheets.pdf")
    base_pdf = facts["counters"] / baseline_per_second(big)
    row = {"game": report.game, "faces": len(images), "faces_per_s": faces_per_s,
           "vs_blank_png": faces_per_s / base, "pdf_s": facts["seconds"], "pdf_pages": facts["pages"],
           "pdf_mb": facts["bytes"] / 1e6, "pdf_vs_blank": facts["seconds"] / base_pdf}
    print(f"{row['game']}: {row['faces']} faces ({px} px + {big} px print) at {faces_per_s:.0f} faces/s "
          f"(x{row['vs_blank_png']:.3f} of blank {px} px PNG saves/s); PDF {row['pdf_pages']} pages, "
          f"{row['pdf_mb']:.1f} MB in {row['pdf_s']:.2f} s (x{row['pdf_vs_blank']:.1f} the time to save its "
          f"{facts['counters']} counters as blank PNGs)")
    return row


def main(argv: list[str]) -> int:
    names = argv or [str(REPO / "examples" / "tiny-game" / "game.yaml"), *shipped_games()]
    rows = [r for r in (bench(n) for n in names) if r]
    return 0 if rows else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
