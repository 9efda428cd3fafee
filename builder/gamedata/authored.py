"""Authored values: data not printed in the rulebook, marked with the reason so a designer can replace it."""

from __future__ import annotations

from dataclasses import dataclass

from builder.gamedata.diagnostics import format_path
from builder.gamedata.yamlsource import SourceList, SourceMap, locate


@dataclass(frozen=True)
class Authored:
    file: str
    line: int
    column: int
    path: str  # data path of the marked value
    reason: str
    applies_to: int = 1  # units sharing a template entry

    def format(self) -> str:
        shared = f" (template of {self.applies_to} units)" if self.applies_to > 1 else ""
        return f"{self.file}:{self.line}:{self.column}: {self.path}: {self.reason}{shared}"

    def as_json(self) -> dict:
        return {"file": self.file, "line": self.line, "column": self.column, "path": self.path,
                "reason": self.reason, "applies_to": self.applies_to}


def collect(root, template_users: dict | None = None) -> list[Authored]:
    """Every ``authored:`` entry below ``root``. ``template_users`` maps template id -> number of units."""
    out: list[Authored] = []
    template_users = template_users or {}

    def walk(node, path):
        if isinstance(node, SourceMap):
            marks = node.get("authored")
            if isinstance(marks, dict):
                users = 1
                if len(path) == 2 and path[0] == "templates":
                    users = template_users.get(node.get("id"), 0)
                for key, reason in marks.items():
                    file, line, col = locate(root, tuple(path) + ("authored", key))
                    target = format_path(tuple(path)) + "." + str(key)
                    out.append(Authored(file, line, col, target, str(reason), users))
            for key, value in node.items():
                if key != "authored":
                    walk(value, path + [key])
        elif isinstance(node, SourceList):
            for i, value in enumerate(node):
                walk(value, path + [i])

    walk(root, [])
    return out


def total(entries: list[Authored]) -> int:
    return sum(e.applies_to for e in entries)
