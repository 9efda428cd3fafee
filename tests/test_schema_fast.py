"""The compiled yes/no schema test (builder.gamedata.schemafast) gives jsonschema's answer: on the shipped
games, the example, and thousands of broken variants of them. A document it wrongly called valid
would lose its errors, so every disagreement fails here."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from builder.gamedata import schemacheck, schemafast
from builder.gamedata.sources import find_game, load_merged, resolve_map

REPO = Path(__file__).resolve().parents[1]
SCHEMAS = (schemacheck.GAME_SCHEMA_ID, schemacheck.MAP_SCHEMA_ID)

# values of every JSON type and the edges the keywords care about (True is not 1, 1.0 is an integer)
ODD_VALUES = [None, True, False, 0, 1, -1, 1.0, 2.5, -0.5, 10 ** 6, "", "x", "C28", "B21.32", "front",
              "#ffffff", "not a colour", [], ["a"], ["a", "a"], [1, 2], {}, {"zz": 1}, {"id": "x"}]


def _docs(game: str):
    sources = find_game(game)
    doc = load_merged(sources.counter_files, sources.display).data
    maps = resolve_map(doc, sources)
    inside = {p.resolve() for p in maps or ()}
    if inside & {p.resolve() for p in sources.counter_files}:   # as validate does: the map is not game data
        doc = load_merged([p for p in sources.counter_files if p.resolve() not in inside], sources.display).data
    yield schemacheck.GAME_SCHEMA_ID, doc
    if maps:
        yield schemacheck.MAP_SCHEMA_ID, load_merged(maps, sources.display).data


def _slots(node, out: list) -> list:
    """Every (container, key) of a document: the places a mutation can change."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for k, v in items:
        out.append((node, k))
        _slots(v, out)
    return out


def _jsonschema_valid(schema_id: str, doc) -> bool:
    return next(schemacheck.validator(schema_id).iter_errors(doc), None) is None


def _mutations(doc, rnd: random.Random, n: int):
    """n broken (or not) variants of doc, made in place and undone after each yield."""
    slots = _slots(doc, [])
    for _ in range(n):
        node, key = rnd.choice(slots)
        old = node[key]
        how = rnd.random()
        if how < 0.5:                                  # another value
            node[key] = rnd.choice(ODD_VALUES + [old, [old], {"x": old}])
            yield
            node[key] = old
        elif how < 0.65 and isinstance(node, dict):    # a key gone
            del node[key]
            yield
            node[key] = old
        elif how < 0.75 and isinstance(node, dict):    # an unknown or misspelt key
            extra = rnd.choice(["zz_unknown", str(key) + "s", str(key)[:-1] or "q"])
            if extra in node:
                continue
            node[extra] = old
            yield
            del node[extra]
        elif how < 0.85 and isinstance(node, list):    # an item repeated, or gone
            if rnd.random() < 0.5:
                node.insert(key, old)
                yield
                del node[key]
            else:
                del node[key]
                yield
                node.insert(key, old)
        elif isinstance(old, str):                      # text changed at its edges
            node[key] = rnd.choice([old + " ", old.upper(), old[:1], old + "9", "-" + old])
            yield
            node[key] = old
        elif isinstance(old, (int, float)) and not isinstance(old, bool):
            node[key] = rnd.choice([old - 1, old + 1, -old, float(old), old + 0.5, 0])
            yield
            node[key] = old


def test_every_schema_compiles():
    for sid in SCHEMAS:
        assert schemafast.compiled(sid) is not None, sid


@pytest.mark.parametrize("game", ["iron-dream", "panzers-last-stand", str(REPO / "examples" / "tiny-game")])
def test_the_compiled_test_agrees_with_jsonschema(game):
    rnd = random.Random(11)
    checked = invalid = 0
    for sid, doc in _docs(game):
        quick = schemafast.compiled(sid)
        assert quick(doc) is True and _jsonschema_valid(sid, doc)
        for _ in _mutations(doc, rnd, 400 if "tiny" in game else 60):
            want = _jsonschema_valid(sid, doc)
            assert quick(doc) == want
            checked += 1
            invalid += not want
        assert quick(doc) is True     # every mutation undone
    assert checked > 100 and invalid > checked // 4


def test_json_equality_as_jsonschema_sees_it():
    eq = schemafast.equal
    assert not eq(True, 1) and not eq(0, False) and eq(1, 1.0) and eq(True, True)
    assert eq([1, {"a": "b"}], [1.0, {"a": "b"}]) and not eq([1], [True]) and not eq({"a": 1}, {"b": 1})
    assert not eq("1", 1) and not eq([], {}) and not eq(None, 0)


def test_a_schema_with_a_keyword_it_does_not_know_is_left_to_jsonschema():
    c = schemafast._Compiler({"urn:t": {"$defs": {"n": {"type": "integer"}}}})
    with pytest.raises(schemafast.Unsupported):
        c.schema({"type": "string", "format": "email"}, "urn:t")
    with pytest.raises(schemafast.Unsupported):
        c.schema({"items": [{"type": "string"}]}, "urn:t")
    with pytest.raises(schemafast.Unsupported):
        c.schema({"$ref": "urn:elsewhere#/x"}, "urn:t")
    with pytest.raises(schemafast.Unsupported):
        c.schema({"$ref": "#/$defs/missing"}, "urn:t")
    ok = c.schema({"$ref": "#/$defs/n", "minimum": 1}, "urn:t")
    assert ok(1) and ok(2.0) and not ok(True) and not ok(0) and not ok("1")


def test_validating_a_valid_game_does_not_load_jsonschema():
    import subprocess
    import sys
    code = ("import sys; from builder.gamedata.validate import validate_game; "
            "r = validate_game('iron-dream'); assert not r.errors; print('jsonschema' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
