"""Diagnostics: one actionable line per problem, ``file:line:col: data.path: message``."""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True, order=True)
class Diagnostic:
    file: str
    line: int
    column: int
    path: str
    message: str
    severity: str = "error"  # "error" or "warning"

    def format(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}" if self.line else self.file
        tag = "warning: " if self.severity == "warning" else ""
        path = f"{self.path}: " if self.path else ""
        return f"{where}: {tag}{path}{self.message}"

    def as_json(self) -> dict:
        data = asdict(self)
        del data["severity"]
        return data


def format_path(parts) -> str:
    """``("units", 3, "front")`` -> ``units[3].front``."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out
