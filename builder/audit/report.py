"""Findings (rule breaches) and the audit's result: one text line per finding, or JSON."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Finding:
    turn: int | None
    phase: str
    unit: str                 # UnitId
    name: str                 # the piece's name
    frm: str                  # location name before the move ("" if none)
    to: str                   # location name after
    rule: str                 # rule id, e.g. "stacking"
    reference: str            # rulebook reference from the data
    message: str
    entry: int = 0            # log entry (1 = first logged action; 0 = start position)

    def as_json(self) -> dict:
        return {"turn": self.turn, "phase": self.phase, "unit": self.unit, "name": self.name,
                "from": self.frm, "to": self.to, "rule": self.rule, "reference": self.reference,
                "message": self.message, "entry": self.entry}

    def line(self) -> str:
        when = f"turn {self.turn}" if self.turn is not None else "turn ?"
        if self.phase:
            when += f", {self.phase}"
        move = f" {self.frm} -> {self.to}" if self.frm or self.to else ""
        ref = f" ({self.reference})" if self.reference else ""
        return (f"entry {self.entry}: {when}: {self.unit} {self.name!r}{move}: "
                f"{self.rule}{ref}: {self.message}")


@dataclass
class AuditResult:
    game: str
    file: str
    findings: list = field(default_factory=list)
    warnings: list = field(default_factory=list)
    not_checked: list = field(default_factory=list)
    turns_replayed: int = 0
    moves: int = 0
    entries: int = 0
    units: int = 0

    def add(self, finding: Finding) -> None:
        self.findings.append(finding)

    def warn(self, message: str) -> None:
        self.warnings.append(message)

    def absorb(self, stats) -> None:
        self.turns_replayed = len(stats.turns)
        self.moves = stats.moves
        self.entries = stats.entries
        self.units = stats.units
        self.warnings.extend(stats.warnings)

    def as_json(self) -> dict:
        return {"game": self.game, "file": self.file, "turns_replayed": self.turns_replayed,
                "moves": self.moves, "findings": [f.as_json() for f in self.findings],
                "warnings": list(self.warnings), "not_checked": list(self.not_checked)}

    def lines(self) -> list[str]:
        out = [f.line() for f in self.findings]
        out += [f"warning: {w}" for w in self.warnings]
        out += [f"not checked: {n}" for n in self.not_checked]
        n = len(self.findings)
        out.append(f"{self.game}: {self.file}: {self.moves} move(s) replayed over {self.turns_replayed} turn(s), "
                   f"{n} finding{'s' * (n != 1)}, {len(self.warnings)} warning(s)")
        return out
