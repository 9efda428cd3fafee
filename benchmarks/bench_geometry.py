"""Throughput of builder.geometry on the shipped games' grids.

Plain script: ``python benchmarks/bench_geometry.py [--seconds S]``. For each operation it
prints conversions per second and the ratio to a baseline measured in the same run: a
dict lookup over the same inputs (what a precomputed table would cost), so the figures
are comparable across machines.
"""
import argparse
import random
import time
from pathlib import Path

import yaml

from builder.geometry import Grid
from builder.geometry.vassal_derive import derive_all
from builder.geometry.vassal_grid import location_name

REPO = Path(__file__).resolve().parents[1]
GAMES = ("iron-dream", "panzers-last-stand")


def load_spec(game: str) -> dict:
    return yaml.safe_load((REPO / "maps" / f"{game}.yaml").read_text(encoding="utf-8"))["grid"]


def rate(fn, inputs, seconds: float) -> float:
    """Best calls per second of fn over inputs, repeated for about ``seconds``."""
    best, deadline = 0.0, time.perf_counter() + seconds
    while True:
        start = time.perf_counter()
        for item in inputs:
            fn(item)
        elapsed = time.perf_counter() - start
        best = max(best, len(inputs) / elapsed)
        if time.perf_counter() >= deadline:
            return best


def bench_game(game: str, seconds: float) -> None:
    grid = Grid.from_spec(load_spec(game))
    hexes = list(grid.all_hexes())
    names = [n for h in hexes for n in grid.names(h)]
    rng = random.Random(1)
    points = [(x + rng.uniform(-20, 20), y + rng.uniform(-20, 20))
              for x, y in (grid.centre(h) for h in hexes)]
    pairs = [(rng.choice(hexes), rng.choice(hexes)) for _ in range(len(hexes))]
    boards = {b.sheet: b for b in derive_all(grid)}
    board = boards[grid.spec.sheets[0].id]
    board_points = [board.board_point(grid.centre(h)) for h in grid.extent(board.sheet).hexes()]

    # Baseline: a dict lookup keyed by the same inputs (a precomputed table).
    by_name = {n: grid.parse(n) for n in names}
    by_hex = {h: grid.centre(h) for h in hexes}
    by_point = {p: None for p in points}
    by_pair = {p: None for p in pairs}
    by_board_point = {p: None for p in board_points}

    cases = [
        ("name -> hex (parse)", grid.parse, names, by_name),
        ("hex -> name (name)", grid.name, hexes, by_hex),
        ("hex -> centre", grid.centre, hexes, by_hex),
        ("pixel -> hex (hex_at)", lambda p: grid.hex_at(*p), points, by_point),
        ("neighbours (memoised)", grid.neighbours, hexes, by_hex),
        ("lattice neighbours", grid.lattice.neighbours, hexes, by_hex),
        ("distance", lambda ab: grid.distance(*ab), pairs, by_pair),
        ("VASSAL locationName", lambda p: location_name(board.grid, board.numbering, p,
                                                         board.board_size),
         board_points, by_board_point),
    ]
    print(f"\n{game}: {len(hexes)} hexes, {len(names)} names")
    print(f"  {'operation':<24}{'ops/s':>14}{'dict ops/s':>14}{'ratio':>9}")
    for label, fn, inputs, table in cases:
        ops = rate(fn, inputs, seconds)
        base = rate(table.get, inputs, seconds)
        print(f"  {label:<24}{ops:>14,.0f}{base:>14,.0f}{base / ops:>8.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.5,
                        help="time spent per measurement (default 0.5)")
    args = parser.parse_args()
    for game in GAMES:
        start = time.perf_counter()
        Grid.from_spec(load_spec(game))
        print(f"\nbuild Grid({game}): {1000 * (time.perf_counter() - start):.1f} ms")
        bench_game(game, args.seconds)
    print("\nratio = dict-lookup rate / operation rate (how many times slower than a table).")


if __name__ == "__main__":
    main()
