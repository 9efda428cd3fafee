"""Safe YAML loading that keeps where every key and value came from.

PyYAML's safe loader is used for parsing; on top of it this module
- refuses files that are too large, are not UTF-8, or are empty;
- reports duplicate keys (PyYAML silently keeps the last one);
- measures how large aliases would make the document once expanded, and refuses
  "billion laughs" style bombs before anything walks the data;
- returns ``SourceMap``/``SourceList`` (dict/list subclasses) that remember the
  line and column of each key and item, so any data path can be located.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from yaml.nodes import MappingNode, Node, SequenceNode

try:  # libyaml parses about ten times faster than the pure-Python parser and gives the same marks
    from yaml.cyaml import CParser as _CParser
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    _CParser = None

from builder.gamedata.diagnostics import Diagnostic

MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_EXPANDED_NODES = 2_000_000


class SourceMap(dict):
    """A mapping that knows the position of itself, of each key, and of each value."""

    __slots__ = ("file", "line", "column", "key_pos", "value_pos")


class SourceList(list):
    __slots__ = ("file", "line", "column", "item_pos", "_joined")


class YamlError(Exception):
    """A file that cannot be loaded at all; carries its diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__(diagnostics[0].format() if diagnostics else "YAML error")
        self.diagnostics = diagnostics


def _pos(node: Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _expanded_size(root: Node, limit: int) -> int:
    """Number of nodes the document has once every alias is expanded (memoised, so bombs are cheap to measure)."""
    sizes: dict[int, int] = {}
    # Iterative post-order walk; aliases in PyYAML's composed graph are shared node objects.
    stack = [(root, False)]
    on_path: set[int] = set()
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            on_path.discard(key)
            if isinstance(node, MappingNode):
                children = [n for pair in node.value for n in pair]
            elif isinstance(node, SequenceNode):
                children = list(node.value)
            else:
                children = []
            total = 1 + sum(sizes[id(c)] for c in children)
            sizes[key] = min(total, limit + 1)
            continue
        if key in sizes:
            continue
        if key in on_path:  # recursive alias: infinite expansion
            return limit + 1
        on_path.add(key)
        stack.append((node, True))
        if isinstance(node, MappingNode):
            stack.extend((n, False) for pair in node.value for n in pair if id(n) not in sizes)
        elif isinstance(node, SequenceNode):
            stack.extend((n, False) for n in node.value if id(n) not in sizes)
    return sizes[id(root)]


class _Constructor(yaml.constructor.SafeConstructor):
    """SafeConstructor building Source* containers and collecting duplicate keys."""

    def __init__(self, file: str):
        super().__init__()
        self.file = file
        self.duplicates: list[Diagnostic] = []

    def construct_source_map(self, node: MappingNode, path: tuple = ()):
        result = SourceMap()
        result.file = self.file
        result.line, result.column = _pos(node)
        result.key_pos, result.value_pos = {}, {}
        self.flatten_mapping(node)  # resolves YAML merge keys (<<)
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                hash(key)
            except TypeError:
                line, col = _pos(key_node)
                self.duplicates.append(Diagnostic(self.file, line, col, "", "a mapping key must be a plain value"))
                continue
            if key in result:
                line, col = _pos(key_node)
                first = result.key_pos[key][0]
                self.duplicates.append(Diagnostic(
                    self.file, line, col, "", f"duplicate key '{key}' (first defined on line {first}); "
                    "YAML keeps only one of them"))
                continue
            result[key] = self.construct_object(value_node, deep=True)
            result.key_pos[key] = _pos(key_node)
            result.value_pos[key] = _pos(value_node)
        return result

    def construct_object(self, node, deep=False):
        """PyYAML's constructor, except that a scalar it cannot convert (an integer over Python's 4,300-digit
        limit, ``!!timestamp`` over a non-date) becomes a located problem and its plain text, not a crash."""
        try:
            return super().construct_object(node, deep=deep)
        except (ValueError, TypeError, AttributeError, OverflowError) as exc:
            self.recursive_objects.pop(node, None)
            line, col = _pos(node)
            tag = node.tag.rsplit(":", 1)[-1]
            text = node.value if isinstance(node.value, str) else ""
            shown = text if len(text) <= 40 else f"{text[:20]}...({len(text):,} characters)"
            if tag == "int":
                message = f"the integer {shown} has more digits than can be read (limit 4,300)"
            elif tag == "timestamp":
                message = f"!!timestamp {shown!r} is not a date or time (write YYYY-MM-DD)"
            else:
                message = f"cannot read this {tag} value {shown!r} ({type(exc).__name__})"
            self.duplicates.append(Diagnostic(self.file, line, col, "", message))
            return text if isinstance(node, yaml.ScalarNode) else None

    def construct_source_list(self, node: SequenceNode):
        result = SourceList()
        result.file = self.file
        result.line, result.column = _pos(node)
        result.item_pos = []
        for child in node.value:
            result.append(self.construct_object(child, deep=True))
            result.item_pos.append(_pos(child))
        return result


_Constructor.add_constructor("tag:yaml.org,2002:map", _Constructor.construct_source_map)
_Constructor.add_constructor("tag:yaml.org,2002:seq", _Constructor.construct_source_list)


class _PyLoader(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, yaml.composer.Composer,
                _Constructor, yaml.resolver.Resolver):
    def __init__(self, stream, file: str):
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        yaml.composer.Composer.__init__(self)
        _Constructor.__init__(self, file)
        yaml.resolver.Resolver.__init__(self)


if _CParser is not None:
    class _CLoader(_CParser, _Constructor, yaml.resolver.Resolver):
        def __init__(self, stream, file: str):
            _CParser.__init__(self, stream)
            _Constructor.__init__(self, file)
            yaml.resolver.Resolver.__init__(self)

    _Loader = _CLoader
else:  # pragma: no cover - PyYAML built without libyaml
    _Loader = _PyLoader


def load_text(text: str, file: str, *, max_nodes: int = MAX_EXPANDED_NODES):
    """Parse YAML text; return (data, non-fatal diagnostics). Raises YamlError when nothing usable results."""
    if not text.strip() or all(l.strip().startswith("#") or not l.strip() for l in text.splitlines()):
        raise YamlError([Diagnostic(file, 1, 1, "", "the file is empty: expected a YAML mapping")])
    loader = _Loader(text, file)
    try:
        node = loader.get_single_node()
        if node is None:
            raise YamlError([Diagnostic(file, 1, 1, "", "the file is empty: expected a YAML mapping")])
        # an alias needs an anchor ('&name') and a reference ('*name'): text without both has none, and
        # its nodes are all in memory already (walking them, a fifth of the load, measures nothing new)
        if "&" in text and "*" in text and _expanded_size(node, max_nodes) > max_nodes:
            line, col = _pos(node)
            raise YamlError([Diagnostic(file, line, col, "",
                                        f"YAML aliases expand to more than {max_nodes:,} nodes "
                                        "(an alias bomb?); refusing to load")])
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or exc.context or "invalid YAML"
        if exc.context and exc.problem:
            problem = f"{exc.context}, {exc.problem}"
            if exc.context_mark and exc.context_mark.line + 1 != line:
                problem += f" (the construct starts at line {exc.context_mark.line + 1}, column {exc.context_mark.column + 1})"
        raise YamlError([Diagnostic(file, line, col, "", f"invalid YAML: {problem}")]) from None
    except yaml.YAMLError as exc:
        raise YamlError([Diagnostic(file, 1, 1, "", f"invalid YAML: {exc}")]) from None
    except RecursionError:
        raise YamlError([Diagnostic(file, 1, 1, "", "YAML nesting is too deep")]) from None
    finally:
        loader.dispose()
    if not isinstance(data, dict):
        kind = ("a list" if isinstance(data, list) else "a single text value" if isinstance(data, str)
                else f"a single {type(data).__name__} value")
        line, col = _pos(node)
        raise YamlError([Diagnostic(file, line, col, "", f"the file holds {kind}: expected a YAML mapping "
                                    "(key: value pairs) at the top level")])
    return data, loader.duplicates


def load_file(path: Path, display: str | None = None, *, max_bytes: int | None = None):
    """Read and parse one YAML file; see load_text."""
    name = display or str(path)
    max_bytes = MAX_FILE_BYTES if max_bytes is None else max_bytes
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise YamlError([Diagnostic(name, 0, 0, "", "file not found")]) from None
    except OSError as exc:
        raise YamlError([Diagnostic(name, 0, 0, "", f"cannot read: {exc.strerror}")]) from None
    if not path.is_file():
        raise YamlError([Diagnostic(name, 0, 0, "", "not a regular file")])
    if size > max_bytes:
        raise YamlError([Diagnostic(name, 0, 0, "", f"file is {size:,} bytes, over the {max_bytes:,}-byte limit")])
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise YamlError([Diagnostic(name, line, col, "",
                                    f"the file is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start}); "
                                    "save it as UTF-8")]) from None
    return load_text(text, name)


def locate(root, path) -> tuple[str, int, int]:
    """File, line and column of the value at ``path`` (a sequence of keys and indices); falls back to the
    deepest existing ancestor, so a missing key points at the mapping that lacks it."""
    node = root
    file = getattr(root, "file", "")
    line, col = getattr(root, "line", 1), getattr(root, "column", 1)
    for part in path:
        if isinstance(node, SourceMap) and part in node:
            line, col = node.value_pos[part]
            node = node[part]
        elif isinstance(node, SourceList) and isinstance(part, int) and 0 <= part < len(node):
            line, col = node.item_pos[part]
            node = node[part]
        else:
            break
        file = getattr(node, "file", file)
    return file, line, col


def locate_key(root, path) -> tuple[str, int, int]:
    """Position of the last key of ``path`` itself (for 'unknown key' messages)."""
    parent = root
    for part in path[:-1]:
        try:
            parent = parent[part]
        except (KeyError, IndexError, TypeError):
            return locate(root, path)
    if isinstance(parent, SourceMap) and path and path[-1] in parent.key_pos:
        return (parent.file, *parent.key_pos[path[-1]])
    return locate(root, path)
