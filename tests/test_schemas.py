"""The JSON Schemas are valid draft 2020-12, carry $id and titles, and explain every property (editors show it)."""

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

SCHEMAS = sorted((Path(__file__).resolve().parents[1] / "schemas").glob("*.schema.json"))


def walk_properties(node, path="#"):
    if isinstance(node, dict):
        for name, sub in (node.get("properties") or {}).items():
            yield f"{path}/properties/{name}", sub
        for key, value in node.items():
            yield from walk_properties(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk_properties(value, f"{path}/{i}")


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_schema_is_valid_and_documented(path):
    schema = json.loads(path.read_text())
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].endswith("/" + path.name)
    assert schema.get("title") and schema.get("description")
    undocumented = [p for p, sub in walk_properties(schema)
                    if isinstance(sub, dict) and not (sub.get("description") or sub.get("$ref") or sub.get("title"))
                    and not p.endswith(("/notes", "/source", "/$schema"))]
    assert not undocumented, f"properties without a description: {undocumented[:10]}"


def test_schemas_are_closed():
    """Every object with properties refuses unknown keys, so typos are reported."""
    for path in SCHEMAS:
        schema = json.loads(path.read_text())
        open_objects = []

        def visit(node, where):
            if isinstance(node, dict):
                if "properties" in node and node.get("additionalProperties") is not False:
                    open_objects.append(where)
                for k, v in node.items():
                    visit(v, f"{where}/{k}")
            elif isinstance(node, list):
                for i, v in enumerate(node):
                    visit(v, f"{where}/{i}")

        visit(schema, path.name)
        assert not open_objects, open_objects
