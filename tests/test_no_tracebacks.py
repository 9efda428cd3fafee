"""Inputs that used to end in a traceback (issue 12, point 14): each is now located problems, exit 1."""

from __future__ import annotations

import pytest

from builder.cli import main
from builder.vassal.savefile import read_save
from test_audit_support import LogBuilder, game, tiny_copy

FRONT = "{attack: 3, defense: 5, movement: 3}"


@pytest.mark.parametrize("old,new,expect", [
    (FRONT, "{attack: " + "9" * 5000 + ", defense: 5, movement: 3}",
     r"game\.yaml:\d+:\d+: the integer 9{20}\.\.\.\(5,000 characters\) has more digits than can be read"),
    ("title: Tiny Battle", "title: !!timestamp not-a-date",
     r"game\.yaml:5:10: !!timestamp 'not-a-date' is not a date or time"),
    ("template: blue-inf}", "template: [blue-inf]}", r"units\[0\]\.template: expected text, got a list"),
    ("nationality: red-army", "nationality: [red-army, x]", r"units\[\d\]\.nationality: expected text, got a list"),
    ("type: infantry", "type: [infantry]", r"unknown unit type"),
])
def test_validate_reports_unreadable_values_in_one_line_each(capsys, tiny_game, old, new, expect):
    import re
    game_file = tiny_game / "game.yaml"
    text = game_file.read_text()
    assert old in text
    game_file.write_text(text.replace(old, new, 1))
    code = main(["validate", "game.yaml"])
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in out + err
    assert re.search(expect, out), out
    if "characters" in expect:  # the unreadable integer is one problem, not also a type error
        assert len(out.splitlines()) == 1


def test_audit_of_a_move_without_a_piece_id(capsys, tmp_path):
    arg = tiny_copy(tmp_path)
    log = LogBuilder(game(str(arg)), {"blue-1": "B3", "red-1": "H5"}).move("blue-1", "C3").write(tmp_path / "a.vlog")
    save = read_save(log)
    assert "LOG\tM/blue-1/" in save.text
    save.text = save.text.replace("LOG\tM/blue-1/", "LOG\tM/null/")
    save.write(tmp_path / "null.vlog")
    code = main(["audit", str(arg), str(tmp_path / "null.vlog")])
    out, err = capsys.readouterr()
    assert code == 0 and "Traceback" not in out + err
    assert "name 1 piece id(s) the save never added (ignored), e.g. (no id)" in out
