"""Module packaging benchmark: time to package each shipped game's .vmod (buildFile, pieces, scenario
saves, deterministic atomic zip), as a ratio against a baseline measured in the same run: writing the
very same entries with plain zipfile. Ratios, not seconds, are comparable between machines.

The map and counter images are rendered once beforehand (into a temporary folder) and not timed.

    python benchmarks/bench_module.py [GAME ...] [--repeat N]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from builder.gamedata.validate import validate_game  # noqa: E402
from builder.module import images, package  # noqa: E402
from builder.progress import SILENT  # noqa: E402

GAMES = ["iron-dream", "panzers-last-stand"]


def best_of(repeat, fn):
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def plain_zip(path: Path, entries) -> None:
    with zipfile.ZipFile(path, "w") as zf:
        for name, data, deflate in entries:
            zf.writestr(name, data, compress_type=zipfile.ZIP_DEFLATED if deflate else zipfile.ZIP_STORED)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=GAMES)
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement; the fastest counts (default 3)")
    args = ap.parse_args(argv)
    print(f"{'game':<20} {'entries':>7} {'MB':>6} {'package s':>9} {'zip s':>7} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games:
            report = validate_game(game)
            if not report.ok:
                print(f"{game}: does not validate", file=sys.stderr)
                return 1
            out = Path(tmp) / game
            images.collect(report, out, SILENT)          # render the images once, untimed
            pkg_s, _ = best_of(args.repeat, lambda: package.build(report, out))
            entries = package.assemble(report, images.collect(report, out, SILENT))
            zip_s, _ = best_of(args.repeat, lambda: plain_zip(Path(tmp) / f"{game}-plain.zip", entries))
            size = package.module_path(out, game).stat().st_size / 1e6
            print(f"{game:<20} {len(entries):>7} {size:>6.1f} {pkg_s:>9.2f} {zip_s:>7.2f} {pkg_s / zip_s:>6.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
