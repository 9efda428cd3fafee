"""Counts that agree (issue 12, point 8): validate, the contact sheet and --authored count the same things
the same way and say what they count; one of a thing is singular."""

from __future__ import annotations

import pytest

from builder.cli import main
from builder.gamedata.validate import validate_game
from builder.render.counter_pieces import pieces
from builder.words import count


@pytest.mark.parametrize("game", ["iron-dream", "panzers-last-stand", "examples/tiny-game"])
def test_printed_counters_and_pieces_are_what_the_build_draws(game):
    report = validate_game(game)
    plist = pieces(report.model)
    assert report.summary["counters"] == sum(p.quantity for p in plist)
    assert report.summary["pieces"] == len(plist)


def test_authored_summary_counts_the_listed_entries(capsys):
    assert main(["validate", "iron-dream", "--authored", "--no-warnings"]) == 0
    out = capsys.readouterr().out.splitlines()
    listed = sum(1 for line in out if line.startswith("authored: "))
    summary = out[-1]
    assert f"{count(listed, 'authored entry')} (" in summary
    report = validate_game("iron-dream")
    assert f"({report.summary['authored']:,} values once templates apply to their units)" in summary


def test_plurals():
    assert count(1, "scenario") == "1 scenario" and count(2, "scenario") == "2 scenarios"
    assert count(1, "authored entry") == "1 authored entry" and count(2_656, "value") == "2,656 values"
    assert count(0, "warning") == "0 warnings"
