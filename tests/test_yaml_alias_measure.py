"""The alias-bomb measure (yamlsource._expanded_size) walks a document only when it can hold an alias:
text with an anchor ('&') and a reference ('*'). Without them every node is already in memory."""

import pytest

from builder.gamedata import yamlsource


def test_text_without_anchors_is_not_walked(monkeypatch):
    walked = []
    real = yamlsource._expanded_size
    monkeypatch.setattr(yamlsource, "_expanded_size", lambda *a: walked.append(1) or real(*a))
    data, _ = yamlsource.load_text("units:\n  - {id: a, name: 'Tanks & men'}\n", "u.yaml")
    assert data["units"][0]["name"] == "Tanks & men"
    data, _ = yamlsource.load_text("units:\n  - {id: b, note: '5 * 2'}\n", "v.yaml")
    assert data["units"][0]["note"] == "5 * 2" and walked == []
    yamlsource.load_text("base: &b {x: 1}\nuse: *b\n", "a.yaml")
    assert walked == [1]


def test_a_bomb_is_still_refused():
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for i, name in enumerate("bcdefgh"):
        prev = "abcdefgh"[i]
        lines.append(f"{name}: &{name} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]")
    with pytest.raises(yamlsource.YamlError, match="alias bomb"):
        yamlsource.load_text("\n".join(lines) + "\n", "bomb.yaml")
