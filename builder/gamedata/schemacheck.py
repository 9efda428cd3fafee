"""JSON Schema validation of game and map documents, turned into located, actionable diagnostics."""

from __future__ import annotations

import difflib
import json
import re
from functools import lru_cache

from builder.gamedata.diagnostics import Diagnostic, format_path
from builder.gamedata.yamlsource import locate, locate_key
from builder.shipped import SCHEMA_DIR

GAME_SCHEMA_ID = "https://vassal-builder.dev/schemas/game.schema.json"
MAP_SCHEMA_ID = "https://vassal-builder.dev/schemas/map.schema.json"


@lru_cache(maxsize=None)
def schemas() -> dict:
    """The shipped schemas by their $id."""
    found = {}
    for path in sorted(SCHEMA_DIR.glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        found[schema["$id"]] = schema
    return found


@lru_cache(maxsize=None)
def validator(schema_id: str):
    """One jsonschema validator per schema for the process (its references resolved once). jsonschema
    loads only here: a valid document is answered by builder.gamedata.schemafast without it."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    registry = Registry().with_resources((sid, Resource.from_contents(s)) for sid, s in schemas().items())
    return Draft202012Validator(schemas()[schema_id], registry=registry)


_TYPE_NAMES = {"string": "text", "integer": "a whole number", "number": "a number", "boolean": "true or false",
               "object": "a mapping (key: value)", "array": "a list", "null": "nothing"}


def _describe(value) -> str:
    if isinstance(value, bool):
        return f"{str(value).lower()}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing (null)"
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _expected_types(schema) -> str:
    types = schema.get("type")
    types = [types] if isinstance(types, str) else (types or [])
    return " or ".join(_TYPE_NAMES.get(t, t) for t in types)


def check(doc, schema_id: str) -> list[Diagnostic]:
    from builder.gamedata.schemafast import compiled
    quick = compiled(schema_id)
    if quick is not None and quick(doc):   # valid: nothing to explain (the usual case, in a tenth of the time)
        return []
    out: list[Diagnostic] = []
    for error in validator(schema_id).iter_errors(doc):
        out.extend(_diagnose(doc, error))
    return sorted(set(out))


def _diagnose(doc, error) -> list[Diagnostic]:
    if error.validator in ("oneOf", "anyOf") and error.context:
        from jsonschema.exceptions import best_match
        deepest = best_match(error.context)
        if deepest is not None and deepest.validator != "type":
            return _diagnose(doc, deepest)
    path = list(error.absolute_path)
    dotted = format_path(path)
    v, schema, inst = error.validator, error.schema, error.instance
    if v == "additionalProperties" and isinstance(inst, dict):
        allowed = set(schema.get("properties", {}))
        patterns = list(schema.get("patternProperties", {}))
        extras = [k for k in inst if k not in allowed and not any(re.search(p, str(k)) for p in patterns)]
        out = []
        for key in extras:
            file, line, col = locate_key(doc, path + [key])
            hint = difflib.get_close_matches(str(key), sorted(allowed), n=1, cutoff=0.6)
            msg = f"unknown key '{key}'"
            msg += f"; did you mean '{hint[0]}'?" if hint else (
                f"; allowed keys: {', '.join(sorted(allowed))}" if len(allowed) <= 12 else "")
            out.append(Diagnostic(file, line, col, format_path(path + [key]), msg))
        return out
    file, line, col = locate(doc, path)
    if v == "required":
        missing = [k for k in schema.get("required", []) if isinstance(inst, dict) and k not in inst]
        return [Diagnostic(file, line, col, dotted, f"missing required key '{k}'") for k in missing]
    if v == "type":
        msg = f"expected {_expected_types(schema)}, got {_describe(inst)}"
    elif v == "enum":
        msg = f"{_describe(inst)} is not one of: {', '.join(map(str, schema['enum']))}"
        hint = difflib.get_close_matches(str(inst), [str(e) for e in schema["enum"]], n=1)
        if hint:
            msg += f" (did you mean '{hint[0]}'?)"
    elif v == "pattern":
        what = schema.get("description", "").split(":")[0] or f"text matching {schema['pattern']}"
        msg = f"{_describe(inst)} is not valid here: expected {what.rstrip('.')}"
    elif v == "propertyNames":
        msg = f"{error.message}"
    elif v in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        words = {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "more than", "exclusiveMaximum": "less than"}
        msg = f"{_describe(inst)} is out of range: expected {words[v]} {error.validator_value}"
    elif v == "minItems":
        msg = f"expected at least {error.validator_value} item(s)"
    elif v == "minLength":
        msg = "must not be empty"
    elif v == "uniqueItems":
        msg = "items must not repeat"
    else:
        msg = error.message
    return [Diagnostic(file, line, col, dotted, msg)]
