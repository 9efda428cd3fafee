"""Mutated game files never crash the validator: every outcome is a clean report."""

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builder.gamedata.validate import validate_game

LINE = re.compile(r"^[^:]+:\d+:\d+: ")


@st.composite
def mutations(draw):
    kind = draw(st.sampled_from(["delete-line", "duplicate-line", "replace-char", "insert-text", "swap-lines"]))
    return kind, draw(st.integers(0, 10_000)), draw(st.integers(0, 10_000)), draw(
        st.sampled_from(["[", "]", "{", "}", ":", "- ", "&a ", "*a", "'", '"', "\t", "null", "-1", "999999", "x", "", "\\"]))


def mutate(text, mutation):
    kind, a, b, token = mutation
    lines = text.splitlines(keepends=True)
    i, j = a % len(lines), b % len(lines)
    if kind == "delete-line":
        del lines[i]
    elif kind == "duplicate-line":
        lines.insert(i, lines[i])
    elif kind == "swap-lines":
        lines[i], lines[j] = lines[j], lines[i]
    else:
        line = lines[i]
        pos = b % (len(line) or 1)
        lines[i] = line[:pos] + token + line[pos + (kind == "replace-char"):]
    return "".join(lines)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(mutations(), min_size=1, max_size=3), st.sampled_from(["game.yaml", "map.yaml"]))
def test_mutated_game_gives_a_clean_report(tiny_game, muts, name):
    path = tiny_game / name
    original = path.read_text()
    text = original
    for m in muts:
        text = mutate(text, m)
    path.write_text(text)
    try:
        report = validate_game(str(tiny_game / "game.yaml"))
        for d in report.errors + report.warnings:
            assert LINE.match(d.format()) or d.line == 0, d.format()
            assert "Traceback" not in d.message and "please report" not in d.message, d.format()
    finally:
        path.write_text(original)
