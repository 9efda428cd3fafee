"""Map rendering benchmark: time to draw (and PNG-encode) every image of each shipped game's map, as a
ratio against a baseline measured in the same run on the same machine: filling blank images of the
same sizes (and encoding those). Ratios, not seconds, are comparable between machines.

    python benchmarks/bench_map.py [GAME ...] [--repeat N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image, ImageDraw  # noqa: E402

from builder.gamedata.validate import validate_game  # noqa: E402
from builder.render import map_build  # noqa: E402

GAMES = ["iron-dream", "panzers-last-stand"]


def best_of(repeat, fn):
    times = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def baseline(sizes):
    """Blank images of the same sizes, filled with one rectangle each."""
    out = []
    for w, h in sizes:
        img = Image.new("RGB", (w, h), (232, 232, 226))
        ImageDraw.Draw(img).rectangle((0, 0, w - 1, h - 1), fill=(233, 228, 196))
        out.append(img)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=GAMES)
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement; the fastest counts (default 3)")
    args = ap.parse_args(argv)
    print(f"{'game':<20} {'images':>6} {'megapixels':>10} {'hexes':>6} {'render s':>9} {'base s':>7} {'ratio':>6}"
          f" {'+png s':>7} {'base+png s':>10} {'ratio':>6}")
    for game in args.games:
        report = validate_game(game)
        if not report.ok:
            print(f"{game}: does not validate", file=sys.stderr)
            return 1
        doc, grid = report.model.map_doc, report.grid
        render_s, images = best_of(args.repeat, lambda: map_build.render(doc, grid))
        sizes = [info.size for info, _ in images]
        base_s, blanks = best_of(args.repeat, lambda: baseline(sizes))
        png_s, _ = best_of(args.repeat, lambda: [map_build.png_bytes(img) for _, img in images])
        base_png_s, _ = best_of(args.repeat, lambda: [map_build.png_bytes(img) for img in blanks])
        mp = sum(w * h for w, h in sizes) / 1e6
        print(f"{game:<20} {len(images):>6} {mp:>10.1f} {len(grid):>6} {render_s:>9.3f} {base_s:>7.3f}"
              f" {render_s / base_s:>6.1f} {render_s + png_s:>7.3f} {base_s + base_png_s:>10.3f}"
              f" {(render_s + png_s) / (base_s + base_png_s):>6.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
