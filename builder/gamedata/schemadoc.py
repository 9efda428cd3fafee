"""The data reference: every key of the JSON Schemas as Markdown (``vassal-builder schema --markdown``, and
docs/data-reference.md generated from it). The schemas are the single source; this only lays them out."""

from __future__ import annotations

import json
from pathlib import Path

from builder.shipped import SCHEMA_DIR

ORDER = ("game", "map", "grid")
_TYPES = {"string": "text", "integer": "whole number", "number": "number", "boolean": "true/false",
          "object": "mapping", "array": "list", "null": "null"}


def load_schemas(folder: Path = SCHEMA_DIR) -> dict[str, dict]:
    """name (game, map, grid) -> schema, in reference order."""
    found = {p.name.split(".")[0]: json.loads(p.read_text(encoding="utf-8"))
             for p in sorted(folder.glob("*.schema.json"))}
    return {n: found[n] for n in [*ORDER, *sorted(set(found) - set(ORDER))] if n in found}


def _resolve(node: dict, root: dict, by_id: dict) -> tuple[dict, dict]:
    ref = node.get("$ref")
    if not ref:
        return node, root
    base, _, pointer = ref.partition("#")
    target_root = by_id.get(base, root) if base else root
    target = target_root
    for part in [p for p in pointer.split("/") if p]:
        target = target[part]
    merged = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return merged, target_root


def _value(v) -> str:
    """A schema value as YAML writes it (false, not Python's False)."""
    return f"`{v}`" if isinstance(v, str) else f"`{json.dumps(v)}`"


def _type(node: dict) -> str:
    if "enum" in node:
        return "one of " + ", ".join(_value(v) for v in node["enum"])
    if "const" in node:
        return _value(node["const"])
    t = node.get("type")
    if isinstance(t, list):
        return " or ".join(_TYPES.get(x, x) for x in t)
    if t == "array":
        items = node.get("items") or {}
        inner = _type(items) if isinstance(items, dict) and "$ref" not in items else "items"
        return f"list of {inner}" if inner and inner != "items" else "list"
    if t:
        return _TYPES.get(t, t)
    for key in ("oneOf", "anyOf"):
        if key in node:
            return " or ".join(_type(n) or "value" for n in node[key] if isinstance(n, dict))
    return ""


def _facts(node: dict, required: bool) -> str:
    bits = []
    if required:
        bits.append("required")
    for key, label in (("default", "default"), ("minimum", "at least"), ("exclusiveMinimum", "over"),
                       ("maximum", "at most"), ("minItems", "at least items"), ("maxItems", "at most items")):
        if key in node:
            bits.append(f"{label} `{json.dumps(node[key])}`")
    if "pattern" in node:
        bits.append(f"pattern `{node['pattern']}`")
    for ex in node.get("examples", [])[:2]:
        bits.append(f"e.g. `{json.dumps(ex, ensure_ascii=False)}`")
    return "; ".join(bits)


def _walk(node: dict, path: str, root: dict, by_id: dict, lines: list[str], seen: tuple, required=False):
    ref = node.get("$ref")                 # a recursive definition (a selector's 'not') is walked once
    node, root = _resolve(node, root, by_id)
    desc = " ".join(str(node.get("description", "")).split())
    facts = _facts(node, required)
    kind = _type(node)
    head = f"- `{path}`" + (f" ({kind})" if kind else "") + (f": {desc}" if desc else "")
    lines.append(head + (f" [{facts}]" if facts else ""))
    key = ref or id(node)
    if key in seen:
        return
    seen = (*seen, key)
    props = node.get("properties") or {}
    req = set(node.get("required") or [])
    for name, sub in props.items():
        if name == "$schema":
            continue
        _walk(sub, f"{path}.{name}", root, by_id, lines, seen, name in req)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict) and extra:
        _walk(extra, f"{path}.<key>", root, by_id, lines, seen)
    items = node.get("items")
    if isinstance(items, dict):
        inner, _ = _resolve(items, root, by_id)
        if inner.get("properties") or inner.get("items") or isinstance(inner.get("additionalProperties"), dict):
            _walk(items, f"{path}[]", root, by_id, lines, seen)
    for alt in node.get("oneOf", []) + node.get("anyOf", []):
        inner, _ = _resolve(alt, root, by_id) if isinstance(alt, dict) else ({}, root)
        if inner.get("properties"):
            _walk(alt, path + " (form)", root, by_id, lines, seen)


def markdown(schemas: dict[str, dict] | None = None) -> str:
    schemas = schemas or load_schemas()
    by_id = {s.get("$id"): s for s in schemas.values() if s.get("$id")}
    out = ["# Data reference", "",
           "Every key a game's data may hold, generated from the JSON Schemas in `schemas/` by "
           "`vassal-builder schema --markdown` (do not edit by hand; a test checks it is current). "
           "`a.b` is key `b` inside mapping `a`; `a[]` is each item of list `a`; `<key>` is any key.", ""]
    for name, schema in schemas.items():
        out += [f"## {name}.schema.json: {schema.get('title', name)}", "",
                " ".join(str(schema.get("description", "")).split()), ""]
        req = set(schema.get("required") or [])
        for key, sub in (schema.get("properties") or {}).items():
            if key == "$schema":
                continue
            lines: list[str] = []
            _walk(sub, key, schema, by_id, lines, (), key in req)
            out += [f"### `{key}`", "", *lines, ""]
    return "\n".join(out).rstrip() + "\n"
