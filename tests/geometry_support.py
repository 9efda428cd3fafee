"""Shared helpers for tests/test_geometry_*.py: the games' grid specs and spec strategies."""
from functools import lru_cache
from pathlib import Path

import yaml
from hypothesis import strategies as st

from builder.geometry import Grid

REPO = Path(__file__).resolve().parents[1]
GAMES = ("iron-dream", "panzers-last-stand")


@lru_cache(maxsize=None)
def game_spec(game: str) -> dict:
    """The game's grid spec: the ``grid:`` key of maps/<game>.yaml."""
    data = yaml.safe_load((REPO / "maps" / f"{game}.yaml").read_text(encoding="utf-8"))
    return data["grid"]


@lru_cache(maxsize=None)
def game_grid(game: str) -> Grid:
    return Grid.from_spec(game_spec(game))


DIRS = ("north", "south", "east", "west")
PERPENDICULAR = [(c, r) for c in DIRS for r in DIRS
                 if (c in ("north", "south")) != (r in ("north", "south"))]


@st.composite
def grid_specs(draw, max_size: int = 9, sheets: bool = False) -> dict:
    """Random small but valid specs over every orientation, stagger and direction."""
    runs = draw(st.sampled_from(PERPENDICULAR))
    c0 = draw(st.integers(0, 3))
    r0 = draw(st.integers(0, 3))
    col_labels = draw(st.sampled_from(["numbers", "letters"]))
    row_labels = draw(st.sampled_from(["numbers", "letters"]))
    spec = {
        "orientation": draw(st.sampled_from(["pointy", "flat"])),
        "stagger": draw(st.sampled_from(["even", "odd"])),
        "hex_size": draw(st.sampled_from([40, 57.5, 64, 96, 113])),
        "margin": draw(st.sampled_from([0, 5, 12.5])),
        "columns": {"first": c0, "last": c0 + draw(st.integers(0, max_size)),
                    "labels": col_labels},
        "rows": {"first": r0, "last": r0 + draw(st.integers(0, max_size)),
                 "labels": row_labels},
        "columns_run": runs[0],
        "rows_run": runs[1],
    }
    col = "{col}" if col_labels == "letters" else draw(st.sampled_from(["{col}", "{col:02}"]))
    row = "{row}" if row_labels == "letters" else draw(st.sampled_from(["{row}", "{row:03}"]))
    if col_labels != row_labels:   # letters next to digits need no separator
        spec["id"] = draw(st.sampled_from([col + row, row + col, row + "." + col]))
    else:
        spec["id"] = draw(st.sampled_from([col + "." + row, row + "-" + col]))
    if sheets:
        spec["id"] = "{sheet}/" + spec["id"]
        n = draw(st.integers(1, 3))
        spec["sheets"] = [{"id": chr(65 + i), "origin": {"col": draw(st.integers(-4, 6)),
                                                          "row": draw(st.integers(-4, 6))}}
                          for i in range(n)]
    return spec
