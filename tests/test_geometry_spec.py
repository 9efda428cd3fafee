"""Grid spec validation: clear errors naming the field, agreement with the JSON Schema."""
import copy
import json

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings

from builder.geometry import Grid, GridSpecError
from builder.geometry.labels import letters, letters_ordinal, number
from geometry_support import GAMES, REPO, game_spec, grid_specs

# Other suites may share the machine: never fail on timing alone.
SLOW_OK = [HealthCheck.too_slow]

SCHEMA = json.loads((REPO / "schemas" / "grid.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

BASE = {"orientation": "pointy", "stagger": "even", "hex_size": 96,
        "columns": {"first": 1, "last": 39},
        "rows": {"first": 1, "last": 26, "labels": "letters"}, "id": "{row}{col}"}


def with_change(path: str, value):
    """BASE with one field set (value ...) or removed (value is DELETE)."""
    spec = copy.deepcopy(BASE)
    *parents, last = path.split(".")
    node = spec
    for p in parents:
        node = node[p]
    if value is DELETE:
        del node[last]
    else:
        node[last] = value
    return spec


DELETE = object()

BAD = [  # (field changed, new value, field the error must name)
    ("orientation", "hexagonal", "grid.orientation"),
    ("orientation", DELETE, "grid.orientation"),
    ("stagger", 1, "grid.stagger"),
    ("hex_size", 0, "grid.hex_size"),
    ("hex_size", "96", "grid.hex_size"),
    ("hex_size", True, "grid.hex_size"),
    ("margin", -1, "grid.margin"),
    ("columns", DELETE, "grid.columns"),
    ("columns", [1, 39], "grid.columns"),
    ("columns.first", 1.5, "grid.columns.first"),
    ("columns.last", 0, "grid.columns.last"),
    ("columns.first", -1, "grid.columns.first"),
    ("columns.step", 2, "grid.columns.step"),
    ("rows.labels", "letter", "grid.rows.labels"),
    ("id", "{row}", "grid.id"),
    ("id", "{row}{col}{sheet}", "grid.id"),
    ("id", "{row}{col}{col}", "grid.id"),
    ("id", "$row$col", "grid.id"),
    ("id", "{row:02}{col}", "grid.id"),       # letters cannot be padded
    ("id", "{row}{column}", "grid.id"),
    ("id", "", "grid.id"),
    ("rows_run", "up", "grid.rows_run"),
    ("columns_run", "north", "grid.columns_run"),  # parallel to rows_run north
    ("colour", "red", "grid.colour"),
    ("sheets", [], "grid.sheets"),
]


@pytest.mark.parametrize("path,value,field", BAD)
def test_bad_spec_names_field(path, value, field):
    spec = with_change(path, value)
    with pytest.raises(GridSpecError) as err:
        Grid.from_spec(spec)
    assert err.value.field == field
    assert str(err.value).startswith(field + ":")


# Cross-field rules a JSON Schema cannot state; only the code catches these.
SCHEMA_BLIND = [("columns.last", 0), ("id", "{row}"), ("id", "{row}{col}{sheet}"),
                ("id", "{row}{col}{col}"), ("id", "{row:02}{col}"), ("columns_run", "north")]


@pytest.mark.parametrize("path,value,field", BAD)
def test_schema_rejects_the_same(path, value, field):
    spec = with_change(path, value)
    assert bool(list(VALIDATOR.iter_errors(spec))) != ((path, value) in SCHEMA_BLIND)


def test_sheet_errors():
    spec = dict(BASE, id="{sheet}{row}{col}",
                sheets=[{"id": "A", "origin": {"col": 0, "row": 0}},
                        {"id": "A", "origin": {"col": 40, "row": 0}}])
    with pytest.raises(GridSpecError, match=r"grid\.sheets\[1\]\.id: duplicate"):
        Grid.from_spec(spec)
    spec["sheets"][1] = {"id": "B"}
    with pytest.raises(GridSpecError, match=r"grid\.sheets\[1\]\.origin: required"):
        Grid.from_spec(spec)
    spec["sheets"][1] = {"id": "B", "origin": {"col": 1, "row": 0, "z": 1}}
    with pytest.raises(GridSpecError, match=r"grid\.sheets\[1\]\.origin\.z: unknown"):
        Grid.from_spec(spec)
    spec["sheets"][1] = {"id": "B", "origin": {"col": 1, "row": 0},
                         "rows": {"first": 0, "last": 3, "labels": "numbers"}}
    with pytest.raises(GridSpecError, match=r"grid\.sheets\[1\]\.rows\.labels: unknown"):
        Grid.from_spec(spec)
    del spec["sheets"]
    with pytest.raises(GridSpecError, match=r"grid\.id: .*no sheets"):
        Grid.from_spec(spec)


def test_ambiguous_template_is_rejected():
    spec = {"orientation": "flat", "stagger": "odd", "hex_size": 50,
            "columns": {"first": 1, "last": 12}, "rows": {"first": 1, "last": 12},
            "id": "{col}{row}"}     # 1 + 11 and 11 + 1 both give "111"
    with pytest.raises(GridSpecError, match=r"grid\.id: .*same ID '111'"):
        Grid.from_spec(spec)


def test_spec_wrapped_in_grid_key():
    assert len(Grid.from_spec({"grid": BASE})) == 39 * 26


def test_not_a_mapping():
    with pytest.raises(GridSpecError, match=r"^grid: expected a mapping"):
        Grid.from_spec(["pointy"])


def test_schema_is_valid_and_documented():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$id"] == "https://vassal-builder.dev/schemas/grid.schema.json"

    def walk(node, path):
        if isinstance(node, dict):
            if node.get("type") == "object":
                assert node.get("additionalProperties") is False, path
            for name, prop in node.get("properties", {}).items():
                assert prop.get("description"), f"{path}.{name}"
            for key, value in node.items():
                walk(value, f"{path}.{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{path}[{i}]")

    walk(SCHEMA, "$")


@pytest.mark.parametrize("game", GAMES)
def test_game_specs_match_schema(game):
    assert not list(VALIDATOR.iter_errors(game_spec(game)))


@given(grid_specs(sheets=False))
@settings(max_examples=50, deadline=None, suppress_health_check=SLOW_OK)
def test_random_specs_valid_both_ways(spec):
    assert not list(VALIDATOR.iter_errors(spec))
    Grid.from_spec(spec)


@given(grid_specs(sheets=True))
@settings(max_examples=50, deadline=None, suppress_health_check=SLOW_OK)
def test_random_sheet_specs_valid_both_ways(spec):
    assert not list(VALIDATOR.iter_errors(spec))
    g = Grid.from_spec(spec)
    for h in g.all_hexes():
        assert all(g.parse(n) == h for n in g.names(h))


def test_labels():
    assert [letters(i) for i in (0, 1, 25, 26, 27, 51, 52)] == \
        ["A", "B", "Z", "AA", "BB", "ZZ", "AAA"]
    for i in range(200):
        assert letters_ordinal(letters(i)) == i
    for bad in ("", "AB", "a", "A1", "-A"):
        assert letters_ordinal(bad) is None
    assert (number(5, 2), number(12, 2), number(123, 2), number(7), number(-3, 2)) == \
        ("05", "12", "123", "7", "-03")


def test_docstring_examples():
    import doctest

    import builder.geometry.grid as grid_module
    assert doctest.testmod(grid_module).failed == 0
