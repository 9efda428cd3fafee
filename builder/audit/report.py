"""Findings (rule breaches) and the audit's result: one text line per finding, or JSON.

A finding says when (turn, phase, the command number in the file and the log entry), who (the
unit's side, its UnitId and printed name), where (from and to), which rule (id and rulebook
reference) and why, in a sentence a player understands. ``explain`` (when the rule has one) is
the working: for a move, the cheapest path hex by hex with each step's cost and the allowance.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from builder.audit.findings_log import FindingLog


@dataclass
class Finding:
    turn: int | None
    phase: str
    unit: str                 # UnitId
    name: str                 # the piece's (printed) name
    frm: str                  # location name before the move ("" if none)
    to: str                   # location name after
    rule: str                 # rule id, e.g. "stacking"
    reference: str            # rulebook reference from the data
    message: str
    entry: int = 0            # log entry (1 = first logged action; 0 = start position)
    side: str = ""            # the unit's side (data id)
    command: int = 0          # top-level command number in the file (as builder.vassal counts them)
    explain: dict | None = None   # {"path": [{"hex", "cost", "total"}], "allowance": MA, "cost": total}

    def as_json(self) -> dict:
        d = {"turn": self.turn, "phase": self.phase, "side": self.side, "unit": self.unit, "name": self.name,
             "from": self.frm, "to": self.to, "rule": self.rule, "reference": self.reference,
             "message": self.message, "entry": self.entry, "command": self.command}
        if self.explain is not None:
            d["explain"] = self.explain
        return d

    def line(self) -> str:
        when = f"turn {self.turn}" if self.turn is not None else "turn ?"
        if self.phase:
            when += f", {self.phase}"
        if self.side:
            when += f", side {self.side}"
        move = f" {self.frm} -> {self.to}" if self.frm or self.to else ""
        ref = f" ({self.reference})" if self.reference else ""
        return (f"entry {self.entry} (command {self.command}): {when}: {self.unit} {self.name!r}{move}: "
                f"{self.rule}{ref}: {self.message}")

    def explain_lines(self) -> list[str]:
        """The working, indented under the finding's line ([] when the rule gave none)."""
        ex = self.explain
        if not ex or not ex.get("path"):
            return []
        steps = ex["path"]
        out = [f"    cheapest path, {len(steps) - 1} step(s), allowance {_fmt(ex.get('allowance'))} MP:"]
        for s in steps:
            cost = "start" if s.get("cost") is None else f"+{_fmt(s['cost'])} = {_fmt(s['total'])}"
            over = "  <- over the allowance" if s.get("over") else ""
            why = f" ({s['why']})" if s.get("why") else ""
            out.append(f"      {s['hex']:<10} {cost}{why}{over}")
        return out


def unit_label(unit) -> str:
    """A unit as a finding's line names its mover: the UnitId and the printed name, e.g.
    ``sov-1-217-gds-inf-bn '1/217 Gds'`` (the id alone when the piece has no other name). Messages name
    every other unit so, so a player finds it on the board by its printed name."""
    name = getattr(unit, "name", "") or ""
    return f"{unit.unit_id} {name!r}" if name and name != unit.unit_id else unit.unit_id


def unit_labels(units) -> str:
    """:func:`unit_label` of each unit, joined by commas."""
    return ", ".join(unit_label(u) for u in units)


def explain_path(ctx, found, allowance) -> dict:
    """A movement finding's working from a rule's cheapest path ``(cost, [(hex, cost of entering it),
    ...])`` (builder.audit.rules.terrain.TerrainCosts.path): each hex with its terrain, step cost and
    running total, marked where the total first goes over the allowance."""
    total, steps, over = 0.0, [], False
    for i, (h, c) in enumerate(found[1]):
        total += c
        tt = ctx.terrain_types.get(ctx.terrain(h)) or {}
        step = {"hex": ctx.grid.name(h), "cost": None if i == 0 else c, "total": total,
                "why": str(tt.get("name") or tt.get("id") or "")}
        if not over and total > allowance + 1e-9:
            step["over"] = over = True
        steps.append(step)
    return {"allowance": allowance, "cost": found[0], "path": steps}


def _short(reason: str) -> str:
    """A not-checked rule's name: its reason up to the first colon, semicolon or bracket."""
    name = re.split(r"[:;(]", reason, maxsplit=1)[0].strip().rstrip(",")
    return name if len(name) <= 60 else name[:57].rsplit(" ", 1)[0] + "..."


def _fmt(v) -> str:
    if v is None:
        return "?"
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


@dataclass
class AuditResult:
    game: str
    file: str
    findings: FindingLog = field(default_factory=FindingLog)   # in order; the later ones of a long log on disk
    warnings: list = field(default_factory=list)
    not_checked: list = field(default_factory=list)
    checked: list = field(default_factory=list)     # {"rule", "reference", "name"} of every rule judged
    turns_replayed: int = 0
    moves: int = 0
    entries: int = 0
    units: int = 0
    sides: dict = field(default_factory=dict, repr=False)    # UnitId -> side, to name the side

    def add(self, finding: Finding) -> None:
        if not finding.side:
            finding.side = self.sides.get(finding.unit, "")
        self.findings.append(finding)

    def warn(self, message: str) -> None:
        self.warnings.append(message)

    def absorb(self, stats) -> None:
        self.turns_replayed = len(stats.turns)
        self.moves = stats.moves
        self.entries = stats.entries
        self.units = stats.units
        self.warnings.extend(stats.warnings)
        setup = getattr(stats, "setup_commands", 0)
        if isinstance(self.findings, FindingLog):
            self.findings.set_command_base(setup)
        else:
            for f in self.findings:
                if not f.command:
                    f.command = setup + f.entry

    def by_rule(self) -> dict:
        if isinstance(self.findings, FindingLog):
            return dict(sorted(self.findings.counts.items()))
        out: dict = {}
        for f in self.findings:
            out[f.rule] = out.get(f.rule, 0) + 1
        return dict(sorted(out.items()))

    def as_json(self) -> dict:
        return {"game": self.game, "file": self.file, "status": "findings" if self.findings else "clean",
                "turns_replayed": self.turns_replayed, "entries": self.entries, "moves": self.moves,
                "findings_by_rule": self.by_rule(), "findings": [f.as_json() for f in self.findings],
                "warnings": list(self.warnings), "checked": list(self.checked),
                "not_checked": list(self.not_checked)}

    def not_checked_line(self) -> str:
        """The rules not checked, in one line: each one's name (the part before its colon)."""
        names = [_short(n) for n in self.not_checked]
        return f"not checked ({len(names)}, reasons in --json): " + "; ".join(names)

    def summary_line(self) -> str:
        n = len(self.findings)
        return (f"{self.game}: {self.file}: {self.moves} move(s) replayed over {self.turns_replayed} turn(s), "
                f"{n} finding{'s' * (n != 1)}, {len(self.warnings)} warning(s)")

    def lines(self, *, quiet: bool = False, explain: bool = False) -> list[str]:
        out = []
        for f in self.findings:
            out.append(f.line())
            if explain:
                out += f.explain_lines()
        if quiet:
            return out
        out += [f"warning: {w}" for w in self.warnings]
        out += self.rules_lines()
        out.append(self.summary_line())
        return out

    def rules_lines(self) -> list[str]:
        """What was checked and what not (the reasons are in as_json)."""
        out = []
        if self.checked:
            out.append(f"checked ({len(self.checked)} rules): " + ", ".join(c["rule"] for c in self.checked))
        if self.not_checked:
            out.append(self.not_checked_line())
        return out
