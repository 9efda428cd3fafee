"""A quick yes/no answer to "is this document valid against this schema?", compiled once per schema.

jsonschema walks a document keyword by keyword through generic machinery (a new validator object
per subschema it descends into): a third of validating Panzers Last Stand. Almost every document a
build or an audit validates is valid, and then only the answer is needed. So each schema is
compiled once into plain Python tests (closures), which answer in a tenth of the time; only a
document they find invalid is walked by jsonschema, for its located, explained errors
(builder.gamedata.schemacheck).

The compiler knows the keywords our schemas use, with jsonschema's Draft 2020-12 meanings (1.0 is
an integer, True is neither 1 nor a number, a pattern is searched, not matched, ...). A schema with
any other keyword is not compiled (:func:`compiled` gives None) and jsonschema answers alone, so a
keyword added to a schema is never silently ignored. tests/test_schema_fast.py holds the two to the
same answer on the shipped games and thousands of broken variants of them.
"""

from __future__ import annotations

import re
from functools import lru_cache

# keywords that only annotate: no effect on validity
_ANNOTATIONS = frozenset({"description", "title", "default", "$schema", "$id", "$defs", "$comment",
                          "examples", "deprecated", "readOnly", "writeOnly"})


class Unsupported(Exception):
    """A keyword this compiler does not know: leave the schema to jsonschema."""


def _is_integer(x) -> bool:
    return (isinstance(x, int) and not isinstance(x, bool)) or (isinstance(x, float) and x.is_integer())


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


_TYPES = {
    "string": lambda x: isinstance(x, str),
    "integer": _is_integer,
    "number": _is_number,
    "boolean": lambda x: isinstance(x, bool),
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "null": lambda x: x is None,
}


def equal(a, b) -> bool:
    """JSON equality as jsonschema's enum, const and uniqueItems see it: True is not 1, 1 is 1.0."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(equal(a[k], b[k]) for k in a)
    if isinstance(a, (list, dict)) or isinstance(b, (list, dict)):
        return False
    return a == b


def _unique(items: list) -> bool:
    return all(not equal(items[i], items[j]) for i in range(len(items)) for j in range(i + 1, len(items)))


class _Compiler:
    """Compiles the schemas of ``schemas`` ({$id: schema}); ``base`` below is the $id of the document a
    subschema is in, which its relative ``$ref``s ("#/$defs/...") point into."""

    def __init__(self, schemas: dict):
        self.schemas = schemas
        self.refs: dict[int, list] = {}       # id of a referenced subschema -> [its test] (cycles: filled later)

    def ref(self, base: str, ref: str):
        doc_id, _, pointer = ref.partition("#")
        doc_id = doc_id or base
        target = self.schemas.get(doc_id)
        if target is None or (pointer and not pointer.startswith("/")):
            raise Unsupported(f"$ref {ref}")
        for part in pointer.split("/")[1:] if pointer else ():
            part = part.replace("~1", "/").replace("~0", "~")
            try:
                target = target[int(part)] if isinstance(target, list) else target[part]
            except (KeyError, IndexError, ValueError, TypeError):
                raise Unsupported(f"$ref {ref}") from None
        cell = self.refs.get(id(target))
        if cell is None:
            cell = self.refs[id(target)] = [None]
            cell[0] = self.schema(target, doc_id)
        return lambda x: cell[0](x)

    def schema(self, s, base: str):
        if s is True:
            return lambda x: True
        if s is False:
            return lambda x: False
        if not isinstance(s, dict):
            raise Unsupported(repr(s))
        tests = []
        for k, v in s.items():
            if k in _ANNOTATIONS:
                continue
            make = getattr(self, "kw_" + k.lstrip("$"), None)
            if make is None:
                raise Unsupported(k)
            test = make(v, s, base)
            if test is not None:
                tests.append(test)
        if not tests:
            return lambda x: True
        if len(tests) == 1:
            return tests[0]
        tests = tuple(tests)
        return lambda x: all(t(x) for t in tests)

    # -- keywords: each returns a test of the instance, or None (no test of its own)
    def kw_ref(self, v, s, base):
        return self.ref(base, v)

    def kw_type(self, v, s, base):
        names = [v] if isinstance(v, str) else list(v)
        if any(n not in _TYPES for n in names):
            raise Unsupported(f"type {v}")
        checks = tuple(_TYPES[n] for n in names)
        if len(checks) == 1:
            return checks[0]
        return lambda x: any(c(x) for c in checks)

    def kw_enum(self, v, s, base):
        values = list(v)
        if all(isinstance(e, str) for e in values):
            allowed = frozenset(values)
            return lambda x: isinstance(x, str) and x in allowed
        return lambda x: any(equal(x, e) for e in values)

    def kw_const(self, v, s, base):
        return lambda x: equal(x, v)

    def kw_minLength(self, v, s, base):
        return lambda x: not isinstance(x, str) or len(x) >= v

    def kw_maxLength(self, v, s, base):
        return lambda x: not isinstance(x, str) or len(x) <= v

    def kw_pattern(self, v, s, base):
        search = re.compile(v).search
        return lambda x: not isinstance(x, str) or search(x) is not None

    def kw_minimum(self, v, s, base):
        return lambda x: not _is_number(x) or x >= v

    def kw_maximum(self, v, s, base):
        return lambda x: not _is_number(x) or x <= v

    def kw_exclusiveMinimum(self, v, s, base):
        return lambda x: not _is_number(x) or x > v

    def kw_exclusiveMaximum(self, v, s, base):
        return lambda x: not _is_number(x) or x < v

    def kw_minItems(self, v, s, base):
        return lambda x: not isinstance(x, list) or len(x) >= v

    def kw_maxItems(self, v, s, base):
        return lambda x: not isinstance(x, list) or len(x) <= v

    def kw_uniqueItems(self, v, s, base):
        return (lambda x: not isinstance(x, list) or _unique(x)) if v else None

    def kw_items(self, v, s, base):
        if not isinstance(v, (dict, bool)):
            raise Unsupported("items as a list")
        each = self.schema(v, base)
        return lambda x: not isinstance(x, list) or all(each(i) for i in x)

    def kw_required(self, v, s, base):
        keys = tuple(v)
        return lambda x: not isinstance(x, dict) or all(k in x for k in keys)

    def kw_properties(self, v, s, base):
        props = {k: self.schema(sub, base) for k, sub in v.items()}

        def test(x):
            if not isinstance(x, dict):
                return True
            for k, t in props.items():
                if k in x and not t(x[k]):
                    return False
            return True
        return test

    def kw_patternProperties(self, v, s, base):
        pats = tuple((re.compile(p).search, self.schema(sub, base)) for p, sub in v.items())
        return lambda x: not isinstance(x, dict) or all(
            t(val) for k, val in x.items() for search, t in pats if search(k))

    def kw_additionalProperties(self, v, s, base):
        known = frozenset(s.get("properties") or ())
        pats = tuple(re.compile(p).search for p in s.get("patternProperties") or ())
        each = self.schema(v, base)

        def test(x):
            if not isinstance(x, dict):
                return True
            for k, val in x.items():
                if k in known or any(p(k) for p in pats):
                    continue
                if not each(val):
                    return False
            return True
        return test

    def kw_propertyNames(self, v, s, base):
        each = self.schema(v, base)
        return lambda x: not isinstance(x, dict) or all(each(k) for k in x)

    def kw_oneOf(self, v, s, base):
        subs = tuple(self.schema(sub, base) for sub in v)
        return lambda x: sum(1 for t in subs if t(x)) == 1

    def kw_anyOf(self, v, s, base):
        subs = tuple(self.schema(sub, base) for sub in v)
        return lambda x: any(t(x) for t in subs)

    def kw_allOf(self, v, s, base):
        subs = tuple(self.schema(sub, base) for sub in v)
        return lambda x: all(t(x) for t in subs)

    def kw_not(self, v, s, base):
        sub = self.schema(v, base)
        return lambda x: not sub(x)


@lru_cache(maxsize=None)
def compiled(schema_id: str):
    """The yes/no test of a schema of the registry (builder.gamedata.schemacheck), or None when the
    schema uses a keyword this compiler does not know."""
    from builder.gamedata.schemacheck import schemas
    try:
        return _Compiler(schemas()).schema(schemas()[schema_id], schema_id)
    except Unsupported:
        return None
